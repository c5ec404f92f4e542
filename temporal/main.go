// Command chainrun, built with the Temporal engine: the same CLI as the
// default build, plus `chainrun worker` and `--engine temporal`. It is a
// module of its own so that the Temporal SDK stays out of the default
// build (docs/temporal.md).
package main

import (
	"os"

	"github.com/chainrun/chainrun/cmd"
	"github.com/chainrun/chainrun/temporal/temporalrun"
)

func main() { os.Exit(cmd.MainWith(temporalrun.Extension())) }

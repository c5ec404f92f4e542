// Command chainrun runs YAML chains of deterministic and LLM steps.
package main

import (
	"os"

	"github.com/chainrun/chainrun/cmd"
)

func main() { os.Exit(cmd.Main()) }

package cmd

import (
	"github.com/spf13/pflag"

	"github.com/chainrun/chainrun/pkg/project"
)

// defineAllRuns gives a command that lists or names saved runs --all:
// without it, "last", the listing and completion are the current
// project's runs (those started in its directory or below), so that a
// resume never continues another project's run by surprise.
func defineAllRuns(f *factory, fl *pflag.FlagSet) {
	fl.BoolVar(&f.allRuns, "all", false, `every directory's runs, not only this project's (the directory of chainrun.yaml, else of .git, else the current one)`)
}

// runsUnder is the directory whose runs "last", runs and completion mean:
// the current project's, or "" (every run) with --all.
func (f *factory) runsUnder() string {
	if f.allRuns {
		return ""
	}
	wd, err := f.getwd()
	if err != nil {
		return ""
	}
	return project.Root(wd)
}

package store

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// Edit is how a run's chain file stands against the chain the run runs
// (its snapshot, or the file as a run or --reload read it): a resume hint
// says --reload only when the file changed and --reload would take it.
type Edit struct {
	// File is the chain file; empty when it is as the run read it (or
	// cannot be read).
	File string
	// Reloadable: the file has the run's steps (a workflow's states and
	// transitions), so --reload runs it. Otherwise it no longer has them,
	// or it does not validate (Invalid).
	Reloadable, Invalid bool
}

// EditOf compares c's file on disk with the text c was read from.
func EditOf(c *chain.Chain) Edit {
	if c == nil || c.File == "" {
		return Edit{}
	}
	data, err := chain.ReadFile(c.File)
	if err != nil || bytes.Equal(data, c.Source) {
		return Edit{}
	}
	l, err := load.Parse(c.File, data, chain.Options{})
	if err != nil {
		return Edit{File: c.File, Invalid: true}
	}
	now := pick(l, c.Name)
	return Edit{File: c.File, Reloadable: now != nil && shapeOf(now) == shapeOf(c)}
}

// SecretsError is a resume without a secret input the run was given:
// secrets are never saved, so a resume must be given them again (else a
// default, or nothing, would stand in for the value the run began with).
type SecretsError struct {
	RunID string
	Names []string
}

func (e *SecretsError) Error() string {
	flags := make([]string, len(e.Names))
	for i, n := range e.Names {
		flags[i] = "--input " + n + "=VALUE"
	}
	what := "the secret input " + e.Names[0] + "; it"
	if len(e.Names) > 1 {
		what = "the secret inputs " + strings.Join(e.Names, ", ") + "; they"
	}
	return fmt.Sprintf("run %s was given %s must be given again, since secrets are never saved: add %s", e.RunID, what, strings.Join(flags, " "))
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *SecretsError) NothingRan() bool { return true }

// NeedsTerminal says that only a person at a terminal can go on: the
// values are not anywhere else.
func (e *SecretsError) NeedsTerminal() bool { return true }

// Plain is the error in words of no command line (an MCP client's, whose
// server holds the secret inputs of the runs it started, until it ends).
func (e *SecretsError) Plain() string {
	return fmt.Sprintf("run %s was given the secret input(s) %s, which are never saved, and this server does not hold them (it did not start the run, or it restarted since): only a person at a terminal can go on with it, giving them again (chainrun resume %s)",
		e.RunID, strings.Join(e.Names, ", "), e.RunID)
}

// CheckSecrets refuses a resume that lacks a secret input the run was
// given.
func (sv *Saved) CheckSecrets(given map[string]string) error {
	var missing []string
	for _, n := range sv.Record.Secrets {
		if _, ok := given[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return &SecretsError{RunID: sv.Record.RunID, Names: missing}
}

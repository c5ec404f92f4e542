package cmd

import (
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/store"
)

// stateStore is where runs are saved: CHAINRUN_STATE_DIR > config
// state_dir > $XDG_STATE_HOME/chainrun (~/.local/state/chainrun).
func (f *factory) stateStore() (*store.Store, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	dir := v.GetString(keyStateDir)
	if dir == "" {
		base := os.Getenv("XDG_STATE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil, usagef("no state directory: set CHAINRUN_STATE_DIR")
			}
			base = filepath.Join(home, ".local", "state")
		}
		dir = filepath.Join(base, "chainrun")
	}
	return store.Open(dir), nil
}

// newRecord describes a run about to start; secret inputs are left out.
func newRecord(c *chain.Chain, runID string, inputs map[string]string) store.Record {
	rec := store.Record{RunID: runID, Name: c.Name, ChainFile: c.File, Inputs: map[string]string{}, StartedAt: runStart(runID)}
	if abs, err := filepath.Abs(c.File); err == nil {
		rec.ChainFile = abs
	}
	for k, v := range inputs {
		if in := c.Input(k); in != nil && in.Secret {
			rec.Secrets = append(rec.Secrets, k)
			continue
		}
		rec.Inputs[k] = v
	}
	return rec
}

// runStart is the start time encoded in a run id, for sorting.
func runStart(runID string) string {
	if len(runID) >= 15 {
		return runID[:15]
	}
	return runID
}

var _ = run.Succeeded

package cmd

import (
	"os"
	"path/filepath"

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

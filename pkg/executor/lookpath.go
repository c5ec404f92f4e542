package executor

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// found remembers where each command name was found on PATH: a chain of
// many steps running one tool would otherwise search PATH (a stat per
// directory) for every step. Only absolute results are kept, keyed by the
// PATH they were found on; a command found nowhere is looked for again
// next time (a step may install it).
var found sync.Map

// command is exec.Command with PATH searched once per name. The child's
// argv[0] stays the name as written, as a shell would pass it (busybox
// and scripts read it).
func command(name string, args ...string) *exec.Cmd {
	if filepath.Base(name) != name {
		return exec.Command(name, args...)
	}
	key := os.Getenv("PATH") + "\x00" + name
	path, ok := found.Load(key)
	if !ok {
		p, err := exec.LookPath(name)
		if err != nil || !filepath.IsAbs(p) {
			return exec.Command(name, args...)
		}
		found.Store(key, p)
		path = p
	}
	cmd := exec.Command(path.(string), args...)
	cmd.Args[0] = name
	return cmd
}

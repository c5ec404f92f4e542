//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// dirStamp is what changes whenever an entry of the directory is added,
// removed or renamed: its modification time, and its link count and
// inode, which a change in the same tick of the file system's clock
// still moves (a run's directory coming in adds a link).
func dirStamp(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Sprintf("%d %d", fi.ModTime().UnixNano(), fi.Size()), nil
	}
	return fmt.Sprintf("%d %d %d %d", fi.ModTime().UnixNano(), st.Nlink, st.Ino, fi.Size()), nil
}

//go:build !unix

package store

import (
	"fmt"
	"os"
)

// dirStamp is what changes whenever an entry of the directory is added,
// removed or renamed: its modification time and size.
func dirStamp(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d", fi.ModTime().UnixNano(), fi.Size()), nil
}

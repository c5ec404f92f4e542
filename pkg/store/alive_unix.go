//go:build !windows && !linux

package store

import (
	"errors"
	"syscall"
)

// processGroupAlive reports whether any process of group pgid is alive.
func processGroupAlive(pgid int) bool {
	if pgid <= 0 {
		return false
	}
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

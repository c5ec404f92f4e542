//go:build !windows && !linux

package executor

import (
	"errors"
	"syscall"
)

// GroupAlive reports whether any process of group pgid is alive: a step's
// group left by an earlier attempt, what a stopped program left behind.
func GroupAlive(pgid int) bool {
	if pgid <= 0 {
		return false
	}
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

package executor

import (
	"os"

	"golang.org/x/sys/unix"
)

// anonymousFile is a memory-backed file with no name (memfd), cheaper
// than a file on disk; a temporary file where memfd is unavailable.
func anonymousFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("chainrun-out", unix.MFD_CLOEXEC)
	if err != nil {
		return tempFile()
	}
	return os.NewFile(uintptr(fd), "chainrun-out"), nil
}

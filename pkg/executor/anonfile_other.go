//go:build !linux

package executor

import "os"

// anonymousFile is an unlinked temporary file.
func anonymousFile() (*os.File, error) { return tempFile() }

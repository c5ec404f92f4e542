//go:build windows

package executor

import "os/exec"

// setProcessGroup has no equivalent here; the child is killed directly.
func setProcessGroup(cmd *exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func killGroup(cmd *exec.Cmd) { terminateGroup(cmd) }

func signalName(*exec.ExitError) string { return "" }

// signalGroup has no process group to signal here: the child itself is
// ended by whoever started it.
func signalGroup(int, bool) bool { return false }

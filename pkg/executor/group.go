package executor

import (
	"os/exec"
	"time"
)

// OwnGroup has cmd, not yet started, run in a process group of its own,
// as a step's command runs (and, on Linux, die with chainrun): for a
// child that other code starts and talks to, such as an MCP server
// started by its SDK's transport. StopGroup ends what is left of it.
func OwnGroup(cmd *exec.Cmd) { setProcessGroup(cmd) }

// StopGroup ends the process group that pid leads (OwnGroup): TERM to
// every process in it, then KILL to whatever is still there after grace.
// It returns once the group is gone, at most about a second past grace, so that
// nothing a program started outlives it. The leader may have exited
// already: its group lives on in what it started.
func StopGroup(pid int, grace time.Duration) {
	if pid <= 0 || !signalGroup(pid, false) {
		return // nothing left
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	if waitGroup(pid, grace) {
		return
	}
	signalGroup(pid, true)
	waitGroup(pid, time.Second) // KILL is not refused, but takes a moment
}

// waitGroup waits at most d for the group pgid to be gone, and reports
// whether it is.
func waitGroup(pgid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !GroupAlive(pgid) {
			return true
		}
	}
	return !GroupAlive(pgid)
}

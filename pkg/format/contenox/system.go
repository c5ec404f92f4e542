package contenox

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
)

// systemAdditions is what contenox adds to a task's system instruction
// when it has one (contenox/runtime runtime/taskengine/macroenv.go; its
// tests macroenv_test.go TestUnit_MacroEnv_ToolPreference_* and
// TestUnit_MacroEnv_HostFacts_AutoAppendedAndIdempotent): the task's
// tools by hook, unless the instruction speaks of tools already; a note
// preferring the file tools to the shell for files, when the task offers
// both; and the host's os and arch, unless the instruction gives them.
// The model of a chain read as contenox's is told what contenox's is.
func (tc *taskChain) systemAdditions(system string) string {
	if strings.TrimSpace(system) == "" {
		return ""
	}
	var b strings.Builder
	if len(tc.hooks) > 0 && !strings.Contains(system, "Available tools") && !strings.Contains(system, "tool") {
		b.WriteString("\n\nAvailable tools (tools -> function names):\n" + tc.toolsJSON())
	}
	if slices.Contains(tc.hooks, HookLocalFS) && slices.Contains(tc.hooks, HookLocalShell) {
		b.WriteString("\n\nTOOL PREFERENCE: to read, search or change the project's files, use the local_fs tools (Read, Write, Edit, Glob, Grep) rather than their local_shell equivalents (cat, head, tail, grep or sed through Bash): local_fs keeps to the working directory, caps what it returns and has a file read before it is written. Use local_shell for what only a shell does: running tests and builds, git, looking at the environment.")
	}
	if !strings.Contains(system, "Host: os=") {
		fmt.Fprintf(&b, "\n\nHost: os=%s arch=%s", runtime.GOOS, runtime.GOARCH)
	}
	return b.String()
}

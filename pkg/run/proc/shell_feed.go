package proc

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/executor"
)

// maxEnvValue is the largest value a run: script gets in its environment.
// Linux refuses to start a process with one environment string over 128
// KiB (E2BIG, "argument list too long") and caps them all together too, so
// a bigger value, or one holding a NUL byte (which no environment can
// carry), arrives on a pipe instead.
const maxEnvValue = 64 << 10

// maxScriptArg is the longest script passed to sh -c as it is; a longer
// one (a big value in a quoted heredoc) arrives on a pipe too.
const maxScriptArg = 96 << 10

// lastFeedFD is the highest descriptor a feed may use: sh accepts
// single-digit descriptors only.
const lastFeedFD = 9

// feedBigValues moves the values of env ("CHAINRUN_VALUE_n=…") that are
// too big for the environment to pipes, read by a prologue the script
// starts with: the script sees the same "${CHAINRUN_VALUE_n}", a shell
// variable set before its first line (not exported: a child process that
// needs it gets it from the script). It returns the script, what stays in
// the environment, and the values to feed.
func feedBigValues(script string, env []string) (string, []string, []string, error) {
	var prologue strings.Builder
	var keep, feeds []string
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		if len(v) <= maxEnvValue && !strings.ContainsRune(v, 0) {
			keep = append(keep, kv)
			continue
		}
		fd := executor.FirstFeedFD + len(feeds)
		if fd > lastFeedFD {
			return "", nil, nil, fmt.Errorf("more than %d values over %d KiB in one script: write them to files in earlier steps and pass the paths", lastFeedFD-executor.FirstFeedFD+1, maxEnvValue>>10)
		}
		feeds = append(feeds, v)
		// the x keeps the value's trailing newlines, which $( ) drops
		fmt.Fprintf(&prologue, "%[1]s=$(cat <&%[2]d; printf x); %[1]s=${%[1]s%%x}; exec %[2]d<&-\n", name, fd)
	}
	if len(feeds) == 0 && len(script) <= maxScriptArg {
		return script, env, nil, nil
	}
	if len(script) > maxScriptArg {
		fd := executor.FirstFeedFD + len(feeds)
		if fd > lastFeedFD {
			return "", nil, nil, fmt.Errorf("the script is over %d KiB and has too many big values besides", maxScriptArg>>10)
		}
		feeds = append(feeds, script)
		fmt.Fprintf(&prologue, "CHAINRUN_SCRIPT=$(cat <&%[1]d; printf x); exec %[1]d<&-\neval \"${CHAINRUN_SCRIPT%%x}\"\n", fd)
		return prologue.String(), keep, feeds, nil
	}
	return prologue.String() + script, keep, feeds, nil
}

package cmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/render/live/livetest"
	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// ptyLive runs chainrun on a 100x30 pseudo-terminal with TERM=xterm and
// checks its exact exit code: pty-live [-ctrl-c=DURATION]
// [-ctrl-c-on=TEXT | -wait-for=TEXT]... [NAME=VALUE...] CODE ARGS...
// (NAME=VALUE set or override variables, e.g. NO_COLOR=1, TERM=dumb;
// -ctrl-c types Ctrl-C after DURATION, as a person would; -ctrl-c-on once
// the terminal has shown TEXT, or once the file named by file:NAME
// exists; -wait-for only waits for it; each in turn).
// What the terminal finally shows, redraws replayed, is the script's
// stdout; the raw bytes, escape codes and all, are in the file pty.raw.
func ptyLive(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("pty-live checks the exit code itself: use no !")
	}
	var ctrlC time.Duration
	if after, ok := strings.CutPrefix(args[0], "-ctrl-c="); ok {
		var err error
		ctrlC, err = time.ParseDuration(after)
		ts.Check(err)
		args = args[1:]
	}
	// -ctrl-c-on=TEXT types Ctrl-C once the terminal has shown TEXT, and
	// -wait-for=TEXT only waits for it (each in turn)
	type cue struct {
		text  string
		ctrlC bool
	}
	var cues []cue
	for len(args) > 0 {
		if text, ok := strings.CutPrefix(args[0], "-ctrl-c-on="); ok {
			cues = append(cues, cue{text, true})
		} else if text, ok := strings.CutPrefix(args[0], "-wait-for="); ok {
			cues = append(cues, cue{text, false})
		} else {
			break
		}
		args = args[1:]
	}
	var env []string
	for len(args) > 0 && strings.Contains(args[0], "=") {
		env, args = append(env, args[0]), args[1:]
	}
	if len(args) < 2 {
		ts.Fatalf("usage: pty-live [NAME=VALUE...] CODE chainrun-args...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	cmd := chainrunCommand(ts, args[1:]...)
	cmd.Env = append(append(cmd.Env, "TERM=xterm"), env...)
	term, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	ts.Check(err)
	defer term.Close()
	raw := watch(term)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if ctrlC > 0 {
		time.Sleep(ctrlC)
		_, err := term.Write([]byte{3}) // the terminal's INTR: echoed as ^C, sends SIGINT
		ts.Check(err)
	}
	for _, c := range cues {
		shown := func() bool {
			if file, ok := strings.CutPrefix(c.text, "file:"); ok {
				_, err := os.Stat(ts.MkAbs(file))
				return err == nil
			}
			return strings.Contains(raw.String(), c.text)
		}
		for deadline := time.Now().Add(15 * time.Second); !shown(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				ts.Fatalf("the terminal never showed %q:\n%q", c.text, raw.String())
			}
		}
		if c.ctrlC {
			_, err := term.Write([]byte{3})
			ts.Check(err)
		}
	}
	var werr error
	select {
	case werr = <-exited:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		ts.Fatalf("chainrun did not finish")
	}
	raw.wait(2 * time.Second)
	out := raw.Bytes()
	ts.Check(os.WriteFile(ts.MkAbs("pty.raw"), out, 0o644))
	lines, err := livetest.Replay(out)
	if err != nil {
		ts.Fatalf("%v; the terminal got:\n%q", err, out)
	}
	fmt.Fprint(ts.Stdout(), strings.Join(lines, "\n")+"\n")
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		got = ee.ExitCode()
	case werr != nil:
		ts.Fatalf("chainrun: %v", werr)
	}
	if got != want {
		ts.Fatalf("chainrun exited with %d, want %d; the terminal shows:\n%s", got, want, strings.Join(lines, "\n"))
	}
}

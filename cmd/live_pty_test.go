package cmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// ptyLive runs chainrun on a 100x30 pseudo-terminal with TERM=xterm and
// checks its exact exit code: pty-live [-ctrl-c=DURATION] [NAME=VALUE...]
// CODE ARGS... (NAME=VALUE set or override variables, e.g. NO_COLOR=1,
// TERM=dumb; -ctrl-c types Ctrl-C after DURATION, as a person would).
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
	lines, err := replayScreen(out)
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

// replayScreen plays terminal output onto a screen that only grows (the
// scrollback included) and returns its lines: text overwrites, CR and LF
// move the cursor (LF as CR LF, as the terminal's output processing
// does), ESC[nA moves it up, ESC[J and ESC[K erase, SGR colours are
// dropped. Any other escape sequence is an error: the live display must
// use nothing else.
func replayScreen(out []byte) ([]string, error) {
	screen := [][]rune{{}}
	row, col := 0, 0
	put := func(r rune) {
		line := screen[row]
		for len(line) < col {
			line = append(line, ' ')
		}
		if col < len(line) {
			line[col] = r
		} else {
			line = append(line, r)
		}
		screen[row] = line
		col++
	}
	for i := 0; i < len(out); {
		switch c := out[i]; c {
		case '\r':
			col, i = 0, i+1
			continue
		case '\n':
			row, col, i = row+1, 0, i+1
			if row == len(screen) {
				screen = append(screen, []rune{})
			}
			continue
		case 0x1b:
			if i+1 >= len(out) || out[i+1] != '[' {
				return nil, fmt.Errorf("an escape other than CSI at byte %d", i)
			}
			j := i + 2
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';') {
				j++
			}
			if j == len(out) {
				return nil, fmt.Errorf("a cut escape sequence at byte %d", i)
			}
			param := string(out[i+2 : j])
			switch out[j] {
			case 'A':
				n := 1
				if param != "" {
					n, _ = strconv.Atoi(param)
				}
				if row -= n; row < 0 {
					return nil, fmt.Errorf("cursor moved up past the first line at byte %d", i)
				}
			case 'J':
				if param != "" && param != "0" {
					return nil, fmt.Errorf("ESC[%sJ at byte %d", param, i)
				}
				screen = screen[:row+1]
				if col < len(screen[row]) {
					screen[row] = screen[row][:col]
				}
			case 'K':
				if col < len(screen[row]) {
					screen[row] = screen[row][:col]
				}
			case 'm':
			default:
				return nil, fmt.Errorf("unexpected escape ESC[%s%c at byte %d", param, out[j], i)
			}
			i = j + 1
			continue
		}
		r, size := utf8.DecodeRune(out[i:])
		put(r)
		i += size
	}
	lines := make([]string, 0, len(screen))
	for _, l := range screen {
		lines = append(lines, strings.TrimRight(string(l), " "))
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines, nil
}

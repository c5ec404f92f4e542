package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// ptyRun runs chainrun on a pseudo-terminal (so it sees a person there),
// answers its prompts with args[0] (answers separated by |, each typed
// once the next prompt appears; an empty answer is "-"), and writes what
// the terminal showed to the script's stdout; ^C as an answer types
// Ctrl-C instead. With !, it expects a non-zero exit.
func ptyRun(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: pty ANSWER[|ANSWER...] chainrun-args...")
	}
	cmd := chainrunCommand(ts, args[1:]...)
	cmd.Env = append(cmd.Env, "TERM=dumb")
	term, err := pty.Start(cmd)
	ts.Check(err)
	defer term.Close()
	shown := watch(term)
	for i, answer := range strings.Split(args[0], "|") {
		if answer == "-" {
			answer = ""
		}
		deadline := time.Now().Add(10 * time.Second)
		for prompts(shown.String()) <= i {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				ts.Fatalf("no prompt %d appeared; the terminal showed:\n%s", i+1, shown.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		typed := answer + "\n"
		if answer == "^C" {
			typed = "\x03" // the terminal sends SIGINT to chainrun
		}
		_, err = io.WriteString(term, typed)
		ts.Check(err)
	}
	werr := cmd.Wait()
	shown.wait(2 * time.Second)
	fmt.Fprint(ts.Stdout(), strings.ReplaceAll(shown.String(), "\r\n", "\n"))
	var ee *exec.ExitError
	switch {
	case werr != nil && !errors.As(werr, &ee):
		ts.Fatalf("chainrun: %v", werr)
	case neg && werr == nil:
		ts.Fatalf("chainrun succeeded unexpectedly")
	case !neg && werr != nil:
		ts.Fatalf("chainrun: %v", werr)
	}
}

// prompts counts the questions a terminal has shown.
func prompts(shown string) int {
	return strings.Count(shown, "Enter to pause") + strings.Count(shown, "[y/N]")
}

// screen collects what a pseudo-terminal shows, until the program on it
// exits.
type screen struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	done chan struct{}
}

// watch reads term in the background.
func watch(term io.Reader) *screen {
	s := &screen{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := term.Read(buf)
			s.mu.Lock()
			s.buf.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return // EIO once the program has exited
			}
		}
	}()
	return s
}

// wait gives the reader up to d to drain what the program wrote last.
func (s *screen) wait(d time.Duration) {
	select {
	case <-s.done:
	case <-time.After(d):
	}
}

// Bytes is what the terminal showed so far.
func (s *screen) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.buf.Bytes())
}

func (s *screen) String() string { return string(s.Bytes()) }

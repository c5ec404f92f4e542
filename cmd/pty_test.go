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
// answers its first prompt with args[0] (an empty answer is "-"), and
// writes what the terminal showed to the script's stdout. With !, it
// expects a non-zero exit.
func ptyRun(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: pty ANSWER chainrun-args...")
	}
	answer := args[0]
	if answer == "-" {
		answer = ""
	}
	cmd := chainrunCommand(ts, args[1:]...)
	cmd.Env = append(cmd.Env, "TERM=dumb")
	term, err := pty.Start(cmd)
	ts.Check(err)
	defer term.Close()
	var mu sync.Mutex
	var shown bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := term.Read(buf)
			mu.Lock()
			shown.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return // EIO once the program has exited
			}
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		prompted := strings.Contains(shown.String(), "Enter to pause") || strings.Contains(shown.String(), "[y/N]")
		mu.Unlock()
		if prompted {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			ts.Fatalf("no prompt appeared; the terminal showed:\n%s", shown.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, err = io.WriteString(term, answer+"\n")
	ts.Check(err)
	werr := cmd.Wait()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	mu.Lock()
	fmt.Fprint(ts.Stdout(), strings.ReplaceAll(shown.String(), "\r\n", "\n"))
	mu.Unlock()
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

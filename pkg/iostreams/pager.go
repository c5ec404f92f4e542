package iostreams

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
)

// PagerCommand is the pager long output goes through, as the user chose
// it: CHAINRUN_PAGER, else PAGER, else less when it is installed; "" for
// none (either variable set to "" or "cat" turns paging off).
func PagerCommand(lookupEnv func(string) (string, bool)) string {
	for _, name := range []string{"CHAINRUN_PAGER", "PAGER"} {
		if v, ok := lookupEnv(name); ok {
			if v = strings.TrimSpace(v); v == "cat" {
				return ""
			}
			return v
		}
	}
	if _, err := exec.LookPath("less"); err == nil {
		return "less"
	}
	return ""
}

// StartPager sends what Out receives through the pager command when Out
// is a terminal (a person reads it), until the returned stop is called,
// which waits for the pager to end. With no pager, Out not a terminal, or
// a pager that is not installed or cannot start, Out is left as it is and
// stop does nothing.
// less gets LESS=FRX unless LESS is set (quit at once when the text fits
// the screen, keep colours, leave the screen as it was), as git and gh
// set it. A pager the user quits early is no error: what is still written
// is dropped.
func (s *IOStreams) StartPager(command string) (stop func()) {
	fields := strings.Fields(command)
	if len(fields) == 0 || !s.stdoutTTY {
		return func() {}
	}
	if _, err := exec.LookPath(fields[0]); err != nil {
		return func() {} // a pager that is not there would swallow the output
	}
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.Command(fields[0], fields[1:]...)
	} else {
		cmd = exec.Command("sh", "-c", command)
	}
	cmd.Env = os.Environ()
	if _, ok := os.LookupEnv("LESS"); !ok {
		cmd.Env = append(cmd.Env, "LESS=FRX")
	}
	cmd.Stdout, cmd.Stderr = s.Out, s.ErrOut
	in, err := cmd.StdinPipe()
	if err != nil {
		return func() {}
	}
	if err := cmd.Start(); err != nil {
		return func() {}
	}
	out := s.Out
	s.Out = &paged{w: in}
	return func() {
		_ = in.Close()
		_ = cmd.Wait()
		s.Out = out
	}
}

// paged is the pager's input: once the pager is gone (quit by the user),
// writes are dropped rather than failing the command.
type paged struct {
	w    io.Writer
	gone bool
}

func (p *paged) Write(b []byte) (int, error) {
	if p.gone {
		return len(b), nil
	}
	n, err := p.w.Write(b)
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		p.gone = true
		return len(b), nil
	}
	return n, err
}

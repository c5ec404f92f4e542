package iostreams

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPagerCommand: CHAINRUN_PAGER before PAGER, either set to "" or
// "cat" turning paging off, and less when neither is set and it is there.
func TestPagerCommand(t *testing.T) {
	less := ""
	if _, err := exec.LookPath("less"); err == nil {
		less = "less"
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"CHAINRUN_PAGER": "most", "PAGER": "more"}, "most"},
		{map[string]string{"PAGER": "more -s"}, "more -s"},
		{map[string]string{"CHAINRUN_PAGER": "", "PAGER": "more"}, ""},
		{map[string]string{"CHAINRUN_PAGER": "cat", "PAGER": "more"}, ""},
		{map[string]string{"PAGER": " cat "}, ""},
		{nil, less},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := PagerCommand(lookup); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestStartPager: on a terminal what Out gets goes through the pager
// (with LESS=FRX when LESS is unset) and Out is back once stop returns; a
// pager that quits before reading all is no error; off a terminal, with
// no pager or one that cannot start, Out is untouched.
func TestStartPager(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake pager is a shell script")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "paged")
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pager := script("pager", `{ echo "LESS=$LESS"; cat; } > "`+log+`"`)
	quitter := script("quitter", "head -c 1 >/dev/null")
	t.Setenv("LESS", "")
	os.Unsetenv("LESS")

	s, _, out, _ := Test()
	s.stdoutTTY = true
	stop := s.StartPager(pager)
	s.Out.Write([]byte("line 1\nline 2\n"))
	stop()
	got, _ := os.ReadFile(log)
	if string(got) != "LESS=FRX\nline 1\nline 2\n" || out.Len() != 0 {
		t.Errorf("paged %q, out %q", got, out)
	}
	if s.Out != out {
		t.Error("Out is not restored")
	}

	stop = s.StartPager(quitter)
	big := bytes.Repeat([]byte("x"), 1<<20)
	for range 4 {
		if _, err := s.Out.Write(big); err != nil {
			t.Fatalf("a pager that quit: %v", err)
		}
	}
	stop()

	for name, tc := range map[string]struct {
		tty     bool
		command string
	}{"not a terminal": {false, pager}, "no pager": {true, ""}, "cannot start": {true, filepath.Join(dir, "missing") + " --x"}} {
		s, _, out, _ := Test()
		s.stdoutTTY = tc.tty
		stop := s.StartPager(tc.command)
		s.Out.Write([]byte("plain\n"))
		stop()
		if out.String() != "plain\n" {
			t.Errorf("%s: out %q", name, out)
		}
	}
}

package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// TestMain makes the test binary double as the chainrun program for the
// scripts in testdata/script, and as expect-exit, which runs chainrun and
// checks its exact exit code (testscript's exec only tells zero from
// non-zero).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"chainrun": func() { os.Exit(Main()) },
		"expect-exit": func() {
			if len(os.Args) < 2 {
				fmt.Fprintln(os.Stderr, "usage: expect-exit CODE chainrun-args...")
				os.Exit(2)
			}
			want, err := strconv.Atoi(os.Args[1])
			if err != nil {
				fmt.Fprintln(os.Stderr, "expect-exit: bad code", os.Args[1])
				os.Exit(2)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			got := Execute(ctx, iostreams.System(), os.Args[2:])
			stop()
			if got != want {
				fmt.Fprintf(os.Stderr, "chainrun exited with %d, want %d\n", got, want)
				os.Exit(1)
			}
			os.Exit(0)
		},
	})
}

func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("UPDATE_GOLDEN") != "",
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo)
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(e.WorkDir, ".config"))
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// sleep DURATION pauses the script (for signal tests).
			"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				time.Sleep(d)
			},
			// waitfile PATH waits up to 10s for a file to appear.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				deadline := time.Now().Add(10 * time.Second)
				for {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						return
					}
					if time.Now().After(deadline) {
						ts.Fatalf("%s did not appear", args[0])
					}
					time.Sleep(20 * time.Millisecond)
				}
			},
			// dead PIDFILE checks that the process it names is gone.
			"dead": func(ts *testscript.TestScript, neg bool, args []string) {
				data, err := os.ReadFile(ts.MkAbs(args[0]))
				ts.Check(err)
				pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
				ts.Check(err)
				deadline := time.Now().Add(5 * time.Second)
				for processAlive(pid) {
					if time.Now().After(deadline) {
						ts.Fatalf("process %d is still running", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			},
		},
	})
}

func processAlive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == nil
}

//go:build !windows

package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// groupAlive reports whether process group pgid still has a member that
// is not a zombie (an orphan may wait a while for its reaper).
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err != nil {
		return false
	}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return true // no /proc: kill's answer stands
	}
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}

func TestBashKillsTheGroup(t *testing.T) {
	needShell(t)
	for _, how := range []string{"timeout", "cancel"} {
		t.Run(how, func(t *testing.T) {
			dir := workdir(t, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			args := `{"command": "echo $$ > pid; sleep 5 & sleep 5; wait"}`
			if how == "timeout" {
				args = `{"command": "echo $$ > pid; sleep 5 & sleep 5; wait", "timeout_ms": 500}`
			} else {
				time.AfterFunc(500*time.Millisecond, cancel)
			}
			start := time.Now()
			_, err := Run(ctx, Env{Dir: dir, Grace: 300 * time.Millisecond}, "Bash", json.RawMessage(args))
			if d := time.Since(start); d > 2500*time.Millisecond {
				t.Errorf("returned after %s", d)
			}
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v", err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "pid"))
			if err != nil {
				t.Fatal(err)
			}
			pgid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Second)
			for groupAlive(pgid) {
				if time.Now().After(deadline) {
					t.Fatalf("process group %d still alive", pgid)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestBashLeavesNoBackgroundJob: a job the command started in the
// background is killed once the command exits.
func TestBashLeavesNoBackgroundJob(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	out, err := Run(context.Background(), Env{Dir: dir, Grace: 100 * time.Millisecond}, "Bash",
		json.RawMessage(`{"command": "echo $$ > pid; sleep 30 > /dev/null 2>&1 &"}`))
	if err != nil {
		t.Fatalf("%v %s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pgid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(3 * time.Second)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			syscall.Kill(-pgid, syscall.SIGKILL)
			t.Fatalf("the background job of group %d outlived the call", pgid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

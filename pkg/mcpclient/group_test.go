//go:build linux

package mcpclient_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/mcpclient"
)

// running reports whether pid is a live process (not one exited and
// waiting to be reaped).
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// TestWhatAStdioServerStartedEndsWithItsSession: a stdio server's own
// children — one in the background, one that ignores TERM, one started
// by a child — are stopped when the session closes, after a successful
// call, after a call cut short by its context, and when the server quit
// by itself.
func TestWhatAStdioServerStartedEndsWithItsSession(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, workers string
		call          func(ctx context.Context, p *mcpclient.Pool, s mcpclient.Server) error
	}{
		{"after a call that worked", `sleep 301 & echo $! >> "$PIDS"`,
			func(ctx context.Context, p *mcpclient.Pool, s mcpclient.Server) error {
				_, err := p.Call(ctx, s, "echo", map[string]any{"text": "hi"})
				return err
			}},
		{"a worker that ignores TERM, after a cancelled call", `sh -c 'trap "" TERM; echo $$ >> "$PIDS"; while :; do sleep 1; done' &`,
			func(ctx context.Context, p *mcpclient.Pool, s mcpclient.Server) error {
				if _, err := p.Call(ctx, s, "echo", map[string]any{"text": "hi"}); err != nil {
					return err
				}
				cut, cancel := context.WithCancel(ctx)
				cancel()
				p.Call(cut, s, "echo", map[string]any{"text": "again"})
				return nil
			}},
		{"a grandchild, listing tools", `sh -c 'sleep 302 & echo $! >> "$PIDS"; wait' &`,
			func(ctx context.Context, p *mcpclient.Pool, s mcpclient.Server) error {
				_, err := p.Tools(ctx, s)
				return err
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			srv := mcpclient.Server{Name: "kids", Command: "sh", Args: []string{"-c", tt.workers + "\nexec \"$SELF\""},
				Env: append(os.Environ(), "MCPTEST_SERVE=1", "SELF="+self, "PIDS="+pids)}
			p := &mcpclient.Pool{Grace: 300 * time.Millisecond}
			if err := tt.call(context.Background(), p, srv); err != nil {
				t.Fatal(err)
			}
			var started []int
			for deadline := time.Now().Add(5 * time.Second); len(started) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				data, _ := os.ReadFile(pids)
				for _, f := range strings.Fields(string(data)) {
					n, _ := strconv.Atoi(f)
					started = append(started, n)
				}
			}
			if len(started) == 0 || !running(started[0]) {
				t.Fatalf("the worker did not start: %v", started)
			}
			if err := p.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			for _, pid := range started {
				if running(pid) {
					t.Errorf("process %d, started by the server, outlived its session", pid)
					_ = killProcess(pid)
				}
			}
		})
	}
}

func killProcess(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

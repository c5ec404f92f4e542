package temporalrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// devServer starts a Temporal dev server on loopback and returns its
// address. CHAINRUN_TEMPORAL_CLI is the temporal program (.ci/run builds
// it once and caches it).
func devServer(t *testing.T) string {
	t.Helper()
	cli := os.Getenv("CHAINRUN_TEMPORAL_CLI")
	if cli == "" {
		t.Skip("CHAINRUN_TEMPORAL_CLI is not set (the temporal CLI; .ci/run builds and sets it)")
	}
	port := freePort(t)
	srv := exec.Command(cli, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", fmt.Sprint(port),
		"--http-port", fmt.Sprint(freePort(t)), "--metrics-port", fmt.Sprint(freePort(t)), "--log-level", "error")
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
		_ = srv.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatal("the Temporal dev server did not listen within a minute")
		}
	}
}

// chainrunBinary builds this module's chainrun once per test run.
func chainrunBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "chainrun")
	out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// cli runs chainrun in dir with env, returning stdout, stderr and the
// exit code.
type cli struct {
	bin, dir string
	env      []string
}

func (c cli) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command(c.bin, args...)
	cmd.Dir, cmd.Env = c.dir, append(os.Environ(), c.env...)
	return cmd
}

func (c cli) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := c.cmd(args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestTwoWorkersOnARealServer runs the bundled deploy chain on a real
// Temporal dev server with two workers: to its decision, with the worker
// running the build killed mid-step; then resume --take deploy. The
// result is the local engine's.
func TestTwoWorkersOnARealServer(t *testing.T) {
	addr := devServer(t)
	bin := chainrunBinary(t)
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../chains", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	c := cli{bin: bin, dir: dir, env: []string{"CHAINRUN_STATE_DIR=" + filepath.Join(dir, "state"), "CHAINRUN_ENGINE=temporal",
		"CHAINRUN_TEMPORAL_ADDRESS=" + addr, "CHAINRUN_TEMPORAL_TASK_QUEUE=deploy-test", "CHAINRUN_TEMPORAL_HEARTBEAT=2s", "CHAINRUN_DEMO_SLOW=build"}}

	var logs []string
	var workers []*exec.Cmd
	for i := range 2 {
		log := filepath.Join(dir, fmt.Sprintf("worker%d.log", i))
		f, err := os.Create(log)
		if err != nil {
			t.Fatal(err)
		}
		w := c.cmd("worker")
		w.Stdout, w.Stderr = f, f
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Process.Kill(); _ = w.Wait(); f.Close() })
		logs, workers = append(logs, log), append(workers, w)
	}

	out, errOut, code := c.run(t, "run", "deploy", "--input", "service=payment-api", "--detach")
	if code != 0 {
		t.Fatalf("run --detach: exit %d\n%s", code, errOut)
	}
	id := strings.TrimSpace(out)
	killed := -1
	for deadline := time.Now().Add(60 * time.Second); killed < 0; time.Sleep(50 * time.Millisecond) {
		for i, log := range logs {
			if b, _ := os.ReadFile(log); bytes.Contains(b, []byte("▶ build_artifact")) {
				_ = workers[i].Process.Signal(syscall.SIGKILL)
				killed = i
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no worker started the build within a minute")
		}
	}
	out, errOut, code = c.run(t, "resume", id)
	if code != 3 || !strings.Contains(out, "--take deploy") {
		t.Fatalf("resume (follow): exit %d, want 3 at the decision\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(logs[1-killed]); !bytes.Contains(b, []byte("✓ build_artifact")) {
		t.Errorf("the other worker did not finish the build:\n%s", b)
	}
	_, errOut, code = c.run(t, "resume", id, "--take", "launch")
	if code != 2 || !strings.Contains(errOut, "offers deploy, abort") {
		t.Errorf("--take launch: exit %d %s, want 2 naming the choices", code, errOut)
	}
	out, errOut, code = c.run(t, "resume", id, "--take", "deploy", "-o", "json")
	if code != 0 {
		t.Fatalf("resume --take deploy: exit %d\n%s", code, errOut)
	}
	remote := decode(t, out)

	local := cli{bin: bin, dir: dir, env: []string{"CHAINRUN_STATE_DIR=" + filepath.Join(dir, "local-state"), "CHAINRUN_ENGINE=local"}}
	if _, errOut, code := local.run(t, "run", "deploy", "--input", "service=payment-api", "-q"); code != 3 {
		t.Fatalf("local run: exit %d\n%s", code, errOut)
	}
	out, _, _ = local.run(t, "resume", "last", "--take", "deploy", "-o", "json", "-q")
	want := decode(t, out)
	for _, k := range []string{"status", "output", "vars"} {
		if g, w := fmt.Sprint(remote[k]), fmt.Sprint(want[k]); g != w {
			t.Errorf("%s on Temporal %s, local %s", k, g, w)
		}
	}
	out, _, code = c.run(t, "runs", "-o", "json")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, `"status": "succeeded"`) {
		t.Errorf("runs: exit %d\n%s", code, out)
	}

	// a DAG chain with a loop and parallel steps, as the local engine runs it
	files := "--input=files=chains/hello.yaml chains/deploy.yaml"
	out, errOut, code = c.run(t, "run", "fanout", files, "-o", "json")
	if code != 0 {
		t.Fatalf("fanout on Temporal: exit %d\n%s", code, errOut)
	}
	dagRemote := decode(t, out)
	out, _, _ = local.run(t, "run", "fanout", files, "-o", "json", "-q")
	dagLocal := decode(t, out)
	for _, k := range []string{"status", "output", "vars"} {
		if g, w := fmt.Sprint(dagRemote[k]), fmt.Sprint(dagLocal[k]); g != w {
			t.Errorf("fanout %s on Temporal %s, local %s", k, g, w)
		}
	}
	if os.Getenv("UPDATE_HISTORIES") != "" {
		saveHistory(t, addr, id, "testdata/deploy.history.json")
		saveHistory(t, addr, dagRemote["run_id"].(string), "testdata/fanout.history.json")
	}
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return m
}

// saveHistory writes a run's history for the replay test.
func saveHistory(t *testing.T, addr, id, path string) {
	t.Helper()
	out, err := exec.Command(os.Getenv("CHAINRUN_TEMPORAL_CLI"), "workflow", "show", "--address", addr, "-w", id, "--output", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

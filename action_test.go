package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeRunner is the environment GitHub gives a composite action's steps:
// GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY files (fresh for
// each step), the runner's tool cache and temporary directory.
type fakeRunner struct {
	t         *testing.T
	toolCache string
	temp      string
	path      []string // what steps added to $GITHUB_PATH
	summary   string
	base      string // CHAINRUN_INSTALL_BASE_URL
}

// step runs one of .github/action's scripts as GitHub runs a bash step
// (bash -e -o pipefail) in dir, with env added, returning its outputs
// and its exit code.
func (r *fakeRunner) step(script, dir string, env ...string) (map[string]string, int) {
	t := r.t
	t.Helper()
	files := t.TempDir()
	output, ghpath := filepath.Join(files, "output"), filepath.Join(files, "path")
	for _, f := range []string{output, ghpath} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wd, _ := os.Getwd()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", filepath.Join(wd, ".github", "action", script))
	cmd.Dir = dir
	pathEnv := strings.Join(append(append([]string{}, r.path...), os.Getenv("PATH")), string(os.PathListSeparator))
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_OUTPUT="+output, "GITHUB_PATH="+ghpath, "GITHUB_STEP_SUMMARY="+r.summary,
		"RUNNER_TOOL_CACHE="+r.toolCache, "RUNNER_TEMP="+r.temp, "RUNNER_OS=Linux", "RUNNER_ARCH="+map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH],
		"GITHUB_ACTION_PATH="+wd, "CHAINRUN_INSTALL_BASE_URL="+r.base, "PATH="+pathEnv, "HOME="+r.temp)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (exit %d):\n%s", script, code, out)
	added, _ := os.ReadFile(ghpath)
	r.path = append(strings.Fields(string(added)), r.path...)
	return readGitHubOutput(t, output), code
}

// readGitHubOutput reads a $GITHUB_OUTPUT file as GitHub does: NAME=VALUE
// lines, and NAME<<DELIMITER … DELIMITER for a value of several lines.
func readGitHubOutput(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var lines []string
			for sc.Scan() && sc.Text() != delim {
				lines = append(lines, sc.Text())
			}
			got[name] = strings.Join(lines, "\n")
		} else if name, value, ok := strings.Cut(line, "="); ok {
			got[name] = value
		} else {
			t.Fatalf("%s: line %q is neither NAME=VALUE nor NAME<<DELIMITER", path, line)
		}
	}
	return got
}

// testAction runs action.yml's steps (.github/action/install.sh, then
// run.sh with the PATH the first added) with a fake runner against the
// release server: the release binary is installed into the tool cache
// once and reused, a chain's run id, status, exit code and output become
// outputs, and a failing chain fails the step with its command's code.
func testAction(t *testing.T, rel snapshot) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake runner is a Linux runner")
	}
	srv := newReleaseServer(t, rel)
	r := &fakeRunner{t: t, toolCache: t.TempDir(), temp: t.TempDir(), base: srv.URL, summary: filepath.Join(t.TempDir(), "summary.md")}
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "chains"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"greet.yaml": "name: greet\ninputs:\n  - {name: who}\n  - {name: n, default: \"1\"}\nsteps:\n  - {id: s, type: cli, run: 'printf \"hello %s\\n%s\\n\" \"{input.who}\" \"{input.n}\"', output_var: said}\noutput: said\n",
		"fail.yaml":  "name: fail\nsteps:\n  - {id: cmd, type: cli, run: 'echo broken >&2; exit 5'}\n",
	} {
		if err := os.WriteFile(filepath.Join(work, "chains", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runEnv := []string{"CHAIN=greet", "INPUTS=who=ann lee\n\nn=2\n", "ARGS=--quiet", "INPUT_FILE=", "CHAINRUN_CHAINS_DIR=", "CHAINRUN_PASS_EXIT_CODE=true", "ACCEPT_PAUSED=false",
		"CHAINRUN_STATE_DIR=" + filepath.Join(work, "state")}

	installed, code := r.step("install.sh", work, "VERSION=latest")
	wantDir := filepath.Join(r.toolCache, "chainrun", rel.version, runtime.GOARCH)
	if code != 0 || installed["version"] != rel.version || installed["cache-hit"] != "false" || installed["path"] != wantDir {
		t.Fatalf("install step: exit %d, outputs %v; want version %s, no cache hit, path %s", code, installed, rel.version, wantDir)
	}
	if len(r.path) != 1 || r.path[0] != wantDir {
		t.Fatalf("the install step added %v to GITHUB_PATH, want %s", r.path, wantDir)
	}
	if srv.downloads.Load() != 1 {
		t.Errorf("the install step downloaded %d archives, want 1", srv.downloads.Load())
	}

	out, code := r.step("run.sh", work, runEnv...)
	if code != 0 || out["status"] != "succeeded" || out["exit-code"] != "0" || out["output"] != "hello ann lee\n2" || !strings.HasPrefix(out["run-id"], "2") {
		t.Errorf("the run step: exit %d, outputs %q", code, out)
	}
	if summary, err := os.ReadFile(r.summary); err != nil || !strings.Contains(string(summary), "chainrun: greet succeeded") {
		t.Errorf("the job summary does not report the run: %q, %v", summary, err)
	}

	out, code = r.step("run.sh", work, append(runEnv, "CHAIN=fail", "INPUTS=")...)
	if code != 5 || out["status"] != "failed" || out["exit-code"] != "5" || out["output"] != "" || out["run-id"] == "" {
		t.Errorf("the failing chain's run step: exit %d, outputs %q; want exit 5, status failed", code, out)
	}

	// a second job on the same runner: the same version from the tool
	// cache, nothing downloaded, whether asked for as latest or by version
	r.path = nil
	for _, version := range []string{"latest", "v" + rel.version} {
		again, code := r.step("install.sh", work, "VERSION="+version)
		if code != 0 || again["cache-hit"] != "true" || again["path"] != wantDir {
			t.Errorf("install step again (%s): exit %d, outputs %v; want a cache hit", version, code, again)
		}
	}
	if srv.downloads.Load() != 1 {
		t.Errorf("the tool cache was not reused: %d archives downloaded", srv.downloads.Load())
	}
	out, code = r.step("run.sh", work, runEnv...)
	if code != 0 || out["status"] != "succeeded" {
		t.Errorf("the run step with the cached binary: exit %d, outputs %q", code, out)
	}

	// an unknown version fails the install step and caches nothing
	_, code = r.step("install.sh", work, "VERSION=9.9.9")
	if code == 0 {
		t.Error("installing an unknown version succeeded")
	}
	if _, err := os.Stat(filepath.Join(r.toolCache, "chainrun", "9.9.9")); err == nil {
		if _, err := os.Stat(filepath.Join(r.toolCache, "chainrun", "9.9.9", runtime.GOARCH+".complete")); err == nil {
			t.Error("an unknown version was marked complete in the tool cache")
		}
	}
}

package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v4"
)

// snapshotTag is the tag the clone is given, so the snapshot's version
// is a tag's: 1.2.3-SNAPSHOT-<commit>.
const snapshotTag = "v1.2.3"

// TestRelease makes a snapshot release of this working tree with the
// goreleaser CHAINRUN_GORELEASER names (.ci/release/install.sh builds it,
// and cyclonedx-gomod beside it), and checks what a release would ship;
// install.sh and the GitHub Action are then tested against a local server
// serving that snapshot (install_script_test.go, action_test.go). It runs
// when CHAINRUN_GORELEASER is set, fails in CI (CI=true) when it is not,
// and is skipped otherwise.
//
// `goreleaser check` judges the real .goreleaser.yaml. The snapshot is
// built from a derived config whose builds target only this machine's
// platform. Measured on 2 shared cores: the whole matrix (3 builds x 6
// platforms) took 6m42s with only the linux/amd64 builds in Go's build
// cache (every other platform compiles every package anew, the Temporal
// SDK too); one platform 1m56s with an empty build cache, 20s to 1m03s
// with a warm one. CI must stay well under its hour, and one platform exercises
// every section but cross-compilation (archives, checksums, SBOMs, the
// formula, the packages). The container
// image needs a Docker engine: --skip=docker (Dockerfile is checked by
// TestDockerfileRunsChainrunAsNonRoot); the signature, the release
// workflow's OIDC identity: --skip=sign.
func TestRelease(t *testing.T) {
	if raceEnabled {
		// goreleaser and the scripts are other processes: the race
		// detector sees nothing of them, and CI's plain run made the release
		t.Skip("the release test runs without -race only")
	}
	goreleaser := os.Getenv("CHAINRUN_GORELEASER")
	if goreleaser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CHAINRUN_GORELEASER is not set in CI: export CHAINRUN_GORELEASER=$(bash .ci/release/install.sh)")
		}
		t.Skip("CHAINRUN_GORELEASER is not set (export CHAINRUN_GORELEASER=$(bash .ci/release/install.sh) to run the release test)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := cloneWorkingTree(t)
	env := append(os.Environ(), "PATH="+filepath.Dir(goreleaser)+string(os.PathListSeparator)+os.Getenv("PATH"))
	goreleaserRun(t, repo, env, goreleaser, "check")
	derived := filepath.Join(repo, ".goreleaser.test.yaml")
	writeHostOnlyConfig(t, filepath.Join(repo, ".goreleaser.yaml"), derived)
	start := time.Now()
	goreleaserRun(t, repo, env, goreleaser, "release", "--snapshot", "--clean", "--skip=publish,docker,sign,validate", "--config", derived)
	t.Logf("snapshot release for %s/%s built in %s", runtime.GOOS, runtime.GOARCH, time.Since(start).Round(time.Second))

	rel := readSnapshot(t, filepath.Join(repo, "dist"))
	t.Run("checksums", func(t *testing.T) { checkChecksums(t, rel) })
	t.Run("archive", func(t *testing.T) { checkArchive(t, rel) })
	t.Run("packages", func(t *testing.T) { checkPackages(t, rel) })
	t.Run("install.sh", func(t *testing.T) { testInstallScript(t, rel) })
	t.Run("action", func(t *testing.T) { testAction(t, rel) })
}

// cloneWorkingTree clones this repository into a temporary directory and
// lays the working tree's uncommitted changes over it (so dist/ never
// lands here, and what is tested is what is on disk), then tags it.
func cloneWorkingTree(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "chainrun")
	git(t, ".", "clone", "--quiet", "--no-local", ".", repo)
	// what differs from HEAD, staged or not (deleted files too: they are
	// removed from the clone), and the files git does not track yet
	changed := git(t, ".", "diff", "--name-only", "-z", "HEAD") + git(t, ".", "ls-files", "-z", "--others", "--exclude-standard")
	for _, f := range strings.Split(changed, "\x00") {
		if f == "" {
			continue
		}
		data, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			_ = os.Remove(filepath.Join(repo, f))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(repo, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "-c", "user.name=release test", "-c", "user.email=release@test.invalid", "tag", "-a", "-m", snapshotTag, snapshotTag)
	return repo
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

func goreleaserRun(t *testing.T, dir string, env []string, goreleaser string, args ...string) {
	t.Helper()
	cmd := exec.Command(goreleaser, args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// writeHostOnlyConfig writes the release config with every build
// restricted to this machine's platform (see TestRelease's comment).
func writeHostOnlyConfig(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Load(data, &cfg); err != nil {
		t.Fatal(err)
	}
	builds, _ := cfg["builds"].([]any)
	if len(builds) == 0 {
		t.Fatalf("%s has no builds", from)
	}
	for _, b := range builds {
		build := b.(map[string]any)
		build["goos"] = []string{runtime.GOOS}
		build["goarch"] = []string{runtime.GOARCH}
	}
	out, err := yaml.Dump(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot is a snapshot release's dist directory, read through the
// metadata goreleaser writes there.
type snapshot struct {
	dist      string
	version   string
	artifacts []artifact
}

type artifact struct {
	Name   string         `json:"name"`
	Path   string         `json:"path"`
	Goos   string         `json:"goos"`
	Goarch string         `json:"goarch"`
	Type   string         `json:"type"`
	Extra  map[string]any `json:"extra"`
}

func readSnapshot(t *testing.T, dist string) snapshot {
	t.Helper()
	rel := snapshot{dist: dist}
	var meta struct {
		Version string `json:"version"`
	}
	readJSON(t, filepath.Join(dist, "metadata.json"), &meta)
	readJSON(t, filepath.Join(dist, "artifacts.json"), &rel.artifacts)
	rel.version = meta.Version
	if !strings.HasPrefix(rel.version, strings.TrimPrefix(snapshotTag, "v")+"-") {
		t.Fatalf("the snapshot's version is %q, not the tag %s's", rel.version, snapshotTag)
	}
	return rel
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// archive is the path of this platform's archive of the archive config id.
func (rel snapshot) archive(t *testing.T, id string) string {
	t.Helper()
	for _, a := range rel.artifacts {
		if a.Type == "Archive" && a.Goos == runtime.GOOS && a.Goarch == runtime.GOARCH && a.Extra["ID"] == id {
			return filepath.Join(filepath.Dir(rel.dist), a.Path)
		}
	}
	t.Fatalf("the snapshot has no %s archive for %s/%s", id, runtime.GOOS, runtime.GOARCH)
	return ""
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// untar unpacks a .tar.gz into dir, returning the names it held.
func untar(t *testing.T, archive, dir string) []string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Typeflag != tar.TypeReg {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(dst, filepath.Clean(dir)+string(filepath.Separator)) {
			t.Fatalf("%s: entry %q leaves the directory", archive, h.Name)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, os.FileMode(h.Mode).Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

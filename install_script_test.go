package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// releaseServer serves a snapshot's dist/ as GitHub serves a release's
// assets: /download/vVERSION/FILE and /latest/download/FILE. tamper, when
// set, is changed into every archive served (one byte flipped);
// downloads counts the archives served; signed, when set, serves a
// signature bundle beside checksums.txt (checksums.txt.sigstore.json).
type releaseServer struct {
	*httptest.Server
	rel       snapshot
	tamper    atomic.Bool
	signed    atomic.Bool
	downloads atomic.Int32
}

func newReleaseServer(t *testing.T, rel snapshot) *releaseServer {
	s := &releaseServer{rel: rel}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dir, name := filepath.Split(r.URL.Path)
		if dir != "/latest/download/" && dir != "/download/v"+rel.version+"/" || strings.Contains(name, "..") {
			http.NotFound(w, r)
			return
		}
		if name == "checksums.txt.sigstore.json" && s.signed.Load() {
			_, _ = w.Write([]byte(`{"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json"}`))
			return
		}
		data, err := os.ReadFile(filepath.Join(rel.dist, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(name, ".tar.gz") || strings.HasSuffix(name, ".zip") {
			s.downloads.Add(1)
			if s.tamper.Load() {
				data = bytes.Clone(data)
				data[len(data)/2] ^= 0xff
			}
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(s.Close)
	return s
}

// installScript runs install.sh with sh, against the server.
func installScript(t *testing.T, srv *releaseServer, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return installScriptEnv(t, srv, nil, args...)
}

// installScriptEnv is installScript with env added to the environment.
func installScriptEnv(t *testing.T, srv *releaseServer, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"install.sh"}, args...)...)
	cmd.Env = append(append(os.Environ(), "CHAINRUN_INSTALL_BASE_URL="+srv.URL+"/", "HOME="+t.TempDir()), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// testInstallScript: install.sh installs both binaries of a release
// (latest, or a version with or without its v) into -b DIR after
// checking the archive's SHA-256; a tampered archive, an unknown version
// or a bad option installs nothing and fails.
func testInstallScript(t *testing.T, rel snapshot) {
	if runtime.GOOS == "windows" {
		t.Skip("install.sh is for POSIX shells")
	}
	srv := newReleaseServer(t, rel)
	for _, version := range []string{"", rel.version, "v" + rel.version} {
		t.Run("version="+version, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "deep", "bin")
			args := []string{"-b", bin}
			if version != "" {
				args = append(args, "-v", version)
			}
			_, stderr, err := installScript(t, srv, args...)
			if err != nil {
				t.Fatalf("install.sh %v: %v\n%s", args, err, stderr)
			}
			out, err := exec.Command(filepath.Join(bin, "chainrun"), "version").Output()
			if err != nil || !strings.HasPrefix(string(out), "chainrun "+rel.version+" (") {
				t.Errorf("the installed chainrun version: %q, %v", out, err)
			}
			if help, _ := exec.Command(filepath.Join(bin, "chainrun"), "run", "--help").Output(); strings.Contains(string(help), "--engine") {
				t.Error("install.sh without -t installed the Temporal build")
			}
			if info, err := os.Stat(filepath.Join(bin, "chainrun-otel")); err != nil || info.Mode().Perm()&0o111 == 0 {
				t.Errorf("chainrun-otel is not installed as an executable: %v", err)
			}
			if !strings.Contains(stderr, "installed chainrun "+rel.version) {
				t.Errorf("install.sh said %q", stderr)
			}
		})
	}

	t.Run("temporal", func(t *testing.T) {
		bin := t.TempDir()
		if _, stderr, err := installScript(t, srv, "-t", "-b", bin); err != nil {
			t.Fatalf("install.sh -t: %v\n%s", err, stderr)
		}
		// the Temporal build's chainrun has --engine (temporal); the default one has not
		out, err := exec.Command(filepath.Join(bin, "chainrun"), "run", "--help").Output()
		if err != nil || !strings.Contains(string(out), "--engine") {
			t.Errorf("install.sh -t did not install the Temporal build: %v\n%s", err, out)
		}
		if _, err := os.Stat(filepath.Join(bin, "chainrun-otel")); err != nil {
			t.Error(err)
		}
	})

	t.Run("resolve", func(t *testing.T) {
		stdout, stderr, err := installScript(t, srv, "-r")
		if err != nil || stdout != rel.version+"\n" {
			t.Errorf("install.sh -r printed %q (%v): %s", stdout, err, stderr)
		}
	})

	refused := []struct {
		name, want string
		args       []string
		tampered   bool
	}{
		{"tampered archive", "does not match checksums.txt", nil, true},
		{"unknown version", "no release 9.9.9", []string{"-v", "9.9.9"}, false},
		{"unknown version with v", "no release 0.0.1-rc.1", []string{"-v", "v0.0.1-rc.1"}, false},
		{"bad option", "", []string{"-x"}, false},
		{"stray argument", "unexpected argument: now", []string{"now"}, false},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			srv.tamper.Store(tc.tampered)
			defer srv.tamper.Store(false)
			bin := filepath.Join(t.TempDir(), "bin")
			_, stderr, err := installScript(t, srv, append([]string{"-b", bin}, tc.args...)...)
			if err == nil {
				t.Fatalf("install.sh succeeded: %s", stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("install.sh said %q, want %q", stderr, tc.want)
			}
			if entries, _ := os.ReadDir(bin); len(entries) != 0 {
				t.Errorf("install.sh failed but left %v in %s", entries, bin)
			}
		})
	}

	t.Run("signature", func(t *testing.T) { testInstallSignature(t, srv) })
}

// testInstallSignature: a signed checksums.txt is verified with cosign
// when cosign is on PATH (a stand-in here that records its arguments and
// answers as told); a signature that does not verify installs nothing;
// without cosign the install goes on and says the signature was not
// checked, unless CHAINRUN_INSTALL_REQUIRE_SIGNATURE=true.
func testInstallSignature(t *testing.T, srv *releaseServer) {
	stub := t.TempDir()
	calls := filepath.Join(stub, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + calls + "\n[ \"$COSIGN_SAYS\" = ok ] || { echo 'Error: none of the expected identities matched' >&2; exit 1; }\n"
	if err := os.WriteFile(filepath.Join(stub, "cosign"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	withCosign := "PATH=" + stub + string(os.PathListSeparator) + os.Getenv("PATH")
	noCosign := "PATH=" + os.Getenv("PATH")
	if _, err := exec.LookPath("cosign"); err == nil {
		t.Skip("a real cosign is on PATH: the cases without cosign cannot be made")
	}
	cases := []struct {
		name      string
		signed    bool
		env       []string
		installed bool
		want      string
		verified  bool
	}{
		{"signed, cosign verifies", true, []string{withCosign, "COSIGN_SAYS=ok"}, true, "signature verified (cosign)", true},
		{"signed, cosign refuses", true, []string{withCosign, "COSIGN_SAYS=no"}, false, "does not verify: Error: none of the expected identities matched; nothing was installed", true},
		{"signed, no cosign", true, []string{noCosign}, true, "install cosign to have its signature verified", false},
		{"signed, no cosign, signature required", true, []string{noCosign, "CHAINRUN_INSTALL_REQUIRE_SIGNATURE=true"}, false, "cosign is not installed", false},
		{"unsigned, signature required", false, []string{withCosign, "COSIGN_SAYS=ok", "CHAINRUN_INSTALL_REQUIRE_SIGNATURE=true"}, false, "checksums.txt has no signature", false},
		{"unsigned", false, []string{withCosign, "COSIGN_SAYS=ok"}, true, "installed chainrun", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.signed.Store(tc.signed)
			defer srv.signed.Store(false)
			_ = os.Remove(calls)
			bin := filepath.Join(t.TempDir(), "bin")
			_, stderr, err := installScriptEnv(t, srv, tc.env, "-b", bin)
			if (err == nil) != tc.installed || !strings.Contains(stderr, tc.want) {
				t.Errorf("install.sh: %v, said %q; want installed=%v saying %q", err, stderr, tc.installed, tc.want)
			}
			if _, err := os.Stat(filepath.Join(bin, "chainrun")); (err == nil) != tc.installed {
				t.Errorf("chainrun installed: %v, want %v", err == nil, tc.installed)
			}
			args, _ := os.ReadFile(calls)
			if verified := strings.HasPrefix(string(args), "verify-blob --bundle "); verified != tc.verified {
				t.Errorf("cosign called with %q; want a verify-blob call: %v", args, tc.verified)
			}
			if tc.verified && !strings.Contains(string(args), "--certificate-oidc-issuer https://token.actions.githubusercontent.com") {
				t.Errorf("cosign verify-blob does not pin GitHub's OIDC issuer: %q", args)
			}
		})
	}
}

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// checkChecksums: checksums.txt names every archive, package and SBOM of
// the release, each with its SHA-256.
func checkChecksums(t *testing.T, rel snapshot) {
	f, err := os.Open(filepath.Join(rel.dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("checksums.txt: line %q is not \"SHA256  NAME\"", sc.Text())
		}
		if got := sha256File(t, filepath.Join(rel.dist, name)); got != sum {
			t.Errorf("checksums.txt: %s is %s, its SHA-256 is %s", name, sum, got)
		}
		listed[name] = true
	}
	kinds := map[string]int{}
	for _, a := range rel.artifacts {
		switch a.Type {
		case "Archive", "Linux Package", "SBOM":
			kinds[a.Type]++
			if !listed[a.Name] {
				t.Errorf("checksums.txt does not list the %s %s", a.Type, a.Name)
			}
		}
	}
	// two archives (chainrun, chainrun-temporal), deb/rpm/apk, three SBOMs
	if kinds["Archive"] < 2 || kinds["Linux Package"] < 3 && runtime.GOOS == "linux" || kinds["SBOM"] < 3 {
		t.Errorf("the release holds %v, want 2 archives, 3 packages and 3 SBOMs at least", kinds)
	}
}

// checkArchive: this platform's archives hold chainrun, which runs and
// says the release's version, chainrun-otel, the man pages and the
// completions; the Temporal build's archive holds its chainrun and
// chainrun-otel too.
func checkArchive(t *testing.T, rel snapshot) {
	if runtime.GOOS == "windows" {
		t.Skip("the archives checked are .tar.gz")
	}
	dir := t.TempDir()
	names := untar(t, rel.archive(t, "chainrun"), dir)
	for _, want := range []string{"chainrun", "chainrun-otel", "README.md", "LICENSE", "manpages/chainrun.1.gz", "manpages/chainrun-run.1.gz",
		"manpages/chainrun-runs-show.1.gz", "completions/chainrun.bash", "completions/chainrun.zsh", "completions/chainrun.fish", "chains/deploy.yaml"} {
		if !slices.Contains(names, want) {
			t.Errorf("the archive does not hold %s: %v", want, names)
		}
	}
	out, err := exec.Command(filepath.Join(dir, "chainrun"), "version").Output()
	if err != nil {
		t.Fatalf("chainrun version: %v", err)
	}
	if want := "chainrun " + rel.version + " ("; !strings.HasPrefix(string(out), want) {
		t.Errorf("chainrun version prints %q, want it to begin %q", out, want)
	}
	// chainrun-otel, run by hand with no feed, says it is started by chainrun
	otel := exec.Command(filepath.Join(dir, "chainrun-otel"))
	otel.Stdin = strings.NewReader("")
	if out, _ := otel.CombinedOutput(); !strings.Contains(string(out), "chainrun-otel:") {
		t.Errorf("chainrun-otel with no feed printed %q", out)
	}
	completion, err := os.ReadFile(filepath.Join(dir, "completions", "chainrun.fish"))
	if err != nil || !strings.Contains(string(completion), "complete -c chainrun") {
		t.Errorf("completions/chainrun.fish is not chainrun's fish completion: %v", err)
	}

	tdir := t.TempDir()
	tnames := untar(t, rel.archive(t, "chainrun-temporal"), tdir)
	for _, want := range []string{"chainrun", "chainrun-otel", "manpages/chainrun.1.gz"} {
		if !slices.Contains(tnames, want) {
			t.Errorf("the Temporal archive does not hold %s: %v", want, tnames)
		}
	}
	out, err = exec.Command(filepath.Join(tdir, "chainrun"), "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "chainrun "+rel.version+" (") {
		t.Errorf("the Temporal build's chainrun version: %q, %v", out, err)
	}
}

// checkPackages: the deb, rpm and apk packages, the SBOMs (CycloneDX,
// naming chainrun's own dependencies) and the Homebrew formula, which
// installs both binaries, the man pages and the completions.
func checkPackages(t *testing.T, rel snapshot) {
	formats := map[string]string{}
	for _, a := range rel.artifacts {
		if a.Type == "Linux Package" {
			formats[filepath.Ext(a.Name)] = filepath.Join(filepath.Dir(rel.dist), a.Path)
		}
	}
	if runtime.GOOS == "linux" {
		for _, ext := range []string{".deb", ".rpm", ".apk"} {
			if info, err := os.Stat(formats[ext]); err != nil || info.Size() < 1<<20 {
				t.Errorf("no %s package of at least 1 MiB: %v", ext, err)
			}
		}
		if deb := formats[".deb"]; deb != "" {
			if _, err := exec.LookPath("dpkg-deb"); err == nil {
				out, err := exec.Command("dpkg-deb", "--contents", deb).Output()
				for _, want := range []string{"./usr/bin/chainrun\n", "./usr/bin/chainrun-otel\n", "./usr/share/man/man1/chainrun-run.1.gz\n",
					"./usr/share/bash-completion/completions/chainrun\n", "./usr/share/zsh/site-functions/_chainrun\n"} {
					if err != nil || !strings.Contains(string(out), want) {
						t.Errorf("the deb does not install %s (%v):\n%s", strings.TrimSpace(want), err, out)
					}
				}
			}
		}
	}

	sbom := filepath.Join(rel.dist, "chainrun_"+rel.version+"_"+runtime.GOOS+"_"+runtime.GOARCH+".sbom.json")
	var bom struct {
		BOMFormat  string `json:"bomFormat"`
		Components []struct {
			Name string `json:"name"`
		} `json:"components"`
	}
	readJSON(t, sbom, &bom)
	var names []string
	for _, c := range bom.Components {
		names = append(names, c.Name)
	}
	if bom.BOMFormat != "CycloneDX" || !slices.Contains(names, "github.com/spf13/cobra") {
		t.Errorf("%s is not a CycloneDX SBOM naming cobra: %s %v", sbom, bom.BOMFormat, names)
	}
	for _, other := range []string{"chainrun-otel_", "chainrun-temporal_"} {
		if _, err := os.Stat(filepath.Join(rel.dist, other+rel.version+"_"+runtime.GOOS+"_"+runtime.GOARCH+".sbom.json")); err != nil {
			t.Errorf("no SBOM for %s: %v", strings.TrimSuffix(other, "_"), err)
		}
	}

	formula, err := os.ReadFile(filepath.Join(rel.dist, "homebrew", "Formula", "chainrun.rb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`bin.install "chainrun"`, `bin.install "chainrun-otel"`, `man1.install Dir["manpages/*.1.gz"]`,
		`bash_completion.install "completions/chainrun.bash"`, `zsh_completion.install`, `fish_completion.install`, `version "` + rel.version + `"`} {
		if !strings.Contains(string(formula), want) {
			t.Errorf("the Homebrew formula does not say %s:\n%s", want, formula)
		}
	}
}

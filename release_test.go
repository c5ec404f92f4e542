package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// TestReleaseArchivesCarryLicense: every archive .goreleaser.yaml makes
// holds the LICENSE (Apache-2.0) and the README, named so that a release
// without them fails rather than ships without them.
func TestReleaseArchivesCarryLicense(t *testing.T) {
	cfg := readReleaseConfig(t)
	archived := map[string]bool{}
	for _, a := range cfg.Archives {
		for _, f := range []string{"LICENSE", "README.md"} {
			if !slices.Contains(a.Files, f) {
				t.Errorf("archive %s does not name %s in its files: %v", a.ID, f, a.Files)
			}
		}
		for _, id := range a.IDs {
			archived[id] = true
		}
	}
	for _, b := range cfg.Builds {
		if !archived[b.ID] {
			t.Errorf("build %s is in no archive", b.ID)
		}
	}
	license, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apache License\n                           Version 2.0, January 2004", "END OF TERMS AND CONDITIONS", "Copyright 2026 The chainrun Authors"} {
		if !strings.Contains(string(license), want) {
			t.Errorf("LICENSE does not hold %q", want)
		}
	}
}

// TestDockerfileRunsChainrunAsNonRoot: the release image (built from
// Dockerfile by goreleaser, which needs a Docker engine the tests do not
// have) starts from a base with no shell (distroless or scratch), runs as
// a user other than root, has chainrun as its entrypoint and
// chainrun-otel beside it, and is the one .goreleaser.yaml builds.
func TestDockerfileRunsChainrunAsNonRoot(t *testing.T) {
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var from, user, entrypoint string
	var copied []string
	for _, line := range strings.Split(string(data), "\n") {
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch strings.ToUpper(word) {
		case "FROM":
			from = rest
		case "USER":
			user = rest
		case "ENTRYPOINT":
			entrypoint = rest
		case "COPY":
			copied = append(copied, strings.Fields(rest)...)
		}
	}
	if !strings.HasPrefix(from, "gcr.io/distroless/static") && from != "scratch" {
		t.Errorf("the image starts FROM %q, not distroless static or scratch", from)
	}
	if name, _, _ := strings.Cut(user, ":"); name == "" || name == "root" || name == "0" {
		t.Errorf("the image runs as %q, not a user of its own", user)
	}
	if entrypoint != `["/usr/local/bin/chainrun"]` {
		t.Errorf("the entrypoint is %s, not chainrun in exec form", entrypoint)
	}
	for _, bin := range []string{"$TARGETPLATFORM/chainrun", "$TARGETPLATFORM/chainrun-otel"} {
		if !slices.Contains(copied, bin) {
			t.Errorf("the image does not copy %s: %v", bin, copied)
		}
	}
	cfg := readReleaseConfig(t)
	if len(cfg.Dockers) != 1 || cfg.Dockers[0].Dockerfile != "Dockerfile" || !slices.Contains(cfg.Dockers[0].IDs, "chainrun-otel") {
		t.Errorf("the release does not build the image from Dockerfile with both binaries: %+v", cfg.Dockers)
	}
}

// TestReleaseShipsBothProgramsWithPages: every archive, the packages and
// the formula carry chainrun-otel beside chainrun, and the man pages and
// completions the before hook makes.
func TestReleaseShipsBothProgramsWithPages(t *testing.T) {
	cfg := readReleaseConfig(t)
	for _, a := range cfg.Archives {
		if !slices.Contains(a.IDs, "chainrun-otel") {
			t.Errorf("archive %s does not hold chainrun-otel: %v", a.ID, a.IDs)
		}
		for _, f := range []string{"manpages/*", "completions/*"} {
			if !slices.Contains(a.Files, f) {
				t.Errorf("archive %s does not hold %s: %v", a.ID, f, a.Files)
			}
		}
	}
	for _, n := range cfg.NFPMs {
		if !slices.Contains(n.IDs, "chainrun") || !slices.Contains(n.IDs, "chainrun-otel") {
			t.Errorf("the packages do not hold both programs: %v", n.IDs)
		}
	}
	if len(cfg.Brews) != 1 || !strings.Contains(cfg.Brews[0].Install, `bin.install "chainrun-otel"`) {
		t.Errorf("the formula does not install chainrun-otel: %+v", cfg.Brews)
	}
	if !slices.ContainsFunc(cfg.Before.Hooks, func(h string) bool { return strings.HasPrefix(h, "sh .ci/release/assets.sh ") }) {
		t.Errorf("no before hook makes the man pages and completions: %v", cfg.Before.Hooks)
	}
}

// releaseConfig is the part of .goreleaser.yaml the tests read.
type releaseConfig struct {
	Builds []struct {
		ID string `yaml:"id"`
	} `yaml:"builds"`
	Before struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Archives []struct {
		ID    string   `yaml:"id"`
		IDs   []string `yaml:"ids"`
		Files []string `yaml:"files"`
	} `yaml:"archives"`
	NFPMs []struct {
		IDs []string `yaml:"ids"`
	} `yaml:"nfpms"`
	Brews []struct {
		Install string `yaml:"install"`
	} `yaml:"brews"`
	Dockers []struct {
		Dockerfile string   `yaml:"dockerfile"`
		IDs        []string `yaml:"ids"`
	} `yaml:"dockers_v2"`
}

func readReleaseConfig(t *testing.T) releaseConfig {
	t.Helper()
	data, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg releaseConfig
	if err := yaml.Load(data, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

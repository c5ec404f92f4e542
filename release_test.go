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
	data, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			ID string `yaml:"id"`
		} `yaml:"builds"`
		Archives []struct {
			ID    string   `yaml:"id"`
			IDs   []string `yaml:"ids"`
			Files []string `yaml:"files"`
		} `yaml:"archives"`
	}
	if err := yaml.Load(data, &cfg); err != nil {
		t.Fatal(err)
	}
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

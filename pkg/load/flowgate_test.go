package load_test

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// TestParseFlowgate: a workflows: file loads through pkg/load in
// mcp-flowgate's dialect (its front-end, pkg/format/flowgate): a key it
// ignores is warned of, the gateway's keys and settings are said to be
// ignored, and a gateway configuration without workflows is named as one.
// pkg/chain alone reads the same file as chainrun's own, refusing what
// it does not know, the keys only mcp-flowgate's dialect reads included.
func TestParseFlowgate(t *testing.T) {
	const src = "version: '1'\nlexicon: []\nflowgate: {authoring: {write_enabled: true}}\nworkflows:\n  w:\n    initialState: a\n    aliases: [old-w]\n    states:\n      a: {terminal: true, color: green, delegate: reviewer}\n"
	l, err := load.Parse("w.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, w := range l.Warnings {
		said = append(said, w.String())
	}
	for _, want := range []string{
		`w.yaml:2:1: warning: lexicon: the gateway's lexicon is ignored`,
		`w.yaml:7:5: warning: workflow "w": aliases: read as a note`,
		`w.yaml:9:27: warning: state "a": unknown field "color" ignored, as mcp-flowgate ignores it`,
		`w.yaml:9:41: warning: state "a": delegate: "reviewer" names an agent of an mcp-flowgate gateway`,
	} {
		if !strings.Contains(strings.Join(said, "\n"), want) {
			t.Errorf("warnings\n%s\nhold no %q", strings.Join(said, "\n"), want)
		}
	}
	if !l.Chain.WriteEnabled || !l.Chain.LenientInputs() {
		t.Errorf("WriteEnabled %v, LenientInputs %v: want both", l.Chain.WriteEnabled, l.Chain.LenientInputs())
	}
	_, err = chain.Parse("w.yaml", []byte(src), chain.Options{})
	// the keys only mcp-flowgate's dialect reads, declared for the schema,
	// are unknown to chainrun's own reading too
	for _, want := range []string{`w.yaml:2:1: unknown field "lexicon"`, `w.yaml:3:1: unknown field "flowgate"`, `w.yaml:7:5: workflow "w": unknown field "aliases"`,
		`w.yaml:9:27: state "a": unknown field "color"`, `w.yaml:9:41: state "a": unknown field "delegate"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("chain.Parse: %v\nholds no %q", err, want)
		}
	}
	const gateway = "connections:\n  fs: {kind: mcp, command: x}\nproxy: {expose: all}\n"
	if _, err := load.Parse("g.yaml", []byte(gateway), chain.Options{}); err == nil || !strings.Contains(err.Error(), "an mcp-flowgate gateway configuration without workflows") {
		t.Errorf("a gateway configuration: %v", err)
	}
}

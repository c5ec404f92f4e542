package occ

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// A file with a step type or a step field OCC's format has not (OCC's
// StepType and ChainStep, lacausecrypto/OCC mcp-server/src/types.ts) is
// chainrun's own whatever its version: says, so a misspelt {reference}
// is refused there as chainrun's own format refuses it; the same
// reference in an agent-only file that declares version: is OCC's,
// left as written with a warning.
func TestOCCRuleChainrunOwnDespiteVersion(t *testing.T) {
	const typo = "  - {id: w, model: openai/m, depends_on: [a], prompt: 'summarise {reslut}'}\n"
	cases := []struct{ name, step string }{
		{"cli step", "{id: a, type: cli, command: echo, args: [hi], output_var: result}"},
		{"shell step", "{id: a, type: shell, run: echo hi, output_var: result}"},
		{"http step", "{id: a, type: http, url: 'http://127.0.0.1:9/x', output_var: result}"},
		{"noop step", "{id: a, type: noop, output_var: result}"},
		{"for_each on an agent", "{id: a, model: openai/m, prompt: '{item}', for_each: '{input.items}', output_var: result}"},
		{"idempotent on an agent", "{id: a, model: openai/m, prompt: x, idempotent: false, output_var: result}"},
		{"continue_on_error on an agent", "{id: a, model: openai/m, prompt: x, continue_on_error: true, output_var: result}"},
		{"cli step_template of a loop", "{id: a, type: loop, items_var: input.items, step_template: {type: cli, command: echo}, output_var: result}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			head := "name: c\nversion: '1.0'\ninputs: [items]\nsteps:\n  - " + tc.step + "\n"
			l, err := Parse("c.yaml", []byte(head), chain.Options{})
			if err != nil {
				t.Fatalf("without the typo the file loads: %v", err)
			}
			if readAsOCC(l.Chain) {
				t.Fatal("read as OCC's: it is chainrun's own")
			}
			_, err = Parse("c.yaml", []byte(head+typo), chain.Options{})
			if err == nil || !strings.Contains(err.Error(), `c.yaml:6:`) || !strings.Contains(err.Error(), "reslut") {
				t.Fatalf("a misspelt reference in chainrun's own file: want refused at c.yaml:6 naming reslut, got %v", err)
			}
		})
	}
	occ := "name: c\nversion: '1.0'\ninputs: [items]\nsteps:\n  - {id: a, model: openai/m, prompt: x, output_var: result}\n" + typo
	l, err := Parse("c.yaml", []byte(occ), chain.Options{})
	if err != nil {
		t.Fatalf("the agent-only file is OCC's and loads: %v", err)
	}
	if !readAsOCC(l.Chain) {
		t.Fatal("the agent-only file with version: is not read as OCC's")
	}
	found := false
	for _, w := range l.Warnings {
		found = found || strings.Contains(w.Message, "{reslut}") && strings.Contains(w.Message, "a likely typo")
	}
	if !found {
		t.Errorf("no warning about {reslut} in %v", l.Warnings)
	}
}

// The repository's own chains declare version: and use cli steps: they
// are chainrun's own, and a {reference} misspelt in one is refused.
func TestOCCRuleRepositoryChainsAreOwn(t *testing.T) {
	data, err := os.ReadFile("../../../chains/release.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nversion:") || !strings.Contains(string(data), "{input.service}") {
		t.Fatal("chains/release.yaml no longer declares version: or reads {input.service}")
	}
	l, err := Parse("release.yaml", data, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if readAsOCC(l.Chain) {
		t.Fatal("chains/release.yaml is read as OCC's")
	}
	bad := strings.Replace(string(data), "{input.service}", "{input.servcie}", 1)
	if _, err := Parse("release.yaml", []byte(bad), chain.Options{}); err == nil || !strings.Contains(err.Error(), "servcie") {
		t.Fatalf("a misspelt input in chains/release.yaml: want refused naming servcie, got %v", err)
	}
}

// A file that mixes a step type only OCC has with something only
// chainrun has is chainrun's own (OCC could not run its cli step), with
// a warning naming both steps.
func TestOCCRuleMixedFileIsOwnWithWarning(t *testing.T) {
	cases := []struct{ name, steps, want string }{
		{"gate and cli", "  - {id: g, type: gate, prompt: ok?}\n  - {id: b, type: cli, command: echo, depends_on: [g]}\n",
			`step "g" has OCC's type gate, but step "b" has type cli`},
		{"router and for_each", "  - {id: r, type: router, model: openai/m, prompt: pick, routes: {x: [b]}, output_var: route}\n  - {id: b, model: openai/m, prompt: x, for_each: '{input.items}', depends_on: [r]}\n",
			`step "r" has OCC's type router, but step "b" writes for_each:`},
		{"debate and http", "  - {id: h, type: http, url: 'http://127.0.0.1:9/x', output_var: page}\n  - {id: d, type: debate, model: openai/m, agents: [{prompt: '{page}'}, {prompt: q}], depends_on: [h]}\n",
			`step "d" has OCC's type debate, but step "h" has type http`},
		{"loop whose template is a cli step", "  - {id: l, type: loop, items_var: input.items, step_template: {type: cli, command: echo, args: ['{item}']}, output_var: each}\n",
			`step "l" has OCC's type loop, but step "l" step_template has type cli`},
		{"loop whose template writes idempotent", "  - {id: l, type: loop, items_var: input.items, step_template: {model: openai/m, prompt: '{item}', idempotent: false}, output_var: each}\n",
			`step "l" has OCC's type loop, but step "l" step_template writes idempotent:`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("c.yaml", []byte("name: c\ninputs: [items]\nsteps:\n"+tc.steps), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if readAsOCC(l.Chain) {
				t.Fatal("read as OCC's")
			}
			found := false
			for _, w := range l.Warnings {
				found = found || strings.Contains(w.Message, tc.want) && strings.Contains(w.Message, "read in chainrun's own format")
			}
			if !found {
				t.Errorf("no warning %q in %v", tc.want, l.Warnings)
			}
		})
	}
}

// OCC's own files of other commits and of its docs (the corpus of
// TestOCCHistoryFiles) that declare version: or are pipelines are read
// as OCC's: nothing in them is chainrun's alone.
func TestOCCRuleOCCFilesStayOCCs(t *testing.T) {
	files, _ := filepath.Glob("../../run/testdata/occhistory/*/*.yaml")
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "\nversion:") && !strings.HasPrefix(string(data), "version:") && !strings.Contains(string(data), "\nchains:") {
			continue
		}
		n++
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil || len(root.Content) == 0 {
			t.Fatalf("%s: %v", f, err)
		}
		d := &yamlpos.Diags{}
		if !readsAsOCC(d, root.Content[0]) {
			t.Errorf("%s is not read as OCC's", f)
		}
	}
	if n < 5 {
		t.Fatalf("only %d OCC files found under ../../run/testdata/occhistory", n)
	}
}

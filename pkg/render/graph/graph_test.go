package graph

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// TestPrinters draws a DAG chain (a label with quotes, ids that Mermaid
// must escape, a conditional edge) and a workflow (a task, a branch to
// the end, a decision point, a terminal state) in every format, against
// testdata/NAME.FORMAT.
func TestPrinters(t *testing.T) {
	printers := map[string]func(io.Writer, *Graph) error{"mermaid": Mermaid, "dot": DOT, "text": Text}
	for _, name := range []string{"dag", "wf"} {
		l, err := chain.LoadFile(filepath.Join("testdata", name+".yaml"), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for format, print := range printers {
			want, err := os.ReadFile(filepath.Join("testdata", name+"."+format))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := print(&got, Of(l.Chain, nil)); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("%s as %s:\n%s\nwant:\n%s", name, format, got.String(), want)
			}
		}
	}
}

// TestOutcomesReplaceDecisionShading colours a run's picture by outcome
// only: decision points are shaded in a chain's plain picture alone.
func TestOutcomesReplaceDecisionShading(t *testing.T) {
	l, err := chain.LoadFile(filepath.Join("testdata", "wf.yaml"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := Of(l.Chain, Outcomes{"check": "succeeded", "decide": "current"})
	var m, d bytes.Buffer
	if err := Mermaid(&m, g); err != nil {
		t.Fatal(err)
	}
	if err := DOT(&d, g); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  classDef current fill:#fde68a,stroke:#b45309,stroke-width:3px\n  class s_decide current\n",
		"  classDef succeeded fill:#bbf7d0,stroke:#15803d,stroke-width:1px\n  class s_check succeeded\n",
	} {
		if !bytes.Contains(m.Bytes(), []byte(want)) {
			t.Errorf("mermaid lacks %q:\n%s", want, m.String())
		}
	}
	if bytes.Contains(m.Bytes(), []byte("classDef decision")) {
		t.Errorf("a run's picture shades decisions:\n%s", m.String())
	}
	want := `"decide" [label="decide", style="rounded,filled", fillcolor="#fde68a", color="#b45309", penwidth=3];`
	if !bytes.Contains(d.Bytes(), []byte(want)) {
		t.Errorf("dot lacks %q:\n%s", want, d.String())
	}
}

// TestTextMarksOutcomes holds that a run's text picture marks each node
// as the progress lines do, a node the run did not reach with a blank
// of the same width, and a workflow's current state with ▶.
func TestTextMarksOutcomes(t *testing.T) {
	for _, tt := range []struct {
		name string
		out  Outcomes
		want []string
	}{
		{"dag", Outcomes{"a-1": "succeeded", "b_2": "cancelled"}, []string{"  ✓ a-1: Say", "  ○ b_2 (cli)", "    c (transform)"}},
		{"wf", Outcomes{"check": "succeeded", "decide": "current"}, []string{"✓ check (transform task)\n", "▶ decide (decision)\n", "  shipped (terminal)\n"}},
	} {
		l, err := chain.LoadFile(filepath.Join("testdata", tt.name+".yaml"), chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Text(&b, Of(l.Chain, tt.out)); err != nil {
			t.Fatal(err)
		}
		for _, want := range tt.want {
			if !bytes.Contains(b.Bytes(), []byte(want)) {
				t.Errorf("%s lacks %q:\n%s", tt.name, want, b.String())
			}
		}
	}
}

// TestFromRunLeavesNestedTransitionsOut: the transitions of a workflow a
// workflow step ran are that workflow's: a crashed run's picture marks
// neither their states nor their last one as the run's.
func TestFromRunLeavesNestedTransitionsOut(t *testing.T) {
	l, err := chain.LoadFile(filepath.Join("testdata", "wf.yaml"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	saved := &store.Saved{Transitions: []record.TransitionRecord{
		{From: "check", Transition: "check", To: "decide"},
		{Within: "fix", Enter: &record.SubEntry{State: "decide", Transition: "fix"}, To: "check"},
		{Within: "fix", From: "check", Transition: "go", To: "shipped"},
	}}
	got := FromRun(l.Chain, saved)
	if got["decide"] != "current" || got["shipped"] != "" || got["check"] != "succeeded" {
		t.Errorf("outcomes %v", got)
	}
}

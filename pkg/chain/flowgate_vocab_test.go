package chain

import (
	"strings"
	"testing"
)

// TestFlowgateVocabularyReadAsFlowgateDoes: values outside the closed
// vocabularies of actor, linkFilter and lifecycle, which mcp-flowgate
// accepts (runtime_submit.rs and runtime_chain.rs test only for
// deterministic and human, runtime_links.rs only for byGuards, and
// validate.rs checks no workflow's lifecycle; 08c09bd and 9368194), load
// with a warning and mean what they mean there: an agent's decision,
// every transition offered, a lifecycle with no meaning (rule F4 of the
// third round's findings: warn, never refuse what the peer accepts).
func TestFlowgateVocabularyReadAsFlowgateDoes(t *testing.T) {
	for _, tc := range []struct {
		name, workflow, state, transition string
		check                             func(w *Workflow) string
		want, warn                        string
	}{
		{name: "transition actor", transition: "actor: robot",
			check: func(w *Workflow) string { return w.State("a").Transition("go").Actor },
			want:  ActorAgent,
			warn:  `transition "go": actor "robot" is read as agent`},
		{name: "misspelt actor", transition: "actor: determinstic",
			check: func(w *Workflow) string { return w.State("a").Transition("go").Actor },
			want:  ActorAgent,
			warn:  `actor "determinstic" is read as agent: actor is deterministic, agent or human, and mcp-flowgate decides any other as an agent's (did you mean deterministic?)`},
		{name: "state actor", state: "actor: bot",
			check: func(w *Workflow) string { return w.State("a").Transition("go").Actor },
			want:  ActorAgent,
			warn:  `state "a": actor "bot" is read as agent`},
		{name: "state linkFilter", state: "linkFilter: some",
			check: func(w *Workflow) string { return w.Filter(w.State("a")) },
			want:  LinkFilterAll,
			warn:  `state "a": linkFilter "some" is read as all`},
		{name: "workflow linkFilter", workflow: "linkFilter: byguards",
			check: func(w *Workflow) string { return w.Filter(w.State("a")) },
			want:  LinkFilterAll,
			warn:  `workflow "w": linkFilter "byguards" is read as all: it is byGuards or all, and mcp-flowgate offers every transition unless it is byGuards (did you mean byGuards?)`},
		{name: "lifecycle", workflow: "lifecycle: beta",
			check: func(w *Workflow) string { return w.Cap.Lifecycle },
			want:  "beta",
			warn:  `workflow "w": lifecycle "beta" is not one of experimental, stable, deprecated`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "workflows:\n  w:\n    " + orDefault(tc.workflow, "title: W") + "\n    initialState: a\n    states:\n      a:\n        " + orDefault(tc.state, "goal: g") +
				"\n        transitions:\n          go: {target: b, " + orDefault(tc.transition, "title: Go") + "}\n      b: {terminal: true}\n"
			l, err := Parse("v.yaml", []byte(src), Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if got := tc.check(l.Chain.Workflow); got != tc.want {
				t.Errorf("read as %q, want %q", got, tc.want)
			}
			said := warningsOf(l)
			if !strings.Contains(said, tc.warn) {
				t.Errorf("no warning %q in:\n%s", tc.warn, said)
			}
			if strings.Count(said, "is read as agent") > 1 {
				t.Errorf("one actor warned of twice:\n%s", said)
			}
		})
	}
}

func orDefault(s, dflt string) string {
	if s != "" {
		return s
	}
	return dflt
}

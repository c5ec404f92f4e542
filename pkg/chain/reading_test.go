package chain

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// peerFormat is a front-end of a made-up peer that writes "x-peer: true":
// it reads the file with chainrun's chain reader and sets rd, so the
// core's leniencies are proved by what a Reading says, not by a name.
func peerFormat(rd *Reading) Format {
	return Format{
		Name:   rd.Source,
		Claims: func(root *yaml.Node) bool { return yamlpos.KeyNode(root, "x-peer") != nil },
		Decode: func(d *yamlpos.Diags, root *yaml.Node) []*Chain {
			c := DecodeChain(d, root, nil)
			c.SetReading(rd)
			return []*Chain{c}
		},
	}
}

// TestReadingKnobs: each knob of a front-end's Reading loosens exactly
// its rule for that front-end's files, with a warning naming the
// front-end's Source; the same file without the front-end is refused.
func TestReadingKnobs(t *testing.T) {
	cases := []struct {
		name, steps, warning, refusal string
		rd                            Reading
	}{
		{"output names", "  - {id: a, type: transform, expr: '1', output_var: my-out}\n",
			`output_var "my-out" is not letters, digits and '_': as in Peer,`, "a variable name is letters", Reading{LooseOutputNames: true}},
		{"context strategies", "  - {id: a, model: openai/m, prompt: hi, context_strategy: {b: sometimes}}\n",
			`"sometimes" is not full, summarize or truncate:N: the value is passed in full, as Peer passes it`, `"sometimes" is not full`, Reading{LooseStrategies: true}},
		{"references", "  - {id: a, model: openai/m, prompt: 'about {tpoic}'}\n",
			"{tpoic} is left as written, as Peer leaves it", "{tpoic}", Reading{LooseReferences: true, LooseRef: leaveAsWritten}},
		{"conditions", "  - {id: a, model: openai/m, prompt: hi, condition: 'something'}\n",
			`condition "something" is read as Peer reads a condition (words only)`, "something", Reading{ReadCondition: wordsOnly}},
		{"input defaults", "  - {id: a, model: openai/m, prompt: '{input.n}'}\ninputs: [{name: n, type: number, default: lots}]\n",
			`default "lots" is taken as Peer takes a number`, `default: "lots" is not a number`, Reading{InputValue: func(string, string) error { return nil }}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rd := tc.rd
			rd.Source = "Peer"
			src := "name: p\nsteps:\n" + tc.steps
			l, err := ParseAs("p.yaml", []byte("x-peer: true\n"+src), Options{}, []Format{peerFormat(&rd)})
			if err != nil {
				t.Fatalf("the peer's file: %v", err)
			}
			var warned []string
			for _, w := range l.Warnings {
				warned = append(warned, w.String())
			}
			if !strings.Contains(strings.Join(warned, "\n"), tc.warning) {
				t.Errorf("warnings %q lack %q", warned, tc.warning)
			}
			if _, err := Parse("p.yaml", []byte(src), Options{}); err == nil || !strings.Contains(err.Error(), tc.refusal) {
				t.Errorf("chainrun's own file: want a refusal naming %q, got %v", tc.refusal, err)
			}
		})
	}
}

// leaveAsWritten is a front-end's Reading.LooseRef that leaves a
// reference naming nothing as written, with the validator's warning.
func leaveAsWritten(v Checker, s *Step, field string, r *Ref) (string, bool) {
	if why := v.NamesNothing(s, r); why != "" {
		v.WarnNothing(s, field, r, why)
		return r.Raw, true
	}
	return "", false
}

// wordsOnly is a front-end's Reading.ReadCondition that keeps a condition
// chainrun's expressions refuse, true whatever the run's variables, with
// a warning.
func wordsOnly(v Checker, s *Step, field, src string, why error) (*Expression, bool) {
	v.Warnf(s.At(field), "%s: %s %q is read as %s reads a condition (words only); chainrun's own format would refuse it: %v", s.Subject(), field, src, v.Chain().Reading().Source, why)
	return interp.FallbackExpression(src, nil, func(map[string]any) (bool, error) { return true, nil }), true
}

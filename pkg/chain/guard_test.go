package chain

import (
	"errors"
	"strings"
	"testing"
)

// guardFile is a workflow whose transition "go" has the guards given (a
// YAML flow sequence, indented under guards:).
func guardFile(guards string) string {
	return wfHead + "      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            guards:\n" + guards + "      b: {terminal: true}\n"
}

func TestGuardErrors(t *testing.T) {
	cases := []struct {
		name, guards string
		want         []string
	}{
		{"unknown kind", "              - {kind: exp, expr: '1 == 1'}\n", []string{"c.yaml:12:24", `guards[1]: unknown guard kind "exp" (did you mean expr?)`}},
		{"no kind", "              - {expr: '$.context.a == 1'}\n", []string{"c.yaml:12:17", "guards[1]: kind is required"}},
		{"missing field", "              - {kind: permission}\n", []string{"guards[1]: a permission guard needs permission"}},
		{"field of another kind", "              - {kind: role, role: x, permission: y}\n", []string{`guards[1]: unknown field "permission": a role guard holds kind and role`}},
		{"typo of field", "              - {kind: expr, exprr: '1 == 1'}\n", []string{`unknown field "exprr" (did you mean expr?)`, "an expr guard needs expr"}},
		{"bad expression", "              - {kind: expr, expr: '$.context.a =='}\n", []string{"c.yaml:12:36", `guards[1]: expr "$.context.a ==" does not parse`}},
		{"unknown operator", "              - {kind: expr, expr: '$.context.a === 1'}\n", []string{`expr "$.context.a === 1" has an unknown operator "===": compare with ==`}},
		{"assignment", "              - {kind: expr, expr: '$.context.a = 1'}\n", []string{`has an unknown operator "=" (did you mean ==?)`}},
		{"bad root", "              - {kind: expr, expr: '$.contxt.a == 1'}\n", []string{`reads $.contxt.a: a guard reads $.context.x`}},
		{"output root", "              - {kind: expr, expr: '$.output.json.ok == true'}\n", []string{"there is no output yet"}},
		{"bare name", "              - {kind: expr, expr: 'ready == true'}\n", []string{"reads ready, which is no path"}},
		{"not a path", "              - {kind: expr, expr: '$context.a == 1'}\n", []string{`has "$context.a", which is not a path`}},
		{"context alone", "              - {kind: expr, expr: '$.context == 1'}\n", []string{`expr "$.context == 1" reads $.context, which names no slot`}},
		{"empty all_of", "              - {kind: all_of, guards: []}\n", []string{"guards[1]: guards is a list of one guard or more"}},
		{"nested error", "              - {kind: any_of, guards: [{kind: role, role: a}, {kind: rol, role: b}]}\n", []string{`guards[1].guards[2]: unknown guard kind "rol"`}},
		{"not nested", "              - {kind: not, guard: {kind: expr}}\n", []string{"guards[1].guard: an expr guard needs expr"}},
		{"evidence empty", "              - {kind: evidence, requires: []}\n", []string{"requires: a list of the evidence needed"}},
		{"evidence count", "              - {kind: evidence, requires: [{kind: approval, count: 0}]}\n", []string{"count 0: at least 1 record"}},
		{"evidence unknown key", "              - {kind: evidence, requires: [{kind: approval, cnt: 2}]}\n", []string{`requires: unknown field "cnt"`}},
		{"evidence confidence range", "              - {kind: evidence, requires: [{kind: approval, min_confidence: 2}]}\n", []string{"a confidence is between 0 and 1"}},
		{"acknowledgment without subject", "              - {kind: script_acknowledged}\n", []string{"guards[1]: a script_acknowledged guard needs subject (subject: deploy.production.rollout)"}},
		{"acknowledgment of no skill", "              - {kind: guidance_acknowledged, subject: review.x}\n", []string{"c.yaml:12:47", `guards[1]: guidance_acknowledged subject "review.x" is not in this file's skills: library (it declares none)`}},
		{"not a list", "              {kind: role, role: a}\n", []string{"guards is a list of guards"}},
		{"not a mapping", "              - role\n", []string{"guards[1]: a guard is a mapping with kind"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(guardFile(tc.guards)), Options{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestGuardsLoad(t *testing.T) {
	guards := "              - {kind: expr, expr: \"$.context.n >= 2 && $.workflow.input.env != 'prod'\"}\n" +
		"              - {kind: allOf, guards: [{kind: permission, permission: deploy}, {kind: role, role: ops}]}\n" +
		"              - {kind: not, guard: {kind: expr, expr: '$.arguments.force'}}\n" +
		"              - {kind: evidence, requires: [tests_passed, {kind: approval, count: 2, distinct_principals: true}]}\n"
	l, err := Parse("c.yaml", []byte(guardFile(guards)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := l.Chain.Workflow.State("a").Transition("go")
	if len(tr.Guards) != 4 || tr.Guards[1].Kind != GuardAllOf || len(tr.Guards[1].Guards) != 2 || tr.Guards[2].Inner.Kind != GuardExpr {
		t.Fatalf("guards %+v", tr.Guards)
	}
	req := tr.Guards[3].Requires
	if len(req) != 2 || req[0].Kind != "tests_passed" || req[0].Count != 1 || req[1].Count != 2 || !req[1].DistinctPrincipals {
		t.Errorf("requires %+v %+v", req[0], req[1])
	}
	if len(l.Warnings) > 0 {
		t.Errorf("warnings: %v", l.Warnings)
	}
}

// TestGuardedDeterministicWarning: transitions told apart by guards
// draw no warning that more than one is viable.
func TestGuardedDeterministicWarning(t *testing.T) {
	src := wfHead + "      a:\n        transitions:\n          x: {target: b, actor: deterministic, guards: [{kind: expr, expr: '$.context.n > 1'}]}\n" +
		"          y: {target: b, actor: deterministic, guards: [{kind: expr, expr: '$.context.n <= 1'}]}\n      b: {terminal: true}\n"
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range l.Warnings {
		if strings.Contains(w.Message, "more than one is viable") {
			t.Error(w)
		}
	}
}

func TestExecutorEvidence(t *testing.T) {
	src := wfHead + "      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n" +
		"            executor: {kind: cli, run: 'true', evidence: {kind: report_a, id: x, summary: done}}\n      b: {terminal: true}\n"
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := l.Chain.Workflow.State("a").Transition("go")
	if tr.Evidence == nil || EvidenceKind(tr.Executor, tr.Evidence) != "report_a" || tr.Executor.Kind != KindCLI {
		t.Errorf("evidence %+v", tr.Evidence)
	}
	if got := EvidenceKind(tr.Executor, nil); got != "cli_output" {
		t.Errorf("default kind %q", got)
	}
	_, err = Parse("c.yaml", []byte(strings.Replace(src, "evidence: {kind: report_a, id: x, summary: done}", "evidence: {knd: x}", 1)), Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown field "knd" (did you mean kind?)`) || !strings.Contains(err.Error(), "evidence needs the kind") {
		t.Errorf("bad evidence: %v", err)
	}
}

// guardTransition parses one transition guarded as given.
func guardTransition(t *testing.T, guards string) *Transition {
	t.Helper()
	l, err := Parse("c.yaml", []byte(guardFile(guards)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Chain.Workflow.State("a").Transition("go")
}

func TestCheckGuards(t *testing.T) {
	facts := func() *GuardFacts {
		return &GuardFacts{
			Context:   map[string]any{"n": 3, "ok": true, "name": "api", "nested": map[string]any{"rpn": 81.0}, "list": []any{}, "none": nil, "text": "5"},
			Arguments: map[string]any{"force": true},
			Input:     map[string]any{"env": "staging"},
			RunID:     "r1", State: "a", Version: "2",
			Principal: &Principal{ID: "ann", Roles: []string{"ops"}, Permissions: []string{"deploy"}},
			Evidence: []Evidence{{Kind: "approval", Principal: "ann"}, {Kind: "approval", Principal: "ann"},
				{Kind: "cli_output", Principal: "bob", Digest: "sha256:ab"}, {Kind: "cli_output", Principal: "bob"}},
		}
	}
	cases := []struct {
		name, guard string
		ok          bool
		why         string
		edit        func(*GuardFacts)
	}{
		{"equal number", `{kind: expr, expr: '$.context.n == 3'}`, true, "", nil},
		{"greater float", `{kind: expr, expr: '$.context.nested.rpn > 80'}`, true, "", nil},
		{"less", `{kind: expr, expr: '$.context.n < 3'}`, false, `guard 1 (expr "$.context.n < 3"): false`, nil},
		{"numeric text", `{kind: expr, expr: '$.context.text >= 5'}`, true, "", nil},
		{"string", `{kind: expr, expr: "$.context.name == 'api'"}`, true, "", nil},
		{"string ordering", `{kind: expr, expr: "$.context.name < 'b'"}`, true, "", nil},
		{"mixed ordering", `{kind: expr, expr: "$.context.name < 3"}`, false, "): false", nil},
		{"bool", `{kind: expr, expr: '$.context.ok == true'}`, true, "", nil},
		{"null slot", `{kind: expr, expr: '$.context.none == null'}`, true, "", nil},
		{"empty list", `{kind: expr, expr: '$.context.list == []'}`, true, "", nil},
		{"missing argument", `{kind: expr, expr: '$.arguments.reason != null'}`, false, "): false", nil},
		{"argument", `{kind: expr, expr: '$.arguments.force'}`, true, "", nil},
		{"input", `{kind: expr, expr: "$.workflow.input.env != 'prod' && $.input.env == 'staging'"}`, true, "", nil},
		{"workflow", `{kind: expr, expr: "$.workflow.state == 'a' && $.workflow.id == 'r1' && $.workflow.version == '2'"}`, true, "", nil},
		{"starts_with", `{kind: expr, expr: "$.context.name starts_with 'a'"}`, true, "", nil},
		{"permission", `{kind: permission, permission: deploy}`, true, "", nil},
		{"permission lacking", `{kind: permission, permission: approve}`, false, `guard 1 (permission "approve"): principal "ann" does not hold permission "approve"`, nil},
		{"role", `{kind: role, role: ops}`, true, "", nil},
		{"no principal", `{kind: role, role: ops}`, false, "no principal is configured to hold it: set principal:", func(f *GuardFacts) { f.Principal = nil }},
		{"all_of", `{kind: all_of, guards: [{kind: role, role: ops}, {kind: role, role: dba}]}`, false, `guard 1 (all_of): guard 2 (role "dba"): principal "ann" does not hold role "dba"`, nil},
		{"any_of", `{kind: any_of, guards: [{kind: role, role: dba}, {kind: role, role: ops}]}`, true, "", nil},
		{"any_of none", `{kind: anyOf, guards: [{kind: role, role: dba}]}`, false, "none holds", nil},
		{"any_of over unset", `{kind: any_of, guards: [{kind: expr, expr: '$.context.missing == 1'}, {kind: role, role: ops}]}`, true, "", nil},
		{"not", `{kind: not, guard: {kind: role, role: dba}}`, true, "", nil},
		{"not holds", `{kind: not, guard: {kind: role, role: ops}}`, false, `guard 1 (not): role "ops" holds`, nil},
		{"evidence", `{kind: evidence, requires: [approval, {kind: cli_output, count: 2}]}`, true, "", nil},
		{"evidence short", `{kind: evidence, requires: [{kind: approval, count: 3}]}`, false, `guard 1 (evidence): needs 3 "approval" records, has 2`, nil},
		{"evidence distinct", `{kind: evidence, requires: [{kind: approval, count: 2, distinct_principals: true}]}`, false, `needs 2 "approval" principals, has 1`, nil},
		{"evidence digest", `{kind: evidence, requires: [{kind: cli_output, count: 1, require_digest: true}]}`, true, "", nil},
		{"evidence digest short", `{kind: evidence, requires: [{kind: cli_output, count: 2, require_digest: true}]}`, false, "records with a digest, has 1", nil},
		{"evidence confidence", `{kind: evidence, requires: [{kind: approval, min_confidence: 0.5}]}`, false, "state none", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := guardTransition(t, "              - "+tc.guard+"\n")
			f := facts()
			if tc.edit != nil {
				tc.edit(f)
			}
			ok, why, err := tr.CheckGuards(f)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.ok || !strings.Contains(why, tc.why) {
				t.Errorf("got %v %q, want %v %q", ok, why, tc.ok, tc.why)
			}
		})
	}
}

// TestGuardUnsetSlot: a guard that reads a slot nobody set fails fast,
// naming the guard and the slot, rather than being false.
func TestGuardUnsetSlot(t *testing.T) {
	cases := []struct{ name, guard, want string }{
		{"expr", `{kind: expr, expr: '$.context.retries < 5'}`, `guard 1 (expr "$.context.retries < 5") reads $.context.retries, which is not set`},
		{"nested path", `{kind: expr, expr: '$.context.fmeca.maxResidualRpn > 80'}`, "reads $.context.fmeca.maxResidualRpn, which is not set"},
		{"inside all_of", `{kind: all_of, guards: [{kind: expr, expr: '$.context.n == 1'}, {kind: expr, expr: '$.context.gone'}]}`, `guard 1 (all_of): guard 2 (expr "$.context.gone") reads $.context.gone`},
		{"any_of none holds", `{kind: any_of, guards: [{kind: expr, expr: '$.context.gone'}, {kind: expr, expr: '$.context.n == 2'}]}`, "reads $.context.gone"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := guardTransition(t, "              - "+tc.guard+"\n")
			_, _, err := tr.CheckGuards(&GuardFacts{Context: map[string]any{"n": 1}})
			var ge *GuardError
			if !errors.As(err, &ge) || ge.Slot == "" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

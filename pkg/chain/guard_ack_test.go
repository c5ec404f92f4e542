package chain

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// ackFile is a workflow with a skills: and a scripts: library whose
// transition "go" has the guards given.
func ackFile(guards string) string {
	return "version: '1'\nskills:\n  review.security.checklist: {verb: review, lifecycle: stable, body: Check the secrets.}\n" +
		"scripts:\n  deploy.production.rollout: {verb: deploy, lifecycle: stable, body: 'echo deployed'}\n" +
		"workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            guards:\n" +
		guards + "      b: {terminal: true}\n"
}

func TestAckGuardDecode(t *testing.T) {
	cases := []struct {
		name, guards string
		want         []string // errors; none: it loads
	}{
		{"both kinds", "              - {kind: guidance_acknowledged, subject: review.security.checklist}\n              - {kind: script_acknowledged, subject: deploy.production.rollout}\n", nil},
		{"script of another file", "              - {kind: script_acknowledged, subject: build.elsewhere}\n", nil},
		{"nested", "              - {kind: any_of, guards: [{kind: role, role: ops}, {kind: not, guard: {kind: guidance_acknowledged, subject: review.security.checklist}}]}\n", nil},
		{"no subject", "              - {kind: guidance_acknowledged}\n", []string{"c.yaml:15:17", "guards[1]: a guidance_acknowledged guard needs subject (subject: deploy.production.rollout)"}},
		{"subject not text", "              - {kind: script_acknowledged, subject: [a]}\n", []string{"guards[1]: subject is a text"}},
		{"field of another kind", "              - {kind: script_acknowledged, subject: deploy.production.rollout, role: ops}\n", []string{`unknown field "role": a script_acknowledged guard holds kind and subject`}},
		{"typo of kind", "              - {kind: script_acknowleged, subject: x.y}\n", []string{`unknown guard kind "script_acknowleged" (did you mean script_acknowledged?)`}},
		{"unknown skill", "              - {kind: guidance_acknowledged, subject: review.security.checklst}\n", []string{"c.yaml:15:47",
			`state "a": transition "go": guards[1]: guidance_acknowledged subject "review.security.checklst" is not in this file's skills: library (it has review.security.checklist) (did you mean review.security.checklist?)`}},
		{"script subject is no skill", "              - {kind: guidance_acknowledged, subject: deploy.production.rollout}\n", []string{`guidance_acknowledged subject "deploy.production.rollout" is not in this file's skills: library`}},
		{"unknown skill nested", "              - {kind: all_of, guards: [{kind: role, role: ops}, {kind: not, guard: {kind: guidance_acknowledged, subject: review.x}}]}\n", []string{"guards[1].guards[2].guard: guidance_acknowledged subject \"review.x\""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(ackFile(tc.guards)), Options{})
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
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

func TestAckSubjects(t *testing.T) {
	l, err := Parse("c.yaml", []byte(ackFile("              - {kind: script_acknowledged, subject: deploy.production.rollout}\n"+
		"              - {kind: any_of, guards: [{kind: guidance_acknowledged, subject: review.security.checklist}, {kind: not, guard: {kind: script_acknowledged, subject: deploy.production.rollout}}]}\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := AckSubjects(l.Chain.Workflow.State("a").Transition("go").Guards)
	want := []AckKey{{Kind: AckScript, Subject: "deploy.production.rollout"}, {Kind: AckGuidance, Subject: "review.security.checklist"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestCheckAckGuards(t *testing.T) {
	script := AckKey{Kind: AckScript, Subject: "deploy.production.rollout"}
	skill := AckKey{Kind: AckGuidance, Subject: "review.security.checklist"}
	current := func(k AckKey) (string, error) {
		if k == script {
			return "sha256:new", nil
		}
		return "sha256:skill", nil
	}
	const scriptGuard = "{kind: script_acknowledged, subject: deploy.production.rollout}"
	cases := []struct {
		name, guard string
		acks        *AckFacts
		ok          bool
		why         string
	}{
		{"acknowledged", scriptGuard, &AckFacts{Acked: map[AckKey]string{script: "sha256:new"}}, true, ""},
		{"never", scriptGuard, &AckFacts{Acked: map[AckKey]string{}}, false,
			`guard 1 (script_acknowledged "deploy.production.rollout"): script deploy.production.rollout has not been acknowledged in this run: read its body first (the describe tool of a deciding model, or resume --ack deploy.production.rollout)`},
		{"no facts", scriptGuard, nil, false, "has not been acknowledged in this run"},
		{"body changed since", scriptGuard, &AckFacts{Acked: map[AckKey]string{script: "sha256:old"}}, false,
			"script deploy.production.rollout was acknowledged at sha256:old, and its body is now sha256:new: read it again"},
		{"the skill's is not the script's", "{kind: guidance_acknowledged, subject: review.security.checklist}",
			&AckFacts{Acked: map[AckKey]string{{Kind: AckScript, Subject: "review.security.checklist"}: "sha256:skill"}}, false, "guidance review.security.checklist has not been acknowledged"},
		{"skill", "{kind: guidance_acknowledged, subject: review.security.checklist}", &AckFacts{Acked: map[AckKey]string{skill: "sha256:skill"}}, true, ""},
		{"assumed", scriptGuard, &AckFacts{Assume: true}, true, ""},
		{"not, acknowledged", "{kind: not, guard: " + scriptGuard + "}", &AckFacts{Acked: map[AckKey]string{script: "sha256:new"}}, false,
			`guard 1 (not): script_acknowledged "deploy.production.rollout" holds`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("c.yaml", []byte(ackFile("              - "+tc.guard+"\n")), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.acks != nil {
				tc.acks.Current = current
			}
			ok, why, err := l.Chain.Workflow.State("a").Transition("go").CheckGuards(&GuardFacts{Acks: tc.acks})
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.ok || !strings.Contains(why, tc.why) {
				t.Errorf("got %v %q, want %v %q", ok, why, tc.ok, tc.why)
			}
		})
	}
	// a body that cannot be found now is an error, not a false guard
	l, _ := Parse("c.yaml", []byte(ackFile("              - "+scriptGuard+"\n")), Options{})
	gone := errors.New("script deploy.production.rollout is in no scripts: library")
	_, _, err := l.Chain.Workflow.State("a").Transition("go").CheckGuards(&GuardFacts{Acks: &AckFacts{Acked: map[AckKey]string{script: "sha256:x"},
		Current: func(AckKey) (string, error) { return "", gone }}})
	if !errors.Is(err, gone) || !strings.Contains(err.Error(), `guard 1 (script_acknowledged "deploy.production.rollout")`) {
		t.Errorf("got %v", err)
	}
}

package run

import (
	"strings"
	"testing"
)

// --dry-run shows a step's pre_tools, resolved like its command.
func TestPlanShowsPreTools(t *testing.T) {
	c := load(t, `
name: t
inputs: [{name: who}]
steps:
  - id: s
    type: shell
    pre_tools:
      - {type: shell, run: 'echo pre-{input.who}', inject_as: pre}
      - {type: http, url: 'http://example.com/{input.who}', inject_as: page}
      - {type: file, path: 'notes/{input.who}.txt', inject_as: notes}
    run: 'echo {pre} {page} {notes}'
`)
	plan, err := New(WithDir(t.TempDir())).Plan(Request{Chain: c, Inputs: map[string]string{"who": "ada"}})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(plan[0].PreTools, "|")
	if got != "pre ← shell: echo pre-ada|page ← http: GET http://example.com/ada|notes ← file: notes/ada.txt" {
		t.Errorf("pre_tools = %q", got)
	}
}

// --dry-run shows a request's URL as its errors do: without the user and
// password, the query or the fragment, for an http step, a webhook and an
// http pre_tool alike, written in the chain or given as an input.
func TestPlanShowsURLsWithoutCredentials(t *testing.T) {
	c := load(t, `
name: t
inputs: [{name: base}]
steps:
  - {id: h, type: http, url: 'http://deploy:Pw0rd-lit@127.0.0.1:9/api?sig=Qsig-lit'}
  - {id: w, type: webhook, url: '{input.base}/hook#frag-Qtok'}
  - id: s
    type: shell
    run: echo
    pre_tools:
      - {type: http, url: 'https://u:Pw0rd-pre@example.com/x?k=Qkey-pre', inject_as: a}
      - {type: http_fetch, url: 'https://example.com/y?token=Qtok-fetch', inject_as: b}
`)
	plan, err := New(WithDir(t.TempDir())).Plan(Request{Chain: c, Inputs: map[string]string{"base": "https://ci:Pw0rd-in@hooks.test"}})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, p := range plan {
		all = append(all, p.Action)
		all = append(all, p.PreTools...)
	}
	text := strings.Join(all, "\n")
	for _, secret := range []string{"Pw0rd", "Qsig", "Qtok", "Qkey"} {
		if strings.Contains(text, secret) {
			t.Errorf("the dry run shows %s:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, "GET http://***@127.0.0.1:9/api?…") || !strings.Contains(text, "https://***@hooks.test/hook?…") {
		t.Errorf("the dry run does not name the redacted URLs:\n%s", text)
	}
}

package run

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// dirHolds reports the files under dir whose bytes contain s.
func dirHolds(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), s) {
				found = append(found, p)
			}
		}
		return nil
	})
	return found
}

func TestSecretNeverReachesTheAnswerCache(t *testing.T) {
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if strings.HasPrefix(r.LastUserMessage(), "Summarise the following") {
			return llmtest.Reply{Text: "SHORT " + r.LastUserMessage()}
		}
		return llmtest.Reply{Text: "echo: " + r.LastUserMessage()}
	})
	defer s.Close()
	src := `
name: t
inputs: [{name: key, secret: true}]
steps:
  - {id: ask, model: openai/m, system: "key {input.key}", prompt: "hello", cache: true, output_var: a}
  - {id: dep, type: cli, run: 'printf "report %s" {input.key}', output_var: report}
  - {id: sum, model: openai/m, depends_on: [dep], prompt: "Given {report}", context_strategy: {dep: summarize}, output_var: b}
  - {id: pin, model: openai/m, prompt: "pin {input.key}", cache: true, output_var: c}
`
	dir := t.TempDir()
	for _, key := range []string{"Zq9-secret-value", "7"} {
		for range 2 {
			res := runChain(t, src, map[string]string{"key": key}, WithModels(registryFor(s, nil)), WithCache(cache.Open(dir), true))
			if res.Status != record.Succeeded {
				t.Fatalf("status %s: %s", res.Status, res.Error)
			}
			if res.Usage.Cached != 0 {
				t.Errorf("key %q: an answer to a request holding a secret came from the cache: %+v", key, res.Usage)
			}
		}
		if files := dirHolds(t, dir, "pin "+key); len(files) > 0 {
			t.Errorf("key %q is in the cache: %v", key, files)
		}
	}
	if files := dirHolds(t, dir, "Zq9-secret-value"); len(files) > 0 {
		t.Errorf("the secret is in the cache: %v", files)
	}
}

func TestSecretsAreMaskedInEveryForm(t *testing.T) {
	rec := &event.Recorder{}
	j := &memJournal{} // not safe for steps in parallel: the steps run in turn
	src := `
name: t
inputs: [{name: pin, secret: true}, {name: tok, secret: true}, {name: one, secret: true}]
steps:
  - {id: num, type: cli, run: 'echo "{\"account\": $(printf %s {input.pin})}"', output_var: n}
  - {id: key, type: transform, depends_on: [num], expr: '{(input.pin): "k", "list": [int(input.pin)]}', output_var: k}
  - {id: trim, type: cli, depends_on: [key], run: 'echo "Bearer $(printf %s {input.tok})"; echo "bad $(printf %s {input.tok})" >&2; exit 3', continue_on_error: true, output_var: b}
  - {id: short, type: cli, depends_on: [trim], run: 'echo "{input.one}"; echo 1700', output_var: s}
  - {id: whole, type: cli, depends_on: [short], run: 'echo "{input.one}"', output_var: w}
`
	c := load(t, src)
	in := map[string]string{"pin": "4711235813", "tok": "  tok-Zq9-abc\n\n", "one": "7"}
	res, err := New(WithDir(t.TempDir()), WithEvents(rec), WithLogLines(true)).Run(context.Background(), Request{Chain: c, Inputs: in, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	blob, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	saved, _ := json.Marshal(j.done)
	for what, text := range map[string]string{"result": string(blob), "events": string(evs), "journal": string(saved)} {
		for _, secret := range []string{"4711235813", "tok-Zq9-abc"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s shows %s: %s", what, secret, text)
			}
		}
	}
	if got := res.Vars["s"]; got != "7\n1700" && got != "***\n1700" {
		t.Errorf("a one-character secret masked inside text: %#v", got)
	}
	if got := res.Vars["w"]; got != "***" {
		t.Errorf("a one-character secret that is the whole value: %#v", got)
	}
}

func TestSecretRunKeepsNoRawSpillFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "outputs")
	src := `
name: t
inputs: [{name: tok, secret: true}]
steps:
  - {id: big, type: cli, run: 'printf %s {input.tok}; head -c 9000000 /dev/zero | tr "\0" x; printf %s {input.tok}', output_var: b}
`
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: map[string]string{"tok": "tok-Zq9-spill"}, OutputDir: out, Journal: &memJournal{}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
	if files := dirHolds(t, filepath.Dir(out), "tok-Zq9-spill"); len(files) > 0 {
		t.Errorf("a spill file holds the secret: %v", files)
	}
	if text, _ := res.Vars["b"].(string); !strings.Contains(text, "secret inputs") {
		t.Errorf("the cut value does not say why the rest is not kept: %.100q", text[len(text)-200:])
	}
}

// TestSpillFilesArePrivate: the outputs/ directory is 0700 and a spill
// file 0600, like every other file of a saved run.
func TestSpillFilesArePrivate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "outputs")
	src := `
name: t
steps:
  - {id: big, type: cli, run: 'head -c 9000000 /dev/zero', output_var: b}
`
	if _, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), OutputDir: out, Journal: &memJournal{}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("outputs/: %v %v", fi.Mode(), err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*"))
	for _, f := range files {
		if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %o", f, fi.Mode().Perm())
		}
	}
	if len(files) == 0 {
		t.Error("no spill file")
	}
}

// TestHTTPStepErrorsRedactURLs: a URL built from a step's output (no
// secret input to mask) is shown without its credentials and query, in
// the error, the events and the result, also when it fails to parse, in
// an http step and an http pre_tool alike.
func TestHTTPStepErrorsRedactURLs(t *testing.T) {
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
inputs: [q]
steps:
  - {id: tok, type: cli, run: 'echo Zq9-vault-token', output_var: tok}
  - {id: get, type: http, depends_on: [tok], url: 'http://deploy:{tok}@127.0.0.1:9/api?api_key={tok}&q={input.q}', continue_on_error: true}
  - id: pre
    type: cli
    command: echo
    depends_on: [tok]
    continue_on_error: true
    pre_tools: [{type: http, url: 'http://u:{tok}@[::1/x?k={tok}', inject_as: d}]
`, map[string]string{"q": "a\tb"}, WithEvents(rec))
	blob, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	for what, text := range map[string]string{"result": string(blob), "events": string(evs)} {
		if strings.Contains(text, "Zq9-vault-token@") || strings.Contains(text, "api_key=Zq9") || strings.Contains(text, "k=Zq9") {
			t.Errorf("the %s shows a URL's credentials or query: %s", what, text)
		}
	}
	if e := step(t, res, "get").Error; !strings.Contains(e, "***@127.0.0.1:9/api?…") {
		t.Errorf("the error does not name the redacted URL: %s", e)
	}
	if e := step(t, res, "pre").Error; !strings.Contains(e, "***@[::1/x?…") {
		t.Errorf("the pre_tool's error does not name the redacted URL: %s", e)
	}
}

// TestSecretsAreMaskedEncodedAndInInputErrors: a secret percent-encoded
// in a URL, escaped in JSON, or quoted by an input's error is masked too.
func TestSecretsAreMaskedEncodedAndInInputErrors(t *testing.T) {
	rec := &event.Recorder{}
	const tok = `Zq9 "p/w"&x`
	res := runChain(t, `
name: t
inputs: [{name: tok, secret: true}]
steps:
  - {id: get, type: http, url: 'http://127.0.0.1:1/api/{input.tok}/x', continue_on_error: true}
  - {id: js, type: transform, expr: 'toJSON({"t": input.tok})', output_var: j}
`, map[string]string{"tok": tok}, WithEvents(rec))
	blob, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	for what, text := range map[string]string{"result": string(blob), "events": string(evs)} {
		for _, form := range []string{"Zq9%20", "Zq9+%22", `Zq9 \"p`, `Zq9 \\\"p`} {
			if strings.Contains(text, form) {
				t.Errorf("the %s shows the secret as %s: %s", what, form, text)
			}
		}
	}
	c := load(t, wf(`    inputSchema:
      type: object
      properties:
        pin: {type: integer, writeOnly: true}
    states:
      a: {terminal: true}
`))
	for _, pin := range []string{"Zq9-not-a-number", "ab"} {
		_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"pin": pin}})
		if err == nil || strings.Contains(err.Error(), `"`+pin+`"`) {
			t.Errorf("the input error shows the secret: %v", err)
		}
	}
}

// An HTTP step's error quotes the body's start: a body that echoes the
// secret where the quote is cut shows none of it.
func TestHTTPErrorBodyCutInsideASecretShowsNoneOfIt(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, strings.Repeat("x", 190)+r.URL.Path)
	}))
	defer srv.Close()
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
inputs: [{name: tok, secret: true}]
steps:
  - {id: get, type: http, url: '`+srv.URL+`/{input.tok}', continue_on_error: true}
`, map[string]string{"tok": "Vk7-hidden-token-42"}, WithEvents(rec))
	blob, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	for what, text := range map[string]string{"result": string(blob), "events": string(evs)} {
		if strings.Contains(text, "Vk7-hid") {
			t.Errorf("the %s shows the secret's beginning: %s", what, text)
		}
	}
}

// A --take whose argument the transition refuses, holding a secret input's
// value (typed into the wrong field), names the argument, never the value:
// the error ends the command before anything runs, outside the events.
func TestRefusedDecisionArgumentShowsNoSecret(t *testing.T) {
	c := load(t, `
version: "1.0.0"
workflows:
  w:
    inputSchema: {type: object, required: [tok], properties: {tok: {type: string, writeOnly: true}}}
    initialState: a
    states:
      a:
        transitions:
          fin:
            target: done
            actor: human
            inputSchema: {type: object, required: [n, e], properties: {n: {type: integer}, e: {type: string, enum: [x, y]}}}
      done: {terminal: true}
`)
	const tok = "Kp4-topsecret-91"
	j := &memJournal{}
	l := New(WithDir(t.TempDir()))
	if _, err := l.Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"tok": tok}, Journal: j}); err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{{"n": tok, "e": "x"}, {"n": 1, "e": tok}, {"n": "x" + tok + "x", "e": "x"}} {
		_, err := l.Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"tok": tok}, History: j.transitions, Take: "fin", Args: args, Journal: j})
		var ae *response.ArgError
		if !errors.As(err, &ae) {
			t.Fatalf("%v: %v, want an ArgError", args, err)
		}
		if strings.Contains(err.Error(), "topsecret") {
			t.Errorf("%v: the error shows the secret: %v", args, err)
		}
	}
}

package cassette

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
)

// live is a model that answers every request with its prompt, counting
// what it was asked.
type live struct{ asked int }

func (l *live) Name() string { return "anthropic" }
func (l *live) Complete(_ context.Context, req llm.Request) (*llm.Response, error) {
	l.asked++
	return &llm.Response{Text: "re: " + req.Messages[len(req.Messages)-1].Content, FinishReason: llm.FinishStop,
		Usage: llm.Usage{InputTokens: 10, OutputTokens: 3}, Model: req.Model}, nil
}

// models resolves provider/model names to the live fake.
type models struct{ l *live }

func (m models) Split(model string) (string, string, error) {
	p, n, ok := strings.Cut(model, "/")
	if !ok {
		return "", "", errors.New("no provider")
	}
	return p, n, nil
}
func (m models) Target(model string) (llm.Target, error) {
	_, n, err := m.Split(model)
	return llm.Target{Provider: m.l, Model: n}, err
}

func ask(t *testing.T, s *Session, step, prompt string) (*llm.Response, error) {
	t.Helper()
	target, err := s.Target("anthropic/claude-x")
	if err != nil {
		t.Fatal(err)
	}
	ctx := llm.WithCaller(context.Background(), step)
	return target.Provider.Complete(ctx, llm.Request{Model: target.Model, Messages: []llm.Message{{Role: llm.User, Content: prompt}}})
}

func TestRecordThenReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.cassette.yaml")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	l := &live{}
	rec := NewSession(c, "case one", ModeMissing, models{l}, []Secret{{Name: "env KEY", Value: "sk-live-secret"}}, nil)
	for _, p := range []string{"first turn", "second turn"} {
		if _, err := ask(t, rec, "agent", p); err != nil {
			t.Fatal(err)
		}
	}
	if l.asked != 2 || !c.Changed() {
		t.Fatalf("asked %d, changed %v", l.asked, c.Changed())
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"case: case one", "step: agent", "seq: 2", "content: second turn", "text: 're: first turn'"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("cassette lacks %q:\n%s", want, data)
		}
	}

	c2, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	play := NewSession(c2, "case one", ModeNone, models{l}, nil, nil)
	for _, p := range []string{"first turn", "second turn"} {
		resp, err := ask(t, play, "agent", p)
		if err != nil || resp.Text != "re: "+p || resp.Usage.InputTokens != 10 {
			t.Fatalf("replay %q: %+v %v", p, resp, err)
		}
	}
	if l.asked != 2 {
		t.Errorf("a replay asked the live model (%d requests)", l.asked)
	}
	if u := c2.Unused(); len(u) != 0 {
		t.Errorf("unused after a full replay: %v", u)
	}
	// another case asking the same request gets the same answer
	other := NewSession(c2, "case two", ModeNone, models{l}, nil, nil)
	if resp, err := ask(t, other, "agent", "first turn"); err != nil || resp.Text != "re: first turn" {
		t.Fatalf("another case: %+v %v", resp, err)
	}
}

func TestMissNamesTheStepAndTheChange(t *testing.T) {
	c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
	l := &live{}
	_, _ = ask(t, NewSession(c, "k", ModeMissing, models{l}, nil, nil), "summarize", "summarise the diff\nline two")
	s := NewSession(c, "k", ModeNone, models{l}, nil, nil)
	_, err := ask(t, s, "summarize", "summarise the diff\nline 2")
	var le *llm.Error
	if !errors.As(err, &le) || le.Transient {
		t.Fatalf("a miss must be a permanent model error, got %v", err)
	}
	want := `step summarize: no recorded answer for this anthropic/claude-x request (--record=none); against the nearest recording (case "k", step summarize #1): messages[0].content: line 2 was "line two", now "line 2"`
	if !strings.Contains(err.Error(), want) {
		t.Errorf("miss:\n got %s\nwant %s", err, want)
	}
	if len(s.Misses()) != 1 || l.asked != 1 {
		t.Errorf("misses %d, live asked %d", len(s.Misses()), l.asked)
	}
	// a step nothing was recorded for says so
	_, err = ask(t, s, "other", "hello")
	if err == nil || !strings.Contains(err.Error(), "step other") {
		t.Errorf("other step: %v", err)
	}
}

func TestSameRequestTwiceReplaysInOrder(t *testing.T) {
	c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
	c.add(&Recording{Case: "k", Step: "s", Seq: 1, Request: NewRequest("anthropic", llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.User, Content: "roll"}}}), Response: Response{Text: "3"}})
	c.add(&Recording{Case: "k", Step: "s", Seq: 2, Request: NewRequest("anthropic", llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.User, Content: "roll"}}}), Response: Response{Text: "5"}})
	s := NewSession(c, "k", ModeNone, models{&live{}}, nil, nil)
	var got []string
	for range 3 {
		resp, err := ask(t, s, "s", "roll")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, resp.Text)
	}
	if strings.Join(got, ",") != "3,5,5" {
		t.Errorf("answers %v, want 3,5,5 (the last repeats)", got)
	}
}

func TestSecretsAreRefusedAtWriteTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	c, _ := Load(path)
	s := NewSession(c, "k", ModeMissing, models{&live{}}, []Secret{{Name: "secret input token", Value: "hunter2-pw"}}, nil)
	_, err := ask(t, s, "ask", "is hunter2-pw right?")
	if err == nil || !strings.Contains(err.Error(), "refusing to record step ask's model request: it holds the value of secret input token") {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the refusal shows the secret: %v", err)
	}
	if c.Changed() || len(c.Recordings()) != 0 {
		t.Error("a refused recording was kept")
	}
	_ = c.Save()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("a cassette was written")
	}
}

func TestModeAllReplacesTheCase(t *testing.T) {
	c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
	old := &Recording{Case: "k", Step: "s", Seq: 1, Request: NewRequest("anthropic", llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.User, Content: "old"}}})}
	kept := &Recording{Case: "other", Step: "s", Seq: 1, Request: old.Request}
	c.add(old)
	c.add(kept)
	l := &live{}
	s := NewSession(c, "k", ModeAll, models{l}, nil, nil)
	if _, err := ask(t, s, "s", "old"); err != nil {
		t.Fatal(err)
	}
	recs := c.Recordings()
	if l.asked != 1 || len(recs) != 2 || recs[0] != kept || recs[1].Response.Text != "re: old" {
		t.Errorf("asked %d, recordings %+v", l.asked, recs)
	}
}

func TestScriptAnswersFirst(t *testing.T) {
	c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
	script := NewScript(map[string][]Answer{"s": {{Status: 429, Message: "slow down"}, {Text: "fine"}}})
	s := NewSession(c, "k", ModeNone, models{&live{}}, nil, script)
	_, err := ask(t, s, "s", "x")
	var le *llm.Error
	if !errors.As(err, &le) || !le.Transient || le.Status != 429 {
		t.Fatalf("first answer: %v", err)
	}
	for range 2 {
		if resp, err := ask(t, s, "s", "x"); err != nil || resp.Text != "fine" {
			t.Fatalf("then: %+v %v", resp, err)
		}
	}
	if _, err := ask(t, s, "unscripted", "x"); err == nil {
		t.Error("an unscripted step with no recording must miss")
	}
}

func TestKeyCoversWhatShapesTheAnswer(t *testing.T) {
	temp := 0.2
	base := llm.Request{Model: "m", System: "sys", Messages: []llm.Message{{Role: llm.User, Content: "hi"}}}
	key := NewRequest("p", base).Key()
	for name, change := range map[string]func(r *llm.Request){
		"system":      func(r *llm.Request) { r.System = "other" },
		"temperature": func(r *llm.Request) { r.Temperature = &temp },
		"max_tokens":  func(r *llm.Request) { r.MaxTokens = 10 },
		"tools":       func(r *llm.Request) { r.Tools = []llm.Tool{{Name: "t"}} },
		"tool_choice": func(r *llm.Request) { r.ToolChoice = "t" },
		"message":     func(r *llm.Request) { r.Messages[0].Content = "ho" },
	} {
		r := base
		r.Messages = append([]llm.Message(nil), base.Messages...)
		change(&r)
		if NewRequest("p", r).Key() == key {
			t.Errorf("%s does not change the key", name)
		}
	}
	if NewRequest("q", base).Key() == key {
		t.Error("the provider does not change the key")
	}
	// the default answer cap is the same request as no cap
	capped := base
	capped.MaxTokens = llm.DefaultMaxTokens
	if NewRequest("p", capped).Key() != key {
		t.Error("MaxTokens 0 and the default differ")
	}
	// streaming is how the answer travels, not what it is
	streamed := base
	streamed.OnDelta = func(string) {}
	if NewRequest("p", streamed).Key() != key {
		t.Error("streaming changes the key")
	}
}

func TestLoadRefusesBadFiles(t *testing.T) {
	for name, text := range map[string]string{
		"version":    "version: 9\nrecordings: []\n",
		"unknown":    "version: 1\nrecordings:\n  - case: a\n    step: s\n    sequence: 1\n",
		"no step":    "version: 1\nrecordings:\n  - case: a\n    request: {provider: p, model: m}\n",
		"not yaml":   "version: [\n",
		"no request": "version: 1\nrecordings:\n  - {case: a, step: s}\n",
		"second":     "version: 1\nrecordings:\n  - {case: a, step: s, request: {provider: p, model: m}}\n  - {case: a}\n",
	} {
		path := filepath.Join(t.TempDir(), "c.yaml")
		_ = os.WriteFile(path, []byte(text), 0o644)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
	if _, err := ParseMode("sometimes"); err == nil {
		t.Error("ParseMode took a bad mode")
	}
}

func TestSecretFormsAreRefused(t *testing.T) {
	for name, prompt := range map[string]string{
		"json escaped": `value: {"k": "pa\"ss&w<rd>"}`,
		"one line":     "key: line-two-of-it",
		"url escaped":  "https://x.test/?k=pa%22ss%26w%3Crd%3E",
	} {
		c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
		secrets := []Secret{{Name: "env A_API_KEY", Value: `pa"ss&w<rd>`}, {Name: "env B_TOKEN", Value: "line-one\nline-two-of-it\n"}}
		s := NewSession(c, "k", ModeMissing, models{&live{}}, secrets, nil)
		if _, err := ask(t, s, "ask", prompt); err == nil || !strings.Contains(err.Error(), "refusing to record") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestSaveOrderDoesNotDependOnArrival(t *testing.T) {
	req := func(msgs ...string) Request {
		var m []llm.Message
		for _, x := range msgs {
			m = append(m, llm.Message{Role: llm.User, Content: x})
		}
		return NewRequest("anthropic", llm.Request{Model: "claude-x", Messages: m})
	}
	save := func(order []string) string {
		path := filepath.Join(t.TempDir(), "c.yaml")
		c, _ := Load(path)
		for i, item := range order {
			c.add(&Recording{Case: "k", Step: "each", Seq: i + 1, Request: req(item)})
		}
		c.add(&Recording{Case: "k", Step: "loop", Seq: 1, Request: req("turn 1")})
		c.add(&Recording{Case: "k", Step: "loop", Seq: 2, Request: req("turn 1", "turn 2")})
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		return string(data)
	}
	a, b := save([]string{"x", "y", "z"}), save([]string{"z", "x", "y"})
	if a != b {
		t.Errorf("parallel arrivals give different files:\n%s\n---\n%s", a, b)
	}
	loop := a[strings.Index(a, "step: loop"):]
	if first, second := strings.Index(loop, "seq: 1"), strings.Index(loop, "seq: 2"); first < 0 || second < first || strings.Count(loop[first:second], "content:") != 1 {
		t.Errorf("a tool loop's turns are out of order:\n%s", a)
	}
}

func TestLoadNamesTheRecordingsLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	_ = os.WriteFile(path, []byte("version: 1\nrecordings:\n  - {case: a, step: s, request: {provider: p, model: m}}\n  - {case: a}\n"), 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path+":4: recording 2 needs step") {
		t.Errorf("got %v", err)
	}
}

// A credential no variable names (a key file a step read, a token pasted
// in a prompt) is known by its shape: a recording holding a private key,
// a cloud or forge token, or a model provider's key is refused; text that
// only resembles one (a short "sk-", a PEM public key) is recorded.
func TestCredentialShapedTextIsRefused(t *testing.T) {
	for name, prompt := range map[string]string{
		"a PEM private key":     "deploy with:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
		"an RSA private key":    "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n",
		"an AWS access key id":  "aws_access_key_id = AKIAZ7Q2XK4PLM3N8RTW",
		"a GitHub token":        `{"auth": "ghp_` + strings.Repeat("aZ9", 12) + `"}`,
		"a fine-grained PAT":    "github_pat_11ABCDEFG0" + strings.Repeat("x7", 20),
		"a Slack token":         "slack: xoxb-123456789012-abcdefABCDEF",
		"an Anthropic key":      "key sk-ant-api03-" + strings.Repeat("Qw3", 10),
		"an OpenAI project key": "OPENAI=sk-proj-" + strings.Repeat("Zx8", 12),
		"a Google API key":      "AIza" + strings.Repeat("Sy9_", 8) + "abc",
		"a GitLab token":        "glpat-" + strings.Repeat("k2", 10),
		"a Stripe live key":     "sk_live_" + strings.Repeat("4eC3", 6),
	} {
		c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
		s := NewSession(c, "k", ModeMissing, models{&live{}}, nil, nil)
		if _, err := ask(t, s, "ask", prompt); err == nil || !strings.Contains(err.Error(), "refusing to record") {
			t.Errorf("%s: got %v, want a refusal", name, err)
		}
	}
	for name, prompt := range map[string]string{
		"a short sk- word":  "use the sk-learn library",
		"a public key":      "-----BEGIN PUBLIC KEY-----\nMIIBIj\n",
		"a word like AKIA":  "AKIA is four letters",
		"ghp_ in prose":     "tokens start with ghp_ on GitHub",
		"a placeholder key": "set OPENAI_API_KEY=sk-...",
	} {
		c, _ := Load(filepath.Join(t.TempDir(), "c.yaml"))
		s := NewSession(c, "k", ModeMissing, models{&live{}}, nil, nil)
		if _, err := ask(t, s, "ask", prompt); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
}

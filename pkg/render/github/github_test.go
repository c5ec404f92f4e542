package github

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

func TestGitHubEscaping(t *testing.T) {
	tests := []struct {
		in, data, prop string
	}{
		{"plain text", "plain text", "plain text"},
		{"100%", "100%25", "100%25"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"x: y, z", "x: y, z", "x%3A y%2C z"},
		// % is escaped first: an escape already in the text stays text
		{"%0A", "%250A", "%250A"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := ghEscapeData(tt.in); got != tt.data {
			t.Errorf("ghEscapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := ghEscapeProperty(tt.in); got != tt.prop {
			t.Errorf("ghEscapeProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

func TestGitHubCommand(t *testing.T) {
	tests := []struct {
		name  string
		props []ghProp
		msg   string
		want  string
	}{
		{"endgroup", nil, "", "::endgroup::"},
		{"group", nil, "build (failed, 1s)", "::group::build (failed, 1s)"},
		{"error", []ghProp{{"file", "chains/a, b.yaml"}, {"line", "12"}, {"col", "5"}, {"title", "ci: failed"}}, "step x failed:\n100% broken",
			"::error file=chains/a%2C b.yaml,line=12,col=5,title=ci%3A failed::step x failed:%0A100%25 broken"},
		// unknown values are left out, and the separators stay right
		{"notice", []ghProp{{"file", ""}, {"line", ""}, {"title", "paused"}}, "m", "::notice title=paused::m"},
		{"warning", []ghProp{{"file", "f.yaml"}, {"line", ""}, {"title", "t"}}, "m", "::warning file=f.yaml,title=t::m"},
	}
	for _, tt := range tests {
		if got := ghCommand(tt.name, tt.props, tt.msg); got != tt.want {
			t.Errorf("ghCommand(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestGitHubVerbatimStopsCommands(t *testing.T) {
	var plain strings.Builder
	ghVerbatim(&plain, []string{"ok", "a :: b"})
	if plain.String() != "ok\na :: b\n" {
		t.Errorf("plain lines = %q, want them as they are", plain.String())
	}
	var forged strings.Builder
	ghVerbatim(&forged, []string{"ok", "  ::add-mask::x"})
	lines := strings.Split(strings.TrimSuffix(forged.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "::stop-commands::chainrun-") {
		t.Fatalf("forged lines = %q, want them between stop-commands and its token", lines)
	}
	token := strings.TrimPrefix(lines[0], "::stop-commands::")
	if lines[3] != "::"+token+"::" {
		t.Errorf("resume line = %q, want ::%s::", lines[3], token)
	}
	if other := ghStopToken(); other == token {
		t.Errorf("two stop tokens are both %s: a step could guess one", token)
	}
}

func TestAnnotationPath(t *testing.T) {
	tests := []struct {
		file, wd, base, want string
	}{
		{"chains/ci.yaml", "/ws", "/ws", "chains/ci.yaml"},
		{"../chains/ci.yaml", "/ws/sub", "/ws", "chains/ci.yaml"},
		{"/ws/chains/ci.yaml", "/elsewhere", "/ws", "chains/ci.yaml"},
		{"ci.yaml", "/ws/chains", "/ws", "chains/ci.yaml"},
		// outside the workspace GitHub cannot link it: keep it whole
		{"/etc/chains/ci.yaml", "/ws", "/ws", "/etc/chains/ci.yaml"},
		{"../x.yaml", "/ws", "/ws", "/x.yaml"},
		{"", "/ws", "/ws", ""},
	}
	for _, tt := range tests {
		if got := annotationPath(tt.file, tt.wd, tt.base); got != tt.want {
			t.Errorf("annotationPath(%q, %q, %q) = %q, want %q", tt.file, tt.wd, tt.base, got, tt.want)
		}
	}
}

func TestNewGitHubActionsOnlyInActions(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	if g := New(env(nil), "/ws", &bytes.Buffer{}, Options{}); g != nil {
		t.Error("GITHUB_ACTIONS unset: want no renderer")
	}
	if g := New(env(map[string]string{"GITHUB_ACTIONS": "1"}), "/ws", &bytes.Buffer{}, Options{}); g != nil {
		t.Error(`GITHUB_ACTIONS=1: want no renderer (the runner sets "true")`)
	}
	g := New(env(map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": "/s.md", "GITHUB_WORKSPACE": "/repo"}), "/repo/sub", &bytes.Buffer{}, Options{Verbose: true})
	if g == nil || g.summary != "/s.md" || g.base != "/repo" || g.wd != "/repo/sub" || !g.verbose {
		t.Fatalf("renderer = %+v, want summary /s.md, base /repo, wd /repo/sub, verbose", g)
	}
	if g := New(env(map[string]string{"GITHUB_ACTIONS": "true"}), "/repo", &bytes.Buffer{}, Options{}); g.base != "/repo" {
		t.Errorf("base without GITHUB_WORKSPACE = %q, want the working directory", g.base)
	}
}

// TestGitHubGroupsNeverInterleave sends the log lines of parallel steps
// at once: each step's group comes out whole, its lines in order.
func TestGitHubGroupsNeverInterleave(t *testing.T) {
	var out syncBuffer
	g := New(func(k string) string {
		if k == "GITHUB_ACTIONS" {
			return "true"
		}
		return ""
	}, "/ws", &out, Options{Verbose: true})
	const steps, lines = 8, 50
	var wg sync.WaitGroup
	for s := range steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("s%d", s)
			for i := range lines {
				g.Emit(event.Event{Type: event.StepLog, RunID: "r", Step: id, Line: fmt.Sprintf("%s line %d", id, i)})
			}
			g.Emit(event.Event{Type: event.StepFinished, RunID: "r", Step: id, Status: "succeeded", Attempt: 1, DurationMS: 5})
		}()
	}
	wg.Wait()
	text := out.String()
	for s := range steps {
		id := fmt.Sprintf("s%d", s)
		var want strings.Builder
		want.WriteString("::group::" + id + " (succeeded, 5ms)\n")
		for i := range lines {
			fmt.Fprintf(&want, "%s line %d\n", id, i)
		}
		want.WriteString("::endgroup::\n")
		if !strings.Contains(text, want.String()) {
			t.Errorf("the group of %s is not whole in:\n%s", id, text)
		}
	}
}

func TestGitHubUnfinishedAndLongLogs(t *testing.T) {
	var out bytes.Buffer
	g := &Renderer{w: &out, verbose: true, logs: map[logKey]*stepLog{}}
	for i := range 2*maxGroupLines + 10 {
		g.Emit(event.Event{Type: event.StepLog, RunID: "r", Step: "long", Line: fmt.Sprint(i)})
	}
	g.flushUnfinished()
	text := out.String()
	if !strings.HasPrefix(text, "::group::long (unfinished)\n… 5010 earlier lines not shown\n5010\n") {
		t.Errorf("an unfinished long log starts %q, want its title, the count dropped and the last lines", text[:min(len(text), 80)])
	}
	if !strings.HasSuffix(text, "\n10009\n::endgroup::\n") {
		t.Errorf("an unfinished long log ends %q, want its last line", text[max(0, len(text)-40):])
	}
	if len(g.logs) != 0 {
		t.Errorf("%d logs left after the flush", len(g.logs))
	}
}

func TestStepTitle(t *testing.T) {
	tests := []struct {
		id       string
		status   event.Status
		ms       int64
		attempts int
		reused   bool
		want     string
	}{
		{"build", "succeeded", 12, 1, false, "build (succeeded, 12ms)"},
		{"build", "failed", 1500, 3, false, "build (failed, 1.5s, 3 attempts)"},
		{"notes", "skipped", 0, 0, false, "notes (skipped)"},
		{"ask", "cached", 0, 1, false, "ask (cached)"},
		{"lint", "succeeded", 40, 1, true, "lint (succeeded, kept from the saved run)"},
	}
	for _, tt := range tests {
		if got := stepTitle(tt.id, tt.status, tt.ms, tt.attempts, tt.reused); got != tt.want {
			t.Errorf("stepTitle(%s, %s) = %q, want %q", tt.id, tt.status, got, tt.want)
		}
	}
}

func TestSummaryMarkdownPieces(t *testing.T) {
	if got := mdText("a | b\nc"); got != `a \| b c` {
		t.Errorf("mdText = %q", got)
	}
	if got := mdCode("x`y"); got != "``x`y``" {
		t.Errorf("mdCode = %q", got)
	}
	if got := fenced("text", "a\n```\nb"); got != "````text\na\n```\nb\n````\n\n" {
		t.Errorf("fenced = %q, want a fence longer than the one inside", got)
	}
	if s, cut := truncateUTF8("héllo", 2); s != "h" || cut != 5 {
		t.Errorf("truncateUTF8 cut inside é: %q, %d", s, cut)
	}
	if s, cut := truncateUTF8("abc", 5); s != "abc" || cut != 0 {
		t.Errorf("truncateUTF8 of a short text = %q, %d", s, cut)
	}
}

func TestSummaryTruncatesLongOutput(t *testing.T) {
	res := &record.Result{RunID: "r1", Name: "big", Status: record.Succeeded, Output: strings.Repeat("x", maxSummaryOutput+100)}
	md := summaryMarkdown(res, "chains/big.yaml")
	if strings.Count(md, "x") < maxSummaryOutput || strings.Count(md, "x") > maxSummaryOutput+5 {
		t.Errorf("the summary shows %d x, want about %d", strings.Count(md, "x"), maxSummaryOutput)
	}
	if !strings.Contains(md, "_100 more bytes not shown: `chainrun runs show r1 -o json` has the whole output._") {
		t.Errorf("no truncation note in:\n%s", md[len(md)-200:])
	}
	obj := summaryMarkdown(&record.Result{RunID: "r2", Name: "obj", Status: record.Succeeded, Output: map[string]any{"a": 1}}, "")
	if !strings.Contains(obj, "```json\n{\n  \"a\": 1\n}\n```") {
		t.Errorf("a JSON output is not shown as JSON:\n%s", obj)
	}
}

func TestAppendFileNeverTruncates(t *testing.T) {
	name := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(name, []byte("# from another step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"one\n", "two\n"} {
		if err := appendFile(name, s); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "# from another step\none\ntwo\n" {
		t.Errorf("summary file = %q, want each report appended", data)
	}
}

// TestAppendFileRefusesWhatIsNoFile: $GITHUB_OUTPUT or
// $GITHUB_STEP_SUMMARY naming a FIFO nobody reads, a directory or a
// socket is refused at once, saying what it is, instead of holding the
// job past every stop signal while it waits for a reader.
func TestAppendFileRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for name, want := range map[string]string{fifo: "a FIFO (named pipe)", dir: "a directory", sock: "a socket"} {
		done := make(chan error, 1)
		go func() { done <- appendFile(name, "status=ok\n") }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want+", not a regular file") {
				t.Errorf("%s: %v, want it refused as %s", name, err, want)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: still waiting after 3s", name)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestAnnotationsPointAtTheCause(t *testing.T) {
	src := `name: ci
steps:
  - id: slow
    type: cli
    command: sleep
    args: ["5"]
  - id: bad
    type: cli
    command: "false"
  - id: lint
    type: cli
    command: "false"
    continue_on_error: true
`
	l, err := chain.Parse("chains/ci.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := &record.Result{RunID: "r1", Name: "ci", Status: record.Failed, Error: "step bad failed: exited with code 1",
		Steps: []record.StepResult{
			{ID: "slow", Status: record.StepFailed, Error: "cancelled"}, // stopped because bad failed
			{ID: "bad", Status: record.StepFailed, Error: "exited with code 1"},
			{ID: "lint", Status: record.StepFailed, Error: "exited with code 1"},
		}}
	got := annotations(l.Chain, res, "chains/ci.yaml")
	want := []string{
		"::error file=chains/ci.yaml,line=7,col=5,title=ci failed at step bad::step bad failed: exited with code 1%0Aresume it with: chainrun resume r1",
		"::warning file=chains/ci.yaml,line=10,col=5,title=step lint failed (continue_on_error)::step lint failed: exited with code 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	res.Status, res.Error = record.Interrupted, "interrupted"
	res.Steps = nil
	got = annotations(l.Chain, res, "chains/ci.yaml")
	if len(got) != 1 || got[0] != "::warning file=chains/ci.yaml,title=ci interrupted::ci interrupted (run r1); resume it with: chainrun resume r1" {
		t.Errorf("interrupted: %q", got)
	}
	res.Status, res.Error = record.Succeeded, ""
	if got := annotations(l.Chain, res, "chains/ci.yaml"); len(got) != 0 {
		t.Errorf("a success is annotated: %q", got)
	}
}

func TestWorkflowAnnotationWithoutFailedStep(t *testing.T) {
	src := `version: "1"
workflows:
  w:
    initialState: a
    states:
      a:
        transitions:
          go: {target: b, actor: deterministic, condition: "false"}
      b: {terminal: true}
`
	l, err := chain.Parse("w.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := &record.Result{RunID: "r1", Name: "w", Status: record.Failed, Error: "state a: no deterministic transition is viable",
		WorkflowResult: &response.WorkflowResult{State: "a"}}
	got := annotations(l.Chain, res, "w.yaml")
	want := "::error file=w.yaml,line=6,col=7,title=w failed at state a::state a: no deterministic transition is viable%0Aresume it with: chainrun resume r1"
	if len(got) != 1 || got[0] != want {
		t.Errorf("annotations = %q, want %q", got, want)
	}
}

func TestCancelledStepSaysWhy(t *testing.T) {
	var out bytes.Buffer
	g := &Renderer{w: &out, verbose: true, logs: map[logKey]*stepLog{}}
	g.Emit(event.Event{Type: event.StepFinished, RunID: "r", Step: "slow", Status: record.StepCancelled, DurationMS: 40, Attempt: 1, Error: "cancelled: step bad failed"})
	if want := "::group::slow (cancelled, 40ms)\nerror: cancelled: step bad failed\n::endgroup::\n"; out.String() != want {
		t.Errorf("group = %q, want %q", out.String(), want)
	}
	md := summaryMarkdown(&record.Result{RunID: "r", Name: "t", Status: record.Failed, Error: "step bad failed: boom",
		Steps: []record.StepResult{{ID: "slow", Status: record.StepCancelled, Error: "cancelled: step bad failed"}}}, "")
	if !strings.Contains(md, "🚫") {
		t.Errorf("a cancelled step has no mark of its own:\n%s", md)
	}
}

func TestSummaryShowsCost(t *testing.T) {
	res := &record.Result{Name: "c", Status: record.Succeeded, Steps: []record.StepResult{
		{ID: "ask", Status: record.StepSucceeded, Attempts: 1, Model: "openai/gpt-5-mini", Usage: &record.Usage{LLMCalls: 1, InputTokens: 1000, OutputTokens: 200, CostUSD: 0.0012}},
		{ID: "local", Status: record.StepSucceeded, Attempts: 1, Model: "house/m", Usage: &record.Usage{LLMCalls: 1, InputTokens: 10, OutputTokens: 5, Unpriced: []string{"house/m"}}},
	}, Usage: record.Usage{LLMCalls: 2, InputTokens: 1010, OutputTokens: 205, CostUSD: 0.0012, Unpriced: []string{"house/m"}}}
	md := summaryMarkdown(res, "c.yaml")
	for _, want := range []string{"| 1000 / 200 | $0.0012 |", "| 10 / 5 | $0.0000 +? |", "· $0.0012 +? (no price known for house/m: set prices: in config)"} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}

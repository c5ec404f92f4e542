package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"

	loader "github.com/chainrun/chainrun/pkg/load"
)

func load(t testing.TB, src string) *chain.Chain {
	t.Helper()
	l, err := loader.Parse("test.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatalf("chain does not load: %v", err)
	}
	return l.Chain
}

func runChain(t *testing.T, src string, inputs map[string]string, opts ...Option) *record.Result {
	t.Helper()
	res, err := New(append([]Option{WithDir(t.TempDir()), withCatalog}, opts...)...).Run(context.Background(), Request{Chain: load(t, src), Inputs: inputs})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func step(t *testing.T, res *record.Result, id string) record.StepResult {
	t.Helper()
	for _, s := range res.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no step %s in result", id)
	return record.StepResult{}
}

func TestRunSucceedsWithJSONFields(t *testing.T) {
	res := runChain(t, `
name: t
inputs: [{name: who}, {name: lang, default: en}]
steps:
  - id: info
    type: cli
    command: printf
    args: ['{"name": "%s", "n": 3, "tags": ["x", "y"]}', "$.input.who"]
    output_var: info
  - id: greet
    type: cli
    depends_on: [info]
    run: echo "hi {info.name} ({input.lang}) tag {info.tags.1} n={info.n}"
    output_var: greeting
  - id: shout
    type: transform
    depends_on: [greet]
    expr: upper(greeting)
    output_var: shouted
output: shouted
`, map[string]string{"who": "ada"})
	if res.Status != record.Succeeded {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	if res.Output != "HI ADA (EN) TAG Y N=3" {
		t.Errorf("output = %#v", res.Output)
	}
	info, ok := res.Vars["info"].(map[string]any)
	if !ok || info["name"] != "ada" {
		t.Errorf("vars.info = %#v", res.Vars["info"])
	}
	if s := step(t, res, "info"); s.Status != record.StepSucceeded || s.Attempts != 1 {
		t.Errorf("info step = %+v", s)
	}
	if res.RunID == "" || res.Name != "t" {
		t.Errorf("run id / name missing: %+v", res)
	}
}

func TestConditionSkipsAndEmptiesOutput(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: kind, type: cli, command: echo, args: [backend], output_var: kind}
  - {id: fe, type: cli, command: echo, args: [ran], depends_on: [kind], condition: '{kind} == "frontend"', output_var: fe}
  - {id: after, type: transform, depends_on: [fe], expr: 'fe == "" ? "skipped" : fe', output_var: after}
output: after
`, nil)
	if res.Status != record.Succeeded || res.Output != "skipped" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	fe := step(t, res, "fe")
	if fe.Status != record.StepSkipped || !strings.Contains(fe.Reason, "condition is false") {
		t.Errorf("fe = %+v", fe)
	}
}

func TestFailureCancelsSiblingsAndSkipsDependents(t *testing.T) {
	start := time.Now()
	res := runChain(t, `
name: t
steps:
  - {id: slow, type: cli, command: sleep, args: ["30"]}
  - {id: bad, type: cli, run: 'echo "boom detail" >&2; exit 3'}
  - {id: after, type: cli, command: echo, depends_on: [bad]}
`, nil, WithGrace(500*time.Millisecond))
	if time.Since(start) > 10*time.Second {
		t.Fatal("the slow sibling was not stopped")
	}
	if res.Status != record.Failed {
		t.Fatalf("status = %s", res.Status)
	}
	if !strings.Contains(res.Error, "step bad failed: exited with code 3: boom detail") {
		t.Errorf("error = %q", res.Error)
	}
	if s := step(t, res, "after"); s.Status != record.StepSkipped || s.Reason != "not run: step bad failed" {
		t.Errorf("after = %+v", s)
	}
	if s := step(t, res, "bad"); s.Stderr != "boom detail" {
		t.Errorf("stderr kept = %q", s.Stderr)
	}
	if s := step(t, res, "slow"); s.Status != record.StepCancelled || s.Error != "cancelled: step bad failed" {
		t.Errorf("slow = %+v", s)
	}
}

func TestContinueOnError(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: flaky, type: cli, run: 'exit 1', continue_on_error: true, output_var: f}
  - {id: after, type: transform, depends_on: [flaky], expr: '"after:" + f', output_var: a}
output: a
`, nil)
	if res.Status != record.Succeeded || res.Output != "after:" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	if s := step(t, res, "flaky"); s.Status != record.StepFailed {
		t.Errorf("flaky = %+v", s)
	}
}

func TestRetryUntilSuccess(t *testing.T) {
	dir := t.TempDir()
	res := runChain(t, fmt.Sprintf(`
name: t
steps:
  - id: flaky
    type: cli
    run: 'n=$(cat %[1]s/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[1]s/n; [ $n -ge 3 ] && echo ok || exit 1'
    retry: {max: 4, delay_ms: 1, backoff: 2}
    output_var: out
output: out
`, dir), nil)
	if res.Status != record.Succeeded || res.Output != "ok" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	if s := step(t, res, "flaky"); s.Attempts != 3 {
		t.Errorf("attempts = %d, want 3", s.Attempts)
	}
}

func TestRetryExhausted(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: never, type: cli, run: 'exit 2', retry: {max: 2}}
`, nil)
	if s := step(t, res, "never"); res.Status != record.Failed || s.Attempts != 2 {
		t.Fatalf("status %s step %+v", res.Status, s)
	}
}

func TestGuardrailFailsDeterministicStep(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - id: short
    type: cli
    command: echo
    args: [hi]
    retry: 2
    guardrails:
      - {type: min_length, value: 10}
      - {type: must_contain, value: "##"}
`, nil)
	s := step(t, res, "short")
	if res.Status != record.Failed || s.Attempts != 2 {
		t.Fatalf("status %s step %+v", res.Status, s)
	}
	for _, want := range []string{"min_length: output is 2 characters, fewer than 10", `must_contain: output does not contain "##"`} {
		if !strings.Contains(s.Error, want) {
			t.Errorf("error %q lacks %q", s.Error, want)
		}
	}
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	start := time.Now()
	res := runChain(t, fmt.Sprintf(`
name: t
steps:
  - id: hang
    type: cli
    run: 'sleep 30 & echo $! > %s; wait'
    timeout_ms: 300
`, pidFile), nil, WithGrace(200*time.Millisecond))
	if time.Since(start) > 10*time.Second {
		t.Fatal("timeout did not stop the step")
	}
	s := step(t, res, "hang")
	if s.Status != record.StepFailed || !strings.Contains(s.Error, "timed out after 300ms") {
		t.Fatalf("step = %+v", s)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(string(data), &pid)
	deadline := time.Now().Add(3 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestEarlyExitSkipsTheRest(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: check, type: cli, command: echo, args: ["true"], output_var: found, early_exit_if: '{found} == "true"'}
  - {id: expensive, type: cli, command: echo, args: [x], depends_on: [check]}
output: found
`, nil)
	if res.Status != record.Succeeded || res.Output != "true" {
		t.Fatalf("status %s output %#v", res.Status, res.Output)
	}
	if s := step(t, res, "expensive"); s.Status != record.StepSkipped || !strings.Contains(s.Reason, "early exit after step check") {
		t.Errorf("expensive = %+v", s)
	}
}

func TestHTTPStep(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			if r.Header.Get("X-Token") != "t0k" || r.Method != "POST" {
				w.WriteHeader(400)
				return
			}
			fmt.Fprint(w, `{"verdict": "ok"}`)
		case "/missing":
			w.WriteHeader(404)
			fmt.Fprint(w, "nope")
		default:
			w.WriteHeader(500)
		}
	}))
	defer srv.Close()
	res := runChain(t, fmt.Sprintf(`
name: t
inputs: [base]
steps:
  - {id: call, type: http, method: post, url: '{input.base}/ok', headers: {X-Token: t0k}, body: '{"a": 1}', output_var: resp}
  - {id: gone, type: http, url: '{input.base}/missing', fail_on_status: false, output_var: gone}
  - {id: use, type: transform, depends_on: [call, gone], expr: 'resp.verdict + " " + string(resp_status) + " " + string(gone_status)', output_var: out}
output: out
`), map[string]string{"base": srv.URL})
	if res.Status != record.Succeeded || res.Output != "ok 200 404" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	res = runChain(t, `
name: t
inputs: [base]
steps:
  - {id: broken, type: http, url: '{input.base}/boom?token=secret'}
`, map[string]string{"base": srv.URL})
	s := step(t, res, "broken")
	if res.Status != record.Failed || !strings.Contains(s.Error, "HTTP 500") || strings.Contains(s.Error, "secret") {
		t.Fatalf("step = %+v", s)
	}
}

func TestFileLoopAndPreTools(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "list.json"), []byte(`["a", "b", "c"]`), 0o644)
	res := runChain(t, `
name: t
steps:
  - {id: read, type: file, path: list.json, output_var: items}
  - id: each
    type: cli
    depends_on: [read]
    for_each: "{items}"
    run: 'echo "item-{item}-{ctx}"'
    pre_tools:
      - {type: shell, command: echo, args: [C], inject_as: ctx}
      - {type: file, path: does-not-exist, inject_as: gone, on_error: skip}
    output_var: each
  - {id: join, type: transform, depends_on: [each], expr: 'join(each, ",")', output_var: out}
output: out
`, nil, WithDir(dir))
	if res.Status != record.Succeeded || res.Output != "item-a-C,item-b-C,item-c-C" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	res = runChain(t, `
name: t
steps:
  - id: s
    type: cli
    command: echo
    args: ["{d}"]
    pre_tools: [{type: file, path: nope.txt, inject_as: d}]
`, nil)
	if s := step(t, res, "s"); res.Status != record.Failed || !strings.Contains(s.Error, "pre_tool d (file)") {
		t.Fatalf("step = %+v", s)
	}
}

func TestScriptValuesAreNeverCode(t *testing.T) {
	dir := t.TempDir()
	res := runChain(t, `
name: t
inputs: [msg]
steps:
  - {id: say, type: cli, run: 'echo {input.msg}; echo "{input.msg}"', output_var: out}
output: out
`, map[string]string{"msg": "x; touch pwned; $(touch pwned2)"}, WithDir(dir))
	if res.Status != record.Succeeded {
		t.Fatal(res.Error)
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("an input value ran as shell code (%s exists)", f)
		}
	}
	want := "x; touch pwned; $(touch pwned2)\nx; touch pwned; $(touch pwned2)"
	if res.Output != want {
		t.Errorf("output = %q", res.Output)
	}
}

func TestInterruptStopsRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	rec := &event.Recorder{}
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	res, err := New(WithGrace(200*time.Millisecond), WithEvents(rec)).Run(ctx, Request{Chain: load(t, `
name: t
steps:
  - {id: long, type: cli, command: sleep, args: ["30"]}
  - {id: next, type: cli, command: echo, depends_on: [long]}
`)})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("interrupt did not stop the step")
	}
	if res.Status != record.Interrupted {
		t.Fatalf("status = %s", res.Status)
	}
	if s := step(t, res, "next"); s.Status != record.StepSkipped {
		t.Errorf("next = %+v", s)
	}
	evs := rec.Events()
	if evs[0].Type != event.RunStarted || evs[len(evs)-1].Type != event.RunFinished || evs[len(evs)-1].Status != "interrupted" {
		t.Errorf("events = %+v", evs)
	}
}

func TestInputs(t *testing.T) {
	c := load(t, `
name: t
inputs:
  - {name: a}
  - {name: b, optional: true}
  - {name: c, default: "3"}
steps:
  - {id: s, type: cli, command: echo, args: ["{input.a}"]}
`)
	if _, err := given.ResolveInputs(c, map[string]string{}); err == nil || !strings.Contains(err.Error(), `missing required input "a"`) {
		t.Errorf("missing input: %v", err)
	}
	if _, err := given.ResolveInputs(c, map[string]string{"a": "1", "zz": "2"}); err == nil || !strings.Contains(err.Error(), `unknown input "zz" (its inputs are a, b, c)`) {
		t.Errorf("unknown input: %v", err)
	}
	got, err := given.ResolveInputs(c, map[string]string{"a": "1"})
	if b, ok := got["b"]; err != nil || got["c"] != "3" || got["a"] != "1" || !ok || b != "" {
		t.Errorf("defaults: %v %v", got, err)
	}
	var ie *given.InputError
	_, err = New().Run(context.Background(), Request{Chain: c})
	if !errors.As(err, &ie) {
		t.Errorf("Run with a missing input: %v", err)
	}
}

func TestUnsupportedStepRunsNothing(t *testing.T) {
	dir := t.TempDir()
	c := load(t, `
name: t
steps:
  - {id: first, type: cli, command: touch, args: [ran]}
  - {id: ask, type: human, prompt: "deploy?", depends_on: [first]}
`)
	_, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c})
	var ue *response.PreflightError
	if !errors.As(err, &ue) || ue.Kind != response.Unsupported || ue.Step != "ask" {
		t.Fatalf("want UnsupportedError for ask, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("a step ran although the chain could not run")
	}
}

func TestVerboseLogLines(t *testing.T) {
	rec := &event.Recorder{}
	runChain(t, `
name: t
steps:
  - {id: talk, type: cli, run: 'echo one; echo two >&2; printf three'}
`, nil, WithEvents(rec), WithLogLines(true))
	var lines []string
	for _, e := range rec.Events() {
		if e.Type == event.StepLog {
			for _, l := range e.LogLines() {
				lines = append(lines, e.Stream+":"+l)
			}
		}
	}
	got := strings.Join(lines, ",")
	for _, want := range []string{"stdout:one", "stderr:two", "stdout:three"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lines %s lack %s", got, want)
		}
	}
}

func TestMissingCommand(t *testing.T) {
	res := runChain(t, `
name: t
steps:
  - {id: s, type: cli, command: no-such-command-xyz, retry: 3}
`, nil)
	s := step(t, res, "s")
	if !strings.Contains(s.Error, `command "no-such-command-xyz" not found in PATH`) || s.Attempts != 1 {
		t.Fatalf("step = %+v", s)
	}
}

func TestPlan(t *testing.T) {
	c := load(t, `
name: t
inputs: [{name: svc}, {name: token, secret: true}]
steps:
  - {id: a, type: cli, command: deploy, args: ["$.input.svc", "{input.token}"], output_var: a}
  - {id: b, type: cli, run: 'echo {a} {input.svc}', depends_on: [a]}
`)
	plan, err := New().Plan(Request{Chain: c, Inputs: map[string]string{"svc": "api", "token": "hunter2"}})
	if err != nil {
		t.Fatal(err)
	}
	if plan[0].Action != "deploy api '***'" || plan[1].Wave != 2 || !strings.Contains(plan[1].Action, "{a}") {
		t.Fatalf("plan = %+v", plan)
	}
}

func TestChainStepCallsAnotherChain(t *testing.T) {
	lib := map[string]*chain.Chain{
		"shout": load(t, `
name: shout
inputs: [{name: text}, {name: mark, default: "!"}]
steps:
  - {id: up, type: transform, expr: 'upper(input.text) + input.mark', output_var: out}
output: out
`),
		"fails": load(t, `
name: fails
steps: [{id: no, type: cli, run: 'echo nope >&2; exit 1'}]
`),
		"loop-a": load(t, "name: loop-a\nsteps: [{id: b, type: chain, chain: loop-b}]\n"),
		"loop-b": load(t, "name: loop-b\nsteps: [{id: a, type: chain, chain: loop-a}]\n"),
	}
	resolve := func(name, _ string) (*chain.Chain, error) {
		if c, ok := lib[name]; ok {
			return c, nil
		}
		return nil, fmt.Errorf("no chain named %q", name)
	}
	res := runChain(t, `
name: caller
steps:
  - {id: word, type: cli, command: echo, args: [hey], output_var: w}
  - {id: call, type: chain, chain: shout, with: {text: "{w}"}, depends_on: [word], output_var: loud}
output: loud
`, nil, WithChains(resolve))
	if res.Status != record.Succeeded || res.Output != "HEY!" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
	res = runChain(t, "name: c\nsteps: [{id: call, type: chain, chain: fails}]\n", nil, WithChains(resolve))
	if s := step(t, res, "call"); res.Status != record.Failed || !strings.Contains(s.Error, "chain fails failed: step no failed: exited with code 1: nope") {
		t.Fatalf("step = %+v", s)
	}
	for src, want := range map[string]string{
		"name: c\nsteps: [{id: call, type: chain, chain: nowhere}]\n":                      `cannot call chain "nowhere"`,
		"name: c\nsteps: [{id: call, type: chain, chain: shout}]\n":                        `missing required input "text"`,
		"name: c\nsteps: [{id: call, type: chain, chain: shout, with: {text: a, x: b}}]\n": `unknown input "x"`,
		"name: c\nsteps: [{id: call, type: chain, chain: loop-a}]\n":                       `chain "loop-a" calls itself: c → loop-a → loop-b → loop-a`,
	} {
		_, err := New(WithChains(resolve)).Run(context.Background(), Request{Chain: load(t, src)})
		var ce *response.PreflightError
		if !errors.As(err, &ce) || ce.Kind != response.BadCall || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want CallError with %q, got %v", src, want, err)
		}
	}
}

func TestEarlyExitCancelsRunningSiblings(t *testing.T) {
	start := time.Now()
	res := runChain(t, `
name: t
steps:
  - {id: quick, type: cli, command: echo, args: [done], output_var: q, early_exit_if: 'q == "done"'}
  - {id: slow, type: cli, run: 'sleep 30; exit 1'}
`, nil, WithGrace(200*time.Millisecond))
	if time.Since(start) > 10*time.Second {
		t.Fatal("the running sibling was not cancelled")
	}
	if res.Status != record.Succeeded {
		t.Fatalf("an early exit ended as %s: %s", res.Status, res.Error)
	}
	if s := step(t, res, "slow"); s.Status != record.StepSkipped || s.Reason != "cancelled: early exit after step quick" {
		t.Errorf("slow = %+v", s)
	}
}

func TestStatusAfterToleratedHTTPFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }))
	defer srv.Close()
	res := runChain(t, `
name: t
inputs: [url]
steps:
  - {id: call, type: http, url: '{input.url}', continue_on_error: true, output_var: resp}
  - {id: after, type: transform, depends_on: [call], expr: 'resp_status == 503 ? "down" : "up"', output_var: out}
output: out
`, map[string]string{"url": srv.URL})
	if res.Status != record.Succeeded || res.Output != "down" {
		t.Fatalf("status %s output %#v err %s", res.Status, res.Output, res.Error)
	}
}

func TestSecretsAreMasked(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(401) }))
	defer srv.Close()
	rec := &event.Recorder{}
	res := runChain(t, `
name: t
inputs: [{name: token, secret: true}, url]
steps:
  - {id: echo, type: cli, run: 'echo "tok={input.token}"; echo "err {input.token}" >&2', output_var: e}
  - {id: call, type: http, url: 'http://user:{input.token}@{input.url}/x?t={input.token}', depends_on: [echo]}
`, map[string]string{"token": "s3cr3t-value", "url": strings.TrimPrefix(srv.URL, "http://")}, WithEvents(rec), WithLogLines(true))
	if res.Status != record.Failed {
		t.Fatalf("status %s", res.Status)
	}
	blob, _ := json.Marshal(res)
	evs, _ := json.Marshal(rec.Events())
	for what, text := range map[string]string{"result": string(blob), "events": string(evs)} {
		if strings.Contains(text, "s3cr3t-value") {
			t.Errorf("the secret appears in the %s: %s", what, text)
		}
	}
	if res.Vars["e"] != "tok=***" {
		t.Errorf("vars.e = %#v", res.Vars["e"])
	}
}

func TestPreToolsHonourTimeout(t *testing.T) {
	start := time.Now()
	res := runChain(t, `
name: t
steps:
  - id: s
    type: cli
    command: echo
    args: ["{d}"]
    timeout_ms: 200
    pre_tools: [{type: shell, command: sleep, args: ["30"], inject_as: d}]
`, nil, WithGrace(100*time.Millisecond))
	if time.Since(start) > 10*time.Second {
		t.Fatal("pre_tool ignored the step's timeout")
	}
	if s := step(t, res, "s"); res.Status != record.Failed || !strings.Contains(s.Error, "timed out") {
		t.Fatalf("step = %+v", s)
	}
}

func TestLoopsShareTheParallelLimit(t *testing.T) {
	dir := t.TempDir()
	res := runChain(t, `
name: t
steps:
  - {id: list, type: transform, expr: '[1, 2, 3, 4, 5, 6]', output_var: l}
  - id: a
    type: cli
    depends_on: [list]
    for_each: "{l}"
    run: 'mkdir running.$$ && n=$(ls -d running.* | wc -l) && echo $n >> peaks; sleep 0.05; rmdir running.$$'
  - id: b
    type: cli
    depends_on: [list]
    for_each: "{l}"
    run: 'mkdir running.$$ && n=$(ls -d running.* | wc -l) && echo $n >> peaks; sleep 0.05; rmdir running.$$'
`, nil, WithDir(dir), WithParallel(2))
	if res.Status != record.Succeeded {
		t.Fatal(res.Error)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "peaks"))
	for _, line := range strings.Fields(string(data)) {
		if line > "2" {
			t.Fatalf("%s loop items ran at once with --max-parallel 2", line)
		}
	}
}

func TestSecretsStaySecretInCalledChains(t *testing.T) {
	rec := &event.Recorder{}
	child := load(t, "name: child\ninputs: [t]\nsteps: [{id: use, type: cli, run: 'echo \"bad token {input.t}\" >&2; exit 3'}]\n")
	res := runChain(t, `
name: parent
inputs: [{name: token, secret: true}]
steps:
  - {id: call, type: chain, chain: child, with: {t: "{input.token}"}}
`, map[string]string{"token": "SUPERSECRET123"}, WithEvents(rec), WithChains(func(string, string) (*chain.Chain, error) { return child, nil }))
	blob, _ := json.Marshal(rec.Events())
	out, _ := json.Marshal(res)
	if strings.Contains(string(blob), "SUPERSECRET123") || strings.Contains(string(out), "SUPERSECRET123") {
		t.Fatal("a secret passed to a called chain leaked")
	}
}

// memJournal keeps a run's journal in memory; steps finishing at once
// write to it together, as to a real one.
type memJournal struct {
	mu          sync.Mutex
	started     []string
	done        []record.StepRecord
	transitions []record.TransitionRecord
}

func (m *memJournal) Transition(rec record.TransitionRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.transitions = append(m.transitions, rec)
	return nil
}

func (m *memJournal) StepStarted(step string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.started = append(m.started, step)
	return nil
}

func (m *memJournal) StepFinished(rec record.StepRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done = append(m.done, rec)
	return nil
}

func TestResumeRestoresOutputsAsTheyWere(t *testing.T) {
	src := `
name: t
steps:
  - {id: a, type: transform, expr: '7 + 2', output_var: n}
  - {id: b, type: cli, run: 'test -f ok', depends_on: [a]}
  - {id: c, type: transform, expr: 'n % 2', depends_on: [b], output_var: r}
output: r
`
	dir := t.TempDir()
	j := &memJournal{}
	c := load(t, src)
	first, _ := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j})
	if first.Status != record.Failed {
		t.Fatalf("first attempt %s", first.Status)
	}
	saved := map[string]record.StepRecord{}
	for _, r := range j.done {
		b, _ := json.Marshal(r) // as the store keeps it
		var back record.StepRecord
		json.Unmarshal(b, &back)
		saved[r.Result.ID] = back
	}
	os.WriteFile(filepath.Join(dir, "ok"), nil, 0o644)
	second, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Resume: saved, Journal: &memJournal{}})
	if err != nil || second.Status != record.Succeeded || fmt.Sprint(second.Output) != "1" {
		t.Fatalf("resume: %v %s %v %s", err, second.Status, second.Output, second.Error)
	}
	if !step(t, second, "a").Reused || step(t, second, "b").Reused {
		t.Errorf("reuse flags wrong: %+v", second.Steps)
	}
}

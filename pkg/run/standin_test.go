package run

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

func TestStandInReplacesBodies(t *testing.T) {
	src := `name: s
steps:
  - id: fetch
    type: cli
    command: false
    output_var: page
    retry: {max: 2, delay_ms: 1}
  - id: names
    type: transform
    expr: '["a", "b"]'
    output_var: names
  - id: loop
    type: cli
    depends_on: [names]
    for_each: "{names}"
    command: false
    output_var: items
  - id: env
    type: cli
    run: 'printf "%s" "$FIXED"'
    output_var: env
  - id: join
    type: transform
    depends_on: [fetch, loop, env]
    expr: 'page.title + "/" + string(len(items)) + "/" + env'
    output_var: out
output: out
`
	var mu sync.Mutex
	calls := map[string]int{}
	stand := func(_ context.Context, s *chain.Step) (Canned, bool) {
		mu.Lock()
		defer mu.Unlock()
		calls[s.ID]++
		switch {
		case s.ID == "fetch" && calls[s.ID] == 1:
			return Canned{ExitCode: 3, Stderr: "flaky"}, true
		case s.ID == "fetch":
			return Canned{Output: `{"title": "home"}`}, true
		case s.ID == "loop":
			return Canned{Data: []any{"x", "y", "z"}}, true
		}
		return Canned{}, false
	}
	res := runChain(t, src, nil, WithStandIn(stand), WithEnv(map[string]string{"FIXED": "pinned"}))
	if res.Status != record.Succeeded || res.Output != "home/3/pinned" {
		t.Fatalf("status %s, output %v, error %s", res.Status, res.Output, res.Error)
	}
	if got := step(t, res, "fetch"); got.Attempts != 2 {
		t.Errorf("fetch attempts %d: each attempt asks the stand-in", got.Attempts)
	}
	if calls["loop"] != 1 {
		t.Errorf("a mocked loop is one output, asked %d times", calls["loop"])
	}
}

func TestStandInFailureIsAStepFailure(t *testing.T) {
	src := "name: s\nsteps:\n  - {id: get, type: http, url: 'https://example.com'}\n"
	res := runChain(t, src, nil, WithStandIn(func(context.Context, *chain.Step) (Canned, bool) {
		return Canned{Err: "not mocked"}, true
	}))
	if res.Status != record.Failed || !strings.Contains(res.Error, "not mocked") {
		t.Errorf("status %s, error %q", res.Status, res.Error)
	}
}

func TestDecideComesFirst(t *testing.T) {
	src := `version: "1"
workflows:
  w:
    initialState: a
    states:
      a:
        transitions:
          go: {target: done, actor: human}
          stop: {target: stopped, actor: human}
      done: {terminal: true}
      stopped: {terminal: true}
`
	c := load(t, src)
	human := func(context.Context, response.Decision) (response.Choice, bool, error) {
		return response.Choice{Transition: "stop"}, true, nil
	}
	for name, tc := range map[string]struct {
		decide response.Scripted
		want   string
	}{
		"scripted": {func(context.Context, response.Decision) (response.Choice, bool) {
			return response.Choice{Transition: "go"}, true
		}, "done"},
		"passes": {func(context.Context, response.Decision) (response.Choice, bool) { return response.Choice{}, false }, "stopped"},
		"names no link": {func(context.Context, response.Decision) (response.Choice, bool) {
			return response.Choice{Transition: "fly"}, true
		}, "a"},
	} {
		res, err := New().Run(context.Background(), Request{Chain: c, Decide: tc.decide, Human: human})
		if err != nil {
			t.Fatal(err)
		}
		if res.State != tc.want {
			t.Errorf("%s: state %s, want %s (%s)", name, res.State, tc.want, res.Error)
		}
	}
}

func TestScriptedDecisionArguments(t *testing.T) {
	c := load(t, `version: "1"
workflows:
  w:
    initialState: a
    states:
      a:
        transitions:
          go:
            target: done
            actor: human
            inputSchema: {type: object, required: [reason], properties: {reason: {type: string}}}
      done: {terminal: true}
`)
	for name, tc := range map[string]struct {
		args  map[string]any
		state string
		err   string
	}{
		"given":   {map[string]any{"reason": "tests pass"}, "done", ""},
		"missing": {nil, "a", "reason"},
	} {
		decide := func(context.Context, response.Decision) (response.Choice, bool) {
			return response.Choice{Transition: "go", Args: tc.args}, true
		}
		res, err := New().Run(context.Background(), Request{Chain: c, Decide: decide})
		if err != nil {
			t.Fatal(err)
		}
		if res.State != tc.state || !strings.Contains(res.Error, tc.err) {
			t.Errorf("%s: state %s, error %q", name, res.State, res.Error)
		}
		if tc.err == "" && (len(res.Chain) != 1 || res.Chain[0].DecidedBy != "script") {
			t.Errorf("%s: chain %+v", name, res.Chain)
		}
	}
}

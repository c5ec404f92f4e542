package chain

import (
	"strings"
	"testing"
	"time"
)

// capRefFile is a workflow file whose capabilities: registry the
// transitions' {capability: NAME} executors name, as mcp-flowgate's
// docs/MCP-CONTROL-ARCHITECTURE.md (9368194, its first commit) writes
// them: `executor: { capability: github.create_pr }`.
const capRefFile = `version: "1.0.0"
capabilities:
  shell.base:
    guards: [{kind: role, role: builder}]
    reliability: {timeoutMs: 700}
    executor: {kind: cli, command: echo, args: [base]}
  shell.build:
    wraps: shell.base
    inputSchema: {type: object, properties: {target: {type: string}}}
    guards: [{kind: permission, permission: build.run}]
  notify:
    executor: {kind: cli, command: echo, args: [notified]}
workflows:
  w:
    initialState: a
    states:
      a:
        onEnter: {executor: {capability: notify}}
        transitions:
          build:
            target: b
            guards: [{kind: expr, expr: "$.context.ready == true"}]
            executor: {capability: shell.build}
      b:
        transitions:
          again: {target: c, reliability: {timeoutMs: 900}, executor: {capability: shell.base}}
      c: {terminal: true}
`

// TestExecutorNamingACapability: mcp-flowgate's config.rs (resolve,
// rewrite_executors_in_value, flatten_one; 9368194 to f8d8f07) replaces
// an executor {capability: NAME} with capabilities.NAME's executor,
// following wraps (the wrapped one's executor unless its own), stacking
// the capability's guards (the wrapped one's first) before the
// transition's own, and giving the transition the capability's
// reliability and inputSchema where it has none.
func TestExecutorNamingACapability(t *testing.T) {
	l, err := Parse("caps.yaml", []byte(capRefFile), Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := l.Chain.Workflow
	build := w.State("a").Transition("build")
	if build.Executor == nil || keyValue(build.Executor, "command") != "echo" || strings.Join(keyValue(build.Executor, "args").([]string), " ") != "base" {
		t.Fatalf("build's executor is not the wrapped capability's: %+v", build.Executor)
	}
	var kinds []string
	for _, g := range build.Guards {
		kinds = append(kinds, g.Kind)
	}
	if got := strings.Join(kinds, ","); got != "role,permission,expr" {
		t.Errorf("guards %s, want the wrapped capability's, the capability's, then the transition's: role,permission,expr", got)
	}
	if build.Executor.TimeoutMS != 700 {
		t.Errorf("the capability's reliability timeoutMs was not inherited: %d", build.Executor.TimeoutMS)
	}
	if build.InputSchema == nil {
		t.Errorf("the capability's inputSchema was not given to the transition")
	}
	again := w.State("b").Transition("again")
	if again.Executor == nil || again.Executor.TimeoutMS != 900 {
		t.Errorf("the transition's own reliability does not win: %+v", again.Executor)
	}
	if on := w.State("a").OnEnter; on == nil || on.Executor == nil || strings.Join(keyValue(on.Executor, "args").([]string), " ") != "notified" {
		t.Errorf("onEnter's {capability: notify} was not resolved: %+v", on)
	}
	said := warningsOf(l)
	if !strings.Contains(said, "capabilities: the gateway's capability registry is read only for executors that name one") {
		t.Errorf("no warning on the registry: %s", said)
	}
}

// TestExecutorNamingACapabilityRefused: a name the file's registry lacks,
// a wraps cycle and a capability with neither executor nor wraps are
// refused naming the capability, as mcp-flowgate refuses the config
// ("executor references unknown capability", "wraps cycle detected",
// "needs executor or wraps").
func TestExecutorNamingACapabilityRefused(t *testing.T) {
	for _, tc := range []struct{ name, caps, ref, want string }{
		{"no registry", "", "github.create_pr", `caps.yaml:10:36: state "a": transition "go": executor: capability "github.create_pr" is not in this file's capabilities`},
		{"misspelt", "capabilities:\n  shell.build: {executor: {kind: noop}}\n", "shell.biuld", `capability "shell.biuld" is not in this file's capabilities: mcp-flowgate runs {capability: NAME} as the executor of capabilities.NAME, declared in the same file (did you mean shell.build?)`},
		{"cycle", "capabilities:\n  x: {wraps: y}\n  y: {wraps: x}\n", "x", `capabilities: "x": wraps itself round`},
		{"no executor", "capabilities:\n  x: {title: X}\n", "x", `capabilities: "x": needs an executor or wraps`},
		{"wraps a missing one", "capabilities:\n  x: {wraps: gone}\n", "x", `capabilities: "x": wraps "gone", which is not in this file's capabilities`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.caps + "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            executor: {capability: " + tc.ref + "}\n      b: {terminal: true}\n"
			if tc.caps == "" {
				src = "\n" + src
			}
			_, err := Parse("caps.yaml", []byte(src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
			if strings.Contains(err.Error(), `unknown field "capability"`) {
				t.Errorf("the reference is reported twice: %v", err)
			}
		})
	}
}

// TestExecutorNamingACapabilityWithOtherKeys: mcp-flowgate replaces such
// an executor whole; chainrun does too, and says which keys it dropped.
func TestExecutorNamingACapabilityWithOtherKeys(t *testing.T) {
	src := "capabilities:\n  c: {executor: {kind: cli, command: echo, args: [cap]}}\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, actor: deterministic, executor: {capability: c, kind: cli, command: ls}}\n      b: {terminal: true}\n"
	l, err := Parse("caps.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := l.Chain.Workflow.State("a").Transition("go").Executor; keyValue(e, "command") != "echo" {
		t.Errorf("the capability does not replace the executor: %+v", e)
	}
	if said := warningsOf(l); !strings.Contains(said, `executor: capability "c" replaces this executor whole, as mcp-flowgate does: its kind or command are not read`) {
		t.Errorf("no warning naming the dropped keys: %s", said)
	}
}

// TestCapabilityRefsWalkAnAliasOnce: the rewrite of {capability: NAME}
// walks each node once, however often aliases repeat it, so nested
// aliases under workflows cost no more than the text (the decoder then
// refuses their expansion as it always has).
func TestCapabilityRefsWalkAnAliasOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("x-lol:\n  l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i < 9; i++ {
		b.WriteString("  l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [" + strings.Repeat("*l"+string(rune('0'+i-1))+", ", 9) + "*l" + string(rune('0'+i-1)) + "]\n")
	}
	b.WriteString("capabilities:\n  c: {executor: {kind: noop}}\nworkflows:\n  w:\n    initialState: a\n    initialContext: {bomb: *l8}\n    states:\n      a:\n        transitions:\n          go: {target: b, executor: {capability: c}}\n      b: {terminal: true}\n")
	done := make(chan error, 1)
	go func() {
		_, err := Parse("bomb.yaml", []byte(b.String()), Options{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "excessive aliasing") {
			t.Errorf("want the aliasing refused, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the rewrite walks every alias expansion")
	}
}

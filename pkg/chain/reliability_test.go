package chain

import (
	"strings"
	"testing"
)

// fallbackFile is a workflow file whose transition go carries rel, its
// reliability block (indented under the transition), and whose state b
// enters with an onEnter carrying onEnterRel.
func fallbackFile(rel, onEnterRel string) string {
	return `capabilities:
  mirror: {executor: {kind: cli, command: echo, args: [mirror]}}
workflows:
  w:
    initialState: a
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: cli, command: echo, args: [primary]}
            reliability:
` + rel + `      b:
        onEnter:
          executor: {kind: noop}
          reliability:
` + onEnterRel + `        transitions:
          end: {target: c, actor: deterministic}
      c: {terminal: true}
`
}

// TestReliabilityFallbackIsRead: mcp-flowgate's FallbackPolicy
// (443aa7a, crates/mcp-flowgate-core/src/reliability.rs) on a transition
// and an onEnter: each of fallback.executors is an executor read as the
// primary is (a {capability: NAME} resolved to that capability's
// executor), in order, each under the policy's timeout and retry.
func TestReliabilityFallbackIsRead(t *testing.T) {
	rel := `              timeoutMs: 2500
              retry: {maxAttempts: 3, backoff: exponential, initialDelayMs: 10}
              fallback:
                strategy: first_success
                executors:
                  - {kind: cli, command: echo, args: [second]}
                  - {capability: mirror}
                  - {kind: noop}
`
	onEnter := `            fallback: {executors: [{kind: cli, command: echo, args: [entered]}]}
`
	l, err := Parse("fb.yaml", []byte(fallbackFile(rel, onEnter)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := l.Chain.Workflow.State("a").Transition("go").Executor
	var got []string
	for _, fb := range e.Fallbacks {
		got = append(got, string(fb.Kind)+":"+strings.Join(keyValue(fb, "args").([]string), " "))
		if fb.TimeoutMS != 2500 || fb.Retry == nil || fb.Retry.Max != 3 || fb.Retry.Backoff != 2 {
			t.Errorf("%s does not run under the policy: timeout %d retry %+v", fb.Who(), fb.TimeoutMS, fb.Retry)
		}
		if fb.Primary() != e || fb.OutputVar != e.OutputVar {
			t.Errorf("%s: primary %p output_var %q, want the primary's", fb.Who(), fb.Primary(), fb.OutputVar)
		}
	}
	if strings.Join(got, ",") != "cli:second,cli:mirror,noop:" {
		t.Errorf("fallbacks %v, want second, the capability's executor, noop, in order", got)
	}
	if e.Fallbacks[0].Who() != `transition "go" fallback 1` {
		t.Errorf("a candidate is named %q", e.Fallbacks[0].Who())
	}
	on := l.Chain.Workflow.State("b").OnEnter.Executor
	if len(on.Fallbacks) != 1 || strings.Join(keyValue(on.Fallbacks[0], "args").([]string), " ") != "entered" {
		t.Errorf("onEnter's fallback was not read: %+v", on.Fallbacks)
	}
	if said := warningsOf(l); !strings.Contains(said, `executors[1]: capability "mirror" runs that capability's executor`) {
		t.Errorf("no word on the capability candidate: %s", said)
	}
}

// TestReliabilityFallbackRefused: a fallback executor is checked as the
// primary is: an unknown kind, an executor that is not a mapping, a
// missing field, a workflow executor (whose decision could not be
// resumed) and an unknown capability are exit 2 naming the line.
func TestReliabilityFallbackRefused(t *testing.T) {
	for _, tc := range []struct{ name, executors, want string }{
		{"misspelt kind", "                  - {kind: mcpp}\n", `fb.yaml:16:22: transition "go" fallback 1: unknown kind "mcpp" (did you mean mcp?)`},
		{"not a mapping", "                  - echo hi\n", `fb.yaml:16:21: state "a": transition "go": reliability: fallback: executors[0]: a step definition is a mapping`},
		{"second of two, a cli without command", "                  - {kind: noop}\n                  - {kind: cli, args: [x]}\n", `fb.yaml:17:21: transition "go" fallback 2: a cli step needs command`},
		{"a workflow executor", "                  - {kind: workflow, workflow: other}\n", `transition "go" fallback 1: a fallback cannot be a workflow executor`},
		{"an unknown capability", "                  - {capability: mirorr}\n", `executors[0]: capability "mirorr" is not in this file's capabilities`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel := "              fallback:\n                executors:\n" + tc.executors
			_, err := Parse("fb.yaml", []byte(fallbackFile(rel, "            timeoutMs: 10\n")), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
		})
	}
}

// TestReliabilityUnparsableIsWarned: mcp-flowgate's
// ReliabilityPolicy::from_value (443aa7a, reliability.rs) reads a block
// serde cannot parse as the default policy, silently, and runs the
// executor once without timeout, retry or fallback. chainrun reads it
// the same (no rule refuses what the peer runs) and warns, naming the
// line and what did not parse. A strategy other than first_success,
// which its runtime never reads, runs as first_success, with a warning.
func TestReliabilityUnparsableIsWarned(t *testing.T) {
	for _, tc := range []struct{ name, rel, want string }{
		{"unknown backoff", "              retry: {maxAttempts: 3, backoff: linear}\n              fallback: {executors: [{kind: noop}]}\n",
			`fb.yaml:14:48: warning: state "a": transition "go": reliability: not read: retry: backoff is none, fixed or exponential, not "linear"`},
		{"fallback without executors", "              timeoutMs: 50\n              fallback: {strategy: first_success}\n",
			`reliability: not read: fallback: executors is required`},
		{"executors not a list", "              fallback: {executors: {kind: noop}}\n", `not read: fallback: executors is required, a list of executors`},
		{"a word for a number", "              timeoutMs: soon\n              fallback: {executors: [{kind: noop}]}\n", `not read: a value of the wrong type`},
		{"a negative delay", "              retry: {maxAttempts: 2, initialDelayMs: -5}\n", `not read: retry: maxAttempts, initialDelayMs and maxDelayMs cannot be negative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := loadWarned(t, tc.rel, tc.want)
			if len(e.Fallbacks) != 0 || e.Retry != nil || e.TimeoutMS != 0 {
				t.Errorf("an unparsed policy still applies: fallbacks %d retry %+v timeout %d", len(e.Fallbacks), e.Retry, e.TimeoutMS)
			}
		})
	}
	l, err := Parse("fb.yaml", []byte(fallbackFile("              fallback: {strategy: all_success, executors: [{kind: noop}]}\n", "            timeoutMs: 10\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if said := warningsOf(l); !strings.Contains(said, `strategy "all_success" runs as first_success`) {
		t.Errorf("no warning on the strategy: %s", said)
	}
	if e := l.Chain.Workflow.State("a").Transition("go").Executor; len(e.Fallbacks) != 1 {
		t.Errorf("the fallback of an unknown strategy is not run: %+v", e.Fallbacks)
	}
}

// TestReliabilityKeysMcpFlowgateIgnores: serde reads mcp-flowgate's
// policy ignoring keys its model does not name, and retryOn as any list
// of words, retrying only the classes it names (443aa7a,
// reliability.rs: RetryPolicy, retryable). chainrun loads such a file
// (it refused it), warning of each key and word, the rest of the policy
// read; a retryOn naming no known class retries nothing.
func TestReliabilityKeysMcpFlowgateIgnores(t *testing.T) {
	for _, tc := range []struct {
		name, rel, want string
		max, timeout    int
	}{
		{"an unknown key beside the policy", "              timeoutMs: 40\n              retires: 3\n", `fb.yaml:15:15: warning: state "a": transition "go": reliability: unknown field "retires" is not read, as mcp-flowgate reads none`, 0, 40},
		{"a misspelt retry key", "              retry: {maxAttempt: 3, initialDelayMs: 1}\n", `reliability: retry: unknown field "maxAttempt" is not read, as mcp-flowgate reads none (did you mean maxAttempts?)`, 1, 0},
		{"one known class and one unknown", "              retry: {maxAttempts: 3, retryOn: [timeout, sometimes]}\n", `retryOn: "sometimes" is not one of timeout`, 3, 0},
		{"an empty retryOn", "              retry: {maxAttempts: 3, retryOn: []}\n", `retryOn names no failure class, so no failure is retried`, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := loadWarned(t, tc.rel, tc.want)
			attempts := 0 // no retry at all
			if e.Retry != nil {
				attempts = e.Retry.Max
			}
			if attempts != tc.max {
				t.Errorf("retry max %d, want %d", attempts, tc.max)
			}
			if e.TimeoutMS != tc.timeout {
				t.Errorf("timeout %d, want %d", e.TimeoutMS, tc.timeout)
			}
		})
	}
}

// loadWarned loads fallbackFile with rel on transition go, which must
// load with a warning saying want; it returns go's executor.
func loadWarned(t *testing.T, rel, want string) *Step {
	t.Helper()
	l, err := Parse("fb.yaml", []byte(fallbackFile(rel, "            timeoutMs: 10\n")), Options{})
	if err != nil {
		t.Fatalf("refused what mcp-flowgate runs: %v", err)
	}
	if said := warningsOf(l); !strings.Contains(said, want) {
		t.Errorf("want a warning %q, got %s", want, said)
	}
	return l.Chain.Workflow.State("a").Transition("go").Executor
}

// TestNestedReliabilityIsRead: a parallel branch's or a pipeline step's
// own reliability block (mcp-flowgate's parallel.rs and pipeline.rs,
// 443aa7a) is read as a transition's: its timeout and retry, its
// fallbacks checked as the branch is (a bad one exit 2 naming its line),
// a block that does not parse warned of.
func TestNestedReliabilityIsRead(t *testing.T) {
	file := func(rel string) string {
		return "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            executor:\n              kind: pipeline\n              steps:\n                - kind: noop\n                  reliability: " + rel + "\n      b: {terminal: true}\n"
	}
	l, err := Parse("nest.yaml", []byte(file("{timeoutMs: 90, retry: {maxAttempts: 2}, fallback: {executors: [{kind: cli, command: echo, args: [x]}]}}")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	step := l.Chain.Workflow.State("a").Transition("go").Executor.Pipeline().Steps[0]
	if step.TimeoutMS != 90 || step.Retry == nil || step.Retry.Max != 2 || len(step.Fallbacks) != 1 || step.Fallbacks[0].TimeoutMS != 90 {
		t.Errorf("the step's policy is not read: %+v", step)
	}
	if _, err := Parse("nest.yaml", []byte(file("{fallback: {executors: [{kind: clii, command: echo}]}}")), Options{}); err == nil || !strings.Contains(err.Error(), `nest.yaml:14:`) || !strings.Contains(err.Error(), `fallback 1: unknown kind "clii"`) {
		t.Errorf("want the bad fallback refused naming line 14, got %v", err)
	}
	l, err = Parse("nest.yaml", []byte(file("{retry: {maxAttempts: many}}")), Options{})
	if err != nil {
		t.Fatalf("refused what mcp-flowgate runs: %v", err)
	}
	if said := warningsOf(l); !strings.Contains(said, "nest.yaml:14:32: warning: ") || !strings.Contains(said, "reliability: not read: a value of the wrong type") {
		t.Errorf("no warning naming the line: %s", said)
	}
}

// TestReliabilityWithoutAnExecutorIsWarned: mcp-flowgate reads a
// transition's reliability only beside its executor (runtime_submit.rs,
// 443aa7a: inside `if let Some(executor_config)`), so a transition with
// a policy and no executor moves with nothing run. chainrun loads it
// (it refused it) with a warning naming the line, whatever the policy
// holds.
func TestReliabilityWithoutAnExecutorIsWarned(t *testing.T) {
	for _, rel := range []string{"{timeoutMs: 500}", "{fallback: {executors: [{kind: cli, command: echo}]}}", "{retry: {maxAttempts: 2}}"} { // each starts at column 62
		src := "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, actor: deterministic, reliability: " + rel + "}\n      b: {terminal: true}\n"
		l, err := Parse("nx.yaml", []byte(src), Options{})
		if err != nil {
			t.Fatalf("%s: refused what mcp-flowgate runs: %v", rel, err)
		}
		if said := warningsOf(l); !strings.Contains(said, `nx.yaml:7:62: warning: state "a": transition "go": reliability applies to an executor: the transition has none, so it is not read`) {
			t.Errorf("%s: no warning naming the line: %s", rel, said)
		}
		if go_ := l.Chain.Workflow.State("a").Transition("go"); go_.Executor != nil {
			t.Errorf("%s: an executor appeared: %+v", rel, go_.Executor)
		}
	}
}

package runtest

import "github.com/chainrun/chainrun/pkg/run/record"

// review is a workflow that builds, then waits for a decision whose
// transition takes typed, required arguments and whose guard reads them.
const review = `version: "1"
workflows:
  review:
    initialState: build
    states:
      build:
        transitions:
          make: {target: vote, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "echo '{\"art\": \"a7\"}'"]}, output: {art: "$.output.art"}}
      vote:
        goal: ship it?
        transitions:
          approve:
            target: done
            actor: human
            inputSchema: {type: object, required: [score, who], properties: {score: {type: integer, minimum: 1, maximum: 10}, who: {type: string}}}
            guards: [{kind: expr, expr: "$.arguments.who != 'nobody'"}]
            output: {score: "$.arguments.score", who: "$.arguments.who"}
          reject: {target: done, actor: agent}
      done: {terminal: true}
`

// nested is a workflow whose transitions run workflows of the same file
// (mcp-flowgate's workflow executor): one that runs to its end, one that
// waits for a decision inside, with arguments its schema checks.
const nested = `version: "1"
workflows:
  compute:
    initialState: a
    states:
      a:
        transitions:
          work: {target: b, actor: deterministic, executor: {kind: cli, command: echo, args: ['{"v": 41}']}, output: {v: "$.output.v"}}
      b: {terminal: true}
  sign:
    initialState: ask
    states:
      ask:
        transitions:
          signed:
            target: ok
            actor: human
            inputSchema: {type: object, required: [by], properties: {by: {type: string, minLength: 2}}}
            output: {by: "$.arguments.by"}
      ok: {terminal: true}
  outer:
    initialState: start
    states:
      start:
        transitions:
          calc:
            target: approve
            actor: deterministic
            executor: {kind: workflow, definitionId: compute, use: {outputs: {"$.context.v": v}}}
      approve:
        transitions:
          getsig:
            target: done
            actor: deterministic
            executor: {kind: workflow, definitionId: sign, use: {outputs: {"$.context.signer": by}}}
      done: {terminal: true}
`

// flaky fails once (it leaves a mark for the next time) and is retried:
// by a resume that takes its transition again, and by a plain resume.
const flaky = `version: "1"
workflows:
  flaky:
    initialState: a
    states:
      a:
        transitions:
          go: {target: b, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "test -f mark-go || { touch mark-go; echo first time >&2; exit 3; }; echo '{\"n\": 1}'"]}, output: {n: "$.output.n"}}
      b:
        transitions:
          again: {target: done, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "test -f mark-again || { touch mark-again; exit 4; }; echo '{\"m\": 2}'"]}, output: {m: "$.output.m"}}
      done: {terminal: true}
  retried:
    initialState: a
    states:
      a:
        transitions:
          go:
            target: done
            actor: deterministic
            executor: {kind: cli, command: sh, args: ["-c", "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; test $n -ge 2 && echo '{\"tries\": 3}'"], retry: {max: 3, delay_ms: 10}}
            output: {tries: "$.output.tries"}
      done: {terminal: true}
  charge:
    initialState: a
    states:
      a:
        transitions:
          pay: {target: done, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "echo charged >> payments.log; test -f mark-pay || { touch mark-pay; exit 5; }"], idempotent: false}}
      done: {terminal: true}
`

// acked waits for a script's body to be acknowledged; guided for a
// skill's and a script's, in one take, then runs the script.
const acked = `version: "1"
scripts:
  deploy.prod: {verb: deploy, body: "echo deploying"}
skills:
  review.rules: {verb: review, lifecycle: stable, body: "Check the owners file."}
workflows:
  guided:
    initialState: s
    states:
      s:
        goal: review, then deploy
        transitions:
          ship:
            target: done
            actor: agent
            guards: [{kind: guidance_acknowledged, subject: review.rules}, {kind: script_acknowledged, subject: deploy.prod}]
            executor: {kind: script, subject: deploy.prod}
      done: {terminal: true}
  acked:
    initialState: s
    states:
      s:
        transitions:
          go: {target: done, actor: human, guards: [{kind: script_acknowledged, subject: deploy.prod}]}
      done: {terminal: true}
`

// deep is a workflow whose task runs a workflow whose transition runs
// another, the innermost failing once: the run fails inside, and a plain
// resume retries it there.
const deep = `version: "1"
workflows:
  inner:
    initialState: i
    states:
      i:
        transitions:
          once: {target: j, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "test -f mark-inner || { touch mark-inner; exit 6; }; echo '{\"depth\": 2}'"]}, output: {depth: "$.output.depth"}}
      j: {terminal: true}
  middle:
    initialState: m
    states:
      m:
        transitions:
          down: {target: n, actor: deterministic, executor: {kind: workflow, definitionId: inner, use: {outputs: {"$.context.depth": depth}}}}
      n: {terminal: true}
  top:
    initialState: t
    states:
      t:
        task: {kind: workflow, definitionId: middle}
        transition:
          branches: [{operator: default, goto: end}]
`

// flakyDAG is a DAG chain whose second step fails once.
const flakyDAG = `name: flakydag
steps:
  - {id: first, type: cli, run: 'echo one', output_var: one}
  - {id: second, type: cli, run: 'test -f mark-second || { touch mark-second; exit 7; }; echo "{one}-two"', depends_on: [first], output_var: two}
output: two
`

// gated is a DAG chain with an approval gate.
const gated = `name: gated
steps:
  - {id: build, type: cli, run: 'echo built', output_var: art}
  - {id: ok, type: gate, depends_on: [build], prompt: "ship {art}?"}
  - {id: ship, type: cli, run: 'echo "shipped {art}"', depends_on: [ok], output_var: shipped}
output: shipped
`

// Cases are the shapes every engine runs alike.
func Cases() []Case {
	paused := func(state string, links ...string) Turn {
		return Turn{Status: record.Paused, State: state, Links: links}
	}
	return []Case{
		{Name: "decision arguments and guards are checked before the take", Chain: review, Run: "review", Turns: []Turn{
			paused("vote", "approve", "reject"),
			paused("vote", "approve", "reject"), // a plain resume
			{Take: "approve", Args: map[string]any{"score": "high", "who": "ana"}, Refused: `argument "score"`},
			{Take: "approve", Args: map[string]any{"score": "12", "who": "ana"}, Refused: "inputSchema"},
			{Take: "approve", Args: map[string]any{"score": "5"}, Refused: "who"},
			{Take: "approve", Args: map[string]any{"score": "5", "who": "nobody"}, Refused: "--take approve"},
			{Take: "launch", Refused: "--take launch"},
			{Take: "approve", Args: map[string]any{"score": "9", "who": "ana"}, Status: record.Succeeded, State: "done",
				Context: map[string]string{"art": "a7", "score": "9", "who": "ana"}},
		}},
		{Name: "a decision taken without arguments", Chain: review, Run: "review", Turns: []Turn{
			paused("vote", "approve", "reject"),
			{Take: "approve", Refused: "score"},
			{Take: "approve", Args: map[string]any{"score": "0", "who": "bo"}, Refused: "inputSchema"},
			{Take: "reject", Status: record.Succeeded, State: "done", Context: map[string]string{"art": "a7"}},
		}},
		{Name: "sub-workflows run, and a decision inside one pauses the run", Chain: nested, Run: "outer", Turns: []Turn{
			{Status: record.Paused, State: "approve", Links: []string{"signed"}, Context: map[string]string{"v": "41"}},
			{Take: "signed", Args: map[string]any{"by": "x"}, Refused: "by"},
			{Take: "nope", Refused: "--take nope"},
			{Take: "signed", Args: map[string]any{"by": "lee"}, Status: record.Succeeded, State: "done",
				Context: map[string]string{"v": "41", "signer": "lee"}},
		}},
		{Name: "a sub-workflow that ends on its own", Chain: nested, Run: "compute", Turns: []Turn{
			{Status: record.Succeeded, State: "b", Context: map[string]string{"v": "41"}},
		}},
		{Name: "a failed transition is retried by taking it again, then by a plain resume", Chain: flaky, Run: "flaky", Turns: []Turn{
			{Status: record.Failed, State: "a", Links: []string{"go"}},
			{Take: "again", Refused: "--take again"},
			{Take: "go", Status: record.Failed, State: "b", Links: []string{"again"}, Context: map[string]string{"n": "1"}},
			{Status: record.Succeeded, State: "done", Context: map[string]string{"n": "1", "m": "2"}},
		}},
		{Name: "a failed non-idempotent transition is retried only with --rerun", Chain: flaky, Run: "charge", Turns: []Turn{
			{Status: record.Failed, State: "a", Links: []string{"pay"}},
			{Take: "pay", Refused: "--rerun pay"},
			{Refused: "--rerun pay"},
			{Take: "pay", Rerun: []string{"pay"}, Status: record.Succeeded, State: "done"},
		}},
		{Name: "an executor's retries", Chain: flaky, Run: "retried", Turns: []Turn{
			{Status: record.Succeeded, State: "done", Context: map[string]string{"tries": "3"}},
		}},
		{Name: "an acknowledgment guard waits for --ack", Chain: acked, Run: "acked", Turns: []Turn{
			paused("s", "go"),
			{Take: "go", Refused: "deploy.prod"},
			{Take: "go", Acks: []string{"deploy.staging"}, Refused: "--ack deploy.staging"},
			{Take: "go", Acks: []string{"deploy.prod"}, Status: record.Succeeded, State: "done"},
		}},
		{Name: "a skill's and a script's acknowledgment in one take, then the script runs", Chain: acked, Run: "guided", Turns: []Turn{
			paused("s", "ship"),
			{Take: "ship", Acks: []string{"review.rules"}, Refused: "deploy.prod"},
			{Take: "ship", Acks: []string{"review.rules", "deploy.prod"}, Status: record.Succeeded, State: "done"},
		}},
		{Name: "a failure two workflows deep is retried by a plain resume", Chain: deep, Run: "top", Turns: []Turn{
			{Status: record.Failed},
			{Status: record.Succeeded},
		}},
		{Name: "a failed step of a DAG chain is retried by a plain resume", Chain: flakyDAG, Run: "flakydag", Turns: []Turn{
			{Status: record.Failed},
			{Take: "second", Refused: "--take second"},
			{Status: record.Succeeded, Output: "one-two"},
		}},
		{Name: "a gate of a DAG chain", Chain: gated, Run: "gated", Turns: []Turn{
			{Status: record.Paused},
			{Take: "maybe", Refused: "--take maybe"},
			{Take: "approve", Status: record.Succeeded, Output: "shipped built"},
		}},
	}
}

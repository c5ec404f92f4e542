package run

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/tools"
)

// ToolCallRequest is a tool call outside a step's tools, as a person is
// asked to allow it: exactly that call, named by its arguments' digest.
type ToolCallRequest struct {
	RunID     string
	Step      string
	Tool      string
	Arguments string
	Digest    string
}

// ToolAsker asks whether one tool call outside a step's tools may run. It
// is called concurrently when a turn's calls run together: the asker
// owns the terminal and puts its questions in turn.
type ToolAsker func(ctx context.Context, r ToolCallRequest) (bool, error)

// maxToolsAtOnce bounds the tool calls of one turn that run together.
const maxToolsAtOnce = 8

// toolSpecs are the tools offered to the model: the step's tools, then
// its completion tool.
func (x *execution) toolSpecs(s *chain.Step) []llm.Tool {
	var out []llm.Tool
	for _, name := range s.Tools {
		if spec, ok := tools.Lookup(name); ok {
			out = append(out, llm.Tool{Name: spec.Name, Description: spec.Description, Schema: spec.Schema})
		} else if def := x.c.Tool(name); def != nil {
			out = append(out, llm.Tool{Name: def.Name, Description: def.Description, Schema: def.InputSchema})
		}
	}
	if cp := s.Completion; cp != nil {
		desc := cp.Description
		if desc == "" {
			desc = "Call this once with your final answer; its arguments are the result of the task."
		}
		out = append(out, llm.Tool{Name: cp.Tool, Description: desc, Schema: cp.Schema})
	}
	return out
}

// toolLoop is a step's tool-calling loop seen as one model: call the
// model, run the tools it asked for (a turn's calls together), return
// their results, and repeat until it answers without a tool call, calls
// the completion tool with valid arguments, or reaches max_turns. Its
// answer is the final text, or the completion tool's arguments. Each turn
// is a question of its own, with its own retry allowance per model.
type toolLoop struct {
	x   *execution
	s   *chain.Step
	sc  scope
	t   *tries
	out *outcome
}

var _ llm.Provider = (*toolLoop)(nil)

// Name names the loop in errors.
func (l *toolLoop) Name() string { return "tool loop" }

// Complete runs the loop from req.
func (l *toolLoop) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	x, s, out := l.x, l.s, l.out
	env, err := x.toolEnv(ctx, s, l.sc)
	if err != nil {
		return nil, err
	}
	var calls atomic.Int64
	defer func() { out.toolCalls += int(calls.Load()) }()
	limit := s.Turns()
	lastProblem := ""
	for turn := 1; ; turn++ {
		if turn > limit {
			msg := fmt.Sprintf("max_turns %d reached: the model was still working (raise max_turns, or narrow the task)", limit)
			if lastProblem != "" {
				msg += "; last problem: " + lastProblem
			}
			return nil, &permanentError{errors.New(msg)}
		}
		l.t.turn = turn
		resp, err := x.modelsFor(s, l.t, turn, "").Complete(ctx, req)
		if err != nil {
			return nil, &permanentError{err}
		}
		if len(resp.ToolCalls) == 0 {
			if s.Completion == nil {
				return &llm.Response{Text: resp.Text, FinishReason: resp.FinishReason, Via: resp.Via, Usage: resp.Usage}, nil
			}
			// the answer must come through the completion tool
			lastProblem = "the model answered without calling " + s.Completion.Tool
			req.Messages = append(req.Messages,
				llm.Message{Role: llm.Assistant, Content: resp.Text},
				llm.Message{Role: llm.User, Content: fmt.Sprintf("Call %s with your final answer; a plain answer is not accepted.", s.Completion.Tool)})
			continue
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.Assistant, Content: resp.Text, ToolCalls: resp.ToolCalls})
		results := make([]llm.ToolResult, len(resp.ToolCalls))
		var pending []int
		for i, call := range resp.ToolCalls {
			results[i].CallID = call.ID
			if s.Completion == nil || call.Name != s.Completion.Tool {
				pending = append(pending, i)
				continue
			}
			if problem := completionProblem(s.Completion, call.Arguments); problem != "" {
				lastProblem = problem
				x.emitTool(s, call, event.Error, problem, 0)
				results[i].Content, results[i].IsError = problem, true
				continue
			}
			x.emitTool(s, call, event.OK, "completion", 0)
			return &llm.Response{Text: call.Arguments, FinishReason: llm.FinishStop, Via: resp.Via, Usage: resp.Usage}, nil
		}
		if turn == limit && len(pending) > 0 {
			// no turn is left to report results back: run nothing more
			return nil, &permanentError{fmt.Errorf("max_turns %d reached: the model still asked for %s", limit, toolNames(resp.ToolCalls, pending))}
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(maxToolsAtOnce)
		for _, i := range pending {
			g.Go(func() error {
				results[i].Content, results[i].IsError = x.callTool(gctx, s, env, resp.ToolCalls[i], &calls)
				return nil
			})
		}
		_ = g.Wait()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.User, ToolResults: results})
	}
}

// toolEnv is where a step's tool calls act: its directory, and the
// run's process settings.
func (x *execution) toolEnv(ctx context.Context, s *chain.Step, sc scope) (tools.Env, error) {
	dir, err := x.dir(s.C().Cwd, sc)
	if err != nil {
		return tools.Env{}, err
	}
	return tools.Env{Dir: dir, Grace: x.l.grace, Force: interrupt.Force(ctx),
		Environ: x.environ("CHAINRUN_RUN_ID="+x.runID, "CHAINRUN_STEP_ID="+s.ID),
		Fetch:   x.fetchText, Search: x.search}, nil
}

func toolNames(calls []llm.ToolCall, idx []int) string {
	names := make([]string, len(idx))
	for i, j := range idx {
		names[i] = calls[j].Name
	}
	return strings.Join(names, ", ")
}

// completionProblem checks the completion tool's arguments against its
// schema: what is wrong (sent back to the model), or "".
func completionProblem(cp *chain.Completion, args string) string {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return fmt.Sprintf("the arguments of %s are not JSON: %v", cp.Tool, err)
	}
	if err := cp.Resolved().Validate(v); err != nil {
		return fmt.Sprintf("the arguments of %s do not satisfy its schema: %s; call it again with arguments that do", cp.Tool, schemaMessage(err))
	}
	return ""
}

// callTool runs one tool call and returns the result the model reads. A
// call outside the step's tools runs only when granted (--grant) or
// allowed at the terminal; otherwise the model is told it was denied.
func (x *execution) callTool(ctx context.Context, s *chain.Step, env tools.Env, call llm.ToolCall, calls *atomic.Int64) (string, bool) {
	_, builtin := tools.Lookup(call.Name)
	def := x.c.Tool(call.Name)
	if !builtin && def == nil {
		x.emitTool(s, call, event.Unknown, "", 0)
		return fmt.Sprintf("error: there is no tool named %q; the tools are %s", call.Name, strings.Join(x.offered(s), ", ")), true
	}
	if !slices.Contains(s.Tools, call.Name) {
		if why, ok := x.allow(ctx, s, call); !ok {
			x.emitTool(s, call, event.Denied, why, 0)
			return fmt.Sprintf("denied: %s is not among this step's tools (%s) and %s; it was not run", call.Name, strings.Join(s.Tools, ", "), why), true
		}
	}
	calls.Add(1)
	start := x.l.now()
	var text string
	var err error
	if builtin {
		text, err = tools.Run(ctx, env, call.Name, json.RawMessage(call.Arguments))
	} else {
		text, err = x.runToolDef(ctx, def, env.Dir, call.Arguments)
	}
	d := x.l.now().Sub(start).Milliseconds()
	if err != nil && ctx.Err() != nil {
		err = errors.New(stopText(ctx)) // the run stopped it, whichever tool it was
	}
	if err != nil {
		x.emitTool(s, call, event.Error, err.Error(), d)
		return "error: " + x.mask(err.Error()), true
	}
	x.emitTool(s, call, event.OK, "", d)
	return x.mask(text), false
}

// offered lists the tool names the step offers, for messages.
func (x *execution) offered(s *chain.Step) []string {
	names := append([]string(nil), s.Tools...)
	if s.Completion != nil {
		names = append(names, s.Completion.Tool)
	}
	return names
}

// allow decides a call outside the step's tools: a --grant for the tool,
// else the person at the terminal for exactly this call, else denied.
// Every grant and denial is an audit event.
func (x *execution) allow(ctx context.Context, s *chain.Step, call llm.ToolCall) (string, bool) {
	digest := argsDigest(call.Arguments)
	audit := func(t event.Type, by string) {
		x.emit(event.Event{Type: t, Step: s.ID, Tool: call.Name, Digest: digest, Subject: x.mask(callSubject(call.Arguments)), DecidedBy: by})
	}
	if x.req.Grants[call.Name] {
		audit(event.ToolGranted, "grant")
		return "", true
	}
	if x.req.Ask == nil {
		audit(event.ToolDenied, "headless")
		return "no one is at a terminal to allow it (grant it with --grant " + call.Name + ")", false
	}
	ok, err := x.req.Ask(ctx, ToolCallRequest{RunID: x.runID, Step: s.ID, Tool: call.Name, Arguments: x.mask(call.Arguments), Digest: digest})
	if err != nil || !ok {
		audit(event.ToolDenied, "human")
		return "the person at the terminal refused it", false
	}
	audit(event.ToolGranted, "human")
	return "", true
}

// runToolDef runs a chain-defined tool: its arguments are checked against
// its schema, then its executor runs with them as {args}, confined to the
// calling step's directory like the built-in tools (confine.go).
func (x *execution) runToolDef(ctx context.Context, def *chain.ToolDef, dir, args string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return "", fmt.Errorf("the arguments are not JSON: %v", err)
	}
	if def.Schema != nil {
		if err := def.Schema.Validate(v); err != nil {
			return "", fmt.Errorf("the arguments do not satisfy %s's schema: %s", def.Name, schemaMessage(err))
		}
	}
	out, _, err := x.attempts(ctx, def.Executor, scope{st: x.st, jail: dir}.with("args", dataValue(v)))
	if err != nil {
		return out.value.Text, err
	}
	return out.value.Text, nil
}

// emitTool records one tool call in the audit trail.
func (x *execution) emitTool(s *chain.Step, call llm.ToolCall, status event.Status, detail string, ms int64) {
	e := event.Event{Type: event.ToolCall, Step: s.ID, Tool: call.Name, Digest: argsDigest(call.Arguments),
		Subject: x.mask(callSubject(call.Arguments)), Status: status, DurationMS: ms}
	if status == event.Error {
		e.Error = detail
	} else {
		e.Detail = detail
	}
	x.emit(e)
}

// argsDigest names a call's arguments without showing them: the first 12
// hex digits of their SHA-256.
func argsDigest(args string) string {
	sum := sha256.Sum256([]byte(args))
	return hex.EncodeToString(sum[:6])
}

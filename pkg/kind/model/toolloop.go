package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/toolcall"
	"golang.org/x/sync/errgroup"
)

// maxToolsAtOnce bounds the tool calls of one turn that run together.
const maxToolsAtOnce = 8

// toolLoop is a step's tool-calling loop seen as one model: call the
// model, run the tools it asked for (a turn's calls together), return
// their results, and repeat until it answers without a tool call, calls
// the completion tool with valid arguments, or reaches max_turns. Its
// answer is the final text, or the completion tool's arguments. Each turn
// is a question of its own, with its own retry allowance per model.
type toolLoop struct {
	a   *run.Attempt
	out *run.Outcome
}

var _ llm.Provider = (*toolLoop)(nil)

// Name names the loop in errors.
func (l *toolLoop) Name() string { return "tool loop" }

// Complete runs the loop from req.
func (l *toolLoop) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	a, out := l.a, l.out
	s := a.Step()
	env, err := toolcall.Env(ctx, a)
	if err != nil {
		return nil, err
	}
	var calls atomic.Int64
	defer func() { out.ToolCalls += int(calls.Load()) }()
	limit := s.Turns()
	lastProblem := ""
	for turn := 1; ; turn++ {
		if turn > limit {
			msg := fmt.Sprintf("max_turns %d reached: the model was still working (raise max_turns, or narrow the task)", limit)
			if lastProblem != "" {
				msg += "; last problem: " + lastProblem
			}
			return nil, run.Permanent(errors.New(msg))
		}
		req.PromptCache = cacheTurn(a.Step(), turn)
		resp, err := a.TurnModels(turn).Complete(ctx, req)
		if err != nil {
			return nil, run.Permanent(err)
		}
		if len(resp.ToolCalls) == 0 {
			if s.Agent().Completion == nil {
				return &llm.Response{Text: resp.Text, FinishReason: resp.FinishReason, Via: resp.Via, Usage: resp.Usage}, nil
			}
			// the answer must come through the completion tool
			lastProblem = "the model answered without calling " + s.Agent().Completion.Tool
			req.Messages = append(req.Messages,
				llm.Message{Role: llm.Assistant, Content: resp.Text},
				llm.Message{Role: llm.User, Content: fmt.Sprintf("Call %s with your final answer; a plain answer is not accepted.", s.Agent().Completion.Tool)})
			continue
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.Assistant, Content: resp.Text, ToolCalls: resp.ToolCalls})
		results := make([]llm.ToolResult, len(resp.ToolCalls))
		var pending []int
		for i, call := range resp.ToolCalls {
			results[i].CallID = call.ID
			if s.Agent().Completion == nil || call.Name != s.Agent().Completion.Tool {
				pending = append(pending, i)
				continue
			}
			if problem := completionProblem(s.Agent().Completion, call.Arguments); problem != "" {
				lastProblem = problem
				toolcall.Record(a, call, event.Error, problem, 0)
				results[i].Content, results[i].IsError = problem, true
				continue
			}
			toolcall.Record(a, call, event.OK, "completion", 0)
			return &llm.Response{Text: call.Arguments, FinishReason: llm.FinishStop, Via: resp.Via, Usage: resp.Usage}, nil
		}
		if turn == limit && len(pending) > 0 {
			// no turn is left to report results back: run nothing more
			return nil, run.Permanent(fmt.Errorf("max_turns %d reached: the model still asked for %s", limit, toolNames(resp.ToolCalls, pending)))
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(maxToolsAtOnce)
		for _, i := range pending {
			g.Go(func() error {
				results[i].Content, results[i].IsError = toolcall.Call(gctx, a, env, resp.ToolCalls[i], &calls)
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
		return fmt.Sprintf("the arguments of %s do not satisfy its schema: %s; call it again with arguments that do", cp.Tool, given.SchemaMessage(err))
	}
	return ""
}

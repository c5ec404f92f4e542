package contenox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/chainrun/chainrun/pkg/interp"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/toolcall"
)

// chatMsg is one message of a task chain's conversation as it is kept
// with a task's output and saved with its transition.
type chatMsg struct {
	Role        string       `json:"role"`
	Content     string       `json:"content,omitempty"`
	ToolCalls   []chatCall   `json:"tool_calls,omitempty"`
	ToolResults []chatResult `json:"tool_results,omitempty"`
	// By is the task whose model wrote a turn with tool calls: its tools
	// and tools_policies bound the calls, whichever task runs them.
	By string `json:"by,omitempty"`
	// Model and Usage are the model that wrote an answer and the tokens
	// its call took, as an OpenAI chat-completion object reports them
	// (convert_to_openai_chat_response).
	Model string     `json:"model,omitempty"`
	Usage *llm.Usage `json:"usage,omitempty"`
}

type chatCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatResult struct {
	CallID  string `json:"call_id"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// encodeChat is a conversation as a variable holds it: JSON data, as a
// saved transition gives it back.
func encodeChat(chat []chatMsg) any {
	b, _ := json.Marshal(chat)
	var d any
	_ = json.Unmarshal(b, &d)
	return d
}

// decodeChat reads a conversation back; anything else is none.
func decodeChat(d any) []chatMsg {
	b, err := json.Marshal(d)
	if err != nil {
		return nil
	}
	var chat []chatMsg
	if json.Unmarshal(b, &chat) != nil {
		return nil
	}
	return chat
}

// toLLM is a conversation as a model request carries it.
func toLLM(chat []chatMsg) []llm.Message {
	out := make([]llm.Message, len(chat))
	for i, m := range chat {
		out[i] = llm.Message{Role: llm.Role(m.Role), Content: m.Content}
		for _, c := range m.ToolCalls {
			out[i].ToolCalls = append(out[i].ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		for _, r := range m.ToolResults {
			out[i].ToolResults = append(out[i].ToolResults, llm.ToolResult{CallID: r.CallID, Content: r.Content, IsError: r.IsError})
		}
	}
	return out
}

// pendingCalls finds the last assistant message with tool calls and the
// calls of it no result answers yet; at is -1 when there is none.
func pendingCalls(chat []chatMsg) (at int, pending []chatCall) {
	at = -1
	for i := len(chat) - 1; i >= 0; i-- {
		if chat[i].Role == string(llm.Assistant) && len(chat[i].ToolCalls) > 0 {
			at = i
			break
		}
	}
	if at < 0 {
		return -1, nil
	}
	answered := map[string]bool{}
	for _, m := range chat[at+1:] {
		for _, r := range m.ToolResults {
			answered[r.CallID] = true
		}
	}
	for _, c := range chat[at].ToolCalls {
		if !answered[c.ID] {
			pending = append(pending, c)
		}
	}
	return at, pending
}

// capText cuts text to n bytes (input_max_bytes), on a rune boundary,
// saying so.
func capText(text string, n int) string {
	if len(text) <= n {
		return text
	}
	const mark = "\n[… cut to input_max_bytes]"
	keep := max(n-len(mark), 0)
	for keep > 0 && keep < len(text) && !utf8Start(text[keep]) {
		keep--
	}
	return text[:keep] + mark
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// capChat keeps the latest messages of a conversation whose text (their
// contents and tool results) fits n bytes, the oldest of them cut. What
// it keeps still makes a conversation both APIs take: results whose
// calls were cut off become plain text, and one that would begin with
// the model's turn begins with a note that earlier messages were cut.
func capChat(chat []chatMsg, n int) []chatMsg {
	size := func(m chatMsg) int {
		total := len(m.Content)
		for _, r := range m.ToolResults {
			total += len(r.Content)
		}
		return total
	}
	total := 0
	for _, m := range chat {
		total += size(m)
	}
	if chat == nil || total <= n {
		return chat
	}
	var kept []chatMsg
	left := n
	for i := len(chat) - 1; i >= 0 && left > 0; i-- {
		m := chat[i]
		if size(m) > left {
			m.Content = capText(m.Content, left)
			rest := left - len(m.Content)
			results := make([]chatResult, len(m.ToolResults))
			for k, r := range m.ToolResults {
				r.Content = capText(r.Content, max(rest, 0))
				rest -= len(r.Content)
				results[k] = r
			}
			m.ToolResults = results
		}
		left -= size(m)
		kept = append([]chatMsg{m}, kept...)
	}
	if first := kept[0]; len(first.ToolResults) > 0 {
		texts := []string{first.Content}
		for _, r := range first.ToolResults {
			texts = append(texts, r.Content)
		}
		kept[0] = chatMsg{Role: string(llm.User), Content: strings.TrimSpace(strings.Join(texts, "\n"))}
	}
	if kept[0].Role != string(llm.User) {
		kept = append([]chatMsg{{Role: string(llm.User), Content: "[earlier messages cut to input_max_bytes]"}}, kept...)
	}
	return kept
}

// chatTurn is a chat_completion task: one model call on the conversation
// its input holds (or a new one whose first message is the input), with
// the task's tools offered. Its output is the model's answer and the
// conversation with it; its result is tool_call when the model asked for
// tools (the execute_tool_calls task runs them), else executed. Calls a
// conversation ends with and nothing answered yet run first, with this
// task's tools.
func chatTurn(ctx context.Context, a *run.Attempt, in taskIn) (run.Outcome, error) {
	s := a.Step()
	var out run.Outcome
	models, err := a.Models()
	if err != nil {
		return out, err
	}
	chat := append([]chatMsg(nil), in.chat...)
	if len(chat) == 0 {
		if strings.TrimSpace(in.value.Text) == "" {
			return out, run.Permanent(fmt.Errorf("its input is empty: nothing to ask the model (give the chain its input, --input input=TEXT)"))
		}
		chat = []chatMsg{{Role: string(llm.User), Content: in.value.Text}}
	}
	if len(s.Agent().Tools) > 0 {
		if at, pending := pendingCalls(chat); len(pending) > 0 {
			results, n, err := runCalls(ctx, a, chat[at], pending)
			if err != nil {
				return out, err
			}
			out.ToolCalls += n
			chat = answer(chat, at, results)
		}
	} else {
		chat = stripTools(chat)
	}
	system, err := a.Render(s.C().System)
	if err != nil {
		return out, err
	}
	// contenox keeps an answer cut at max_tokens as the task's answer,
	// carrying its finish reason (finishreason_test.go); the run warns
	req := llm.Request{System: system, Messages: toLLM(chat), Temperature: s.Agent().Temperature, MaxTokens: s.Agent().MaxTokens, Tools: a.ToolSpecs(), CutIsAnswer: true}
	a.Stream(&req)
	resp, err := models.Complete(ctx, req)
	if err != nil && len(req.Tools) > 0 && toolsRefused(err) {
		// contenox asks again without tools when the model's server
		// refuses them (taskexec_test.go ChatCompletionRetriesWithoutTools…)
		a.Warn(fmt.Sprintf("task %s: the model's server refused its tools (%v): it was asked again without them", s.ID, err))
		req.Tools, req.Messages = nil, toLLM(stripTools(chat))
		resp, err = models.Complete(ctx, req)
	}
	if err != nil {
		return out, run.Permanent(err)
	}
	if resp.FinishReason == llm.FinishLength {
		a.Warn(fmt.Sprintf("task %s: the model's answer was cut off at its max_tokens (finish reason length); the part it gave is the task's output, as contenox takes it", s.ID))
	}
	reply := chatMsg{Role: string(llm.Assistant), Content: resp.Text, Model: resp.Model, Usage: &resp.Usage}
	if len(resp.ToolCalls) > 0 {
		reply.By = s.ID
	}
	for _, c := range resp.ToolCalls {
		reply.ToolCalls = append(reply.ToolCalls, chatCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	chat = append(chat, reply)
	setChat(a, chat)
	out.Value, out.Finish, out.Result = interp.TextValue(resp.Text), resp.FinishReason, cx.ResultExecuted
	if len(resp.ToolCalls) > 0 {
		out.Result = cx.ResultToolCall
	}
	return out, nil
}

// route is a route task: the model picks one of the labels of the task's
// equals branches for its input (an exact answer, else the first label
// the answer contains, ignoring case; else the answer, which the default
// branch takes). The input passes on unchanged.
func route(ctx context.Context, a *run.Attempt, in taskIn) (run.Outcome, error) {
	s := a.Step()
	models, err := a.Models()
	if err != nil {
		return run.Outcome{}, err
	}
	system, err := a.Render(s.C().System)
	if err != nil {
		return run.Outcome{}, err
	}
	if system != "" {
		system += "\n\n"
	}
	routes := cx.HandlerOf(s).Routes
	system += "Respond with exactly one of the following labels and nothing else: " + strings.Join(routes, ", ")
	prompt := in.value.Text
	if len(in.chat) > 0 {
		lines := make([]string, len(in.chat))
		for i, m := range in.chat {
			lines[i] = m.Role + ": " + strings.TrimSpace(m.Content)
		}
		prompt = strings.Join(lines, "\n")
	}
	temp := s.Agent().Temperature
	if temp == nil {
		zero := 0.0
		temp = &zero
	}
	req := llm.Request{System: system, Messages: []llm.Message{{Role: llm.User, Content: prompt}}, Temperature: temp, MaxTokens: s.Agent().MaxTokens}
	a.Stream(&req)
	resp, err := models.Complete(ctx, req)
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	out := pass(a, in, selectRoute(resp.Text, routes))
	out.Finish = resp.FinishReason
	return out, nil
}

// selectRoute is the label an answer names: the one it is (ignoring
// case), else the first it contains; else the answer itself.
func selectRoute(answer string, routes []string) string {
	a := strings.TrimSpace(answer)
	for _, r := range routes {
		if strings.EqualFold(a, r) {
			return r
		}
	}
	for _, r := range routes {
		if strings.Contains(strings.ToLower(a), strings.ToLower(r)) {
			return r
		}
	}
	return a
}

// executeCalls is an execute_tool_calls task: it runs the tool calls the
// last model turn of its input's conversation asked for and nothing has
// answered yet, one after another, and answers them. Its result is
// tools_executed, no_calls_found when there were none to run, or noop
// for an input with no conversation.
func executeCalls(ctx context.Context, a *run.Attempt, in taskIn) (run.Outcome, error) {
	if len(in.chat) == 0 {
		return pass(a, in, cx.ResultNoop), nil
	}
	at, pending := pendingCalls(in.chat)
	if len(pending) == 0 {
		return pass(a, in, cx.ResultNoCallsFound), nil
	}
	results, n, err := runCalls(ctx, a, in.chat[at], pending)
	if err != nil {
		return run.Outcome{}, err
	}
	chat := answer(append([]chatMsg(nil), in.chat...), at, results)
	setChat(a, chat)
	texts := make([]string, len(results))
	for i, r := range results {
		texts[i] = r.Content
	}
	return run.Outcome{Value: interp.TextValue(strings.Join(texts, "\n")), ToolCalls: n, Result: cx.ResultToolsExecuted}, nil
}

// runCalls runs the tool calls of a turn in order as the step's (its
// tools allowed, any other as the run's grants and the person at the
// terminal allow). A call of a tool the task that asked did not offer,
// or a Bash command the tools_policies of that task and this step refuse,
// is denied and not run.
func runCalls(ctx context.Context, a *run.Attempt, turn chatMsg, calls []chatCall) ([]chatResult, int, error) {
	s := a.Step()
	env, err := toolcall.Env(ctx, a)
	if err != nil {
		return nil, 0, err
	}
	asker := askerOf(a.Chain(), turn)
	env.Commands = commandPolicy(s).Join(commandPolicy(asker))
	var n atomic.Int64
	out := make([]chatResult, len(calls))
	for i, c := range calls {
		if ctx.Err() != nil {
			return nil, int(n.Load()), ctx.Err()
		}
		call := llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments}
		if why := refuseCall(asker, env.Commands, call); why != "" {
			toolcall.Deny(a, call, why)
			out[i] = chatResult{CallID: c.ID, Content: "denied: " + why + "; it was not run", IsError: true}
			continue
		}
		text, isErr := toolcall.Call(ctx, a, env, call, &n)
		out[i] = chatResult{CallID: c.ID, Content: text, IsError: isErr}
	}
	return out, int(n.Load()), nil
}

// answer puts results after the assistant message at index at: into the
// results message that follows it, or a new one.
func answer(chat []chatMsg, at int, results []chatResult) []chatMsg {
	if at+1 < len(chat) && len(chat[at+1].ToolResults) > 0 {
		m := chat[at+1]
		m.ToolResults = append(append([]chatResult(nil), m.ToolResults...), results...)
		chat[at+1] = m
		return chat
	}
	rest := append([]chatMsg{{Role: string(llm.User), ToolResults: results}}, chat[at+1:]...)
	return append(chat[:at+1], rest...)
}

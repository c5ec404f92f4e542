package contenox

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// promptTask is a prompt_to_string or prompt_to_int task of an earlier
// contenox format: one model call, the system instruction and the
// input's text (the last message of a conversation), no tools. The
// answer is the output and the result the branches match; prompt_to_int
// reads it as an integer (its output a number), and an answer that holds
// none fails the task, so retry_on_failure asks again and on_failure
// catches it.
func promptTask(ctx context.Context, a *run.Attempt, in taskIn) (run.Outcome, error) {
	s := a.Step()
	models, err := a.Models()
	if err != nil {
		return run.Outcome{}, err
	}
	prompt := in.text()
	if strings.TrimSpace(prompt) == "" {
		return run.Outcome{}, run.Permanent(fmt.Errorf("its input is empty: nothing to ask the model (give the chain its input, --input input=TEXT)"))
	}
	system, err := a.Render(s.C().System)
	if err != nil {
		return run.Outcome{}, err
	}
	req := llm.Request{System: system, Messages: []llm.Message{{Role: llm.User, Content: prompt}}, Temperature: s.Agent().Temperature, MaxTokens: s.Agent().MaxTokens}
	a.Stream(&req)
	resp, err := models.Complete(ctx, req)
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	setChat(a, nil)
	out := run.Outcome{Value: interp.TextValue(resp.Text), Result: resp.Text, Finish: resp.FinishReason}
	if cx.HandlerOf(s).Name == cx.HandlerPromptInt {
		n, err := answerInt(resp.Text)
		if err != nil {
			return out, fmt.Errorf("prompt_to_int: %w", err)
		}
		text := strconv.FormatInt(n, 10)
		out.Value, out.Result = interp.Value{Text: text, Data: float64(n), JSON: true}, text
	}
	if read, ok := answerReaders[cx.HandlerOf(s).Name]; ok {
		v, result, err := read(cx.HandlerOf(s), resp.Text)
		if err != nil {
			return out, fmt.Errorf("%s: %w", cx.HandlerOf(s).Name, err)
		}
		out.Value, out.Result = v, result
	}
	return out, nil
}

// answerInt reads a model's answer as an integer, as contenox reads it
// (chain.FirstNumber): quotes and spaces dropped, the answer itself or
// else the first number it holds, which must be whole.
func answerInt(answer string) (int64, error) {
	f, err := chain.FirstNumber(answer)
	if err != nil {
		return 0, fmt.Errorf("the answer %q holds no number", record.Clip(answer, 80))
	}
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("the answer %q is not an integer", record.Clip(answer, 80))
	}
	return int64(f), nil
}

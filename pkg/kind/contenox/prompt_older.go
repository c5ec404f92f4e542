package contenox

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// The handlers of contenox's format from 2025 to April 2026 that read a
// model's answer as more than text (taskengine/taskexec.go of
// contenox/runtime@e05b625d: score, rang, condition, parseTransition),
// and parse_command, which asks no model.

// answerReaders read a prompt_to_ task's answer into its output and the
// result its branches match, or fail the task (retry_on_failure asks
// again, on_failure catches it).
var answerReaders = map[string]func(h *cx.Handler, answer string) (interp.Value, string, error){
	cx.HandlerPromptFloat:     answerFloat,
	cx.HandlerPromptRange:     answerRange,
	cx.HandlerPromptCondition: answerCondition,
}

// answerFloat: the number is the output; the result is it with two
// decimals, as contenox gives it (7.5 is "7.50").
func answerFloat(_ *cx.Handler, answer string) (interp.Value, string, error) {
	f, err := chain.FirstNumber(answer)
	if err != nil {
		return interp.Value{}, "", err
	}
	return interp.Value{Text: strconv.FormatFloat(f, 'g', -1, 64), Data: f, JSON: true}, strconv.FormatFloat(f, 'f', 2, 64), nil
}

// answerRange: "min-max" of two numbers (quotes and spaces dropped), or
// one number n as "n-n"; output and result alike.
func answerRange(_ *cx.Handler, answer string) (interp.Value, string, error) {
	clean := strings.NewReplacer(" ", "", `"`, "", "'", "").Replace(strings.TrimSpace(answer))
	lo, hi, isRange := strings.Cut(clean, "-")
	if !isRange {
		hi = lo
	} else if strings.Contains(hi, "-") {
		return interp.Value{}, "", fmt.Errorf("the answer %q is no range min-max", record.Clip(answer, 80))
	}
	for _, part := range []string{lo, hi} {
		if _, err := chain.FirstNumber(part); err != nil {
			return interp.Value{}, "", fmt.Errorf("the answer %q is no range min-max: %w", record.Clip(answer, 80), err)
		}
	}
	r := lo + "-" + hi
	return interp.Value{Text: r}, r, nil
}

// answerCondition: the answer (trimmed) must be one of valid_conditions'
// answers, ignoring case as contenox from 51b750f8 (2026-03-13) does (the
// answer written the same way first, then the first in sorted order);
// the result is that answer's value, "true" or "false", and the output
// that boolean.
func answerCondition(h *cx.Handler, answer string) (interp.Value, string, error) {
	a := strings.TrimSpace(answer)
	hit, ok := h.Conditions[a]
	if !ok {
		keys := make([]string, 0, len(h.Conditions))
		for k := range h.Conditions {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.EqualFold(k, a) {
				hit, ok = h.Conditions[k], true
				break
			}
		}
	}
	if !ok {
		return interp.Value{}, "", fmt.Errorf("the answer %q is none of valid_conditions", record.Clip(answer, 80))
	}
	r := strconv.FormatBool(hit)
	return interp.Value{Text: r, Data: hit, JSON: true}, r, nil
}

// parseCommand is a parse_command task: no model; its result is the
// /command its input begins with (the first word, without its /), else
// pass ("" for an empty input); the input passes on.
func parseCommand(_ context.Context, a *run.Attempt, in taskIn) (run.Outcome, error) {
	text := strings.TrimSpace(in.text())
	result := ""
	switch {
	case text == "":
	case !strings.HasPrefix(text, "/"):
		result = "pass"
	default:
		word, _, _ := strings.Cut(text, " ")
		if result = strings.TrimPrefix(word, "/"); result == "" {
			return run.Outcome{}, run.Permanent(errors.New("parse_command: the input's / names no command"))
		}
	}
	return pass(a, in, result), nil
}

// answerWords say how a prompt_to_ task reads its answer, for the dry
// run.
var answerWords = map[string]string{
	cx.HandlerPromptInt:       " read as an integer",
	cx.HandlerPromptFloat:     " read as a number",
	cx.HandlerPromptRange:     " read as a range min-max",
	cx.HandlerPromptCondition: " read as one of valid_conditions, its value the result",
}

// parseKeyValue is a parse_key_value task (contenox/runtime@e05b625d
// taskexec.go parseKeyValueString): no model; the input's pairs, split at
// ";", else at newlines, else at commas, each key=value (or key: value),
// become an object whose values are numbers, true, false or text (quotes
// around it dropped); result "parsed". An input that is an object
// already passes on, result "already_json"; a pair without = or : fails
// the task.
func parseKeyValue(a *run.Attempt, in taskIn) (run.Outcome, error) {
	if _, ok := in.value.Data.(map[string]any); ok {
		return pass(a, in, "already_json"), nil
	}
	text := in.text()
	sep := ","
	switch {
	case strings.Contains(text, ";"):
		sep = ";"
	case strings.Contains(text, "\n"):
		sep = "\n"
	}
	obj := map[string]any{}
	for _, pair := range strings.Split(text, sep) {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		if !ok {
			if k, v, ok = strings.Cut(pair, ":"); !ok {
				return run.Outcome{}, run.Permanent(fmt.Errorf("parse_key_value: %q is no key=value pair", record.Clip(pair, 80)))
			}
		}
		obj[strings.TrimSpace(k)] = pairValue(strings.TrimSpace(v))
	}
	setChat(a, nil)
	return run.Outcome{Value: interp.DataValue(obj), Result: "parsed"}, nil
}

// pairValue is a key=value pair's value as contenox reads it.
func pairValue(v string) any {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		v = v[1 : len(v)-1]
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	switch v {
	case "true":
		return true
	case "false":
		return false
	}
	return v
}

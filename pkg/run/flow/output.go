package flow

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// pathDoc is what a transition's JSONPaths read (mcp-flowgate): the
// executor's output, the decision's arguments, the context and the
// workflow's input (also as $.input).
func (f *flow) pathDoc(e *chain.Step, sr *record.StepResult, args map[string]any) map[string]any {
	in := run.Scope{Vars: f.Vars}.ValueEnv([]string{"input"})["input"]
	doc := map[string]any{
		"arguments": args,
		"context":   f.context,
		"workflow":  map[string]any{"input": in},
		"input":     in,
	}
	if e != nil && sr != nil {
		out := map[string]any{"exitCode": sr.ExitCode, "stderr": sr.ErrOut}
		if v, ok := f.Vars.Get(e.OutputVar); ok {
			out["text"] = v.Text
			if v.Data != nil {
				out["json"] = v.Data
			} else if d := interp.TextValue(v.Text).Data; d != nil {
				out["json"] = d
			}
			if e.Kind == chain.KindHTTP {
				if st, ok := f.Vars.Get(e.OutputVar + "_status"); ok {
					out["status"] = st.Data
				}
				out["body"] = out["json"]
				if out["body"] == nil {
					out["body"] = v.Text
				}
			}
			spreadOutput(e, out)
			if e.Kind == chain.KindMCP {
				// a tool has no exit status or stderr: $.output is what it returned
				delete(out, "exitCode")
				delete(out, "stderr")
			}
		}
		doc["output"] = out
	}
	return doc
}

// spreadOutput also puts the fields of a structured output at the top of
// $.output, where mcp-flowgate's mappings read them: a parallel step's
// branches and summary, a pipeline's steps and final_output, a structural
// analysis's issues, a response's fields ($.output.id), a
// sub-workflow's context, a command's JSON object ($.output.result). The
// fields of the document itself (json, text, exitCode, status…) win.
func spreadOutput(e *chain.Step, out map[string]any) {
	switch e.Kind {
	case chain.KindParallel, chain.KindPipeline, chain.KindStructuralAnalysis, chain.KindWorkflow, chain.KindHTTP, chain.KindCLI, chain.KindScript, chain.KindMCP:
	default:
		return
	}
	obj, _ := out["json"].(map[string]any)
	for k, v := range obj {
		if _, taken := out[k]; !taken {
			out[k] = v
		}
	}
}

// mapOutput sets the context keys of a transition's output mappings. Every
// mapping reads the document as it was before the transition, so their
// order does not matter.
func (f *flow) mapOutput(t *chain.Transition, doc map[string]any) error {
	return f.mapMappings(t.Output, doc)
}

// mapMappings sets the context keys of output mappings, each reading doc.
func (f *flow) mapMappings(mappings []*chain.OutputMapping, doc map[string]any) error {
	next := maps.Clone(f.context)
	for _, m := range mappings {
		// a concat onto a list slot appends, even onto an unset one
		v, err := outputValue(m, doc, f.listSlot(m.Key))
		if err != nil {
			return fmt.Errorf("output %s: %w", m.Key, err)
		}
		next[m.Key] = v
	}
	f.setContext(next)
	return nil
}

// listSlot reports whether the blackboard types key as an array.
func (f *flow) listSlot(key string) bool {
	slot := f.w.SlotFor(f.w.State(f.state), key)
	return slot != nil && slot.Raw["type"] == "array"
}

// setContext replaces the workflow's context.
func (f *flow) setContext(m map[string]any) {
	f.context = m
	f.Vars.Set(response.ContextVar, interp.Value{Data: m})
}

// outputValue computes one mapping: a copy, a set, arithmetic (a missing
// or null operand counts as 0) or a concatenation (a list when intoList:
// the key is a slot typed array).
func outputValue(m *chain.OutputMapping, doc map[string]any, intoList bool) (any, error) {
	vals := make([]any, len(m.Operands))
	for i, op := range m.Operands {
		v, err := operandValue(op, doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op.Raw, err)
		}
		vals[i] = v
	}
	switch m.Op {
	case "", chain.OpSet:
		if len(vals) == 1 {
			return vals[0], nil
		}
		// {set: [a, b]}: the list of the values
		return vals, nil
	case chain.OpConcat:
		return concat(vals, intoList), nil
	}
	nums := make([]float64, len(vals))
	for i, v := range vals {
		n, err := number(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %s %v", m.Op, m.Operands[i].Raw, err)
		}
		nums[i] = n
	}
	var r float64
	switch m.Op {
	case chain.OpAdd:
		r = nums[0] + nums[1]
	case chain.OpSubtract:
		r = nums[0] - nums[1]
	case chain.OpMultiply:
		r = nums[0] * nums[1]
	case chain.OpDivide:
		if nums[1] == 0 {
			return nil, fmt.Errorf("divide: %s is zero", m.Operands[1].Raw)
		}
		r = nums[0] / nums[1]
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return nil, fmt.Errorf("%s: the result is not a finite number", m.Op)
	}
	return record.WholeNumbers(r), nil
}

// operandValue reads an operand: a literal, what its JSONPath selects
// (nil when nothing, a list when several), or its expression's value.
func operandValue(op chain.Operand, doc map[string]any) (any, error) {
	switch {
	case op.IsExpr():
		return op.Eval(doc)
	case op.Path == nil:
		return op.Literal, nil
	}
	return chain.Select(op.Path, doc), nil
}

// number reads an arithmetic operand: nil is 0, numbers and numeric text
// are numbers, anything else is an error.
func number(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case json.Number:
		return x.Float64()
	case string:
		if n, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("is %s, not a number", record.Clip(interp.TextOf(v), 40))
}

// concat joins its operands: a list when asked for or when one is a list
// (lists spliced, null skipped), else text (a null operand written
// "null").
func concat(vals []any, asList bool) any {
	for _, v := range vals {
		_, isList := v.([]any)
		asList = asList || isList
	}
	if asList {
		out := []any{}
		for _, v := range vals {
			switch x := v.(type) {
			case nil:
			case []any:
				out = append(out, x...)
			default:
				out = append(out, x)
			}
		}
		return out
	}
	var b strings.Builder
	for _, v := range vals {
		if v == nil {
			// a missing operand is written as mcp-flowgate writes it
			b.WriteString("null")
			continue
		}
		b.WriteString(interp.TextOf(v))
	}
	return b.String()
}

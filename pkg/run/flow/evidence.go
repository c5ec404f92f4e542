package flow

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// evidence is what evidence guards count: one record for every
// transition the run took (earlier calls' included, read from their
// saved records, so that a resume counts them too), one for what each
// executor that succeeded produced, and those the steps inside it
// recorded.
func (f *flow) evidence() []chain.Evidence {
	var out []chain.Evidence
	for _, rec := range f.history {
		if rec.Ack != nil {
			continue // an acknowledgment: nothing was taken or run
		}
		e, decl := f.executorOf(rec)
		if rec.Hook {
			// a state's onEnter (or the workflow's timeout): no
			// transition was taken; what its executor produced counts
			e, decl = nil, nil
			if s := f.w.State(rec.From); s != nil && s.OnEnter != nil {
				e = s.OnEnter.Executor
			}
		} else {
			out = append(out, chain.Evidence{Kind: chain.TransitionEvidence(rec.Transition), Transition: rec.Transition, Principal: rec.Principal})
		}
		if e == nil || rec.Step == nil || (rec.Step.Status != record.StepSucceeded && rec.Step.Status != record.StepCached) {
			continue
		}
		if kind := chain.EvidenceKind(e, decl); kind != "" {
			ev := chain.Evidence{Kind: kind, Transition: rec.Transition, Principal: rec.Principal}
			if v, ok := rec.Vars[e.OutputVar]; ok && !v.Masked && (v.Text != "" || v.Data != nil) {
				// an executor that produced nothing (a noop, a silent
				// command) has no output to digest, as a branch has none
				ev.Digest = digestOf(v.Text)
			}
			out = append(out, ev)
		}
		for _, n := range rec.Evidence {
			out = append(out, chain.Evidence{Kind: n.Kind, Transition: rec.Transition, Principal: rec.Principal, Digest: n.Digest})
		}
	}
	return out
}

// executorOf is the executor (or task) a saved transition ran, and the
// evidence its transition declares.
func (f *flow) executorOf(rec record.TransitionRecord) (*chain.Step, *chain.EvidenceDecl) {
	s := f.w.State(rec.From)
	switch {
	case s == nil:
		return nil, nil
	case s.Task != nil && rec.Transition == s.Name:
		return s.Task, nil
	}
	if t := s.Transition(rec.Transition); t != nil {
		return t.Executor, t.Evidence
	}
	return nil, nil
}

// nestedEvidence is the evidence the steps inside executor e recorded:
// each branch or pipeline step that succeeded (its output says which),
// and those inside them in turn.
func (f *flow) nestedEvidence(e *chain.Step) []response.EvidenceRecord {
	v, ok := f.Vars.Get(e.OutputVar)
	if !ok {
		return nil
	}
	doc := f.pathDoc(nil, nil, f.args)
	doc["workflow"] = map[string]any{"input": doc["input"], "id": f.RunID, "state": f.state}
	var out []response.EvidenceRecord
	var collect func(e *chain.Step, id string, value any)
	collect = func(e *chain.Step, id string, value any) {
		m, _ := value.(map[string]any)
		list, _ := m["branches"].([]any)
		if e.Kind == chain.KindPipeline {
			list, _ = m["steps"].([]any)
		}
		for _, item := range list {
			entry, _ := item.(map[string]any)
			i, isIndex := indexOf(entry["index"])
			b := nestedStep(e, i)
			if !isIndex || b == nil || entry["ok"] != true || entry["skipped"] == true {
				continue
			}
			bid := id + "[" + strconv.Itoa(i) + "]"
			if kind := chain.EvidenceKind(b, b.Evidence); kind != "" {
				r := response.EvidenceRecord{Kind: kind, Step: bid}
				if d := b.Evidence; d != nil {
					r.ID, r.Summary = f.Mask(renderDoc(d.ID, doc, nil)), f.Mask(renderDoc(d.Summary, doc, nil))
				}
				if text := interp.TextOf(entry["output"]); text != "" && f.Mask(text) == text {
					r.Digest = digestOf(text)
				}
				out = append(out, r)
			}
			collect(b, bid, entry["output"])
		}
	}
	collect(e, e.ID, v.Data)
	return out
}

// nestedStep is the i-th step written inside e: a branch (the do: of
// every item of a fan-out) or a pipeline's step; nil when there is none.
func nestedStep(e *chain.Step, i int) *chain.Step {
	switch {
	case e.Kind == chain.KindPipeline && i >= 0 && i < len(e.Pipeline().Steps):
		return e.Pipeline().Steps[i]
	case e.Kind != chain.KindParallel:
		return nil
	case e.Parallel().FanOut != nil:
		return e.Parallel().FanOut.Do
	case i >= 0 && i < len(e.Parallel().Branches):
		return e.Parallel().Branches[i]
	}
	return nil
}

// indexOf reads a branch's index: an int as the step made it, a float64
// once read back from JSON.
func indexOf(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

func digestOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:])
}

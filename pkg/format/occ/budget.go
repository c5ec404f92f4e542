package occ

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// This file reads OCC's context budget, max_context_chars: once a run's
// variables hold more characters than it, OCC's executor summarizes (or
// cuts) older step outputs before the next steps read them. A file read
// as OCC's has it, 50,000 unless written; chainrun's own format has no
// such setting (a step that needs less says so with context_strategy).

// ContextBudget is OCC's budget when a file does not write
// max_context_chars (its MAX_CONTEXT_CHARS default).
const ContextBudget = 50000

// budget is the characters a run of the chain's variables may hold
// before older outputs are summarized or cut, as OCC's executor does; 0
// when there is none: an OCC pipeline (whose executor has its own rules,
// summarize_output), or max_context_chars: 0 (OCC's "off").
func (f *file) budget() int {
	switch {
	case f.pipeline:
		return 0
	case f.maxContext != nil:
		return max(*f.maxContext, 0)
	}
	return ContextBudget
}

func (f *file) decodeMaxContext(d *yamlpos.Diags, v *yaml.Node) {
	var n int
	if yamlpos.DecodeValue(d, v, &n, "max_context_chars: ") {
		f.maxContext, f.maxContextPos = &n, yamlpos.Of(v)
	}
}

// checkMaxContext refuses max_context_chars in a file read in chainrun's
// own format (not OCC's), saying where it belongs.
func (f *file) checkMaxContext(d *yamlpos.Diags, occ bool) {
	if f.maxContext == nil || occ {
		return
	}
	d.Errorf(f.maxContextPos, "max_context_chars is OCC's context budget: a file read as OCC's (with version:) takes it; in chainrun's own format, a step that needs less of a value says so with context_strategy")
}

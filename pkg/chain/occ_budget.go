package chain

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// This file reads OCC's context budget, max_context_chars: once a run's
// variables hold more characters than it, OCC's executor summarizes (or
// cuts) older step outputs before the next steps read them. A file read
// as OCC's has it, 50,000 unless written; chainrun's own format has no
// such setting (a step that needs less says so with context_strategy).

// OCCContextBudget is OCC's budget when a file does not write
// max_context_chars (its MAX_CONTEXT_CHARS default).
const OCCContextBudget = 50000

// ContextBudget is the characters a run of the chain's variables may
// hold before older outputs are summarized or cut, as OCC's executor
// does; 0 when there is no budget: chainrun's own format, an OCC
// pipeline (whose executor has its own rules, summarize_output), or
// max_context_chars: 0 (OCC's "off").
func (c *Chain) ContextBudget() int {
	switch {
	case !c.occ || c.pipeline:
		return 0
	case c.maxContext != nil:
		return max(*c.maxContext, 0)
	}
	return OCCContextBudget
}

func decodeMaxContext(d *yamlpos.Diags, c *Chain, v *yaml.Node) {
	var n int
	if yamlpos.DecodeValue(d, v, &n, "max_context_chars: ") {
		c.maxContext, c.maxContextPos = &n, yamlpos.Of(v)
	}
}

// checkMaxContext refuses max_context_chars in chainrun's own format,
// saying where it belongs.
func checkMaxContext(d *yamlpos.Diags, c *Chain) {
	if c.maxContext == nil || c.occ {
		return
	}
	d.Errorf(c.maxContextPos, "max_context_chars is OCC's context budget: a file read as OCC's (with version:) takes it; in chainrun's own format, a step that needs less of a value says so with context_strategy")
}

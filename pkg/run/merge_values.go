package run

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// The values an OCC merge combines, shared by the merge step (body_occ.go)
// and the transform that merges as OCC's merge does (transform_ops.go).

// MergeValues are the values a merge's inputs name, in order ("" for
// one with no value).
func MergeValues(s *chain.Step, valueOf func(chain.Ref) (interp.Value, bool)) []interp.Value {
	var out []interp.Value
	for _, name := range s.MergeInputs() {
		r, _ := chain.ParseRef(name)
		v, _ := valueOf(r)
		out = append(out, v)
	}
	return out
}

// Concatenated is OCC's concatenation: the non-empty texts, separated by
// a rule.
func Concatenated(vs []interp.Value) string {
	var parts []string
	for _, v := range vs {
		if strings.TrimSpace(v.Text) != "" {
			parts = append(parts, v.Text)
		}
	}
	return strings.Join(parts, "\n\n---\n\n")
}

package occ

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// Format reads a DAG chain file OCC wrote (steps:, or a chains:
// pipeline) as OCC runs it: chainrun's own chain reader with OCC's
// top-level keys, and the chain's Reading set when the file is OCC's.
var Format = chain.Format{Name: "OCC", Claims: claims, Decode: decode}

// claims reports whether the document is a DAG chain file whose reading
// is OCC's to decide: one OCC's keys are written in (chains:,
// max_context_chars:), or one that reads as OCC's, or one that mixes a
// step type only OCC has with chainrun's own (read as chainrun's own,
// with a warning that says so).
func claims(root *yaml.Node) bool {
	if !chain.DAGFile(root) {
		return false
	}
	if yamlpos.KeyNode(root, "chains") != nil || yamlpos.KeyNode(root, "max_context_chars") != nil {
		return true
	}
	m, mine := marksOf(root)
	return mine && (m.occ != "" || (m.chainrun == "" && yamlpos.KeyNode(root, "version") != nil))
}

// file is what OCC's top-level keys say of a file as it is read.
type file struct {
	root *yaml.Node
	// pipeline says the file is an OCC pipeline (chains:).
	pipeline bool
	// maxContext is max_context_chars as written (nil when not).
	maxContext    *int
	maxContextPos chain.Pos
}

// decode reads the file with chainrun's own chain reader, OCC's keys
// added, then decides its reading.
func decode(d *yamlpos.Diags, root *yaml.Node) []*chain.Chain {
	f := &file{root: root}
	marks, mine := marksOf(root)
	c := chain.DecodeChain(d, root, func(c *chain.Chain, k, v *yaml.Node) bool {
		switch k.Value {
		case "chains":
			// an OCC pipeline file: its chains are chain steps
			if yamlpos.KeyNode(root, "steps") != nil {
				d.Errorf(yamlpos.Of(k), "a file has steps or chains (an OCC pipeline), not both")
				return true
			}
			c.Steps, f.pipeline = decodePipeline(d, v), true
		case "max_context_chars":
			f.decodeMaxContext(d, v)
		default:
			return false
		}
		return true
	})
	occ := marks.reads(d, root, mine)
	if occ {
		c.SetReading(f.reading())
	}
	f.checkMaxContext(d, occ)
	return []*chain.Chain{c}
}

// reading is how a file read as OCC's reads: what OCC's loader, resolver
// and executor take where chainrun's own format refuses (each with a
// warning), and OCC's own judgements (docs/chain-format.md, Coming from
// OCC).
func (f *file) reading() *chain.Reading {
	return &chain.Reading{
		Source:                    "OCC",
		EmptyLoads:                !f.pipeline,
		ContextBudget:             f.budget(),
		ContextBudgetDefault:      ContextBudget,
		LooseReferences:           true,
		LooseRef:                  looseRef,
		BareInputRef:              bareInputRef,
		BareInputSource:           bareInputSource,
		LooseOutputNames:          true,
		LooseStrategies:           true,
		LooseMergeInputs:          true,
		LooseTransforms:           true,
		BodylessGet:               true,
		SecretsReadable:           true,
		OneRequest:                true,
		GivenInputsOnly:           true,
		UnsetOutputEmpty:          true,
		ExitKeptWithStderr:        true,
		NonJSONKeptWhole:          true,
		FetchCap:                  PreToolCap,
		CutsMarked:                true,
		SummaryFailurePassesValue: true,
		JSONErrorIsOutput:         true,
		PreToolErrorText:          PreToolErrorText,
		Datetime:                  Datetime,
		EnvVarWithheld:            EnvVarWithheld,
		InputValue:                CheckInputValue,
		ReadCondition:             readCondition,
	}
}

package chain

import (
	"reflect"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// A step's body is held in parts, one per *Fields struct it was written
// with (Step.parts). A part is read through its accessor, which answers a
// shared zero value for a step without that part: code that reads another
// kind's field of a step reads what a flat step would have held, without
// every step carrying every kind's fields. A part is only ever written
// through Own, which adds it; the zero values are never written (the
// package's tests check it).

// Part is one part of a step's body: the fields a kind (or a part kinds
// share, KeyFields) adds to CommonFields.
type Part interface {
	AgentFields | CLIFields | HTTPFields | KeyFields | TransformFields | FileFields | CallFields | HumanFields | ScriptFields | ParallelFields | PipelineFields | StructuralFields | RegistryFields | WorkflowFields | RouterFields | EvaluatorFields | GateFields | MCPFields | LoopFields | MergeFields | DebateFields | WebhookFields | BrowserFields
}

// partOf is the step's part of type T, or nil.
func partOf[T Part](s *Step) *T {
	for _, p := range s.parts {
		if t, ok := p.(*T); ok {
			return t
		}
	}
	return nil
}

// readPart is the step's part of type T, or zero when it has none.
func readPart[T Part](s *Step, zero *T) *T {
	if p := partOf[T](s); p != nil {
		return p
	}
	return zero
}

// Own is the step's part of type T, added (zero) when it has none: the
// one way a part is written, by a reader of a file or code that builds a
// step (Own[AgentFields](s).Prompt = …).
func Own[T Part](s *Step) *T {
	if p := partOf[T](s); p != nil {
		return p
	}
	p := new(T)
	s.parts = append(s.parts, p)
	return p
}

// ownPart is own for a part known by its type (*T's reflect type T), as
// the YAML walker adds it; it returns the part's struct value.
func ownPart(s *Step, t reflect.Type) reflect.Value {
	for _, p := range s.parts {
		if v := reflect.ValueOf(p); v.Type().Elem() == t {
			return v.Elem()
		}
	}
	v := reflect.New(t)
	s.parts = append(s.parts, v.Interface())
	return v.Elem()
}

// stepKeys is a flat step, every part embedded in the order messages and
// the schema name their keys: the YAML walker's, the schema's and the
// did-you-mean lists' view of a step's keys. No step is ever one.
type stepKeys struct {
	CommonFields
	AgentFields
	CLIFields
	HTTPFields
	KeyFields
	TransformFields
	FileFields
	CallFields
	HumanFields
	ScriptFields
	ParallelFields
	PipelineFields
	StructuralFields
	RegistryFields
	WorkflowFields
	RouterFields
	EvaluatorFields
	GateFields
	MCPFields
	LoopFields
	MergeFields
	DebateFields
	WebhookFields
	BrowserFields
}

// stepKeySet is the keys of a step, of every kind.
func stepKeySet() *yamlpos.FieldSet { return yamlpos.FieldsOf(reflect.TypeFor[stepKeys]()) }

// fieldOf is where the YAML walker reads a key of stepKeys into: a field
// of the step's CommonFields, or of the part that declares the key,
// added when the step has none.
func (s *Step) fieldOf(f *yamlpos.Field) reflect.Value {
	if f.Index[0] == 0 {
		return reflect.ValueOf(&s.CommonFields).Elem().FieldByIndex(f.Index[1:])
	}
	return ownPart(s, reflect.TypeFor[stepKeys]().Field(f.Index[0]).Type).FieldByIndex(f.Index[1:])
}

// zeroParts are the parts read for a step without them; never written.
var (
	zeroAgent      AgentFields
	zeroCLI        CLIFields
	zeroHTTP       HTTPFields
	zeroKey        KeyFields
	zeroTransform  TransformFields
	zeroFile       FileFields
	zeroCall       CallFields
	zeroHuman      HumanFields
	zeroScript     ScriptFields
	zeroParallel   ParallelFields
	zeroPipeline   PipelineFields
	zeroStructural StructuralFields
	zeroRegistry   RegistryFields
	zeroWorkflow   WorkflowFields
	zeroRouter     RouterFields
	zeroEvaluator  EvaluatorFields
	zeroGate       GateFields
	zeroMCP        MCPFields
	zeroLoop       LoopFields
	zeroMerge      MergeFields
	zeroDebate     DebateFields
	zeroWebhook    WebhookFields
	zeroBrowser    BrowserFields
)

// Agent is the step's AgentFields, zero when it has none.
func (s *Step) Agent() *AgentFields { return readPart(s, &zeroAgent) }

// CLI is the step's CLIFields, zero when it has none.
func (s *Step) CLI() *CLIFields { return readPart(s, &zeroCLI) }

// HTTP is the step's HTTPFields, zero when it has none.
func (s *Step) HTTP() *HTTPFields { return readPart(s, &zeroHTTP) }

// Key is the step's KeyFields, zero when it has none.
func (s *Step) Key() *KeyFields { return readPart(s, &zeroKey) }

// Transform is the step's TransformFields, zero when it has none.
func (s *Step) Transform() *TransformFields { return readPart(s, &zeroTransform) }

// File is the step's FileFields, zero when it has none.
func (s *Step) File() *FileFields { return readPart(s, &zeroFile) }

// Call is the step's CallFields, zero when it has none.
func (s *Step) Call() *CallFields { return readPart(s, &zeroCall) }

// Human is the step's HumanFields, zero when it has none.
func (s *Step) Human() *HumanFields { return readPart(s, &zeroHuman) }

// Script is the step's ScriptFields, zero when it has none.
func (s *Step) Script() *ScriptFields { return readPart(s, &zeroScript) }

// Parallel is the step's ParallelFields, zero when it has none.
func (s *Step) Parallel() *ParallelFields { return readPart(s, &zeroParallel) }

// Pipeline is the step's PipelineFields, zero when it has none.
func (s *Step) Pipeline() *PipelineFields { return readPart(s, &zeroPipeline) }

// Structural is the step's StructuralFields, zero when it has none.
func (s *Step) Structural() *StructuralFields { return readPart(s, &zeroStructural) }

// Registry is the step's RegistryFields, zero when it has none.
func (s *Step) Registry() *RegistryFields { return readPart(s, &zeroRegistry) }

// Workflow is the step's WorkflowFields, zero when it has none.
func (s *Step) Workflow() *WorkflowFields { return readPart(s, &zeroWorkflow) }

// Router is the step's RouterFields, zero when it has none.
func (s *Step) Router() *RouterFields { return readPart(s, &zeroRouter) }

// Evaluator is the step's EvaluatorFields, zero when it has none.
func (s *Step) Evaluator() *EvaluatorFields { return readPart(s, &zeroEvaluator) }

// Gate is the step's GateFields, zero when it has none.
func (s *Step) Gate() *GateFields { return readPart(s, &zeroGate) }

// MCP is the step's MCPFields, zero when it has none.
func (s *Step) MCP() *MCPFields { return readPart(s, &zeroMCP) }

// Loop is the step's LoopFields, zero when it has none.
func (s *Step) Loop() *LoopFields { return readPart(s, &zeroLoop) }

// Merge is the step's MergeFields, zero when it has none.
func (s *Step) Merge() *MergeFields { return readPart(s, &zeroMerge) }

// Debate is the step's DebateFields, zero when it has none.
func (s *Step) Debate() *DebateFields { return readPart(s, &zeroDebate) }

// Webhook is the step's WebhookFields, zero when it has none.
func (s *Step) Webhook() *WebhookFields { return readPart(s, &zeroWebhook) }

// Browser is the step's BrowserFields, zero when it has none.
func (s *Step) Browser() *BrowserFields { return readPart(s, &zeroBrowser) }

// zeroPartsWritten names the zero parts something wrote, for the
// package's tests.
func zeroPartsWritten() []string {
	var out []string
	for name, p := range map[string]any{
		"AgentFields":      &zeroAgent,
		"CLIFields":        &zeroCLI,
		"HTTPFields":       &zeroHTTP,
		"KeyFields":        &zeroKey,
		"TransformFields":  &zeroTransform,
		"FileFields":       &zeroFile,
		"CallFields":       &zeroCall,
		"HumanFields":      &zeroHuman,
		"ScriptFields":     &zeroScript,
		"ParallelFields":   &zeroParallel,
		"PipelineFields":   &zeroPipeline,
		"StructuralFields": &zeroStructural,
		"RegistryFields":   &zeroRegistry,
		"WorkflowFields":   &zeroWorkflow,
		"RouterFields":     &zeroRouter,
		"EvaluatorFields":  &zeroEvaluator,
		"GateFields":       &zeroGate,
		"MCPFields":        &zeroMCP,
		"LoopFields":       &zeroLoop,
		"MergeFields":      &zeroMerge,
		"DebateFields":     &zeroDebate,
		"WebhookFields":    &zeroWebhook,
		"BrowserFields":    &zeroBrowser,
	} {
		if !reflect.ValueOf(p).Elem().IsZero() {
			out = append(out, name)
		}
	}
	return out
}

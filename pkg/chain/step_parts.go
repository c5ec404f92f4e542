package chain

import (
	"reflect"
	"slices"
	"sync"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// A step's body is held in parts, one per *Fields struct it was written
// with (Step.parts). A part is read through its accessor, which answers a
// shared zero value for a step without that part: code that reads another
// kind's field of a step reads what a flat step would have held, without
// every step carrying every kind's fields. A part is only ever written
// through Own, which adds it; the zero values are never written (the
// package's tests check it).

// partOf is the step's part of type T, or nil.
func partOf[T any](s *Step) *T {
	for _, p := range s.parts {
		if t, ok := p.(*T); ok {
			return t
		}
	}
	return nil
}

// Part is the step's part of type T, a kind's body or a part kinds share,
// or a zero T when the step has none: what a kind's accessor answers
// (basic.CLI(s) is Part[basic.CLIFields](s)). The zero is shared and must
// never be written; write through Own. T must be a registered unit's Body
// or a part of the core (KeyFields): any other T is a fault of the
// program, and panics.
func Part[T any](s *Step) *T {
	if p := partOf[T](s); p != nil {
		return p
	}
	z, ok := zeroParts()[reflect.TypeFor[T]()]
	if !ok {
		panic("chain.Part: " + reflect.TypeFor[T]().String() + " is no registered kind's body")
	}
	return z.(*T)
}

// Own is the step's part of type T, added (zero) when it has none: the
// one way a part is written, by a reader of a file or code that builds a
// step (Own[AgentFields](s).Prompt = …).
func Own[T any](s *Step) *T {
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

// stepParts are the structs a step's keys are declared in, in the order
// messages and the schema name them: CommonFields (part 0), the parts
// kinds share, then each registered kind's body in unit order. A step
// holds CommonFields and the parts its keys were written in; the YAML
// walker, the schema and the did-you-mean lists read this list as one
// flat set of keys.
var stepParts = sync.OnceValue(func() []reflect.Type {
	parts := []reflect.Type{reflect.TypeFor[CommonFields]()}
	for _, p := range sharedParts {
		parts = append(parts, reflect.TypeOf(p))
	}
	for _, u := range units() {
		if u.Body != nil && !slices.Contains(parts, u.Body) {
			parts = append(parts, u.Body)
		}
	}
	return parts
})

// stepKeySet is the keys of a step, of every kind.
var stepKeySet = sync.OnceValue(func() *yamlpos.FieldSet { return yamlpos.FieldsOfParts(stepParts()) })

// zeroParts are the parts Part answers for a step without them, one
// zero value per part type, never written.
var zeroParts = sync.OnceValue(func() map[reflect.Type]any {
	zeros := map[reflect.Type]any{}
	for _, t := range stepParts()[1:] {
		zeros[t] = reflect.New(t).Interface()
	}
	return zeros
})

// fieldOf is where the YAML walker reads a key of stepKeySet into: a
// field of the step's CommonFields, or of the part that declares the
// key, added when the step has none.
func (s *Step) fieldOf(f *yamlpos.Field) reflect.Value {
	if f.Index[0] == 0 {
		return reflect.ValueOf(&s.CommonFields).Elem().FieldByIndex(f.Index[1:])
	}
	return ownPart(s, stepParts()[f.Index[0]]).FieldByIndex(f.Index[1:])
}

// Agent is the step's AgentFields, zero when it has none.
func (s *Step) Agent() *AgentFields { return Part[AgentFields](s) }

// HTTP is the step's HTTPFields, zero when it has none.
func (s *Step) HTTP() *HTTPFields { return Part[HTTPFields](s) }

// Key is the step's KeyFields, zero when it has none.
func (s *Step) Key() *KeyFields { return Part[KeyFields](s) }

// Parallel is the step's ParallelFields, zero when it has none.
func (s *Step) Parallel() *ParallelFields { return Part[ParallelFields](s) }

// Pipeline is the step's PipelineFields, zero when it has none.
func (s *Step) Pipeline() *PipelineFields { return Part[PipelineFields](s) }

// Workflow is the step's WorkflowFields, zero when it has none.
func (s *Step) Workflow() *WorkflowFields { return Part[WorkflowFields](s) }

// zeroPartsWritten names the zero parts something wrote, for the
// package's tests.
func zeroPartsWritten() []string {
	var out []string
	for t, p := range zeroParts() {
		if !reflect.ValueOf(p).Elem().IsZero() {
			out = append(out, t.Name())
		}
	}
	return out
}

// SetKey sets a step's key as a file would have written it, into the
// part that declares it: how a front-end builds a step of a kind it does
// not import (a contenox hook's transform). A key no kind declares, or a
// value of another type, is a fault of the program: it panics.
func SetKey(s *Step, key string, value any) {
	f := stepKeySet().ByKey[key]
	if f == nil {
		panic("chain.SetKey: no kind declares key " + key)
	}
	s.fieldOf(f).Set(reflect.ValueOf(value))
}

// KeyValue is the value of a step's key, read from the part that declares
// it (the key's zero value when the step has none): how the engine reads
// a key of a kind it does not import (an mcp step's tool, before a run).
// A key no kind declares is a fault of the program: it panics.
func KeyValue(s *Step, key string) any {
	f := stepKeySet().ByKey[key]
	if f == nil {
		panic("chain.KeyValue: no kind declares key " + key)
	}
	if f.Index[0] == 0 {
		return reflect.ValueOf(&s.CommonFields).Elem().FieldByIndex(f.Index[1:]).Interface()
	}
	t := stepParts()[f.Index[0]]
	for _, p := range s.parts {
		if v := reflect.ValueOf(p).Elem(); v.Type() == t {
			return v.FieldByIndex(f.Index[1:]).Interface()
		}
	}
	return reflect.Zero(f.Type).Interface()
}

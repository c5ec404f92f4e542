package chain

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// The lifecycle handlers of a DAG chain, in the order they run when
// several apply: the one of the run's outcome, then on_exit.
const (
	OnSuccess = "on_success"
	OnFailure = "on_failure"
	OnCancel  = "on_cancel"
	OnExit    = "on_exit"
)

// HandlerNames are the handlers a chain may declare, in the order they
// run.
var HandlerNames = []string{OnSuccess, OnFailure, OnCancel, OnExit}

// Handlers are a DAG chain's lifecycle handlers (Dagu's handlerOn):
// steps that run once the chain's own steps have finished, chosen by how
// the run ended, so that a notification, a clean-up or a report does not
// have to depend on every step and guess the outcome.
type Handlers struct {
	OnSuccess []*Step `yaml:"on_success" doc:"A step, or a list of steps run in order, once the run has succeeded (an early exit too)."`
	OnFailure []*Step `yaml:"on_failure" doc:"A step, or a list of steps run in order, once the run has failed."`
	OnCancel  []*Step `yaml:"on_cancel" doc:"A step, or a list of steps run in order, once the run was interrupted (Ctrl-C, SIGTERM) or cancelled."`
	OnExit    []*Step `yaml:"on_exit" doc:"A step, or a list of steps run in order, after the others whatever the outcome (never on a pause)."`
	Pos       Pos     `yaml:"-"`
}

// Steps are the steps of the named handler (nil for another name).
func (h *Handlers) Steps(name string) []*Step {
	if p := h.list(name); p != nil {
		return *p
	}
	return nil
}

// list is where the named handler's steps are kept.
func (h *Handlers) list(name string) *[]*Step {
	switch name {
	case OnSuccess:
		return &h.OnSuccess
	case OnFailure:
		return &h.OnFailure
	case OnCancel:
		return &h.OnCancel
	case OnExit:
		return &h.OnExit
	}
	return nil
}

// HandlerSteps are the steps of every handler of the chain, handler by
// handler in the order they run.
func (c *Chain) HandlerSteps() []*Step {
	if c.Handlers == nil {
		return nil
	}
	var out []*Step
	for _, name := range HandlerNames {
		out = append(out, c.Handlers.Steps(name)...)
	}
	return out
}

// Lifecycle is the handler the step belongs to (on_failure, …), "" for
// a step of the chain itself.
func (s *Step) Lifecycle() string { return s.lifecycle }

// handlersSchema is the JSON Schema of handlers: each handler a step
// (its id optional, no depends_on or early_exit_if) or a list of them.
// The step's schema is given once, for every handler (patternProperties),
// not once per handler: it is most of the file's schema.
func handlersSchema(step map[string]any) map[string]any {
	one := copyMap(step)
	props := copyMap(step["properties"].(map[string]any))
	delete(props, "depends_on")
	delete(props, "early_exit_if")
	one["properties"] = props
	delete(one, "required")
	// a mapping is one step; a list's items are steps
	handler := copyMap(one)
	handler["type"] = []string{"object", "array"}
	handler["minItems"] = 1
	handler["items"] = one
	out := objectSchema(reflect.TypeFor[Handlers](), nil)
	for _, p := range out["properties"].(map[string]any) {
		delete(p.(map[string]any), "type") // described here, checked by the pattern
		delete(p.(map[string]any), "items")
	}
	out["patternProperties"] = map[string]any{"^(" + strings.Join(HandlerNames, "|") + ")$": handler}
	return out
}

// decodeHandlers reads handlers: each handler a step or a list of steps.
func decodeHandlers(d *yamlpos.Diags, v *yaml.Node) *Handlers {
	v = yamlpos.Deref(v)
	if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "handlers: write a mapping of %s to a step or a list of steps", strings.Join(HandlerNames, ", "))
		return nil
	}
	h := &Handlers{Pos: yamlpos.Of(v)}
	o := yamlpos.WalkOpts{Prefix: "handlers: ", Hint: "; handlers are " + strings.Join(HandlerNames, ", ")}
	yamlpos.Walk(d, yamlpos.MappingPairs(d, v, o.Prefix), h, nil, o, func(k, val *yaml.Node) bool {
		if dst := h.list(k.Value); dst != nil {
			*dst = decodeHandlerSteps(d, k.Value, val)
			return true
		}
		if meant := handlerMeant(k.Value); meant != "" {
			d.LooseErrorf(yamlpos.Of(k), "handlers: unknown field %q (did you mean %s?)", k.Value, meant)
			return true
		}
		return false
	})
	return h
}

// decodeHandlerSteps reads one handler's steps. A step without an id is
// named after its handler (on_failure; on_failure-2 for the second of a
// list).
func decodeHandlerSteps(d *yamlpos.Diags, name string, v *yaml.Node) []*Step {
	v = yamlpos.Deref(v)
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	} else if v.Kind != yaml.MappingNode {
		d.Errorf(yamlpos.Of(v), "handlers: %s: write a step (a mapping with its type) or a list of steps", name)
		return nil
	}
	var out []*Step
	for i, n := range items {
		n = yamlpos.Deref(n)
		if n.Kind != yaml.MappingNode {
			d.Errorf(yamlpos.Of(n), "handlers: %s: a step is a mapping with its type", name)
			continue
		}
		id := name
		if len(items) > 1 {
			id = fmt.Sprintf("%s-%d", name, i+1)
		}
		if given := yamlpos.ValueOf(n, "id"); given != nil && given.Kind == yaml.ScalarNode {
			id = given.Value
		}
		label := fmt.Sprintf("%s step %q", name, id)
		s, ok := DecodeStep(d, n, label+": ")
		if !ok {
			continue
		}
		if s.ID == "" {
			s.ID = id
		}
		s.label, s.lifecycle, s.seq = label, name, i
		if _, known := kindOf(s.Type); !known {
			reportUnknownKind(d, s.At("type"), label, "type", s.Type, Kinds())
		}
		out = append(out, s)
	}
	return out
}

// handlerMeant is the handler a key in another spelling means (Dagu's
// success/failure/cancel/exit, onSuccess, on-exit, finally), or "".
func handlerMeant(key string) string {
	k := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(key))
	k = strings.TrimPrefix(k, "on")
	for meant, words := range map[string][]string{
		OnSuccess: {"success", "succeeded", "ok"},
		OnFailure: {"failure", "fail", "failed", "error"},
		OnCancel:  {"cancel", "cancelled", "canceled", "abort", "aborted", "interrupt", "interrupted"},
		OnExit:    {"exit", "finally", "always", "done", "end"},
	} {
		for _, w := range words {
			if k == w {
				return meant
			}
		}
	}
	return ""
}

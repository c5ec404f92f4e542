package chain

import "slices"

// KeyFields hold a step's idempotency key. mcp-flowgate computes it for
// an executor of any kind and hands it to whatever the executor reaches
// (a rest request's Idempotency-Key header, a command's IDEMPOTENCY_KEY,
// an MCP tool's _idempotencyKey argument), so it is one part shared by
// the kinds that send it (keyField in their units' also) rather than a
// field of the http step alone.
type KeyFields struct {
	// IdempotencyKey true makes a key of the run, the transition (or
	// step) and the take; text is the key itself, a template that may
	// name {workflowId}, {transition} and {correlationId}.
	IdempotencyKey any `yaml:"idempotencyKey" doc:"true: a key made of the run id, the transition (a DAG chain's step) and, in a workflow, how many transitions the run had taken, the same on every retry; text: that key ({workflowId}, {transition}, {correlationId} and the run's values are read). Sent as the Idempotency-Key header of an http/rest step, IDEMPOTENCY_KEY in a cli or script step's environment, the _idempotencyKey argument of an mcp step's tool; a noop step has nothing to send it to."`
}

// KeyField is the key of KeyFields.
const KeyField = "idempotencyKey"

// The names a key written as text reads besides the run's values, as
// mcp-flowgate's compute_idempotency_key fills them.
const (
	KeyWorkflowID    = "workflowId"
	KeyTransition    = "transition"
	KeyCorrelationID = "correlationId"
)

// KeyOnEnter is what a key calls a state's onEnter, as mcp-flowgate
// names a transition it runs without one.
const KeyOnEnter = "on_enter"

// keyOnlyTaken are mcp-flowgate's executor kinds that take an
// idempotencyKey and send it nowhere, having no request, command or
// tool call of their own (a parallel's or pipeline's steps work out
// their own).
var keyOnlyTaken = []Kind{KindParallel, KindPipeline, KindWorkflow, KindHuman, KindStructuralAnalysis, KindDryRun, KindRegistry}

// keySentNowhere reports, with a warning, an idempotencyKey on an
// executor of a workflow file whose kind mcp-flowgate gives it to and
// does nothing with: taken, as there, not refused as chainrun's own DAG
// steps of those kinds are.
func (v *validator) keySentNowhere(s *Step) bool {
	if v.c.Workflow == nil || !slices.Contains(keyOnlyTaken, s.Kind) {
		return false
	}
	v.d.Warnf(s.At(KeyField), "%s: %s is sent nowhere: a %s executor makes no request, command or tool call of its own, as in mcp-flowgate (the executors it runs take their own key)", s.Subject(), KeyField, s.Kind)
	return true
}

// PipelineKeys warns of a pipeline whose steps would send one key: each
// works out its own from the same run, transition and count, as
// mcp-flowgate's pipeline does, so two with true (or the same text)
// send the same, and a receiver that de-duplicates drops the second.
func (v Checker) PipelineKeys(s *Step) {
	first := map[any]int{}
	for i, b := range s.Pipeline().Steps {
		k := b.Key().IdempotencyKey
		switch k.(type) {
		case string, bool:
		default:
			continue
		}
		if k == false || k == "" {
			continue
		}
		if j, seen := first[k]; seen {
			v.Warnf(b.At(KeyField), "%s: steps %d and %d send the same idempotencyKey, as in mcp-flowgate: a receiver that de-duplicates takes the second for a repeat of the first; give each a text of its own", s.Subject(), j+1, i+1)
			continue
		}
		first[k] = i
	}
}

// checkKey reports a key that is neither true/false nor text.
func (v *validator) checkKey(s *Step) {
	switch k := s.Key().IdempotencyKey.(type) {
	case nil, bool, string:
	default:
		v.d.Errorf(s.At(KeyField), "%s: %s is true or a key, not %v", s.Subject(), KeyField, k)
	}
}

// compileKey parses a key written as text. {workflowId}, {transition}
// and {correlationId} are the key's own names (a DAG step has no take:
// {correlationId} is refused there); any other reference is one to the
// run's values. In a workflow file, one that names none of them stays
// as written, with a warning, as mcp-flowgate leaves what it does not
// replace.
func (v *validator) compileKey(s *Step, c *Compiled) {
	text, ok := s.Key().IdempotencyKey.(string)
	if !ok || text == "" {
		return
	}
	own := []string{KeyWorkflowID, KeyTransition}
	workflow := v.c.Workflow != nil
	if workflow {
		own = append(own, KeyCorrelationID)
	}
	t := ParseTemplate(text)
	t.ReplaceRefs(func(r *Ref) (string, bool) {
		switch {
		case slices.Contains(own, r.Name) && len(r.Path) == 0:
		case r.Name == KeyCorrelationID && len(r.Path) == 0:
			v.d.Errorf(s.At(KeyField), "%s: %s: %s: a step of a DAG chain is taken once per run, with no correlation id; {workflowId} is the run id and {transition} the step's id", s.Subject(), KeyField, r.Raw)
		case workflow && !v.keyReads(s, r):
			v.d.Warnf(s.At(KeyField), "%s: %s: %s is sent as written: it is not %s, %s or %s, nor a value of the run", s.Subject(), KeyField, r.Raw,
				KeyWorkflowID, KeyTransition, KeyCorrelationID)
			return r.Raw, true
		default:
			v.ref(s, KeyField, *r)
		}
		return "", false
	})
	c.IdempotencyKey = t
}

// keyReads reports whether a workflow's key reference names a value of
// the run: one of its inputs, or what its executors may read.
func (v *validator) keyReads(s *Step, r *Ref) bool {
	if r.Name == "input" {
		return len(r.Path) > 0 && v.hasInput(r.Path[0])
	}
	return scope{v: v, s: s}.has(r.Name)
}

// KeyTransition is what a key calls where the step runs: the transition
// whose executor it is, on_enter for a state's onEnter, the state of a
// task, the step itself in a DAG chain. A step written inside another (a
// parallel branch, a pipeline step) is where that one is.
func (s *Step) KeyTransition() string {
	root := s
	for root.parent != nil {
		root = root.parent
	}
	if root.owner == "state" && root.role == "onEnter" {
		return KeyOnEnter
	}
	return root.ID
}

package run

import (
	"strconv"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// The key a step sends (its idempotencyKey) is worked out once per call
// of the step, before its first attempt, so every retry sends the same
// one, and is carried to its body in its scope: the Idempotency-Key
// header of an http/rest step, IDEMPOTENCY_KEY in a cli or script step's
// environment, the _idempotencyKey argument of an mcp step's tool. As
// mcp-flowgate's compute_idempotency_key (reliability.rs), true is
// <workflowId>.<transition>.<correlationId> and a text fills those three
// names; chainrun's workflowId is the run id, its correlationId the take
// (keyTake), and a DAG step's key is <run id>.<step id>. Nothing here
// remembers a key: de-duplicating is the receiver's work.

// Where a step's body puts its key: the header, environment variable
// and tool argument that carry it.
const (
	KeyHeader   = "Idempotency-Key"
	KeyEnv      = "IDEMPOTENCY_KEY"
	KeyArgument = "_idempotencyKey"
)

// keyScope is sc with the key step s sends, worked out for transition
// (s.KeyTransition(), or the transition of the executor a fallback
// stands in for). A key handed down already is kept: a fallback executor
// sends its primary's, as mcp-flowgate's do, by running with sc.key set
// to idempotencyKey(primary, primary.KeyTransition(), sc) and keyGiven;
// the steps s runs inside work out their own.
func (x *Execution) keyScope(s *chain.Step, transition string, sc Scope) (Scope, error) {
	if sc.keyGiven {
		sc.keyGiven = false
		return sc, nil
	}
	key, err := x.idempotencyKey(s, transition, sc)
	sc.key, sc.keySuffix, sc.keyItem = key, "", ""
	return sc, err
}

// idempotencyKey is the key step s sends where it runs as transition,
// "" when it sends none. A parallel executor's branch adds its index
// (sc.keySuffix), as mcp-flowgate segments its branches' keys; a
// for_each item its own to a key that is true (a text key is the
// author's, who may write {item} in it).
func (x *Execution) idempotencyKey(s *chain.Step, transition string, sc Scope) (string, error) {
	var key string
	switch k := s.Key().IdempotencyKey.(type) {
	case bool:
		if !k {
			return "", nil
		}
		key = x.RunID + "." + transition
		if x.KeyTake != "" {
			key += "." + x.KeyTake
		}
		key += sc.keyItem
	case string:
		names := sc.with(chain.KeyWorkflowID, interp.TextValue(x.RunID)).with(chain.KeyTransition, interp.TextValue(transition))
		if x.KeyTake != "" {
			names = names.with(chain.KeyCorrelationID, interp.TextValue(x.KeyTake))
		}
		var err error
		if key, err = x.render(s.C().IdempotencyKey, names); err != nil {
			return "", err
		}
	default:
		return "", nil
	}
	return key + sc.keySuffix, nil
}

// branchKey tells the key of a parallel executor's branch i apart, as
// mcp-flowgate's segment_branch_idempotency_key does.
func branchKey(i int) string { return ":branch:" + strconv.Itoa(i) }

// itemKey tells the key of a for_each step's item i apart: each item is
// an effect of its own.
func itemKey(i int) string { return ":item:" + strconv.Itoa(i) }

// TakeKey is a workflow's correlation id for the transition (or onEnter,
// or task) about to run: how many transitions the run has recorded. It
// is the same for every attempt of that take and for a resume that takes
// it again after a failure or a crash, and another at a later take.
func TakeKey(recorded int) string { return strconv.Itoa(recorded) }

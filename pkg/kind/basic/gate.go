package basic

import (
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// GateFields configure a gate step (OCC's gate): the run waits there for
// a person's approval, as a workflow waits at a decision point.
type GateFields struct {
	TimeoutHours float64 `yaml:"timeout_hours" doc:"How long a gate step may wait, in hours; the next resume after that takes on_timeout (no limit without it)."`
	OnTimeout    string  `yaml:"on_timeout" doc:"What a gate's passed timeout_hours decides: reject (the default; error is the same), approve or skip."`
	// AutoApproveIf approves the gate without asking when it holds.
	AutoApproveIf string `yaml:"gate_auto_approve_if" doc:"Expression; when it holds the gate step approves at once, without pausing."`
}

// The decisions a gate takes: resume --take approve|reject, and
// on_timeout's (skip too; error is reject).
const (
	GateSkip  = "skip"
	gateError = "error"
)

var onTimeoutValues = []string{chain.GateReject, gateError, chain.GateApprove, GateSkip}

// gateKind pauses a DAG chain's run (exit 3) until resume --take approve
// or reject decides it; its prompt is the question.
func init() {
	chain.Register(chain.Unit{
		Kind:  chain.KindGate,
		Order: 150,
		Body:  reflect.TypeFor[GateFields](),
		Also:  []string{"prompt"},
		Check: func(v chain.Checker, s *chain.Step) {
			if Gate(s).OnTimeout != "" && !slices.Contains(onTimeoutValues, Gate(s).OnTimeout) {
				v.Errorf(s.At("on_timeout"), "%s: on_timeout %q is not %s", s.Subject(), Gate(s).OnTimeout, chain.OrList(onTimeoutValues))
			}
			if Gate(s).TimeoutHours < 0 || Gate(s).TimeoutHours > math.MaxInt64/float64(time.Hour) {
				v.Errorf(s.At("timeout_hours"), "%s: timeout_hours must be a positive number of hours", s.Subject())
			}
			if Gate(s).OnTimeout != "" && Gate(s).TimeoutHours == 0 {
				v.Errorf(s.At("on_timeout"), "%s: on_timeout needs timeout_hours: how long the gate waits before it applies", s.Subject())
			}
		},
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			if v.Graph() == nil || s.Owner() != "" {
				v.Errorf(s.At("type"), "%s: a gate step pauses a DAG chain; in a workflow, a transition with actor: human is the decision point", s.Subject())
			}
			c.Prompt = v.Template(s, "prompt", s.Agent().Prompt)
			c.AutoApprove = v.Expression(s, "gate_auto_approve_if", Gate(s).AutoApproveIf, false, true)
		},
	})
}

// GateTimeout is how long a gate waits before on_timeout applies; 0 when
// it waits as long as it takes.
func GateTimeout(s *chain.Step) time.Duration {
	return time.Duration(Gate(s).TimeoutHours * float64(time.Hour))
}

// TimeoutDecision is what a gate's passed timeout decides: approve,
// reject or skip.
func TimeoutDecision(s *chain.Step) string {
	if Gate(s).OnTimeout == "" || Gate(s).OnTimeout == gateError {
		return chain.GateReject
	}
	return Gate(s).OnTimeout
}

// Gate is the step's GateFields, a shared zero value when it has none (read
// only; write through Own).
func Gate(s *chain.Step) *GateFields { return chain.Part[GateFields](s) }

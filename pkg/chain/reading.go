package chain

import (
	"time"
)

// Reading is what a front-end decided about how its file reads: where
// the peer's format means something chainrun's own does not, or accepts
// what chainrun's own refuses (with a warning), the chain reads as the
// peer runs it. Its knobs say what, never who; the front-end sets them
// (SetReading) and supplies the hooks of the peer's own behaviour. A
// chain of chainrun's own format has none (nil), and keeps its stricter
// rules. A saved run is re-parsed on resume, so the reading comes back
// without being saved.
type Reading struct {
	// Source names the format in messages ("…, as OCC accepts it").
	Source string
	// EmptyLoads: a file that holds no step loads (its output naming
	// nothing yet) and no run can run it, as a peer's editor saves a
	// workspace.
	EmptyLoads bool
	// ContextBudget is the characters a run's variables may hold before
	// older outputs are summarized or cut (see Chain.ContextBudget); 0
	// for none.
	ContextBudget int
	// ContextBudgetDefault is the budget when the file writes none, for
	// messages.
	ContextBudgetDefault int

	// LooseReferences: a {reference} that names nothing is left as
	// written (or gives its fallback), an {input.x} the file does not
	// declare is an input a run may give, and a template's fallback may
	// be written unquoted ({x|two words}), each with a warning; a
	// pipeline's chain inputs read {input} and {id.result} as its
	// pipeline gives them.
	LooseReferences bool
	// LooseOutputNames: an output_var that is not letters, digits and
	// '_' is accepted (the output may name it, no reference can read
	// it), with a warning.
	LooseOutputNames bool
	// LooseStrategies: a context_strategy value that is none of full,
	// summarize, truncate:N passes the value in full, and one naming no
	// step the step depends on is accepted, each with a warning.
	LooseStrategies bool
	// LooseMergeInputs: a merge input naming nothing reads "", with a
	// warning.
	LooseMergeInputs bool
	// LooseTransforms: a transform without expr or operation, or with an
	// operation chainrun has not, passes its input on; an empty regex
	// matches everywhere; each with a warning.
	LooseTransforms bool
	// BodylessGet: a GET or DELETE request (a webhook step, an http_fetch
	// pre_tool) sends no body: a body written is ignored, with a warning.
	BodylessGet bool
	// SecretsReadable: an env_var pre_tool may read a secret's name, its
	// value masked in every output, with a warning.
	SecretsReadable bool
	// OneRequest: a model step without retry: sends one request per
	// model, rather than retrying a transient failure.
	OneRequest bool
	// GivenInputsOnly: only the inputs a run gives are set: an optional
	// input not given is absent ({input.x} gives its fallback, else
	// stays as written), and one given as "" counts as not given (its
	// default applies, a required one is missing).
	GivenInputsOnly bool
	// UnsetOutputEmpty: a chain output naming a variable nothing set is
	// empty text, not missing.
	UnsetOutputEmpty bool
	// ExitKeptWithStderr: a bash pre_tool with stderr: true whose script
	// exits non-zero gives what the script wrote, with a warning, rather
	// than failing.
	ExitKeptWithStderr bool
	// NonJSONKeptWhole: an http_fetch pre_tool's json_path over a
	// response that is not JSON injects the response whole, with a
	// warning, rather than failing.
	NonJSONKeptWhole bool
	// FetchCap, when not 0, is the most characters a read_file or
	// http_fetch pre_tool injects: the rest is cut, with "[truncated]" on
	// a line of its own, and a warning.
	FetchCap int
	// CutsMarked: a context_strategy truncate:N marks its cut with the
	// length cut from ("[truncated from N chars]" on a line of its own)
	// rather than with "…".
	CutsMarked bool
	// SummaryFailurePassesValue: a context_strategy summarize whose
	// summary fails passes the value in full, with a warning, rather than
	// failing the step.
	SummaryFailurePassesValue bool
	// JSONErrorIsOutput: a json_extract transform whose input is not JSON
	// outputs the parse error's text, with a warning, rather than failing.
	JSONErrorIsOutput bool

	// EnvVarWithheld, when set, reports the names an env_var pre_tool
	// will not read ("" among them): its default_value is the value, with
	// a warning.
	EnvVarWithheld func(name string) bool
	// PreToolErrorText, when set, is the text an on_error: inject
	// pre_tool injects for its failure's message, in place of chainrun's
	// "error: " and the message.
	PreToolErrorText func(msg string) string
	// Datetime, when set, writes a current_datetime pre_tool's value for
	// its time zone and format; ok false leaves the format to chainrun's
	// own writing.
	Datetime func(now time.Time, zone, format string) (text string, ok bool)
	// InputValue, when set, judges an input's value (given or default)
	// in place of chainrun's own rules, keeping it as given; a default
	// chainrun's own rules would refuse is warned of.
	InputValue func(typ, text string) error
	// BareInputRef, when set, reads a bare {name} of a template's field
	// (r) that names an input and nothing else as {input.name}, with a
	// warning; BareInputSource rewrites an expression's source so.
	BareInputRef    func(v Checker, s *Step, field string, r *Ref)
	BareInputSource func(v Checker, s *Step, field, src string) string
	// LooseRef, with LooseReferences, reads one reference r of a
	// template's field as the peer's resolver does (it may rewrite r):
	// text stands for it when lit (a reference that names nothing, its
	// fallback or its own text), else it is read as chainrun reads it.
	LooseRef func(v Checker, s *Step, field string, r *Ref) (text string, lit bool)
	// ReadCondition, when set, reads a condition (or early_exit_if) src
	// that chainrun's expressions refuse (why) as the peer's evaluator
	// does: the step keeps the expression it gives, which it warns of;
	// ok false leaves the refusal.
	ReadCondition func(v Checker, s *Step, field, src string, why error) (e *Expression, ok bool)
}

// ownReading is chainrun's own format's: no knob set.
var ownReading Reading

// SetReading records how a front-end reads the chain's file; nil is
// chainrun's own format.
func (c *Chain) SetReading(r *Reading) { c.reading = r }

// Reading is how the chain's file reads: the zero Reading for
// chainrun's own format.
func (c *Chain) Reading() Reading { return *c.reads() }

// reads is the chain's reading, never nil.
func (c *Chain) reads() *Reading {
	if c.reading == nil {
		return &ownReading
	}
	return c.reading
}

// ContextBudget is the characters a run of the chain's variables may
// hold before older outputs are summarized or cut; 0 when there is no
// budget (chainrun's own format has none: a step that needs less says
// so with context_strategy).
func (c *Chain) ContextBudget() int { return c.reads().ContextBudget }

// OneRequest reports whether the step sends one request per model when
// it has no retry: block (Reading.OneRequest: OCC's default, reference
// 004's "default: 1 = no retry"), rather than chainrun's retries of a
// transient failure.
func (s *Step) OneRequest() bool { return s.reading != nil && s.reading.OneRequest && s.Retry == nil }

// Reading is how the step's file reads (its chain's).
func (s *Step) Reading() Reading {
	if s.reading == nil {
		return ownReading
	}
	return *s.reading
}

// bareInputRef reads a bare {name} of a template as the file's reading
// does (Reading.BareInputRef); chainrun's own format leaves it.
func (v *validator) bareInputRef(s *Step, field string, r *Ref) {
	if read := v.c.reads().BareInputRef; read != nil {
		read(Checker{v}, s, field, r)
	}
}

// bareInputSource is an expression's source with its bare input
// references read as the file's reading reads them
// (Reading.BareInputSource); src as written in chainrun's own format.
func (v *validator) bareInputSource(s *Step, field, src string) string {
	if read := v.c.reads().BareInputSource; read != nil {
		return read(Checker{v}, s, field, src)
	}
	return src
}

// Empty reports whether the chain holds no step in a reading that loads
// such a file (Reading.EmptyLoads): a workspace a peer's editor saves,
// which loads (its output naming nothing yet) and which no run can run.
func (c *Chain) Empty() bool {
	return c.reading != nil && c.reading.EmptyLoads && c.Workflow == nil && len(c.Steps) == 0
}

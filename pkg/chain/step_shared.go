package chain

import "slices"

// Parts several kinds of different families share: each key is declared
// once (its one Go type and doc), in the core, so a kind's own body can
// live with its kind while other kinds still read the key.

// WorkdirFields hold the directory a step runs in: a cli or script
// step's command, a file step's path, an agent's tools.
type WorkdirFields struct {
	Cwd string `yaml:"cwd" doc:"Directory to run in, relative to where chainrun was started."`
}

// InputVarFields name the variable a step reads: a transform operation's
// input, the value an evaluator judges.
type InputVarFields struct {
	InputVar string `yaml:"input_var" doc:"The variable a transform operation reads (input.x, a step's output_var, or a field of one); the variable an evaluator step judges (the output_var of a step it depends on)."`
}

// PathFields hold the file a file step reads, or the path an http step
// adds to its connection's baseUrl.
type PathFields struct {
	Path string `yaml:"path" doc:"File a file step reads."`
}

// InputsFields hold the variables a step combines (merge, a transform's
// merge operation) or gives the chain it calls (subchain).
type InputsFields struct {
	Inputs any `yaml:"inputs" doc:"merge (and a transform's merge operation): the variables combined, a list of names; subchain: the called chain's inputs, a mapping as with."`
	// names are Inputs read as a list of variable names (InputList).
	names []string
}

// sharedParts are the parts no one kind owns, in the order the schema
// and messages list their keys.
var sharedParts = []any{KeyFields{}, WorkdirFields{}, InputVarFields{}, PathFields{}, InputsFields{}, ExitFields{}, ProcessFields{}, SuccessFields{}, modelStepPart{}}

// Workdir is the step's WorkdirFields, zero when it has none.
func (s *Step) Workdir() *WorkdirFields { return Part[WorkdirFields](s) }

// InputVar is the step's InputVarFields, zero when it has none.
func (s *Step) InputVar() *InputVarFields { return Part[InputVarFields](s) }

// Path is the step's PathFields, zero when it has none.
func (s *Step) Path() *PathFields { return Part[PathFields](s) }

// Inputs is the step's InputsFields, zero when it has none.
func (s *Step) Inputs() *InputsFields { return Part[InputsFields](s) }

// MergeInputs are the variables a merge step (or a transform's merge
// operation) combines, in order.
func (s *Step) MergeInputs() []string { return s.Inputs().names }

// InputList reads a step's inputs as a non-empty list of variable names
// (a merge step, a transform's merge operation), kept for MergeInputs.
func (v Checker) InputList(s *Step, what string) []string {
	list, ok := s.Inputs().Inputs.([]any)
	if !ok || len(list) == 0 {
		v.Errorf(s.At("inputs"), "%s: inputs is required for %s: a list of the variables to combine, as in inputs: [draft, review]", s.Subject(), what)
		return nil
	}
	var names []string
	for _, e := range list {
		name, isText := e.(string)
		if _, ok := ParseRef(name); !isText || !ok {
			v.Errorf(s.At("inputs"), "%s: inputs: %v is not a variable name", s.Subject(), e)
			continue
		}
		names = append(names, name)
	}
	Own[InputsFields](s).names = names
	return names
}

// ExitFields say what a command's exit code means, for the kinds that run
// one (cli, script) and the engine that reads their exit.
type ExitFields struct {
	// TreatNonZeroAsFailure false makes a nonzero exit a value (a
	// transition's output mapping reads it as $.output.exitCode).
	TreatNonZeroAsFailure *bool `yaml:"treatNonZeroAsFailure" doc:"false: a nonzero exit is a value, not a failure (a transition's output reads it as $.output.exitCode). Default true."`
}

// Exit is the step's ExitFields, zero when it has none.
func (s *Step) Exit() *ExitFields { return Part[ExitFields](s) }

// ProcessFields hold what a program a step starts is given besides its
// name: a cli step's command, a script step's interpreter.
type ProcessFields struct {
	Args []string          `yaml:"args" doc:"Arguments of command, passed as they are; $.input.x is a JSONPath into the run context."`
	Env  map[string]string `yaml:"env" doc:"Environment variables added for the command."`
}

// Process is the step's ProcessFields, zero when it has none.
func (s *Step) Process() *ProcessFields { return Part[ProcessFields](s) }

// ModelKeys are the agent fields of a kind that asks a model one
// question, with no tools: a merge's, a debate's, an OCC pipeline's
// summary.
var ModelKeys = []string{"prompt", "model", "system", "temperature", "max_tokens", "fallback_models", "cache", "context_strategy"}

// modelStepPart holds the agent step a step asks a model through
// (NewModelStep): a part with no keys of its own.
type modelStepPart struct{ step *Step }

// ModelStep is the agent step a merge (llm_summarize, pick_best), a
// debate (its synthesis) or a summarised pipeline asks a model through;
// nil when it asks none.
func (s *Step) ModelStep() *Step { return Part[modelStepPart](s).step }

// SetModelStep keeps m as the step's model step (nil: it asks none).
func SetModelStep(s, m *Step) { Own[modelStepPart](s).step = m }

// NewModelStep makes the agent step that asks a merge's, a debate's or an
// OCC pipeline's question: the step's own agent fields (ModelKeys), with
// prompt as its prompt. SetModelStep keeps it.
func (v Checker) NewModelStep(s *Step, prompt string) *Step {
	m := &Step{CommonFields: CommonFields{Type: string(KindAgent), Retry: s.Retry, TimeoutMS: s.TimeoutMS},
		Pos: s.Pos, FieldPos: map[string]Pos{"type": s.Pos}}
	a := Own[AgentFields](m)
	*a = *s.Agent()
	a.Prompt = prompt
	a.Tools, a.Completion, a.ConditionKey = nil, nil, nil
	for f, p := range s.FieldPos {
		if slices.Contains(ModelKeys, f) {
			m.FieldPos[f] = p
		}
	}
	v.Nest(s, m, s.Subject(), s.ID)
	return m
}

// SuccessFields list the HTTP statuses a webhook step takes for success:
// a core part, as the request every http-like kind sends (SendRequest)
// reads it.
type SuccessFields struct {
	SuccessStatus []int `yaml:"success_status" doc:"webhook: the HTTP statuses that mean success (OCC's webhook_success_status; default any 2xx): any other fails the step."`
}

// Success is the step's SuccessFields, zero when it has none.
func (s *Step) Success() *SuccessFields { return Part[SuccessFields](s) }

// HTTPFields configure an http step: one request, whose body is the
// output and whose status is OUTPUT_status. mcp-flowgate's rest executor
// is the same step: a connection: gives the base URL and headers, path
// the rest of the URL, query its parameters and a mapping body the JSON
// sent.
type HTTPFields struct {
	Method       string            `yaml:"method" doc:"HTTP method of an http step (default GET)."`
	URL          string            `yaml:"url" doc:"URL of an http step (or connection and path)."`
	Headers      map[string]string `yaml:"headers" doc:"HTTP headers of an http step."`
	Body         string            `yaml:"body" doc:"Request body of an http step: text, or a mapping sent as JSON whose $.context/$.arguments/$.workflow.input values are read when it runs."`
	FailOnStatus *bool             `yaml:"fail_on_status" doc:"false: a non-2xx status is a response, not a failure."`
	// Connection names one of the file's connections: a rest one for an
	// http step, a cli one for a cli step.
	Connection string         `yaml:"connection" doc:"One of the file's connections: a rest connection (its baseUrl and headers) for an http/rest step, a cli connection (its command) for a cli step."`
	Query      map[string]any `yaml:"query" doc:"URL query parameters of an http step; $.-values are read when it runs."`
	// BodyData is a body written as a mapping or list: sent as JSON.
	BodyData any `yaml:"-"`
}

// StatusFails reports whether a response's status fails an http or
// webhook step: one outside success_status when the step lists them,
// else one outside 2xx unless fail_on_status is false.
func StatusFails(s *Step, status int) bool {
	if len(s.Success().SuccessStatus) > 0 {
		return !slices.Contains(s.Success().SuccessStatus, status)
	}
	return (status < 200 || status > 299) && (s.HTTP().FailOnStatus == nil || *s.HTTP().FailOnStatus)
}

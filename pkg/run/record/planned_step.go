package record

// PlannedStep is a step as --dry-run shows it: what would run, with
// inputs substituted and upstream outputs left as {references}.
type PlannedStep struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Wave      int      `json:"wave"`
	DependsOn []string `json:"depends_on,omitempty"`
	Condition string   `json:"condition,omitempty"`
	// Action is the resolved command, request, expression or prompt.
	Action string `json:"action"`
	// Model, FallbackModels and System are an agent step's call.
	Model          string   `json:"model,omitempty"`
	FallbackModels []string `json:"fallback_models,omitempty"`
	System         string   `json:"system,omitempty"`
	// Tools, MaxTurns and Completion are an agent step's tool loop: the
	// tools it offers, the most model calls it makes, and the completion
	// tool that ends it, as TOOL(its arguments).
	Tools      []string `json:"tools,omitempty"`
	MaxTurns   int      `json:"max_turns,omitempty"`
	Completion string   `json:"completion,omitempty"`
	Cwd        string   `json:"cwd,omitempty"`
	// PreTools are the step's pre_tools, resolved like Action, each as
	// "NAME ← TYPE: what it runs, fetches or reads".
	PreTools []string `json:"pre_tools,omitempty"`
	// State and Transition place a workflow's executor or task.
	State      string `json:"state,omitempty"`
	Transition string `json:"transition,omitempty"`
	Target     string `json:"target,omitempty"`
	// Fallback numbers an executor of the transition's (or onEnter's)
	// reliability.fallback, 1 for the first: run only when the one
	// before failed past its retries.
	Fallback int `json:"fallback,omitempty"`
	// Handler is the lifecycle handler a step of the chain's handlers
	// runs in, once the chain's steps have finished.
	Handler string `json:"handler,omitempty"`
	// Stops is why a run would stop before it starts, for want of what
	// the step names: a connection or script nothing provides (a pending
	// definition, pkg/run/pending.go).
	Stops string `json:"stops,omitempty"`
}

package chain

// Handler, set on a task of a contenox task chain (and on the executor of
// a hook's tool), is how the step runs in place of its kind's body: the
// front-end (pkg/format/contenox) writes it, the runner pkg/kind/contenox
// registers (run.RegisterHandlerRunner) reads it; the core asks only
// whether a step has one, and its name for messages.
type Handler interface {
	// HandlerName is the task's handler (contenox's chat_completion, …).
	HandlerName() string
}

package llm

import "context"

// callerKey carries the name of what asks a model.
type callerKey struct{}

// WithCaller names what makes the model requests sent under ctx (a step
// id, "decision STATE"), so that a provider that records or replays
// answers can keep one sequence per asker: the turns of an agent loop
// come back in the order they were asked. llm gives the name no meaning.
func WithCaller(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, callerKey{}, name)
}

// Caller is the name WithCaller gave ctx, "" when none.
func Caller(ctx context.Context) string {
	name, _ := ctx.Value(callerKey{}).(string)
	return name
}

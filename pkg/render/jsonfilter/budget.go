package jsonfilter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/metrics"
	"time"

	"github.com/itchyny/gojq"
)

// The budget a --jq expression runs within unless Options say otherwise:
// a filter of a command's output takes far less, and one that takes more
// (recursion without end, a generator gathered without a bound) would
// otherwise hold the terminal, the CI job and the machine's memory.
const (
	DefaultBudget    = 10 * time.Second
	DefaultMaxMemory = 512 << 20
)

// heapMetric is the heap the filter's memory is read from: cheap to read
// often, unlike runtime.ReadMemStats.
const heapMetric = "/memory/classes/heap/objects:bytes"

// errBudget is a filter stopped by its budget; the message says which.
type errBudget struct{ why string }

func (e *errBudget) Error() string { return e.why + ": stopped" }

// runJQ evaluates the expression on v under ctx and the filter's budget,
// calling emit with each result. The evaluation runs apart from the
// caller, which returns the moment ctx ends or the budget is spent (a
// stop signal is answered at once, whatever the expression is doing);
// gojq sees the same context and stops between steps.
func (f *Filter) runJQ(ctx context.Context, v any, emit func(any) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ctx, stopTimer := context.WithTimeoutCause(ctx, f.budget, &errBudget{fmt.Sprintf("the expression ran longer than %s", f.budget)})
	defer stopTimer()
	go watchMemory(ctx, f.maxMemory, cancel, "the expression")

	results := make(chan any)
	go func() {
		defer close(results)
		iter := f.code.RunWithContext(ctx, v)
		for {
			r, ok := iter.Next()
			if !ok {
				return
			}
			select {
			case results <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return stopCause(ctx)
		case r, ok := <-results:
			if !ok {
				if ctx.Err() != nil {
					return stopCause(ctx)
				}
				return nil
			}
			if err, isErr := r.(error); isErr {
				if ctx.Err() != nil {
					return stopCause(ctx)
				}
				var halt *gojq.HaltError
				if errors.As(err, &halt) && halt.Value() == nil {
					return nil // halt: stop, as jq does, without a word
				}
				return err
			}
			if err := emit(r); err != nil {
				return err
			}
		}
	}
}

// stopCause is why ctx ended: the budget spent, or the caller's stop.
func stopCause(ctx context.Context) error {
	var b *errBudget
	if cause := context.Cause(ctx); errors.As(cause, &b) {
		return b
	}
	return ctx.Err()
}

// watchMemory cancels the evaluation once the heap has grown by more
// than limit since it began, until ctx ends.
func watchMemory(ctx context.Context, limit uint64, cancel context.CancelCauseFunc, what string) {
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	base := sample[0].Value.Uint64()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			metrics.Read(sample)
			if heap := sample[0].Value.Uint64(); heap > base && heap-base > limit {
				cancel(&errBudget{fmt.Sprintf("%s used more than %d MiB", what, limit>>20)})
				return
			}
		}
	}
}

// runTemplate executes the template on v under ctx and the filter's
// budget, as runJQ runs an expression: its text goes to w as it renders,
// through a writer that fails once ctx ends, which ends the execution at
// its next write; one that writes nothing while it loops is left to
// finish apart, and the caller returns the moment ctx ends or the budget
// is spent.
func (f *Filter) runTemplate(ctx context.Context, w io.Writer, v any) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ctx, stopTimer := context.WithTimeoutCause(ctx, f.budget, &errBudget{fmt.Sprintf("the template ran longer than %s", f.budget)})
	defer stopTimer()
	go watchMemory(ctx, f.maxMemory, cancel, "the template")
	done := make(chan error, 1)
	go func() { done <- f.template(&stoppingWriter{ctx: ctx, w: w}, v) }()
	select {
	case err := <-done:
		if err != nil && ctx.Err() != nil {
			return stopCause(ctx)
		}
		return err
	case <-ctx.Done():
		return stopCause(ctx)
	}
}

// stoppingWriter writes to w until ctx ends, then fails every write.
type stoppingWriter struct {
	ctx context.Context
	w   io.Writer
}

func (s *stoppingWriter) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.w.Write(p)
}

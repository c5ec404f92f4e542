package github

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// Guard is a stream of a process running in GitHub Actions (stdout or
// stderr) whose every line is shown and never obeyed: a line that the
// runner would read as a workflow command (a step's output, an error
// quoting it, a progress line) is fenced by ::stop-commands:: with a
// fresh unguessable token. Other lines pass unchanged. The Renderer's own
// commands bypass it.
type Guard struct {
	mu      sync.Mutex
	raw     io.Writer
	partial []byte
}

// NewGuard wraps w when getenv says the job runs in GitHub Actions
// (GITHUB_ACTIONS=true), else returns nil.
func NewGuard(getenv func(string) string, w io.Writer) *Guard {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	return &Guard{raw: w}
}

// Write passes whole lines on at once, fenced when they look like a
// command; the end of a line not yet finished waits for the rest (or
// Flush), so a command cannot be assembled across writes.
func (g *Guard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.partial = append(g.partial, p...)
	i := bytes.LastIndexByte(g.partial, '\n')
	if i < 0 {
		return len(p), nil
	}
	whole := string(g.partial[:i])
	g.partial = append(g.partial[:0:0], g.partial[i+1:]...)
	if err := g.write(whole); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the unfinished last line, ending it.
func (g *Guard) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.partial) == 0 {
		return nil
	}
	text := string(g.partial)
	g.partial = nil
	return g.write(text)
}

// write puts lines (without their last newline) out, as ghVerbatim does.
func (g *Guard) write(text string) error {
	var b strings.Builder
	ghVerbatim(&b, strings.Split(text, "\n"))
	_, err := io.WriteString(g.raw, b.String())
	return err
}

// unguarded is the stream under a Guard: the Renderer's own commands
// must be obeyed. Its writes take the Guard's lock, so they and the
// guarded ones never write to the stream at once.
func unguarded(w io.Writer) io.Writer {
	if g, ok := w.(*Guard); ok {
		return bypass{g}
	}
	return w
}

// bypass writes to a Guard's stream unfenced, in turn with the Guard.
type bypass struct{ g *Guard }

func (b bypass) Write(p []byte) (int, error) {
	b.g.mu.Lock()
	defer b.g.mu.Unlock()
	return b.g.raw.Write(p)
}

package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/executor"
)

// execute runs the body of a step of any deterministic kind once.
func (x *execution) execute(ctx context.Context, s *chain.Step, sc scope, t *tries) (outcome, error) {
	c := s.C()
	switch s.Kind {
	case chain.KindAgent:
		return x.agent(ctx, s, sc, t)
	case chain.KindCLI:
		return x.command(ctx, s, sc, c.Command, c.Args, c.Run, c.Env, c.Cwd)
	case chain.KindHTTP:
		return x.http(ctx, s, sc, c.URL, c.Headers, c.Body, s.Method)
	case chain.KindTransform:
		v, err := c.Transform.Eval(sc.exprEnv(c.Transform.Names))
		if err != nil {
			return outcome{}, &permanentError{fmt.Errorf("expr: %w", err)}
		}
		return outcome{value: dataValue(v)}, nil
	case chain.KindFile:
		return x.file(s, sc, c.Path, c.Cwd)
	case chain.KindChain:
		return x.call(ctx, s, sc)
	}
	return outcome{}, &permanentError{fmt.Errorf("a %s step is not supported yet", s.Kind)}
}

func (x *execution) render(t *chain.Template, sc scope) (string, error) {
	if t == nil {
		return "", nil
	}
	out, err := t.Render(sc.resolve, x.l.lenient)
	if err != nil {
		return "", &permanentError{err}
	}
	return out, nil
}

// dir resolves a step's cwd against the directory chainrun started in.
func (x *execution) dir(cwd *chain.Template, sc scope) (string, error) {
	d, err := x.render(cwd, sc)
	if err != nil {
		return "", err
	}
	if d == "" {
		return x.l.dir, nil
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(x.l.dir, d)
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return "", &permanentError{fmt.Errorf("cwd %s is not a directory", d)}
	}
	return d, nil
}

func (x *execution) command(ctx context.Context, s *chain.Step, sc scope, command *chain.Template, args []chain.Arg, script *chain.Template, env map[string]*chain.Template, cwd *chain.Template) (outcome, error) {
	cmd := executor.Command{Grace: x.l.grace, Bin: x.binDir()}
	var err error
	if cmd.Dir, err = x.dir(cwd, sc); err != nil {
		return outcome{}, err
	}
	var values []string
	if script != nil {
		if cmd.Script, values, err = script.RenderShell(sc.resolve, x.l.lenient); err != nil {
			return outcome{}, &permanentError{err}
		}
	} else {
		name, err := x.render(command, sc)
		if err != nil {
			return outcome{}, err
		}
		cmd.Argv = []string{name}
		for _, a := range args {
			v, err := x.arg(a, sc)
			if err != nil {
				return outcome{}, err
			}
			cmd.Argv = append(cmd.Argv, v)
		}
	}
	cmd.Env = append(os.Environ(), "CHAINRUN_RUN_ID="+x.runID, "CHAINRUN_STEP_ID="+s.ID)
	if cmd.Bin != "" {
		// scripts find the chain's own commands too
		cmd.Env = append(cmd.Env, "PATH="+cmd.Bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	for k, t := range env {
		v, err := x.render(t, sc)
		if err != nil {
			return outcome{}, err
		}
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	// last, so that nothing in env can replace an interpolated value
	cmd.Env = append(cmd.Env, values...)
	if x.l.logLines {
		cmd.Stdout = x.lineWriter(s.ID, "stdout")
		cmd.Stderr = x.lineWriter(s.ID, "stderr")
	}
	cmd.Spill = x.spill(s)
	res, err := cmd.Run(ctx)
	flush(cmd.Stdout, cmd.Stderr)
	stdout := strings.TrimSpace(res.Stdout)
	if res.StdoutSize > executor.MaxCapture {
		stdout = res.Stdout + cutNote(res.StdoutSize, res.StdoutFile)
	}
	out := outcome{value: textValue(stdout), stderr: res.Stderr}
	if res.SpillErr != nil {
		x.warn("step " + s.ID + ": keeping its whole output: " + res.SpillErr.Error())
	}
	if err != nil {
		return out, commandError(err)
	}
	return out, nil
}

// spill opens the files a step's oversized output is kept in, under the
// run's directory; nil when the run has none (the rest is dropped).
func (x *execution) spill(s *chain.Step) func(stream string) (io.WriteCloser, string, error) {
	if x.req.OutputDir == "" {
		return nil
	}
	return func(stream string) (io.WriteCloser, string, error) {
		if err := os.MkdirAll(x.req.OutputDir, 0o755); err != nil {
			return nil, "", err
		}
		n := x.spills.Add(1)
		path := filepath.Join(x.req.OutputDir, fmt.Sprintf("%s-%d.%s", s.ID, n, stream))
		f, err := os.Create(path)
		if err != nil {
			return nil, "", err
		}
		return f, path, nil
	}
}

// cutNote ends a value cut at the in-memory cap, saying so and where the
// whole is.
func cutNote(size int64, path string) string {
	where := "the rest was dropped (runs that are saved keep it)"
	if path != "" {
		where = "the whole is in " + path
	}
	return fmt.Sprintf("\n… [output cut at %d MiB of %d bytes; %s]", executor.MaxCapture>>20, size, where)
}

// binDir is the bin/ directory beside the chain's file, when there is
// one: its commands are found by name, as reference 000's lint-check.
func (x *execution) binDir() string {
	x.binOnce.Do(func() {
		if x.c.File == "" {
			return
		}
		dir := filepath.Join(filepath.Dir(x.c.File), "bin")
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(x.l.dir, dir)
		}
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			x.bin = dir
		}
	})
	return x.bin
}

// arg renders one argv element: a JSONPath against the run context, or a
// template.
func (x *execution) arg(a chain.Arg, sc scope) (string, error) {
	if a.JSONPath == nil {
		return x.render(a.Template, sc)
	}
	nodes := a.JSONPath.Select(sc.document())
	if len(nodes) == 0 {
		return "", &permanentError{fmt.Errorf("args: %s matches nothing in the run context", a.Raw)}
	}
	if len(nodes) == 1 {
		return textOf(nodes[0]), nil
	}
	return textOf([]any(nodes)), nil
}

func (x *execution) http(ctx context.Context, s *chain.Step, sc scope, url *chain.Template, headers map[string]*chain.Template, body *chain.Template, method string) (outcome, error) {
	req := executor.HTTPRequest{Method: method, Headers: map[string]string{}}
	var err error
	if req.URL, err = x.render(url, sc); err != nil {
		return outcome{}, err
	}
	if req.Body, err = x.render(body, sc); err != nil {
		return outcome{}, err
	}
	for k, t := range headers {
		if req.Headers[k], err = x.render(t, sc); err != nil {
			return outcome{}, err
		}
	}
	resp, err := executor.DoHTTP(ctx, x.l.client, req)
	if err != nil {
		return outcome{}, err
	}
	out := outcome{value: textValue(resp.Body), status: resp.Status}
	if (resp.Status < 200 || resp.Status > 299) && (s.FailOnStatus == nil || *s.FailOnStatus) {
		if method == "" {
			method = "GET"
		}
		return out, fmt.Errorf("HTTP %d from %s %s (set fail_on_status: false to accept it): %s", resp.Status, method, executor.RedactURL(req.URL), clip(strings.TrimSpace(resp.Body), 200))
	}
	return out, nil
}

func (x *execution) file(s *chain.Step, sc scope, path, cwd *chain.Template) (outcome, error) {
	p, err := x.render(path, sc)
	if err != nil {
		return outcome{}, err
	}
	base, err := x.dir(cwd, sc)
	if err != nil {
		return outcome{}, err
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return outcome{}, &permanentError{fmt.Errorf("cannot read %s: %w", p, errors.Unwrap(err))}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, executor.MaxCapture+1))
	if err != nil {
		return outcome{}, fmt.Errorf("reading %s: %w", p, err)
	}
	if len(data) > executor.MaxCapture {
		return outcome{}, &permanentError{fmt.Errorf("%s is larger than %d MiB, the most a file step reads", p, executor.MaxCapture>>20)}
	}
	return outcome{value: textValue(string(data))}, nil
}

// lineWriter turns a command's output into step.log events, line by line.
func (x *execution) lineWriter(step, stream string) io.Writer {
	return &lineEmitter{emit: func(line string) {
		x.emit(event.Event{Type: event.StepLog, Step: step, Stream: stream, Line: line})
	}}
}

type lineEmitter struct {
	emit func(string)
	buf  []byte
}

func (w *lineEmitter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			break
		}
		w.emit(strings.TrimRight(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

func (w *lineEmitter) flush() {
	if len(w.buf) > 0 {
		w.emit(string(w.buf))
		w.buf = nil
	}
}

func flush(ws ...io.Writer) {
	for _, w := range ws {
		if le, ok := w.(*lineEmitter); ok {
			le.flush()
		}
	}
}

// call runs the chain a chain step names, with its `with` values as
// inputs, as a nested run whose id extends this one's. Its output is the
// callee's output.
func (x *execution) call(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	callee, err := x.l.chains(s.Chain)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	given := make(map[string]string, len(s.With))
	for k, t := range s.C().With {
		if given[k], err = x.render(t, sc); err != nil {
			return outcome{}, err
		}
	}
	inputs, err := ResolveInputs(callee, given)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	// the callee's steps are saved, and kept on resume, as CALLER/STEP
	sub := Request{Journal: prefixed(x.req.Journal, s.ID+"/"), Resume: map[string]StepRecord{}, Started: map[string]bool{}, Rerun: map[string]bool{},
		OutputDir: x.req.OutputDir, Grants: x.req.Grants, Ask: x.req.Ask, Events: x.req.Events}
	prefix := s.ID + "/"
	for id, rec := range x.req.Resume {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			rec.Result.ID = inner
			sub.Resume[inner] = rec
		}
	}
	for id := range x.req.Started {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			sub.Started[inner] = true
		}
	}
	for id := range x.req.Rerun {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			sub.Rerun[inner] = true
		}
	}
	callx := x.l.newExecution(callee, x.runID+"/"+s.ID, newStore(inputs), x.budget, sub, x.secretValues)
	res := callx.run(ctx, &dagDriver{x: callx})
	if res.Status != Succeeded {
		if ctx.Err() != nil {
			return outcome{}, ctx.Err()
		}
		return outcome{}, fmt.Errorf("chain %s %s: %s", callee.Name, res.Status, res.Error)
	}
	if res.Output == nil {
		return outcome{}, nil
	}
	return outcome{value: dataValue(res.Output)}, nil
}

package jsonfilter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"text/template"
	"time"

	"github.com/itchyny/gojq"
)

// Filter is a compiled --jq expression or --template: what a command
// prints instead of its JSON.
type Filter struct {
	flag      string
	code      *gojq.Code
	tmpl      *template.Template
	pretty    bool
	budget    time.Duration
	maxMemory uint64
}

// Options choose the filter and how its results look.
type Options struct {
	// JQ is a jq expression (--jq), Template a Go template (--template);
	// at most one of them.
	JQ, Template string
	// Pretty indents the JSON results of a jq expression (stdout is a
	// terminal, so a person reads them); elsewhere each is one line.
	Pretty bool
	// Environ is what jq's env and $ENV see (os.Environ); nil: nothing.
	Environ func() []string
	// Budget is how long a jq expression may run on one value, MaxMemory
	// how much the heap may grow while it does (0: DefaultBudget,
	// DefaultMaxMemory); past either it is stopped with an ApplyError.
	Budget    time.Duration
	MaxMemory uint64
}

// FlagError is a --jq expression or --template that cannot be used: a
// usage error naming the flag, found before the command does anything.
type FlagError struct {
	Flag string
	Err  error
}

func (e *FlagError) Error() string { return e.Flag + ": " + e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *FlagError) NothingRan() bool { return true }

// ApplyError is a filter that failed on the JSON it was given (a jq
// expression indexing a string, a template calling a function on the
// wrong value): what it printed before stays printed.
type ApplyError struct {
	Flag string
	Err  error
}

func (e *ApplyError) Error() string { return e.Flag + ": " + e.Err.Error() }
func (e *ApplyError) Unwrap() error { return e.Err }

// New compiles the filter o asks for: nil (and no error) when it asks for
// none, a FlagError when the expression or template does not compile.
func New(o Options) (*Filter, error) {
	switch {
	case o.JQ != "" && o.Template != "":
		return nil, &FlagError{"--jq", errors.New("cannot be used with --template: choose one")}
	case o.JQ != "":
		q, err := gojq.Parse(o.JQ)
		if err != nil {
			return nil, &FlagError{"--jq", fmt.Errorf("%q: %w", o.JQ, err)}
		}
		var opts []gojq.CompilerOption
		if o.Environ != nil {
			opts = append(opts, gojq.WithEnvironLoader(o.Environ))
		}
		code, err := gojq.Compile(q, opts...)
		if err != nil {
			return nil, &FlagError{"--jq", fmt.Errorf("%q: %w", o.JQ, err)}
		}
		return withBudget(&Filter{flag: "--jq", code: code, pretty: o.Pretty}, o), nil
	case o.Template != "":
		t, err := template.New("--template").Funcs(funcs(&table{})).Parse(o.Template)
		if err != nil {
			return nil, &FlagError{"--template", err}
		}
		return withBudget(&Filter{flag: "--template", tmpl: t}, o), nil
	}
	return nil, nil
}

// withBudget gives f the budget o asks for, else the default one.
func withBudget(f *Filter, o Options) *Filter {
	f.budget, f.maxMemory = o.Budget, o.MaxMemory
	if f.budget <= 0 {
		f.budget = DefaultBudget
	}
	if f.maxMemory == 0 {
		f.maxMemory = DefaultMaxMemory
	}
	return f
}

// Flag is the flag the filter came from, --jq or --template.
func (f *Filter) Flag() string { return f.flag }

// Apply filters each JSON value of data (a command prints one) and
// writes the results to w: a jq expression's strings raw and other values
// as JSON, one a line; a template's text as it renders. JSON that does
// not parse, or a filter that fails on it or spends its budget, is an
// ApplyError; one that ctx stops returns as soon as it ends, an
// ApplyError wrapping ctx's error.
func (f *Filter) Apply(ctx context.Context, w io.Writer, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			return nil
		} else if err != nil {
			return &ApplyError{f.flag, fmt.Errorf("the command's output is not JSON: %w", err)}
		}
		v = normalize(v)
		var err error
		if f.code != nil {
			err = f.runJQ(ctx, v, func(r any) error { return f.writeValue(w, r) })
		} else {
			err = f.runTemplate(ctx, w, v)
		}
		if err != nil {
			return &ApplyError{f.flag, err}
		}
	}
}

// writeValue prints one jq result: a string as it is (jq -r), anything
// else as JSON, indented when f.pretty and the value is a list or map.
func (f *Filter) writeValue(w io.Writer, v any) error {
	if s, ok := v.(string); ok {
		_, err := io.WriteString(w, s+"\n")
		return err
	}
	b, err := gojq.Marshal(v)
	if err != nil {
		return err
	}
	switch v.(type) {
	case map[string]any, []any:
		if f.pretty {
			var buf bytes.Buffer
			if json.Indent(&buf, b, "", "  ") == nil {
				b = buf.Bytes()
			}
		}
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// template renders the template on v, with a table of its own for
// tablerow.
func (f *Filter) template(w io.Writer, v any) error {
	t := &table{}
	out := bufio.NewWriterSize(w, 32<<10)
	if err := f.tmpl.Funcs(funcs(t)).Execute(out, v); err != nil {
		return err
	}
	if _, err := out.WriteString(t.render()); err != nil {
		return err
	}
	return out.Flush()
}

// normalize turns the decoder's json.Number values into what both filter
// languages compare and compute with: int for whole numbers (as jq shows
// them, 12 not 12.0; a bigger one as a *big.Int), float64 for others;
// one too big for a float64 keeps its exact text.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil && i >= math.MinInt && i <= math.MaxInt {
			return int(i)
		}
		if b, ok := new(big.Int).SetString(string(x), 10); ok {
			return b // a whole number past int64 keeps every digit
		}
		if fl, err := x.Float64(); err == nil {
			return fl
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	}
	return v
}

// Held is a command's stdout held for a filter: the command writes its
// JSON into it, and Flush prints what the filter makes of that.
type Held struct {
	filter *Filter
	out    io.Writer
	buf    bytes.Buffer
}

// Hold returns out held for the filter.
func (f *Filter) Hold(out io.Writer) *Held { return &Held{filter: f, out: out} }

// Write keeps p until Flush.
func (h *Held) Write(p []byte) (int, error) { return h.buf.Write(p) }

// Flag is the flag of the filter the output is held for.
func (h *Held) Flag() string { return h.filter.flag }

// Out is the writer held: the command's stdout.
func (h *Held) Out() io.Writer { return h.out }

// Flush filters what was written and prints the result to Out, under
// ctx; an ApplyError when the filter fails on it.
func (h *Held) Flush(ctx context.Context) error {
	data := h.buf.Bytes()
	h.buf = bytes.Buffer{}
	return h.filter.Apply(ctx, h.out, data)
}

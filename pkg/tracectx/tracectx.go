package tracectx

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
)

// TraceID names one trace: every span of one run (or one resume).
type TraceID [16]byte

// SpanID names one span of a trace.
type SpanID [8]byte

// IsValid reports whether t is not all zeros (the W3C invalid id).
func (t TraceID) IsValid() bool { return t != TraceID{} }

// IsValid reports whether s is not all zeros (the W3C invalid id).
func (s SpanID) IsValid() bool { return s != SpanID{} }

// String is the id in lowercase hex, as traceparent writes it.
func (t TraceID) String() string { return hex.EncodeToString(t[:]) }

// String is the id in lowercase hex, as traceparent writes it.
func (s SpanID) String() string { return hex.EncodeToString(s[:]) }

// Context is a position in a trace: the trace, the span that is the
// parent of what comes next, whether the trace is sampled, and the
// vendors' tracestate carried along unchanged.
type Context struct {
	Trace   TraceID
	Span    SpanID
	Sampled bool
	State   string
}

// IsValid reports whether c names a trace and a span.
func (c Context) IsValid() bool { return c.Trace.IsValid() && c.Span.IsValid() }

// Traceparent is c as a W3C traceparent header value (version 00).
func (c Context) Traceparent() string {
	flags := "00"
	if c.Sampled {
		flags = "01"
	}
	return "00-" + c.Trace.String() + "-" + c.Span.String() + "-" + flags
}

// ErrMalformed is a traceparent that is not the W3C format.
var ErrMalformed = errors.New("not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)")

// Parse reads a traceparent header value (and the tracestate that came
// with it). It follows the W3C rules a receiver must: a version it does
// not know is read as 00 if the rest fits, ff is refused, and all-zero ids
// are refused.
func Parse(traceparent, tracestate string) (Context, error) {
	v := strings.TrimSpace(traceparent)
	parts := strings.Split(v, "-")
	if len(parts) < 4 || len(parts[0]) != 2 || len(parts[1]) != 32 || len(parts[2]) != 16 || len(parts[3]) != 2 {
		return Context{}, ErrMalformed
	}
	if parts[0] == "ff" || (parts[0] == "00" && len(parts) != 4) || !lowerHex(v[:55]) {
		return Context{}, ErrMalformed
	}
	var c Context
	if _, err := hex.Decode(c.Trace[:], []byte(parts[1])); err != nil {
		return Context{}, ErrMalformed
	}
	if _, err := hex.Decode(c.Span[:], []byte(parts[2])); err != nil {
		return Context{}, ErrMalformed
	}
	flags, err := strconv.ParseUint(parts[3], 16, 8)
	if err != nil || !c.IsValid() {
		return Context{}, ErrMalformed
	}
	c.Sampled = flags&1 == 1
	c.State = strings.TrimSpace(tracestate)
	return c, nil
}

// lowerHex reports whether s holds only lowercase hex digits and dashes.
func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c == '-') {
			return false
		}
	}
	return true
}

// NewTrace starts a trace of its own: a random trace id, sampled.
func NewTrace() Context {
	var c Context
	for !c.Trace.IsValid() {
		_, _ = rand.Read(c.Trace[:])
	}
	c.Sampled = true
	return c
}

// Derive is the id of a span of trace t, made from what the span is (its
// kind and names, e.g. "attempt", step, "2"): the same parts give the same
// id, so whoever knows the trace can name the span before it is exported.
func Derive(t TraceID, parts ...string) SpanID {
	h := sha256.New()
	h.Write(t[:])
	for _, p := range parts {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	var s SpanID
	copy(s[:], h.Sum(nil))
	if !s.IsValid() {
		s[7] = 1
	}
	return s
}

// RunSpan is the id of the span of the run (or resume) trace t stands for.
func RunSpan(t TraceID) SpanID { return Derive(t, "run") }

// AttemptSpan is the id of the span of a step's attempt n (1 for the
// first) in trace t. step is the id events give the step.
func AttemptSpan(t TraceID, step string, n int) SpanID {
	return Derive(t, "attempt", step, strconv.Itoa(n))
}

// Child is c moved to the span id s of the same trace: the context a
// command or request made inside that span carries.
func (c Context) Child(s SpanID) Context {
	c.Span = s
	return c
}

// Env is c as the environment variables a process started in it reads:
// TRACEPARENT, and TRACESTATE when there is one.
func (c Context) Env() []string {
	env := []string{"TRACEPARENT=" + c.Traceparent()}
	if c.State != "" {
		env = append(env, "TRACESTATE="+c.State)
	}
	return env
}

// Inject adds c to the headers of a request (traceparent, and tracestate
// when there is one), unless they already name a traceparent, in any
// case: a request's own header wins.
func (c Context) Inject(h map[string]string) {
	for k := range h {
		if strings.EqualFold(k, "traceparent") {
			return
		}
	}
	h["traceparent"] = c.Traceparent()
	if c.State != "" {
		h["tracestate"] = c.State
	}
}

type contextKey struct{}

// NewContext carries c in ctx: the trace a piece of work continues (an MCP
// client's request) or runs in (a step's attempt calling an MCP tool).
func NewContext(ctx context.Context, c Context) context.Context {
	if !c.IsValid() {
		return ctx
	}
	return context.WithValue(ctx, contextKey{}, c)
}

// FromContext is the trace ctx carries (NewContext), zero when none.
func FromContext(ctx context.Context) Context {
	c, _ := ctx.Value(contextKey{}).(Context)
	return c
}

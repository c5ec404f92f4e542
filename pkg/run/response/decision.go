package response

import (
	"context"
	"fmt"
	"sort"

	"github.com/chainrun/chainrun/pkg/chain"
)

// ContextVar is where a workflow keeps its context among the variables,
// so that {context.x}, $.context.x and conditions read it like any other.
const ContextVar = "context"

// Described is a subject's body as the run shows it to whoever decides:
// a skill of the file's skills: library (kind guidance) or a script.
type Described struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject"`
	Verb    string `json:"verb,omitempty"`
	Hash    string `json:"hash"`
	Body    string `json:"body"`
	// Acknowledged is set when the run has acknowledged this body.
	Acknowledged bool `json:"acknowledged,omitempty"`
}

func (d Described) Key() chain.AckKey { return chain.AckKey{Kind: d.Kind, Subject: d.Subject} }

// AckError is an acknowledgment the run cannot record: its subject names
// no script or skill it could show. Nothing ran.
type AckError struct {
	Subject string
	Msg     string
}

func (e *AckError) Error() string { return fmt.Sprintf("--ack %s: %s", e.Subject, e.Msg) }

// Plain is the error in words of no command line (an MCP client's).
func (e *AckError) Plain() string { return fmt.Sprintf("acknowledge %s: %s", e.Subject, e.Msg) }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *AckError) NothingRan() bool { return true }

// ArgError is a decision's arguments that its transition's inputSchema
// refuses, or arguments with no decision to carry them. Nothing ran.
type ArgError struct {
	Transition string
	Msg        string
}

func (e *ArgError) Error() string {
	if e.Transition == "" {
		return e.Msg
	}
	return "--take " + e.Transition + ": " + e.Msg
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *ArgError) NothingRan() bool { return true }

// Plain is the error in words of no command line (an MCP client's, a
// person's at the terminal): the transition, and what is wrong.
func (e *ArgError) Plain() string {
	if e.Transition == "" {
		return "arguments were given with no transition to take: name the transition they belong to"
	}
	return "transition " + e.Transition + ": " + e.Msg
}

// Choice is a scripted decision: the transition, and the arguments its
// inputSchema asks for (checked as --arg values are).
type Choice struct {
	Transition string
	Args       map[string]any
}

// Scripted chooses at a decision point without a person or a model (a
// chain test); ok false leaves the point to them.
type Scripted func(ctx context.Context, d Decision) (c Choice, ok bool)

// EvidenceRecord is evidence a step inside an executor recorded once it
// succeeded: a parallel executor's branch or a pipeline's step, of the
// kind its evidence: declares (else its kind's default), with its id and
// summary as they read when it ran ({{ $.workflow.id }} filled in). The
// transition's saved record keeps them, so that evidence guards count
// them in this call and every later one.
type EvidenceRecord struct {
	Kind    string `json:"kind"`
	ID      string `json:"id,omitempty"`
	Summary string `json:"summary,omitempty"`
	// Step is the step that recorded it (fan_out[2]).
	Step string `json:"step"`
	// Digest is "sha256:…" of what the step produced, unless it produced
	// nothing or that held a secret.
	Digest string `json:"digest,omitempty"`
}

// SkillRef is a guidance fragment in scope at a decision point, as
// mcp-flowgate surfaces it: its subject, verb and content hash, so a
// reader can tell a changed body from one it has seen.
type SkillRef struct {
	Verb    string `json:"verb,omitempty"`
	Subject string `json:"subject"`
	Title   string `json:"title,omitempty"`
	Hash    string `json:"hash,omitempty"`
}

// SortedLinkNames lists the transitions of links in order, for messages.
func SortedLinkNames(links []Link) []string {
	out := make([]string, len(links))
	for i, l := range links {
		out[i] = l.Transition
	}
	sort.Strings(out)
	return out
}

package chain

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
)

// Reading is what a front-end decided about how its file reads: where
// the peer's format means something chainrun's own does not, or accepts
// what chainrun's own refuses (with a warning), the chain reads as the
// peer runs it. Its knobs say what, never who; the front-end sets them
// (SetReading) and supplies the hooks of the peer's own behaviour. A
// chain of chainrun's own format has none (nil), and keeps its stricter
// rules. A saved run is re-parsed on resume, so the reading comes back
// without being saved.
type Reading struct {
	// Source names the format in messages ("…, as OCC accepts it").
	Source string
	// EmptyLoads: a file that holds no step loads (its output naming
	// nothing yet) and no run can run it, as a peer's editor saves a
	// workspace.
	EmptyLoads bool
	// ContextBudget is the characters a run's variables may hold before
	// older outputs are summarized or cut (see Chain.ContextBudget); 0
	// for none.
	ContextBudget int
	// ContextBudgetDefault is the budget when the file writes none, for
	// messages.
	ContextBudgetDefault int
}

// SetReading records how a front-end reads the chain's file; nil is
// chainrun's own format.
func (c *Chain) SetReading(r *Reading) { c.reading = r }

// Reading is how the chain's file reads: nil for chainrun's own format.
func (c *Chain) Reading() *Reading { return c.reading }

// ContextBudget is the characters a run of the chain's variables may
// hold before older outputs are summarized or cut; 0 when there is no
// budget (chainrun's own format has none: a step that needs less says
// so with context_strategy).
func (c *Chain) ContextBudget() int {
	if c.reading == nil {
		return 0
	}
	return c.reading.ContextBudget
}

// OCC reports whether the chain's file is read as OCC's (see
// docs/chain-format.md, Coming from OCC): its conditions, bare input
// references, context strategies, retries and env_var pre_tools then
// mean what OCC means.
func (c *Chain) OCC() bool { return c.reading != nil }

// OneRequest reports whether the step sends one request per model when
// it has no retry: block (OCC's default, reference 004's "default: 1 = no
// retry"), rather than chainrun's retries of a transient failure.
func (s *Step) OneRequest() bool { return s.reading != nil && s.Retry == nil }

// OCC reports whether the step belongs to a file read as OCC's.
func (s *Step) OCC() bool { return s.reading != nil }

// occInputRefs rewrites, in an OCC file, a bare {name} that names an
// input and nothing else to {input.name}, as OCC resolves it, with a
// warning; chainrun's own format asks for {input.name}.
func (v *validator) occInputRef(s *Step, field string, r *Ref) {
	if v.c.reading == nil || r.Name == "input" || v.c.Input(r.Name) == nil {
		return
	}
	if (scope{v: v, s: s}).check(r.Name) == "" {
		return
	}
	v.d.Warnf(s.At(field), "%s: %s: {%s} is read as {input.%s}, as OCC reads it (chainrun's own format writes {input.%s})",
		s.subject(), field, r.Dotted(), r.Name+dottedTail(r.Path), r.Name)
	r.Path = append([]string{r.Name}, r.Path...)
	r.Name = "input"
}

func dottedTail(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return "." + strings.Join(path, ".")
}

// occInputSource rewrites the bare input references of an expression's
// source as occInputRef does a template's.
func (v *validator) occInputSource(s *Step, field, src string) string {
	if v.c.reading == nil {
		return src
	}
	re := interp.RefForm()
	return re.ReplaceAllStringFunc(src, func(m string) string {
		g := re.FindStringSubmatch(m)
		name := g[2]
		head, rest, _ := strings.Cut(name, ".")
		r := &Ref{Name: head}
		if rest != "" {
			r.Path = strings.Split(rest, ".")
		}
		if head == "input" {
			return m // already {input.x}
		}
		v.occInputRef(s, field, r)
		if r.Name != "input" {
			return m
		}
		return strings.Replace(m, "{"+name, "{input."+name, 1)
	})
}

// Empty reports whether the chain holds no step in a reading that loads
// such a file (Reading.EmptyLoads): a workspace a peer's editor saves,
// which loads (its output naming nothing yet) and which no run can run.
func (c *Chain) Empty() bool {
	return c.reading != nil && c.reading.EmptyLoads && c.Workflow == nil && len(c.Steps) == 0
}

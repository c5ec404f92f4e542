package occ

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// bareInputRef rewrites, as OCC reads it (chain.Reading.BareInputRef), a
// bare {name} that names an input and nothing else to {input.name}, with
// a warning; chainrun's own format asks for {input.name}.
func bareInputRef(v chain.Checker, s *chain.Step, field string, r *chain.Ref) {
	if r.Name == "input" || v.Chain().Input(r.Name) == nil {
		return
	}
	if v.Unreadable(s, r.Name) == "" {
		return
	}
	v.Warnf(s.At(field), "%s: %s: {%s} is read as {input.%s}, as %s reads it (chainrun's own format writes {input.%s})",
		s.Subject(), field, r.Dotted(), r.Name+dottedTail(r.Path), v.Chain().Reading().Source, r.Name)
	r.Path = append([]string{r.Name}, r.Path...)
	r.Name = "input"
}

// dottedTail is a reference's path as written after its name (".a.b").
func dottedTail(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return "." + strings.Join(path, ".")
}

// bareInputSource rewrites the bare input references of an expression's
// source as bareInputRef does a template's (chain.Reading.BareInputSource).
func bareInputSource(v chain.Checker, s *chain.Step, field, src string) string {
	re := interp.RefForm()
	return re.ReplaceAllStringFunc(src, func(m string) string {
		g := re.FindStringSubmatch(m)
		name := g[2]
		head, rest, _ := strings.Cut(name, ".")
		r := &chain.Ref{Name: head}
		if rest != "" {
			r.Path = strings.Split(rest, ".")
		}
		if head == "input" {
			return m // already {input.x}
		}
		bareInputRef(v, s, field, r)
		if r.Name != "input" {
			return m
		}
		return strings.Replace(m, "{"+name, "{input."+name, 1)
	})
}

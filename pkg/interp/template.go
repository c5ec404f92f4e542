package interp

import (
	"strings"
	"sync"
)

// Ref is one variable reference inside a template: {name}, {name.field},
// {name|"fallback"} or reference 003's {{.name}}.
type Ref struct {
	// Name is the variable (or "input"); Path the fields below it.
	Name string
	Path []string
	// Fallback is used when the variable is missing or empty (in a file
	// read as OCC's, when it is missing: see OCC).
	Fallback *string
	// Loose marks a reference of a file whose reading takes loose
	// references (OCC's), resolved as that peer's resolver does (OCC
	// mcp-server/src/utils.ts, resolveVariables): its fallback only when
	// the variable is absent (an empty value is kept), and a reference
	// that resolves to nothing stays as written.
	Loose bool
	// AllInputs marks {input} in an OCC pipeline's chain inputs: the
	// pipeline's inputs as one JSON object (pkg/chain/reading_pipeline_refs.go).
	AllInputs bool
	// Raw is the reference exactly as written, kept when strict variables
	// are off and the name resolves to nothing.
	Raw string
	// Offset is the byte offset of Raw in the template text.
	Offset int
}

// Dotted is the reference without fallback, as a user would write it.
func (r Ref) Dotted() string {
	if len(r.Path) == 0 {
		return r.Name
	}
	return r.Name + "." + strings.Join(r.Path, ".")
}

// Template is a parsed string with variable references. Only the
// {identifier(.identifier)*} forms are references, so JSON braces in a
// prompt pass through untouched; \{word} is a literal brace, and so is
// the shell's ${name}.
type Template struct {
	parts []part
	// shellOnce and sites hold where the references of a run: script
	// stand, read once.
	shellOnce sync.Once
	sites     []shellSite
}

type part struct {
	lit string
	ref *Ref
}

// Refs lists the references of the template in order.
func (t *Template) Refs() []Ref {
	var out []Ref
	for _, p := range t.parts {
		if p.ref != nil {
			out = append(out, *p.ref)
		}
	}
	return out
}

// IsLiteral reports whether the template holds no reference.
func (t *Template) IsLiteral() bool {
	for _, p := range t.parts {
		if p.ref != nil {
			return false
		}
	}
	return true
}

// Literal is a template of text alone: no part of it is a reference,
// whatever braces it holds (a path made when a step runs).
func Literal(text string) *Template { return &Template{parts: []part{{lit: text}}} }

// ParseTemplate splits text into literals and references. It never fails:
// anything that is not a reference form is literal text.
func ParseTemplate(text string) *Template { return parseTemplate(text, true, false) }

// Syntax is which reference forms a template's text holds besides
// {name}, {name.field} and {name|"fallback"}.
type Syntax struct {
	// Double: reference 003's {{.name}} is a reference too; without it
	// {{…}} is the text's own (docker's --format '{{.Names}}').
	Double bool
	// Loose: fallbacks may also be written unquoted, as OCC's resolver
	// reads them ({x|none}, {x|two words}).
	Loose bool
}

// ParseSyntax is ParseTemplate for text written in syn.
func ParseSyntax(text string, syn Syntax) *Template {
	return parseTemplate(text, syn.Double, syn.Loose)
}

// ReplaceRefs hands each reference of t, in order, to fn, which may
// change it (mark it OCC's) or, answering literal, turn it into the text
// it answers: a reference a front-end reads as text.
func (t *Template) ReplaceRefs(fn func(r *Ref) (text string, literal bool)) {
	for i, p := range t.parts {
		if p.ref == nil {
			continue
		}
		if text, lit := fn(p.ref); lit {
			t.parts[i] = part{lit: text}
		}
	}
}

// ParseSingleBraces is ParseTemplate for text written as OCC writes it,
// where only {name} is a reference: {{…}} is the text's own (docker's
// --format '{{.Names}}', a Go template), left as written.
func ParseSingleBraces(text string) *Template { return parseTemplate(text, false, false) }

func parseTemplate(text string, double, occ bool) *Template {
	t := &Template{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, part{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\\' && i+1 < len(text) && text[i+1] == '{' {
			lit.WriteByte('{')
			i += 2
			continue
		}
		// ${name} is the shell's, never a reference
		if c == '{' && (i == 0 || text[i-1] != '$') {
			if !double && strings.HasPrefix(text[i:], "{{") {
				// the whole {{…}} is literal, inner braces too
				end := strings.Index(text[i:], "}}")
				if end < 0 {
					end = len(text) - i - 2
				}
				lit.WriteString(text[i : i+end+2])
				i += end + 2
				continue
			}
			if ref, n := scanRef(text, i, occ); n > 0 {
				flush()
				ref.Offset = i
				t.parts = append(t.parts, part{ref: ref})
				i += n
				continue
			}
		}
		lit.WriteByte(c)
		i++
	}
	flush()
	return t
}

// scanRef reads a reference starting at text[i] == '{' and returns it with
// its length, or n == 0 when the text there is not a reference. occ
// accepts OCC's unquoted fallbacks.
func scanRef(text string, i int, occ bool) (*Ref, int) {
	if strings.HasPrefix(text[i:], "{{") {
		// reference 003: {{.name}} or {{ .name.field }}
		end := strings.Index(text[i:], "}}")
		if end < 0 {
			return nil, 0
		}
		inner := strings.TrimSpace(text[i+2 : i+end])
		if !strings.HasPrefix(inner, ".") {
			return nil, 0
		}
		name, path, ok := splitPath(inner[1:])
		if !ok {
			return nil, 0
		}
		return &Ref{Name: name, Path: path, Raw: text[i : i+end+2]}, end + 2
	}
	end := strings.IndexByte(text[i+1:], '}')
	if end < 0 {
		return nil, 0
	}
	inner := text[i+1 : i+1+end]
	var fallback *string
	if bar := strings.IndexByte(inner, '|'); bar >= 0 {
		fb, ok := parseFallback(inner[bar+1:])
		if occ {
			fb, ok = occFallback(inner[bar+1:])
		}
		if !ok {
			return nil, 0
		}
		fallback = &fb
		inner = inner[:bar]
	}
	name, path, ok := splitPath(inner)
	if !ok {
		return nil, 0
	}
	return &Ref{Name: name, Path: path, Fallback: fallback, Raw: text[i : i+end+2]}, end + 2
}

// parseFallback accepts "text" or 'text' (the fallback cannot hold '}').
func parseFallback(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1], true
	}
	return "", false
}

// occFallback reads a fallback as OCC's resolver does: "text" (no quote
// inside) is text, anything else of at least one character is itself,
// spaces and quotes included; an empty one makes no reference.
func occFallback(s string) (string, bool) {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.Contains(s[1:len(s)-1], `"`) {
		return s[1 : len(s)-1], true
	}
	return s, s != ""
}

// splitPath splits name.field.field, each an identifier (fields may also
// be list indexes).
func splitPath(s string) (string, []string, bool) {
	segs := strings.Split(s, ".")
	if !IsIdentifier(segs[0]) {
		return "", nil, false
	}
	for _, seg := range segs[1:] {
		if !isFieldName(seg) {
			return "", nil, false
		}
	}
	return segs[0], segs[1:], true
}

// IsIdentifier reports whether s can name a variable: a letter or '_'
// followed by letters, digits and '_'.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func isFieldName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Resolver gives the text of a reference at run time. ok is false when the
// name or field does not exist.
type Resolver func(ref Ref) (value string, ok bool, err error)

// Render substitutes every reference. A reference that does not resolve
// keeps its literal text when keep is true, else it is an error.
func (t *Template) Render(resolve Resolver, keep bool) (string, error) {
	return t.RenderWith(nil, resolve, keep)
}

// RenderWith is Render with each literal part given to literal first
// (when not nil): a goal or guidance fills its {{ $.path }} placeholders
// there, so a value a reference brings in is never expanded again.
func (t *Template) RenderWith(literal func(string) string, resolve Resolver, keep bool) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.ref == nil && literal != nil {
			b.WriteString(literal(p.lit))
			continue
		}
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := p.ref.value(resolve, keep)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// value resolves the reference: its fallback when it is missing or empty,
// its own text when it is missing and keep is true.
func (r *Ref) value(resolve Resolver, keep bool) (string, error) {
	v, _, err := r.resolved(resolve, keep)
	return v, err
}

// resolved is value, also saying whether the reference was kept as
// written (it named nothing, and keep is true).
func (r *Ref) resolved(resolve Resolver, keep bool) (v string, asWritten bool, err error) {
	v, ok, err := resolve(*r)
	if err != nil {
		return "", false, err
	}
	if r.Loose {
		return r.looseValue(resolve, v, ok)
	}
	if (!ok || v == "") && r.Fallback != nil {
		return *r.Fallback, false, nil
	}
	if !ok {
		if keep {
			return r.Raw, true, nil
		}
		return "", false, &UnresolvedError{Ref: *r}
	}
	return v, false, nil
}

// looseValue finishes resolving a loose reference (a file read as OCC's) as
// OCC's resolver does: {key.field} whose field is absent is the whole of
// key (OCC's {key.sub} falls back to key), an absent variable gives the
// fallback, and a reference still without value stays as written. A
// field that is there is read as chainrun reads it, so a chainrun file
// that declares version: (read as OCC's) keeps its fields.
func (r *Ref) looseValue(resolve Resolver, v string, ok bool) (string, bool, error) {
	if !ok && len(r.Path) == 1 && r.Name != "input" {
		whole := *r
		whole.Path = nil
		var err error
		if v, ok, err = resolve(whole); err != nil {
			return "", false, err
		}
	}
	switch {
	case ok:
		return v, false, nil
	case r.Fallback != nil:
		return *r.Fallback, false, nil
	}
	return r.Raw, true, nil
}

// UnresolvedError says a reference had no value at run time (a field that
// a JSON output did not have, say).
type UnresolvedError struct{ Ref Ref }

func (e *UnresolvedError) Error() string {
	return "{" + e.Ref.Dotted() + "} has no value (add a fallback: {" + e.Ref.Dotted() + `|"default"})`
}

// ShellQuote quotes s for POSIX sh so that it is one word whatever it holds.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

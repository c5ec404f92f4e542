package chain

import "strings"

// RenderShell substitutes references into a shell script so that no value
// ever runs as code: outside quotes a value becomes one single-quoted word,
// inside '...' or "..." it is escaped for that kind of quote.
func (t *Template) RenderShell(resolve Resolver, keep bool) (string, error) {
	var b strings.Builder
	state := shellPlain
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			state = state.scan(p.lit)
			continue
		}
		v, ok, err := resolve(*p.ref)
		if err != nil {
			return "", err
		}
		if (!ok || v == "") && p.ref.Fallback != nil {
			v, ok = *p.ref.Fallback, true
		}
		if !ok {
			if !keep {
				return "", &UnresolvedError{Ref: *p.ref}
			}
			v = p.ref.Raw
		}
		b.WriteString(state.quote(v))
	}
	return b.String(), nil
}

type shellState int

const (
	shellPlain shellState = iota
	shellSingle
	shellDouble
)

// scan follows the quoting state through literal script text.
func (s shellState) scan(text string) shellState {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch s {
		case shellPlain:
			switch c {
			case '\\':
				i++
			case '\'':
				s = shellSingle
			case '"':
				s = shellDouble
			}
		case shellSingle:
			if c == '\'' {
				s = shellPlain
			}
		case shellDouble:
			switch c {
			case '\\':
				i++
			case '"':
				s = shellPlain
			}
		}
	}
	return s
}

func (s shellState) quote(v string) string {
	switch s {
	case shellSingle:
		// close the quote, add an escaped quote, reopen
		return strings.ReplaceAll(v, "'", `'\''`)
	case shellDouble:
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
		return r.Replace(v)
	}
	return ShellQuote(v)
}

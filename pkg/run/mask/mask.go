package mask

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/redact"
)

// Secrets are the values of inputs declared secret: true, with those a
// calling chain already hides (a secret passed down stays secret): what a
// run of c masks, whoever starts it.
func Secrets(c *chain.Chain, inputs map[string]string, inherited []string) []string {
	values := append([]string(nil), inherited...)
	for _, in := range c.Inputs {
		if v := inputs[in.Name]; in.Secret && v != "" {
			values = append(values, v)
		}
	}
	return values
}

// minMaskedLength is the shortest secret form masked wherever it appears
// in a text. A shorter one (a one-digit PIN) is masked only where it is
// the whole value, string, number or key: masking every "7" would make
// the run's output unreadable and tell the secret anyway.
const minMaskedLength = 4

// Masker hides secret input values in every form a run can show them:
// the value as given, trimmed of surrounding whitespace (a secret read
// from a file keeps its newline, a script prints it without), each line
// of a multi-line secret, and as percent-encoded in a URL or escaped in
// a JSON string.
type Masker struct {
	// inText masks the forms long enough to find inside any text.
	inText *strings.Replacer
	// whole holds every form, masked where it is a whole value.
	whole map[string]bool
	// long are the forms inText masks, whose parts are masked where a
	// text was cut inside one (cutShort).
	long []string
}

// New is the masker of values, nil when no secret has a value: a nil
// Masker masks nothing, so a run without secrets pays nothing for them.
func New(values []string) *Masker {
	m := &Masker{whole: map[string]bool{}}
	for _, v := range values {
		for _, f := range redact.SecretForms(v) {
			m.whole[f] = true
		}
	}
	if len(m.whole) == 0 {
		return nil
	}
	long := make([]string, 0, len(m.whole))
	for f := range m.whole {
		if len(f) >= minMaskedLength {
			long = append(long, f)
		}
	}
	// longest first, so a form inside another never leaves a part shown
	sort.Slice(long, func(i, j int) bool {
		if len(long[i]) != len(long[j]) {
			return len(long[i]) > len(long[j])
		}
		return long[i] < long[j]
	})
	if len(long) > 0 {
		pairs := make([]string, 0, 2*len(long))
		for _, f := range long {
			pairs = append(pairs, f, "***")
		}
		m.inText = strings.NewReplacer(pairs...)
	}
	m.long = long
	return m
}

// Text masks one text: every event, error and saved value a run shows
// goes through it, since any of them may quote a secret.
func (m *Masker) Text(s string) string {
	if m == nil || s == "" {
		return s
	}
	if m.whole[strings.TrimSpace(s)] {
		return "***"
	}
	if m.inText == nil {
		return s
	}
	return m.cutShort(m.inText.Replace(s))
}

// cutMarks mark where a text was cut short: this module's "…", and the
// "..." of the model providers' messages.
var cutMarks = []string{"…", "..."}

// minCutPart is the shortest part of a secret masked at a cut mark.
const minCutPart = 2

// cutShort masks what is left of a secret where a text was cut inside it
// before it was masked (an error quoting the first bytes of a body, a
// tail): a form's beginning right before a cut mark, its end right after
// one.
func (m *Masker) cutShort(s string) string {
	for _, mark := range cutMarks {
		if !strings.Contains(s, mark) {
			continue
		}
		parts := strings.Split(s, mark)
		for j := range parts[:len(parts)-1] {
			if n := m.partBefore(parts[j]); n > 0 {
				parts[j] = parts[j][:len(parts[j])-n] + "***"
			}
			if n := m.partAfter(parts[j+1]); n > 0 {
				parts[j+1] = "***" + parts[j+1][n:]
			}
		}
		s = strings.Join(parts, mark)
	}
	return s
}

// partBefore is the length of the longest end of text that begins a
// secret's form (0 for none).
func (m *Masker) partBefore(text string) int {
	best := 0
	for _, f := range m.long {
		for k := min(len(f)-1, len(text)); k >= max(minCutPart, best+1); k-- {
			if strings.HasSuffix(text, f[:k]) {
				best = k
				break
			}
		}
	}
	return best
}

// partAfter is the length of the longest beginning of text that ends a
// secret's form (0 for none).
func (m *Masker) partAfter(text string) int {
	best := 0
	for _, f := range m.long {
		for k := min(len(f)-1, len(text)); k >= max(minCutPart, best+1); k-- {
			if strings.HasPrefix(text, f[len(f)-k:]) {
				best = k
				break
			}
		}
	}
	return best
}

// Longest is the length of the longest form masked in a text (0 for
// none): a text cut in pieces must not cut one of them.
func (m *Masker) Longest() int {
	if m == nil {
		return 0
	}
	n := 0
	for f := range m.whole {
		if len(f) >= minMaskedLength {
			n = max(n, len(f))
		}
	}
	return n
}

// Holds reports whether s contains any form of a secret, however short:
// what holds one is never stored (a short secret makes this err on the
// side of keeping nothing).
func (m *Masker) Holds(s string) bool {
	if m == nil {
		return false
	}
	for f := range m.whole {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// Value masks a value of any JSON shape: strings, map keys, and numbers
// or booleans whose text is or holds a secret (which become the masked
// text).
func (m *Masker) Value(v any) any {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		return m.Text(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = m.Value(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[m.Text(k)] = m.Value(e)
		}
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	if s := string(b); m.Text(s) != s {
		return m.Text(s)
	}
	return v
}

package cassette

import (
	"fmt"
	"slices"
	"strings"
)

// Miss is a request no recording answers: which step asked, and how it
// differs from the nearest recording there is.
type Miss struct {
	Case, Step string
	Request    Request
	// Nearest is the recording most like the request (nil: none of this
	// step or model); Changes say how the request differs from it.
	Nearest *Recording
	Changes []string
	refused error
}

func (m *Miss) Error() string {
	if m.refused != nil {
		return m.refused.Error()
	}
	msg := fmt.Sprintf("step %s: no recorded answer for this %s/%s request (--record=none)", m.Step, m.Request.Provider, m.Request.Model)
	if m.Nearest == nil {
		return msg + "; nothing like it is recorded: record it with --record=missing"
	}
	msg += fmt.Sprintf("; against the nearest recording (case %q, step %s #%d): %s", m.Nearest.Case, m.Nearest.Step, m.Nearest.Seq, strings.Join(m.Changes, "; "))
	return msg + "; re-record with --record=missing if the change is meant"
}

// miss records a request with no recording, with its nearest one.
func (s *Session) miss(step string, rec Request) *Miss {
	m := &Miss{Case: s.name, Step: step, Request: rec}
	s.c.mu.Lock()
	best := -1
	for _, r := range s.c.recs {
		if r.Request.Provider != rec.Provider && r.Step != step {
			continue
		}
		changes := Diff(r.Request, rec)
		score := len(changes)
		if r.Step != step {
			score += 100 // another step's request is a poor guide
		}
		if best < 0 || score < best {
			best, m.Nearest, m.Changes = score, r, changes
		}
	}
	s.c.mu.Unlock()
	s.mu.Lock()
	s.misses = append(s.misses, m)
	s.mu.Unlock()
	return m
}

// Diff says, field by field, how request b differs from a: each change
// names the field and shows the first place the texts part.
func Diff(a, b Request) []string {
	var out []string
	str := func(field, x, y string) {
		if x != y {
			out = append(out, field+": "+textChange(x, y))
		}
	}
	str("provider", a.Provider, b.Provider)
	str("model", a.Model, b.Model)
	str("system", a.System, b.System)
	str("tool_choice", a.ToolChoice, b.ToolChoice)
	if (a.Temperature == nil) != (b.Temperature == nil) || (a.Temperature != nil && *a.Temperature != *b.Temperature) {
		out = append(out, fmt.Sprintf("temperature: was %s, now %s", fmtTemp(a.Temperature), fmtTemp(b.Temperature)))
	}
	if a.MaxTokens != b.MaxTokens {
		out = append(out, fmt.Sprintf("max_tokens: was %d, now %d", a.MaxTokens, b.MaxTokens))
	}
	if len(a.Messages) != len(b.Messages) {
		out = append(out, fmt.Sprintf("messages: was %d, now %d", len(a.Messages), len(b.Messages)))
	}
	for i := range min(len(a.Messages), len(b.Messages)) {
		x, y := a.Messages[i], b.Messages[i]
		f := fmt.Sprintf("messages[%d]", i)
		str(f+".role", x.Role, y.Role)
		str(f+".content", x.Content, y.Content)
		if !slices.Equal(x.ToolCalls, y.ToolCalls) {
			out = append(out, f+".tool_calls differ")
		}
		if !slices.Equal(x.ToolResults, y.ToolResults) {
			out = append(out, f+".tool_results differ")
		}
	}
	if names(a.Tools) != names(b.Tools) {
		out = append(out, "tools: was ["+names(a.Tools)+"], now ["+names(b.Tools)+"]")
	} else if (Request{Tools: a.Tools}).Key() != (Request{Tools: b.Tools}).Key() {
		out = append(out, "tools: a description or schema changed")
	}
	return out
}

func names(ts []Tool) string {
	var n []string
	for _, t := range ts {
		n = append(n, t.Name)
	}
	return strings.Join(n, ", ")
}

func fmtTemp(t *float64) string {
	if t == nil {
		return "unset"
	}
	return fmt.Sprint(*t)
}

// textChange shows where two texts part: the first differing line, as it
// was and as it is now (each cut to a readable length).
func textChange(was, now string) string {
	line, w, n := FirstDiff(was, now)
	where := ""
	if strings.Contains(was, "\n") || strings.Contains(now, "\n") {
		where = fmt.Sprintf("line %d ", line)
	}
	return fmt.Sprintf("%swas %q, now %q", where, clip(w), clip(n))
}

// FirstDiff is the first line (from 1) where two different texts part,
// and that line of each ("" past its end).
func FirstDiff(a, b string) (line int, x, y string) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		x, y = "", ""
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			return i + 1, x, y
		}
	}
	return len(al), "", ""
}

func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}

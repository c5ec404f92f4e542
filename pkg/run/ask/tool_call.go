package ask

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/tools"
)

// subjectKeys are the arguments that say what a tool call touches, in
// the order they are looked for: the built-in tools' file_path, pattern,
// path, command, url and query.
var subjectKeys = []string{"file_path", "pattern", "path", "command", "url", "query"}

// maxSubject bounds a call's subject, in characters.
const maxSubject = 60

// CallSubject is what a tool call touches, for the progress lines and
// the audit trail (beside its digest): the first of subjectKeys its JSON
// arguments hold as a string, its first line, at most maxSubject
// characters, every control character shown as ?, so a model's argument
// can neither move the terminal's cursor nor run over lines; "" when the
// arguments name none. The caller masks secrets in it.
func CallSubject(args string) string {
	var v map[string]any
	if json.Unmarshal([]byte(args), &v) != nil {
		return ""
	}
	for _, k := range subjectKeys {
		s, ok := v[k].(string)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		s = strings.TrimSpace(s)
		more := false
		if i := strings.IndexAny(s, "\r\n"); i >= 0 {
			s, more = strings.TrimSpace(s[:i]), true
		}
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || !unicode.IsGraphic(r) && r != ' ' {
				return '?'
			}
			return r
		}, s)
		if utf8.RuneCountInString(s) > maxSubject {
			return string([]rune(s)[:maxSubject-1]) + "…"
		}
		if more {
			s += " …"
		}
		return s
	}
	return ""
}

// ArgsDigest names a call's arguments without showing them: the first 12
// hex digits of their SHA-256.
func ArgsDigest(args string) string {
	sum := sha256.Sum256([]byte(args))
	return hex.EncodeToString(sum[:6])
}

// Tools are the tools step s of chain c offers the model: its tools (the
// built-in ones by their specs, the chain's own by their definitions),
// then its completion tool.
func Tools(c *chain.Chain, s *chain.Step) []llm.Tool {
	var out []llm.Tool
	for _, name := range s.Agent().Tools {
		if spec, ok := tools.Lookup(name); ok {
			out = append(out, llm.Tool{Name: spec.Name, Description: spec.Description, Schema: spec.Schema})
		} else if def := c.Tool(name); def != nil {
			out = append(out, llm.Tool{Name: def.Name, Description: def.Description, Schema: def.InputSchema})
		}
	}
	if cp := s.Agent().Completion; cp != nil {
		desc := cp.Description
		if desc == "" {
			desc = "Call this once with your final answer; its arguments are the result of the task."
		}
		out = append(out, llm.Tool{Name: cp.Tool, Description: desc, Schema: cp.Schema})
	}
	return out
}

// Offered lists the tool names the step offers, for messages.
func Offered(s *chain.Step) []string {
	names := append([]string(nil), s.Agent().Tools...)
	if s.Agent().Completion != nil {
		names = append(names, s.Agent().Completion.Tool)
	}
	return names
}

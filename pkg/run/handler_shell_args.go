package run

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// localShellArgs turns the arguments of contenox's local_shell tool into
// Bash's: contenox runs command with args (a string it splits as a shell
// would, or a list), in cwd, for timeout (a duration), where chainrun's
// Bash runs one command line. Each of args is quoted, so a value never
// becomes shell syntax; cwd becomes a cd before the command; timeout
// becomes timeout_ms. Arguments written as Bash's pass as they are.
func localShellArgs(args map[string]any) (map[string]any, error) {
	_, hasArgs := args["args"]
	_, hasCwd := args["cwd"]
	_, hasTimeout := args["timeout"]
	_, hasShell := args["shell"]
	if !hasArgs && !hasCwd && !hasTimeout && !hasShell {
		return args, nil
	}
	out := map[string]any{}
	for k, v := range args {
		out[k] = v
	}
	line, _ := out["command"].(string)
	var words []string
	switch a := out["args"].(type) {
	case nil:
	case string:
		var list []string
		if strings.HasPrefix(a, "[") && json.Unmarshal([]byte(a), &list) == nil {
			words = list // a list the chain wrote (kept as JSON)
			break
		}
		w, err := splitWords(a)
		if err != nil {
			return nil, fmt.Errorf("local_shell args %q: %w", a, err)
		}
		words = w
	case []any:
		for _, x := range a {
			words = append(words, fmt.Sprint(x))
		}
	default:
		return nil, fmt.Errorf("local_shell args must be a string or a list, not %T", a)
	}
	for _, w := range words {
		line += " " + shellQuote(w)
	}
	if cwd, _ := out["cwd"].(string); cwd != "" {
		line = "cd " + shellQuote(cwd) + " && " + line
	}
	if t, ok := out["timeout"].(string); ok && t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			return nil, fmt.Errorf("local_shell timeout %q: write a duration such as 30s", t)
		}
		out["timeout_ms"] = d.Milliseconds()
	}
	delete(out, "args")
	delete(out, "cwd")
	delete(out, "timeout")
	delete(out, "shell") // Bash's command is a shell line already
	out["command"] = line
	return out, nil
}

// shellOnlyArgs are local_shell's arguments that only the chain writes:
// an input's fields never add a fixed command's arguments or move it to
// another directory.
var shellOnlyArgs = map[string]bool{"args": true, "cwd": true, "timeout": true, "shell": true, "stdin": true}

// shellQuote is s as one single-quoted shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// splitWords splits s into words as a shell does: at unquoted blanks,
// with single quotes, double quotes and backslashes taken out.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, fmt.Errorf("a quote or backslash is not closed")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

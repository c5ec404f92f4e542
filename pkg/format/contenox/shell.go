package contenox

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"text/template/parse"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// contenox's local_shell hook took arguments and answered a record that
// chainrun's shell tool does not: this file reads the arguments into one
// Bash command and refuses an output_template that reads the record.

// olderShellArgs reads the arguments contenox's local_shell hook takes
// besides command (localhooks/localexec.go from 2026-02-14, since
// runtime/localtools): args, argument words (a string split as a shell
// would, or a list) run without a shell unless shell is true; cwd, the
// directory; timeout, a duration. chainrun's Bash runs one shell command,
// so the words are quoted into it as contenox passes them (each stays one
// word, so a value never becomes shell syntax), cwd becomes a cd before
// the command and timeout becomes timeout_ms. The warning says what else
// differs: contenox gave a text input to the command's standard input
// and answered {exit_code, stdout, stderr, success}; Bash's standard
// input is empty and it answers the output's text.
func (tc *taskChain) olderShellArgs(h *Handler, at yamlpos.Pos, prefix string) {
	a := h.Args
	if h.Hook != HookLocalShell || a == nil {
		return
	}
	words, hasWords := a["args"]
	shellSet, hasShell := a["shell"]
	timeout, hasTimeout := a["timeout"]
	cwd, hasCwd := a["cwd"]
	if !hasWords && !hasShell && !hasTimeout && !hasCwd {
		return
	}
	shell := strings.EqualFold(shellSet, "true") || shellSet == "1"
	cmd := a["command"]
	if cmd == "" {
		tc.d.Errorf(at, "%stools.args: args, shell, cwd and timeout go with a command (contenox's local_shell reads it from the input otherwise, which chainrun does not): write command", prefix)
		return
	}
	list, err := argWords(words)
	if err != nil {
		tc.d.Errorf(at, "%stools.args.args %q: %v", prefix, words, err)
		return
	}
	if !shell {
		// contenox runs command as a program and args as its words
		quoted := []string{interp.ShellQuote(cmd)}
		for _, w := range list {
			quoted = append(quoted, interp.ShellQuote(w))
		}
		cmd = strings.Join(quoted, " ")
	} else if len(list) > 0 {
		cmd += " " + strings.Join(list, " ")
	}
	if hasCwd && cwd != "" {
		cmd = "cd " + interp.ShellQuote(cwd) + " && " + cmd
	}
	for _, k := range []string{"args", "shell", "timeout", "cwd"} {
		delete(a, k)
	}
	a["command"] = cmd
	note := ""
	if hasTimeout {
		if d, err := parseDuration(timeout); err == nil && d > 0 {
			a["timeout_ms"] = strconv.FormatInt(d.Milliseconds(), 10)
			note = ", timeout_ms " + a["timeout_ms"]
		} else {
			note = ", timeout " + chain.Quote(timeout) + " not a duration, which contenox ignores too"
		}
	}
	tc.d.Warnf(at, "%stools.args: args, shell, cwd and timeout are contenox's local_shell arguments: read as the command %s%s; its standard input is empty (contenox gave it a text input) and its output is the command's text (contenox answered {exit_code, stdout, stderr, success})", prefix, chain.Quote(cmd), note)
}

// argWords reads local_shell's args: a list the chain wrote (kept as
// JSON), or a string split into words as a shell splits it.
func argWords(s string) ([]string, error) {
	var list []string
	if strings.HasPrefix(strings.TrimSpace(s), "[") && json.Unmarshal([]byte(s), &list) == nil {
		return list, nil
	}
	return splitWords(s)
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
		return nil, errors.New("a quote or backslash is not closed")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// shellRecordFields are the fields of the record contenox's local_shell
// answers (LocalExecResult: Go's names, which its output_template reads,
// and their JSON names).
var shellRecordFields = []string{"ExitCode", "Stdout", "Stderr", "Success", "Error", "DurationSeconds", "Command",
	"exit_code", "stdout", "stderr", "success", "error", "duration_seconds", "command"}

// refuseShellRecord refuses a local_shell tools task whose
// output_template reads a field of contenox's local_shell record: Bash
// answers the command's text, so the field is not there and the task
// would fail when it runs.
func (tc *taskChain) refuseShellRecord(h *Handler, at yamlpos.Pos, prefix string) {
	if h.Hook != HookLocalShell || h.Output == nil {
		return
	}
	for _, f := range templateFields(h.Output.Tree.Root) {
		if slices.Contains(shellRecordFields, f) {
			tc.d.Errorf(at, "%soutput_template reads .%s of the record contenox's local_shell answers {ExitCode, Stdout, Stderr, Success, Error, DurationSeconds, Command}; chainrun's shell answers the command's text (stdout, then stderr, then a non-zero exit code): write {{.}} for it", prefix, f)
			return
		}
	}
}

// templateFields are the first names of the fields a Go template reads
// ({{.Stdout}} is Stdout), in order.
func templateFields(n parse.Node) []string {
	var out []string
	var walk func(parse.Node)
	branch := func(b *parse.BranchNode) {
		walk(b.Pipe)
		walk(b.List)
		if b.ElseList != nil {
			walk(b.ElseList)
		}
	}
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n != nil {
				for _, c := range n.Cmds {
					walk(c)
				}
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			out = append(out, n.Ident[0])
		case *parse.IfNode:
			branch(&n.BranchNode)
		case *parse.RangeNode:
			branch(&n.BranchNode)
		case *parse.WithNode:
			branch(&n.BranchNode)
		}
	}
	walk(n)
	return out
}

// validConditions reads a prompt_to_condition task's valid_conditions:
// the answers the model may give, each mapped to the result it gives,
// true or false. contenox requires them: an answer outside them fails the
// task.
func (tc *taskChain) validConditions(v any, at yamlpos.Pos, prefix string) map[string]bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		tc.d.Errorf(at, "%sa prompt_to_condition task needs valid_conditions: {ANSWER: true or false, ...}, the answers the model may give and the result of each", prefix)
		return nil
	}
	out := map[string]bool{}
	for _, key := range interp.SortedKeys(keySet(m)) {
		b, ok := m[key].(bool)
		if !ok {
			tc.d.Errorf(at, "%svalid_conditions.%s must be true or false (the result that answer gives)", prefix, key)
			continue
		}
		out[key] = b
	}
	return out
}

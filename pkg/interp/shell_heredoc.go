package interp

import "strings"

// hereString starts the word after <<<: its references feed the
// command's input.
func (sc *shellScanner) hereString(s string, i *int) {
	for *i+1 < len(s) && (s[*i+1] == ' ' || s[*i+1] == '\t') {
		*i++
	}
	sc.top().cmd.input = true
}

// heredocStart reads a heredoc's delimiter after <<; its body starts on
// the next line.
func (sc *shellScanner) heredocStart(s string, i *int) {
	h := heredoc{cmd: sc.top().cmd}
	if *i < len(s) && s[*i] == '-' {
		h.strip = true
		*i++
	}
	for *i < len(s) && (s[*i] == ' ' || s[*i] == '\t') {
		*i++
	}
	var d strings.Builder
	for ; *i < len(s); *i++ {
		c := s[*i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == ')' {
			break
		}
		switch c {
		case '\'', '"', '\\':
			h.quoted = true
		case 0:
			// a value cannot say where a heredoc ends
			d.WriteString("\x00")
			sc.sites = append(sc.sites, shellSite{ctx: ctxWord, line: sc.line, code: "<< (as a heredoc's delimiter)"})
			sc.nrefs++
		default:
			d.WriteByte(c)
		}
	}
	*i-- // the byte that ended the delimiter is read again
	h.delim = d.String()
	sc.pending = append(sc.pending, h)
}

// newline ends a command, after reading the bodies of the heredocs it
// opened.
func (sc *shellScanner) newline(s string, i *int) {
	f := sc.top()
	if f.kind == '"' || f.kind == '\'' {
		sc.cmd().word().text.WriteByte('\n')
		sc.line++
		return
	}
	if f.kind == 'a' || f.kind == '{' {
		sc.line++
		return
	}
	pipe := endsWithPipe(s[:*i])
	sc.line++
	pending := sc.pending
	sc.pending = nil
	for _, h := range pending {
		sc.heredocBody(s, i, h)
	}
	if f.cmd != nil && (len(f.pipeline) > 0 || f.cmd.cur != nil || len(f.cmd.words) > 0 || len(f.cmd.heredoc) > 0) {
		// a line ending in | goes on with the pipeline
		sc.endCommand(f, !pipe)
	}
}

func endsWithPipe(s string) bool {
	t := strings.TrimRight(s, " \t")
	return strings.HasSuffix(t, "|") && !strings.HasSuffix(t, "||")
}

// heredocBody reads lines up to the delimiter line; references there are
// in ctxHereQuoted or ctxHere, and feed the command's input.
func (sc *shellScanner) heredocBody(s string, i *int, h heredoc) {
	for *i+1 < len(s) {
		start := *i + 1
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := s[start:end]
		*i = end
		if h.strip {
			line = strings.TrimLeft(line, "\t")
		}
		if line == h.delim {
			sc.line++
			return
		}
		for j := 0; j < len(line); j++ {
			if line[j] != 0 {
				continue
			}
			ctx := ctxHere
			if h.quoted {
				ctx = ctxHereQuoted
			}
			n := sc.nrefs
			sc.nrefs++
			sc.sites = append(sc.sites, shellSite{ctx: ctx, line: sc.line, delim: h.delim})
			h.cmd.heredoc = append(h.cmd.heredoc, n)
		}
		sc.line++
		if end >= len(s) {
			return
		}
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

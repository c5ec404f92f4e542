package yamlpos

import (
	"bytes"
	"strings"
)

// yamlWords are the plain words for a YAML parser's message, by a part of
// it, where the words do not depend on the line it points to.
var yamlWords = []struct{ says, means string }{
	{"did not find expected '-' indicator", "this line is indented differently from the list items above it: line its \"- \" up with theirs"},
	{"did not find expected key", "this line does not line up with the keys of its mapping, or a value holds an unmatched quote or bracket: check the indentation, and quote the value"},
	{"could not find expected ':'", "a key here (or on the line above) has no \":\" after it, or a text runs on over lines: write key: value, or quote the text"},
	{"found unexpected end of stream", "the file ends inside a quoted text: a quote is not closed"},
	{"did not find expected ',' or", "a [list] or {mapping} written on one line is not closed, or two of its items lack a comma between them"},
	{"block sequence entries are not allowed", "a list item (\"- \") is where a value was expected: start the list on the next line, indented"},
}

// explainYAML says in plain words what a YAML syntax error usually means
// at the place it points to (line is that line's text, col its 1-based
// column), keeping the parser's own words after it, so a tab or a key
// indented one space too far is named as such. A message it has no
// explanation for is returned as it is.
func explainYAML(msg, line string, col int) string {
	at := ""
	if col >= 1 && col <= len(line) {
		at = line[col-1:]
	}
	token := strings.Contains(msg, "cannot start any token")
	var why string
	switch {
	case strings.Contains(msg, "tab character") || strings.Contains(msg, " tabs ") || token && strings.HasPrefix(at, "\t"):
		why = "a tab indents this line: YAML indents with spaces only (replace the tab with spaces)"
	case token && at != "":
		why = "a value cannot begin with " + quoteRune(at) + " unquoted: put the value in quotes"
	case strings.Contains(msg, "mapping values are not allowed"):
		if before := line[:min(max(col-1, 0), len(line))]; strings.Contains(before, ": ") {
			why = "a second \": \" on this line: a value that holds \": \" must be quoted (or written as a block with |)"
		} else {
			why = "this line is indented further than the key above it: line it up with that key (or, to nest it, end the line above with a colon)"
		}
	default:
		for _, w := range yamlWords {
			if strings.Contains(msg, w.says) {
				why = w.means
			}
		}
	}
	if why == "" {
		return msg
	}
	return why + " (YAML: " + msg + ")"
}

// quoteRune is the first character of s, quoted for a message.
func quoteRune(s string) string {
	for _, r := range s {
		return "'" + string(r) + "'"
	}
	return "''"
}

// lineOf is line n (1-based) of src, without its line break.
func lineOf(src []byte, n int) string {
	for i := 1; i < n; i++ {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return ""
		}
		src = src[nl+1:]
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	return strings.TrimSuffix(string(src), "\r")
}

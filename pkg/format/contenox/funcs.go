package contenox

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"text/template"
	"unicode"
)

// templateFuncs are the functions a task chain's Go templates may call
// besides text/template's own. contenox renders its templates with all of
// Sprig's (contenox/runtime runtime/taskengine/rendertemplate_sprig_test.go
// TestUnit_RenderTemplate_SprigFuncsWired); chainrun has Sprig's text,
// list and default functions, written here with Sprig's argument order
// (the text last, so a pipe feeds it). Sprig's others are left out on
// purpose: env and expandenv would put the run's secrets into a prompt,
// and the crypto, date, regex, dict and semver families are not what a
// task's prompt is made of; a template that calls one is refused when
// the chain loads, naming the function.
var templateFuncs = sync.OnceValue(func() template.FuncMap {
	return template.FuncMap{
		"toJson":       func(v any) string { return jsonText(v, "") },
		"toPrettyJson": func(v any) string { return jsonText(v, "  ") },
		"toString":     strval,
		"trunc":        trunc,
		"upper":        strings.ToUpper,
		"lower":        strings.ToLower,
		"title":        title,
		"trim":         strings.TrimSpace,
		"trimAll":      func(cut, s string) string { return strings.Trim(s, cut) },
		"trimPrefix":   func(p, s string) string { return strings.TrimPrefix(s, p) },
		"trimSuffix":   func(p, s string) string { return strings.TrimSuffix(s, p) },
		"replace":      func(old, new, s string) string { return strings.ReplaceAll(s, old, new) },
		"contains":     func(sub, s string) bool { return strings.Contains(s, sub) },
		"hasPrefix":    func(p, s string) bool { return strings.HasPrefix(s, p) },
		"hasSuffix":    func(p, s string) bool { return strings.HasSuffix(s, p) },
		"repeat":       func(n int, s string) string { return strings.Repeat(s, max(n, 0)) },
		"substr":       substr,
		"nospace":      func(s string) string { return strings.Join(strings.Fields(s), "") },
		"quote":        func(v ...any) string { return quoteAll(v, `"%s"`) },
		"squote":       func(v ...any) string { return quoteAll(v, `'%s'`) },
		"cat":          func(v ...any) string { return quoteAll(v, "%s") },
		"indent":       indentText,
		"nindent":      func(n int, s string) string { return "\n" + indentText(n, s) },
		"splitList":    func(sep, s string) []string { return strings.Split(s, sep) },
		"join":         join,
		"list":         func(v ...any) []any { return v },
		"first":        func(v any) any { return nth(v, 0) },
		"last":         func(v any) any { return nth(v, -1) },
		"default":      dflt,
		"empty":        empty,
		"coalesce":     coalesce,
		"ternary": func(yes, no any, cond bool) any {
			if cond {
				return yes
			}
			return no
		},
	}
})

// jsonText is v as JSON, indented by indent when it is not ""; "" when v
// has no JSON form.
func jsonText(v any, ind string) string {
	var b []byte
	var err error
	if ind == "" {
		b, err = json.Marshal(v)
	} else {
		b, err = json.MarshalIndent(v, "", ind)
	}
	if err != nil {
		return ""
	}
	return string(b)
}

// strval is a value as text: a string as it is, anything else printed.
func strval(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// trunc keeps the first n bytes of s, or with n negative its last -n.
func trunc(n int, s string) string {
	switch {
	case n >= 0 && len(s) > n:
		return s[:n]
	case n < 0 && len(s) > -n:
		return s[len(s)+n:]
	}
	return s
}

// title makes the first letter of each word upper case.
func title(s string) string {
	prev := ' '
	return strings.Map(func(r rune) rune {
		defer func() { prev = r }()
		if unicode.IsSpace(prev) || unicode.IsPunct(prev) && prev != '\'' {
			return unicode.ToTitle(r)
		}
		return r
	}, s)
}

// substr is s from start to end, as Sprig's: a negative start is 0, an
// end that is negative or past s is its end.
func substr(start, end int, s string) string {
	start = min(max(start, 0), len(s))
	if end < 0 || end > len(s) {
		end = len(s)
	}
	if start > end {
		return ""
	}
	return s[start:end]
}

// quoteAll formats each non-nil value's text with format, joined by spaces.
func quoteAll(v []any, format string) string {
	var out []string
	for _, x := range v {
		if x != nil {
			out = append(out, fmt.Sprintf(format, strval(x)))
		}
	}
	return strings.Join(out, " ")
}

// indentText puts n spaces before every line of s.
func indentText(n int, s string) string {
	pad := strings.Repeat(" ", max(n, 0))
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

// items are a list's elements (any slice or array), or v alone.
func items(v any) []any {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return []any{v}
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out
}

// nth is a list's element i (from the end when negative), nil when there
// is none.
func nth(v any, i int) any {
	list := items(v)
	if i < 0 {
		i += len(list)
	}
	if i < 0 || i >= len(list) {
		return nil
	}
	return list[i]
}

// join joins a list's elements' text with sep.
func join(sep string, v any) string {
	var out []string
	for _, x := range items(v) {
		out = append(out, strval(x))
	}
	return strings.Join(out, sep)
}

// empty reports whether v is nil or its type's zero: "", 0, false, an
// empty list or map.
func empty(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return true
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.String:
		return rv.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return rv.IsNil()
	}
	return rv.IsZero()
}

// dflt is Sprig's default: the given value, or def when it is empty.
func dflt(def any, given ...any) any {
	if len(given) == 0 || empty(given[0]) {
		return def
	}
	return given[0]
}

// coalesce is the first value that is not empty, else nil.
func coalesce(v ...any) any {
	for _, x := range v {
		if !empty(x) {
			return x
		}
	}
	return nil
}

package jsonfilter

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"text/template"
	"time"

	"github.com/itchyny/gojq"

	"github.com/chainrun/chainrun/pkg/render"
)

// funcs are the functions a --template may call besides text/template's
// own, named as the GitHub CLI names its (join, pluck, truncate, timefmt,
// tablerow, tablerender), so a template written for gh reads the same:
//
//	json V              V as compact JSON (a map or list in one line)
//	join SEP LIST       the items of LIST (strings as they are, others as JSON) joined by SEP
//	pluck FIELD LIST    the FIELD of each map in LIST
//	truncate N TEXT     TEXT cut to N characters, ending in … when cut
//	timefmt LAYOUT T    an RFC 3339 time (started_at) in a Go layout ("15:04:05")
//	duration MS         milliseconds (duration_ms) as chainrun shows them: 12ms, 3.4s
//	tablerow CELLS...   a row of an aligned table, printed at tablerender or at the end
//	tablerender         the rows so far, aligned
//	contains S SUB, hasPrefix S P, hasSuffix S P
func funcs(t *table) template.FuncMap {
	return template.FuncMap{
		"json": func(v any) (string, error) {
			b, err := gojq.Marshal(v)
			return string(b), err
		},
		"join": func(sep string, list []any) string {
			parts := make([]string, len(list))
			for i, v := range list {
				parts[i] = cell(v)
			}
			return strings.Join(parts, sep)
		},
		"pluck": func(field string, list []any) []any {
			out := make([]any, 0, len(list))
			for _, v := range list {
				if m, ok := v.(map[string]any); ok {
					out = append(out, m[field])
				}
			}
			return out
		},
		"truncate": truncate,
		"timefmt": func(layout string, v any) (string, error) {
			t, err := time.Parse(time.RFC3339Nano, cell(v))
			if err != nil {
				return "", err
			}
			return t.Format(layout), nil
		},
		"duration": func(v any) (string, error) {
			ms, ok := gojq.ToInt(v)
			if !ok {
				return "", fmt.Errorf("duration: %s is not a number of milliseconds", cell(v))
			}
			return render.Millis(int64(ms)), nil
		},
		"tablerow":    t.row,
		"tablerender": t.render,
		"contains":    strings.Contains,
		"hasPrefix":   strings.HasPrefix,
		"hasSuffix":   strings.HasSuffix,
	}
}

// cell is a value as a template shows it in text (render.Text): a
// string as it is, nil as nothing, anything else as JSON.
func cell(v any) string { return render.Text(v) }

// truncate cuts text (any value, shown as cell shows it) to n
// characters, the last one … when anything was cut.
func truncate(n int, v any) string {
	s := cell(v)
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// table gathers tablerow's rows until they are rendered, aligned in
// columns two spaces apart.
type table struct{ rows [][]string }

func (t *table) row(cells ...any) string {
	r := make([]string, len(cells))
	for i, c := range cells {
		r[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(cell(c))
	}
	t.rows = append(t.rows, r)
	return ""
}

func (t *table) render() string {
	if len(t.rows) == 0 {
		return ""
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	_ = tw.Flush()
	t.rows = nil
	return b.String()
}

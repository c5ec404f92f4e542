package chaintest

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"sync"
)

//go:embed html/report.html.tmpl
var htmlFiles embed.FS

// htmlReport is the template of the HTML report, parsed once.
var htmlReport = sync.OnceValue(func() *template.Template {
	funcs := template.FuncMap{
		"diff": lineDiff,
		"pct":  pct,
		"score": func(s *float64) string {
			if s == nil {
				return ""
			}
			return fmt.Sprintf("%g", *s)
		},
		"anchor": func(file string, c *CaseReport) string {
			return fmt.Sprintf("case-%x", file+"\x00"+c.Name+"\x00"+c.Model)
		},
		"model": func(m string) string { return or(m, "(chain's models)") },
		"ms":    ms,
		"deref": func(f *float64) float64 { return *f },
	}
	return template.Must(template.New("report.html.tmpl").Funcs(funcs).ParseFS(htmlFiles, "html/report.html.tmpl"))
})

// WriteHTML writes the report as one self-contained HTML file: its
// style and its one small script inline, nothing fetched from anywhere
// (its Content-Security-Policy forbids it), so that it can be kept as a
// CI artifact and opened offline. It holds the table of cases × models,
// each case's checks with their reason and score, the diff of a failed
// comparison's answer, and the comparison with a baseline.
func (r *Report) WriteHTML(w io.Writer) error {
	m, _ := r.grid()
	return htmlReport().Execute(w, struct {
		*Report
		Table *Matrix
	}{r, m})
}

// anchorOf is the id of a case's section (on one model) in the HTML
// report.
func anchorOf(file string, c *CaseReport) string {
	return fmt.Sprintf("case-%x", file+"\x00"+c.Name+"\x00"+c.Model)
}

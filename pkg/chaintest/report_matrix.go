package chaintest

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
)

// Matrix is the report as a table of cases × models: a row per case of
// a file that runs on a list of models, a column per model. Cases that
// list no models run once, in the column "" (the chain's own models).
type Matrix struct {
	Models []string    `json:"models"`
	Rows   []MatrixRow `json:"rows"`
}

// MatrixRow is one case's verdicts, by model.
type MatrixRow struct {
	File  string                 `json:"file"`
	Case  string                 `json:"case"`
	Line  int                    `json:"line"`
	Cells map[string]*CaseReport `json:"-"`
	// Results are the cells as JSON gives them: result (and pass rate)
	// by model.
	Results map[string]string `json:"results"`
}

// Matrix is the report's table of cases × models; nil when no case
// lists models.
func (r *Report) Matrix() *Matrix {
	if m, models := r.grid(); models {
		return m
	}
	return nil
}

// grid is the report's table of cases × models, and whether any case
// lists models (else its one column is "").
func (r *Report) grid() (*Matrix, bool) {
	m := &Matrix{}
	any := false
	for _, f := range r.Files {
		var row *MatrixRow
		for _, c := range f.Cases {
			any = any || c.Model != ""
			if row == nil || row.Case != c.Name {
				m.Rows = append(m.Rows, MatrixRow{File: f.Path, Case: c.Name, Line: c.Line, Cells: map[string]*CaseReport{}, Results: map[string]string{}})
				row = &m.Rows[len(m.Rows)-1]
			}
			row.Cells[c.Model], row.Results[c.Model] = c, c.Cell()
			if !slices.Contains(m.Models, c.Model) {
				m.Models = append(m.Models, c.Model)
			}
		}
	}
	return m, any
}

// Cell is a case's verdict in a table: PASS, FAIL or SKIP, and for a
// case that repeated, how many of its runs passed.
func (c *CaseReport) Cell() string {
	s := map[string]string{Passed: "PASS", Failed: "FAIL", Skipped: "SKIP"}[c.Result]
	if c.Runs > 0 {
		s += fmt.Sprintf(" %d/%d", c.Passes, c.Runs)
	}
	return s
}

// Label is a case's name with the model of its matrix it ran on.
func (c *CaseReport) Label() string {
	if c.Model == "" {
		return c.Name
	}
	return c.Name + " [" + c.Model + "]"
}

// writeMatrix writes the table of cases × models for a person.
func (m *Matrix) writeText(b *strings.Builder) {
	b.WriteString("\nMATRIX\n")
	tw := tabwriter.NewWriter(b, 0, 0, 3, ' ', 0)
	head := []string{"  case"}
	for _, model := range m.Models {
		head = append(head, or(model, "(chain's models)"))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, row := range m.Rows {
		cells := []string{"  " + row.Case}
		for _, model := range m.Models {
			cells = append(cells, or(row.Results[model], "-"))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	_ = tw.Flush()
}

// repeatsText is a repeated case's share of passed runs and each
// check's, for the text report.
func (c *CaseReport) repeatsText(b *strings.Builder) {
	if c.Runs == 0 {
		return
	}
	fmt.Fprintf(b, "      %d of %d runs passed (%s; the case requires %s)\n", c.Passes, c.Runs, pct(*c.PassRate), pct(*c.RequiredPassRate))
	for _, a := range c.Assertions {
		fmt.Fprintf(b, "      %6s  %s (%d of %d)\n", pct(*a.PassRate), a.Name, a.Passes, a.Runs)
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

type junitProperties struct {
	List []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitRates are a repeated case's pass rates as JUnit properties (nil
// for a case that ran once).
func (c *CaseReport) junitRates() *junitProperties {
	if c.Runs == 0 {
		return nil
	}
	p := &junitProperties{List: []junitProperty{
		{"runs", fmt.Sprint(c.Runs)}, {"pass_rate", fmt.Sprint(*c.PassRate)}, {"required_pass_rate", fmt.Sprint(*c.RequiredPassRate)}}}
	for _, a := range c.Assertions {
		p.List = append(p.List, junitProperty{"assertion." + a.Name + ".pass_rate", fmt.Sprint(*a.PassRate)})
	}
	return p
}

package chaintest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for a person: one line per case, what
// failed under it, and the counts.
func (r *Report) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	for _, f := range r.Files {
		for _, c := range f.Cases {
			switch c.Result {
			case Passed:
				if verbose {
					fmt.Fprintf(&b, "PASS  %s  %s (%s)\n", f.Path, c.Label(), ms(c.DurationMS))
					c.repeatsText(&b)
				}
			case Skipped:
				if verbose || c.Skip != "not selected by --run" {
					fmt.Fprintf(&b, "SKIP  %s  %s: %s\n", f.Path, c.Label(), c.Skip)
				}
			default:
				fmt.Fprintf(&b, "FAIL  %s:%d  %s (%s)\n", f.Path, c.Line, c.Label(), ms(c.DurationMS))
				for _, why := range c.Failures {
					fmt.Fprintf(&b, "      %s\n", strings.ReplaceAll(why, "\n", "\n      "))
				}
				c.repeatsText(&b)
			}
			for _, u := range c.Updated {
				fmt.Fprintf(&b, "      wrote golden file %s\n", u)
			}
		}
		if f.Saved {
			fmt.Fprintf(&b, "      recorded answers saved to %s\n", f.Cassette)
		}
	}
	if m := r.Matrix(); m != nil {
		m.writeText(&b)
	}
	if r.Comparison != nil {
		r.Comparison.writeText(&b)
	}
	for _, u := range r.Unused {
		fmt.Fprintf(&b, "UNUSED  %s\n", u)
	}
	fmt.Fprintf(&b, "%d passed, %d failed, %d skipped (%s)\n", r.Passed, r.Failed, r.Skipped, ms(r.DurationMS))
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%dms", n)
	}
	return fmt.Sprintf("%.1fs", float64(n)/1000)
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	out := struct {
		*Report
		Passed  int     `json:"passed"`
		Failed  int     `json:"failed"`
		Skipped int     `json:"skipped"`
		Matrix  *Matrix `json:"matrix,omitempty"`
	}{r, r.Passed, r.Failed, r.Skipped, r.Matrix()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// junit is the JUnit XML report CI systems read (GitHub's test
// reporters, GitLab's junit artifacts, Jenkins).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	File      string `xml:"file,attr"`
	Line      int    `xml:"line,attr"`
	Time      string `xml:"time,attr"`
	// Properties are a repeated case's pass rates: the case's and each
	// check's (assertion.NAME.pass_rate).
	Properties *junitProperties `xml:"properties,omitempty"`
	Failure    *junitFailure    `xml:"failure,omitempty"`
	Skipped    *junitSkipped    `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes the report as JUnit XML: a suite per test file, a
// test case per case.
func (r *Report) WriteJUnit(w io.Writer) error {
	all := junitSuites{Time: secs(r.DurationMS)}
	for _, f := range r.Files {
		s := junitSuite{Name: f.Path}
		var total int64
		for _, c := range f.Cases {
			jc := junitCase{Name: c.Label(), Classname: f.Chain, File: f.Path, Line: c.Line, Time: secs(c.DurationMS), Properties: c.junitRates()}
			total += c.DurationMS
			switch c.Result {
			case Failed:
				s.Failures++
				msg := ""
				if len(c.Failures) > 0 {
					msg = c.Failures[0]
				}
				jc.Failure = &junitFailure{Message: msg, Type: "expectation", Text: strings.Join(c.Failures, "\n")}
			case Skipped:
				s.Skipped++
				jc.Skipped = &junitSkipped{Message: c.Skip}
			}
			s.Tests++
			s.Cases = append(s.Cases, jc)
		}
		s.Time = secs(total)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Skipped += s.Skipped
		all.Suites = append(all.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func secs(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

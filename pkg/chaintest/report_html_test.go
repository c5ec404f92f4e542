package chaintest

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cassette"
)

// chromium is the headless browser the HTML report is checked in:
// $CHAINRUN_CHROMIUM, else Debian's /usr/bin/chromium. Without one the
// test skips, unless CI is set: there it must run.
func chromium(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("CHAINRUN_CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Chromium at %s (set CHAINRUN_CHROMIUM; .ci/run installs Debian's chromium)", bin)
		}
		t.Skipf("no Chromium at %s: set CHAINRUN_CHROMIUM to check the HTML report in a browser", bin)
	}
	return bin
}

// renderedDOM loads a file in headless Chromium, with no network, and
// returns the DOM once its scripts ran.
func renderedDOM(t *testing.T, bin, path string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+t.TempDir(),
		"--proxy-server=127.0.0.1:9", "--dump-dom", "file://"+path)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return out.String()
}

// cells are the text of the cells of a table's rows, by id, in the DOM
// as the browser serialised it.
func cells(t *testing.T, dom, id string) [][]string {
	t.Helper()
	start := strings.Index(dom, `<table id="`+id+`"`)
	if start < 0 {
		t.Fatalf("no table %s in the DOM:\n%s", id, dom)
	}
	table := dom[start : start+strings.Index(dom[start:], "</table>")]
	var rows [][]string
	for _, tr := range regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`).FindAllStringSubmatch(table, -1) {
		var row []string
		for _, td := range regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`).FindAllStringSubmatch(tr[1], -1) {
			row = append(row, html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(td[1], "")))
		}
		rows = append(rows, row)
	}
	return rows
}

// The HTML report, loaded in a real browser with no network, shows the
// table of cases × models (its totals row computed by its own script),
// each check with its result, and the diff of a changed answer.
func TestHTMLReportInABrowser(t *testing.T) {
	bin := chromium(t)
	p := newProject(t, echoModel, map[string]string{"ask.yaml": askChain, "ask.test.yaml": `cases:
  - name: matrix <b>
    inputs: {q: hi}
    models: [openai/gpt-a, fast]
    expect:
      output: "gpt-a says: hi"
      status: succeeded
  - name: lines
    inputs: {q: "one\ntwo\nthree"}
    expect:
      output: "gpt-a says: one\nTWO\nthree"
`})
	p.mustRun(t, p.runner(cassette.ModeMissing), "ask.test.yaml")
	rep := p.mustRun(t, p.runner(cassette.ModeNone), "ask.test.yaml")
	// a baseline in which the last case passed
	base := rep.Baseline()
	base.Cases[2].Result = Passed
	rep.Compare(base, "before.json")
	path := filepath.Join(t.TempDir(), "report.html")
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	for _, external := range []string{"http://", "https://", "src=", "@import", "url("} {
		if strings.Contains(buf.String(), external) {
			t.Errorf("the report refers to something outside it: %s", external)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := renderedDOM(t, bin, path)
	file := filepath.Join(p.dir, "ask.test.yaml")
	got := cells(t, dom, "matrix")
	want := [][]string{
		{"file", "case", "openai/gpt-a", "fast", "(chain's models)"},
		{file + ":2", "matrix <b>", "PASS", "FAIL", "-"},
		{file + ":8", "lines", "-", "-", "FAIL"},
		{"passed", "1 of 1", "0 of 1", "0 of 1"},
	}
	if len(got) != len(want) {
		t.Fatalf("matrix rows:\n%q\nwant:\n%q", got, want)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("matrix row %d: %q, want %q", i, got[i], want[i])
		}
	}
	// each case's checks: the failed output's diff, the status that held
	fast := cells(t, dom, "checks-"+anchorOf(file, rep.Files[0].Cases[1]))
	if len(fast) != 3 || fast[1][0] != "status" || fast[1][1] != "passed" || fast[2][0] != "output" || fast[2][1] != "failed" {
		t.Errorf("checks of the case on fast: %q", fast)
	}
	if want := `want "gpt-a says: hi", got "gpt-fast says: hi"- gpt-a says: hi+ gpt-fast says: hi`; fast[2][4] != want {
		t.Errorf("output's reason and diff: %q, want %q", fast[2][4], want)
	}
	lines := cells(t, dom, "checks-"+anchorOf(file, rep.Files[0].Cases[2]))
	if want := "  gpt-a says: one- TWO+ two  three"; len(lines) != 2 || !strings.HasSuffix(lines[1][4], want) {
		t.Errorf("a multi-line answer's diff: %q, want it to end %q", lines, want)
	}
	if got := cells(t, dom, "baseline"); len(got) != 2 || strings.Join(got[1], "|") != "newly failing|"+file+"|lines|||passed|failed" {
		t.Errorf("baseline table: %q", got)
	}
	if !strings.Contains(dom, `<div class="del">- TWO</div><div class="add">+ two</div>`) {
		t.Error("the diff's lines are not marked removed and added")
	}
}

// A repeated case shows its runs in the table and on its checks; a
// graded check its score and reason; all text is escaped.
func TestHTMLReportShowsRatesAndScores(t *testing.T) {
	rate, required, arate, score := 0.667, 0.5, 0.667, 0.75
	rep := &Report{Passed: 1, Files: []*FileReport{{Path: "t.test.yaml", Cases: []*CaseReport{{
		Name: "flaky <x>", Line: 3, Result: Passed, Runs: 3, Passes: 2, PassRate: &rate, RequiredPassRate: &required,
		Assertions: []Assertion{{Name: "output", Passed: true, Runs: 3, Passes: 2, PassRate: &arate, Score: &score, Reason: "mostly <right>"}},
	}}}}}
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-result="passed"><a href="#case-`, `>PASS 2/3</a>`, "2 of 3 runs passed; the case requires 50%",
		"<td>output</td><td>passed</td><td>66.7%</td><td>0.75</td>", "<div>mostly &lt;right&gt;</div>", "flaky &lt;x&gt;"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the report lacks %s:\n%s", want, buf.String())
		}
	}
}

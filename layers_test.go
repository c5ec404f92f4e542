package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/chainrun/chainrun"

// layers is the import rule of every package: the packages of this module
// it may import. Each package's doc comment states the same list, in the
// sentence "It may import, of this module: a, b." or "It imports nothing
// of this module.", and TestLayers holds both to the code.
var layers = map[string][]string{
	"pkg/dag":                  nil,
	"pkg/event":                nil,
	"pkg/executor":             {"pkg/redact"},
	"pkg/redact":               nil,
	"pkg/fsutil":               nil,
	"pkg/jsonstream":           nil,
	"pkg/guard":                nil,
	"pkg/interrupt":            nil,
	"pkg/iostreams":            nil,
	"pkg/retry":                nil,
	"pkg/tracectx":             nil,
	"pkg/tracefeed":            {"pkg/event", "pkg/tracectx"},
	"pkg/telemetry":            {"pkg/event", "pkg/tracectx", "pkg/tracefeed"},
	"pkg/telemetry/otlptest":   nil,
	"pkg/project":              {"pkg/dotenv", "pkg/fsutil"},
	"pkg/dotenv":               {"pkg/fsutil"},
	"pkg/buildinfo":            nil,
	"pkg/llm/llmtest":          nil,
	"pkg/mcpclient":            {"pkg/executor", "pkg/redact", "pkg/tracectx"},
	"pkg/mcpclient/mcptest":    nil,
	"pkg/llm":                  {"pkg/fsutil", "pkg/redact", "pkg/retry"},
	"pkg/cache":                {"pkg/fsutil"},
	"pkg/cache/cachetest":      {"pkg/cache"},
	"pkg/spell":                nil,
	"pkg/yamlpos":              {"pkg/spell"},
	"pkg/interp":               {"pkg/spell"},
	"pkg/chain/guardexpr":      {"pkg/interp", "pkg/yamlpos"},
	"pkg/chain":                {"pkg/chain/envfiles", "pkg/chain/fileschema", "pkg/chain/guardexpr", "pkg/chain/reqparams", "pkg/chain/wfpart", "pkg/dag", "pkg/fsutil", "pkg/interp", "pkg/spell", "pkg/yamlpos"},
	"pkg/chain/wfcheck":        {"pkg/chain", "pkg/chain/fileschema", "pkg/chain/guardexpr", "pkg/chain/wfpart", "pkg/interp", "pkg/spell", "pkg/yamlpos"},
	"pkg/chain/wfyaml":         {"pkg/chain", "pkg/chain/envfiles", "pkg/chain/guardexpr", "pkg/chain/wfpart", "pkg/interp", "pkg/spell", "pkg/yamlpos"},
	"pkg/format/contenox":      {"pkg/chain", "pkg/chain/wfyaml", "pkg/interp", "pkg/spell", "pkg/yamlpos"},
	"pkg/format/flowgate":      {"pkg/chain", "pkg/chain/guardexpr", "pkg/interp", "pkg/spell", "pkg/yamlpos"},
	"pkg/format/occ":           {"pkg/chain", "pkg/interp", "pkg/yamlpos"},
	"pkg/load":                 {"pkg/chain", "pkg/chain/schema", "pkg/chain/wfcheck", "pkg/chain/wfyaml", "pkg/format/contenox", "pkg/format/flowgate", "pkg/format/occ", "pkg/yamlpos"},
	"pkg/load/loadbench":       nil,
	"pkg/catalog":              {"pkg/chain", "pkg/chain/wfyaml", "pkg/load", "pkg/spell"},
	"pkg/inputs":               {"pkg/chain", "pkg/fsutil"},
	"pkg/tools":                {"pkg/executor", "pkg/fsutil"},
	"pkg/run/mask":             {"pkg/chain", "pkg/redact"},
	"pkg/run/given":            {"pkg/chain", "pkg/chain/fileschema", "pkg/guard", "pkg/interp", "pkg/run/mask"},
	"pkg/run/web":              {"pkg/chain", "pkg/executor", "pkg/redact"},
	"pkg/run/resume":           {"pkg/chain", "pkg/run/record", "pkg/run/response"},
	"pkg/run/task":             {"pkg/chain", "pkg/dag", "pkg/event", "pkg/run/record"},
	"pkg/run/confine":          {"pkg/fsutil", "pkg/tools"},
	"pkg/run/ask":              {"pkg/cache", "pkg/chain", "pkg/chain/reqparams", "pkg/guard", "pkg/llm", "pkg/spell", "pkg/tools"},
	"pkg/run":                  {"pkg/cache", "pkg/chain", "pkg/dag", "pkg/dotenv", "pkg/event", "pkg/executor", "pkg/fsutil", "pkg/guard", "pkg/interp", "pkg/interrupt", "pkg/llm", "pkg/mcpclient", "pkg/redact", "pkg/retry", "pkg/run/ask", "pkg/run/confine", "pkg/run/given", "pkg/run/mask", "pkg/run/record", "pkg/run/response", "pkg/run/resume", "pkg/run/task", "pkg/run/web", "pkg/tracectx"},
	"pkg/kind/basic":           {"pkg/chain", "pkg/event", "pkg/executor", "pkg/interp", "pkg/run", "pkg/run/proc", "pkg/run/record", "pkg/run/response", "pkg/yamlpos"},
	"pkg/kind/remote":          {"pkg/chain", "pkg/executor", "pkg/interp", "pkg/mcpclient", "pkg/redact", "pkg/run", "pkg/run/proc", "pkg/run/record", "pkg/run/web", "pkg/tracectx", "pkg/yamlpos"},
	"pkg/kind/model":           {"pkg/chain", "pkg/event", "pkg/guard", "pkg/interp", "pkg/llm", "pkg/run", "pkg/run/ask", "pkg/run/given", "pkg/run/record", "pkg/run/toolcall", "pkg/yamlpos"},
	"pkg/kind/compose":         {"pkg/chain", "pkg/interp", "pkg/run", "pkg/run/given", "pkg/run/record", "pkg/run/response", "pkg/yamlpos"},
	"pkg/kind/authoring":       {"pkg/chain", "pkg/interp", "pkg/run", "pkg/run/record", "pkg/yamlpos"},
	"pkg/kind/contenox":        {"pkg/chain", "pkg/event", "pkg/format/contenox", "pkg/interp", "pkg/llm", "pkg/run", "pkg/run/record", "pkg/run/response", "pkg/run/toolcall", "pkg/tools"},
	"pkg/run/flow":             {"pkg/chain", "pkg/chain/fileschema", "pkg/event", "pkg/guard", "pkg/interp", "pkg/llm", "pkg/retry", "pkg/run", "pkg/run/given", "pkg/run/record", "pkg/run/response", "pkg/tools"},
	"pkg/run/pretool":          {"pkg/cache", "pkg/chain", "pkg/executor", "pkg/fsutil", "pkg/interp", "pkg/retry", "pkg/run", "pkg/run/proc", "pkg/run/web", "pkg/yamlpos"},
	"pkg/run/proc":             {"pkg/chain", "pkg/event", "pkg/executor", "pkg/interp", "pkg/interrupt", "pkg/llm", "pkg/redact", "pkg/run", "pkg/run/confine", "pkg/run/record", "pkg/run/web"},
	"pkg/builtin":              {"pkg/kind/authoring", "pkg/kind/basic", "pkg/kind/compose", "pkg/kind/contenox", "pkg/kind/model", "pkg/kind/remote", "pkg/run/flow", "pkg/run/pretool"},
	"pkg/run/runtest":          {"pkg/chain", "pkg/load", "pkg/run/record"},
	"pkg/store":                {"pkg/chain", "pkg/event", "pkg/executor", "pkg/fsutil", "pkg/jsonstream", "pkg/load", "pkg/retry", "pkg/run", "pkg/run/record", "pkg/run/response"},
	"pkg/mcpserver":            {"pkg/catalog", "pkg/chain", "pkg/event", "pkg/run", "pkg/run/record", "pkg/run/response", "pkg/tracectx"},
	"pkg/cassette":             {"pkg/fsutil", "pkg/llm", "pkg/redact"},
	"pkg/chaintest":            {"pkg/cache", "pkg/cassette", "pkg/chain", "pkg/dotenv", "pkg/event", "pkg/fsutil", "pkg/llm", "pkg/redact", "pkg/render", "pkg/retry", "pkg/run", "pkg/run/record", "pkg/run/response", "pkg/yamlpos"},
	"pkg/telemetry/jaegertest": nil,
	"pkg/chain/fileschema":     {"pkg/interp", "pkg/spell"},
	"pkg/chain/reqparams":      nil,
	"pkg/chain/envfiles":       {"pkg/yamlpos"},
	"pkg/chain/wfpart":         {"pkg/chain/guardexpr", "pkg/interp", "pkg/yamlpos"},
	"pkg/chain/schema":         {"pkg/chain", "pkg/chain/envfiles", "pkg/chain/wfpart", "pkg/chain/wfyaml", "pkg/yamlpos"},
	"pkg/run/response":         {"pkg/chain"},
	"pkg/run/record":           {"pkg/chain", "pkg/event", "pkg/run/response"},
	"pkg/run/toolcall":         {"pkg/chain", "pkg/event", "pkg/interp", "pkg/interrupt", "pkg/llm", "pkg/run", "pkg/run/ask", "pkg/run/given", "pkg/run/record", "pkg/tools"},
}

// configLibraries are read by cmd alone: nothing below it sees flags or
// configuration.
var configLibraries = []string{"github.com/spf13/cobra", "github.com/spf13/pflag"}

// docWriters are the programs that write chainrun's documentation from
// its command tree (cmd.Commands) and the library they write it with;
// they read no flags or configuration of chainrun's.
var docWriters = map[string]string{"cmd/chainrun-man": "github.com/spf13/cobra/doc"}

type listed struct {
	ImportPath string
	Dir        string
	Imports    []string
	GoFiles    []string
}

func goList(t *testing.T) []listed {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestLayers(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range goList(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		var internal []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"/") {
				internal = append(internal, strings.TrimPrefix(imp, module+"/"))
			}
			for _, lib := range configLibraries {
				if strings.HasPrefix(imp, lib) && rel != "cmd" && docWriters[rel] != imp {
					t.Errorf("%s imports %s: only cmd reads flags and configuration", rel, imp)
				}
			}
		}
		if strings.HasPrefix(rel, "pkg/render") {
			// the views keep their own rules (pkg/render's test); none of
			// them reaches back into cmd
			if slices.Contains(internal, "cmd") {
				t.Errorf("%s imports cmd", rel)
			}
			continue
		}
		allowed, ruled := layers[rel]
		if !ruled {
			if strings.HasPrefix(rel, "pkg/") {
				t.Errorf("%s has no import rule: add it to layers and state it in its doc.go", rel)
			}
			continue
		}
		seen[rel] = true
		for _, imp := range internal {
			if !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s, which its rule does not allow (it may import %v)", rel, imp, allowed)
			}
		}
		if doc := packageDoc(t, p); !strings.Contains(doc, ruleSentence(allowed)) {
			t.Errorf("%s: its package comment must state its rule: %q", rel, ruleSentence(allowed))
		}
	}
	for rel := range layers {
		if !seen[rel] {
			t.Errorf("layers names %s, which is not a package", rel)
		}
	}
}

// ruleSentence is how a package comment states its import rule.
func ruleSentence(allowed []string) string {
	if len(allowed) == 0 {
		return "It imports nothing of this module."
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = strings.TrimPrefix(a, "pkg/")
	}
	return "It may import, of this module: " + strings.Join(names, ", ") + "."
}

// packageDoc is the package comment, its lines joined by spaces.
func packageDoc(t *testing.T, p listed) string {
	t.Helper()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			return strings.Join(strings.Fields(f.Doc.Text()), " ")
		}
	}
	return ""
}

// No source file outgrows one job: 400 lines at most; and cmd stays
// wiring: 3,200 lines at most (the most the house allows it). That is
// cmd's 2,998 non-test lines once
// the logic a test wants without cobra went below it (which calls a
// file's chains make, catalog.CheckCalls; what chain, workflow and script
// steps call, catalog.Resolver), the --otel flag and config wiring (its
// logic is pkg/tracefeed's), then the flags of chain tests' repeats,
// matrices, baselines and HTML report and of man pages and the pager
// (their logic is pkg/chaintest's and pkg/iostreams'). Those lines are the
// commands' flags, help and wiring; a change that needs more room moves
// logic into a package first, or says here what it added.
// packageCap is the most non-test lines a package holds: a room a person
// can hold in their head.
const packageCap = 6000

// oversizedPackages are the packages over packageCap, each with the lines
// it may hold until its next split lowers it. None is: pkg/chain and
// pkg/run were, until their front-ends, kinds and leaves moved out.
var oversizedPackages = map[string]int{}

func TestFileSizes(t *testing.T) {
	cmdLines := 0
	defer func() {
		if cmdLines > 3200 {
			t.Errorf("cmd has %d non-test lines; it is wiring only (3,200 at most): move logic below it", cmdLines)
		}
	}()
	pkgLines := map[string]int{}
	defer func() {
		for path, n := range pkgLines {
			rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
			limit, over := oversizedPackages[rel]
			if !over {
				limit = packageCap
			}
			if n > limit {
				t.Errorf("%s has %d non-test lines (%d at most): split it by concern", rel, n, limit)
			}
		}
	}()
	for _, p := range goList(t) {
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n := bytes.Count(data, []byte("\n"))
			if p.ImportPath == module+"/cmd" {
				cmdLines += n
			}
			pkgLines[p.ImportPath] += n
			if n > 400 {
				rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
				t.Errorf("%s has %d lines; split it by job (400 at most)", filepath.Join(rel, name), n)
			}
		}
	}
}

// TestArchitectureDoc keeps docs/architecture.md true: every path it names
// exists, every package of the module appears in its layout, and every
// pkg.Name it cites is declared in that package.
func TestArchitectureDoc(t *testing.T) {
	data, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, path := range regexp.MustCompile(`\b(?:cmd|pkg|bench|chains|docs)/[A-Za-z0-9_./-]*[A-Za-z0-9_/]`).FindAllString(doc, -1) {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("docs/architecture.md names %s, which does not exist", path)
		}
	}
	layout := doc[:strings.Index(doc, "\n## ")]
	decls := map[string]map[string]bool{} // package name → declared names
	for _, p := range goList(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if strings.HasPrefix(rel, "pkg/") && !strings.Contains(layout, "    "+rel+"/") {
			t.Errorf("docs/architecture.md does not list the package %s", rel)
		}
		names := map[string]bool{}
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					names[d.Name.Name] = true
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							names[s.Name.Name] = true
						case *ast.ValueSpec:
							for _, n := range s.Names {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
		decls[filepath.Base(rel)] = names
	}
	for _, m := range regexp.MustCompile("`([a-z]+)\\.([A-Z][A-Za-z]*)(?:\\.([A-Z][A-Za-z]*))?").FindAllStringSubmatch(doc, -1) {
		names, isPkg := decls[m[1]]
		if !isPkg {
			continue
		}
		if !names[m[2]] || m[3] != "" && !names[m[3]] {
			t.Errorf("docs/architecture.md cites %s, which package %s does not declare", strings.Trim(m[0], "`"), m[1])
		}
	}
}

// TestKindModelHalves keeps a kind's model unit (pkg/kind/F/KIND.go)
// readable and movable alone: it imports, of this module, only the chain
// format and its readers (chain, interp, yamlpos); what runs the kind is
// in KIND_run.go.
func TestKindModelHalves(t *testing.T) {
	files, err := filepath.Glob("pkg/kind/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{module + "/pkg/chain", module + "/pkg/interp", module + "/pkg/yamlpos"}
	checked := 0
	for _, path := range files {
		name := filepath.Base(path)
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_run.go") || name == "doc.go" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if !registersUnit(t, path) {
			continue
		}
		checked++
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, module) && !slices.Contains(allowed, p) {
				t.Errorf("%s is a kind's model unit and imports %s: move what needs it to the kind's _run.go", path, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no model unit found under pkg/kind")
	}
}

// registersUnit reports whether a file calls chain.Register: a model unit.
func registersUnit(t *testing.T, path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(data, []byte("chain.Register(chain.Unit{"))
}

// TestTheRunnerLinksNoTraceSDK: chainrun itself links nothing of
// OpenTelemetry or protobuf; trace export is chainrun-otel's (a run that
// exports nothing pays nothing for it at start, docs/performance.md).
func TestTheRunnerLinksNoTraceSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "go.opentelemetry.io/") || strings.HasPrefix(dep, "google.golang.org/protobuf") || strings.HasPrefix(dep, "google.golang.org/grpc") {
			t.Errorf("chainrun links %s", dep)
		}
	}
}

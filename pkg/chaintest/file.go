package chaintest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	"go.yaml.in/yaml/v4"
)

// File is one *.test.yaml file: the chain it tests and its cases.
type File struct {
	// Path is where the file was read.
	Path string `yaml:"-"`
	// Chain names the chain under test: a path relative to the file, or a
	// name in the chains directory. Default: the file's name without
	// .test.yaml.
	Chain string `yaml:"chain"`
	// Cassette is the file of recorded model answers, relative to this
	// one. Default: NAME.cassette.yaml beside it.
	Cassette string  `yaml:"cassette"`
	Cases    []*Case `yaml:"cases"`

	root *yaml.Node
}

// Case is one run of the chain and what it must show.
type Case struct {
	Name   string            `yaml:"name"`
	Inputs map[string]scalar `yaml:"inputs"`
	Mocks  Mocks             `yaml:"mocks"`
	Expect Expect            `yaml:"expect"`
	// Skip, when set, says why the case does not run (it is reported as
	// skipped, never silently left out): a reason, or true.
	Skip skipReason `yaml:"skip"`
	// PassRate is the share of the case's runs (chainrun test --repeat N)
	// that must pass for the case to pass: 0 < rate ≤ 1, default 1.
	PassRate *float64 `yaml:"pass_rate"`
	// Models, when listed, run the case once per model (a name or a
	// config alias): every model step asks that model (matrix.go).
	Models []string `yaml:"models"`

	line int
}

// Mocks are what a case puts in place of the world: step results, model
// answers, decisions at decision points, the environment and the time.
type Mocks struct {
	// Steps replace step bodies: one result, or a list given to the step's
	// attempts in order (the last one repeats).
	Steps map[string]Canned `yaml:"steps"`
	// Models script a step's model answers, in order, before the cassette
	// is asked: text, tool calls or an error status.
	Models map[string]Answers `yaml:"models"`
	// Decisions are the transitions to take at decision points, by
	// state: one, or a list taken on each visit in order.
	Decisions map[string]Decisions `yaml:"decisions"`
	// Env is added to the environment of the chain's commands.
	Env map[string]string `yaml:"env"`
	// Time fixes the engine's clock (RFC 3339): templates' now, run ids,
	// gate waits.
	Time string `yaml:"time"`
}

// skipReason is why a case is skipped: a reason, true ("skipped") or
// false (it runs).
type skipReason string

// UnmarshalYAML takes a reason or a boolean.
func (r *skipReason) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: skip is a reason or true", n.Line)
	}
	switch {
	case n.Tag == "!!bool" && n.Value == "false", n.Tag == "!!bool" && n.Value == "False":
		*r = ""
	case n.Tag == "!!bool":
		*r = "skip: true"
	default:
		*r = skipReason(n.Value)
	}
	return nil
}

// scalar is an input value written as any YAML scalar.
type scalar string

// UnmarshalYAML takes a string, number or boolean as its text.
func (s *scalar) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: an input value is a string, number or boolean", n.Line)
	}
	*s = scalar(n.Value)
	return nil
}

// Decisions are the transitions taken at one state, visit by visit.
type Decisions []response.Choice

// UnmarshalYAML takes one decision or a list; a decision is a transition
// name, or {take: T, args: {…}} for a transition with an inputSchema.
func (d *Decisions) UnmarshalYAML(n *yaml.Node) error {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, it := range items {
		switch it.Kind {
		case yaml.ScalarNode:
			*d = append(*d, response.Choice{Transition: it.Value})
			continue
		case yaml.MappingNode:
			if err := knownKeys(it, "a decision", []string{"take", "args"}); err != nil {
				return err
			}
			var raw struct {
				Take string         `yaml:"take"`
				Args map[string]any `yaml:"args"`
			}
			if err := it.Decode(&raw); err != nil {
				return err
			}
			if raw.Take == "" {
				return fmt.Errorf("line %d: a decision needs take: TRANSITION", it.Line)
			}
			args, _ := jsonish(raw.Args).(map[string]any)
			*d = append(*d, response.Choice{Transition: raw.Take, Args: args})
			continue
		}
		return fmt.Errorf("line %d: a decision is a transition name, {take: T, args: {…}}, or a list of them", it.Line)
	}
	return nil
}

// maxTestFile bounds a test file: text a person writes, read from a
// regular file only, so that a FIFO among the tests cannot hang them.
const maxTestFile = 32 << 20

// Load reads and checks a test file; every problem names the file and
// line.
func Load(path string) (*File, error) {
	data, err := fsutil.ReadRegular(path, maxTestFile)
	if err != nil {
		return nil, err
	}
	f := &File{Path: path}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty test file: it needs cases", path)
		}
		var many *yaml.LoadErrors
		if errors.As(err, &many) && len(many.Errors) > 1 {
			// one line per problem, each at its own line of the file
			var lines []string
			for _, e := range many.Errors {
				lines = append(lines, fmt.Sprintf("%s:%d: %s", path, e.Mark.Line, yamlpos.CleanMessage(yamlMessage(errors.New(e.Message)))))
			}
			return nil, errors.New(strings.Join(lines, "\n"))
		}
		msg := yamlMessage(err)
		if m := atLine().FindStringSubmatch(msg); m != nil {
			return nil, fmt.Errorf("%s:%s: %s", path, m[1], yamlpos.CleanMessage(m[2]))
		}
		return nil, fmt.Errorf("%s: %s", path, msg)
	}
	var root yaml.Node
	_ = yaml.Unmarshal(data, &root)
	f.root = &root
	if len(f.Cases) == 0 {
		return nil, fmt.Errorf("%s: no cases: a test file lists its cases under cases:", path)
	}
	if f.Cassette != "" && !filepath.IsLocal(f.Cassette) {
		return nil, fmt.Errorf("%s:%d: cassette %q: a cassette lies in the test file's directory or below (chainrun test records into it)", path, f.line("cassette"), f.Cassette)
	}
	if err := f.checkNulls(); err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for i, c := range f.Cases {
		if c == nil {
			return nil, fmt.Errorf("%s:%d: case %d is empty", path, f.line("cases", fmt.Sprint(i)), i+1)
		}
		c.line = f.line("cases", fmt.Sprint(i))
		if c.Name == "" {
			return nil, fmt.Errorf("%s:%d: case %d has no name", path, c.line, i+1)
		}
		if at, dup := seen[c.Name]; dup {
			return nil, fmt.Errorf("%s:%d: a second case named %q (the first is at line %d)", path, c.line, c.Name, at)
		}
		seen[c.Name] = c.line
		if err := f.checkRuns(i, c); err != nil {
			return nil, err
		}
		if c.Mocks.Time != "" {
			if _, err := time.Parse(time.RFC3339, c.Mocks.Time); err != nil {
				return nil, fmt.Errorf("%s:%d: case %q: mocks.time %q is not an RFC 3339 time (2026-01-02T15:04:05Z)", path, f.line("cases", fmt.Sprint(i), "mocks", "time"), c.Name, c.Mocks.Time)
			}
		}
	}
	return f, nil
}

// valueKeys hold values as written, where null is a value (equals: ~
// expects null); under any other key of mocks and expect, null is a
// slip that would check or mock nothing.
var valueKeys = map[string]bool{"equals": true, "jsonpath": true, "json_schema": true, "args": true, "arguments": true, "data": true}

// checkNulls refuses a null under a case's mocks or expect.
func (f *File) checkNulls() error {
	var walk func(n *yaml.Node, path string) error
	walk = func(n *yaml.Node, path string) error {
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Tag == "!!null" {
				return fmt.Errorf("%s:%d: %s is null, which mocks or checks nothing: give it a value (equals: null expects null)", f.Path, n.Line, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if valueKeys[k] {
					continue
				}
				if err := walk(n.Content[i+1], path+"."+k); err != nil {
					return err
				}
			}
		case yaml.SequenceNode:
			for i, it := range n.Content {
				if err := walk(it, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	root := f.root
	if root != nil && root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	cases := mapValue(root, "cases")
	if cases == nil || cases.Kind != yaml.SequenceNode {
		return nil
	}
	for _, c := range cases.Content {
		for _, key := range []string{"mocks", "expect"} {
			if v := mapValue(c, key); v != nil {
				if err := walk(v, key); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// mapValue is the value of key in a mapping node (nil: none).
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// ChainRef is the chain the file tests, and whether it is a path.
func (f *File) ChainRef() (ref string, isPath bool) {
	ref = f.Chain
	if ref == "" {
		ref = strings.TrimSuffix(filepath.Base(f.Path), ".test.yaml")
		if p := filepath.Join(filepath.Dir(f.Path), ref+".yaml"); exists(p) {
			return p, true
		}
		return ref, false
	}
	if strings.ContainsAny(ref, "/\\") || strings.HasSuffix(ref, ".yaml") || strings.HasSuffix(ref, ".json") {
		if filepath.IsAbs(ref) {
			return filepath.Clean(ref), true // as written, not under the test file's directory
		}
		return filepath.Join(filepath.Dir(f.Path), ref), true
	}
	return ref, false
}

// CassettePath is where the file's recorded answers live.
func (f *File) CassettePath() string {
	return filepath.Join(filepath.Dir(f.Path), f.cassetteName())
}

// cassetteName is the cassette's path relative to the test file's
// directory, which it may not leave (Load checks cassette:).
func (f *File) cassetteName() string {
	if f.Cassette != "" {
		return f.Cassette
	}
	return strings.TrimSuffix(filepath.Base(f.Path), ".test.yaml") + ".cassette.yaml"
}

// line is the line of the value at a path of keys (sequence indexes as
// numbers) in the file, the nearest existing one's when it is absent.
func (f *File) line(path ...string) int {
	n := f.root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 1
	for _, p := range path {
		if n == nil {
			break
		}
		line = n.Line
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					line = n.Content[i].Line
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			var idx int
			if _, err := fmt.Sscan(p, &idx); err == nil && idx < len(n.Content) {
				next = n.Content[idx]
				line = next.Line
			}
		}
		n = next
	}
	return line
}

// yamlMessage is a decoding error as a person reads it: its lines, with
// the decoder's Go type names and prefixes left out.
func yamlMessage(err error) string {
	msg := err.Error()
	for _, p := range []string{"yaml: ", "construct errors:", "unmarshal errors:"} {
		msg = strings.ReplaceAll(msg, p, "")
	}
	msg = typeNames().ReplaceAllString(msg, "unknown field $1")
	return strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
}

// atLine finds a message that begins with the line it is about.
var atLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): (?:line \d+: )*(.*)$`) })

// typeNames finds the decoder's "field X not found in type T".
var typeNames = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`field (\S+) not found in type \S+`) })

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

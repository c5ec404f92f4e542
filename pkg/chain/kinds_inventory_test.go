package chain

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain/wfpart"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	"github.com/rogpeppe/go-internal/diff"
)

// TestKindsInventory pins everything the chain format derives from its
// kind units, as a reader of a chain file meets it: the kinds and their
// aliases, the keys each kind accepts, the kinds a misplaced key is sent
// to, the keys only a model call takes, which kinds are deterministic or
// one conversation, what a step suggests for a misspelt key, and the keys
// of the file shapes around steps. Moving how kinds are held (their
// fields, their registry) must leave testdata/kinds.golden as it is;
// UPDATE_GOLDEN=1 go test ./pkg/chain -run TestKindsInventory rewrites it
// when a change of the format is meant.
func TestKindsInventory(t *testing.T) {
	got := kindsInventory(t)
	path := filepath.Join("testdata", "kinds.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run UPDATE_GOLDEN=1 go test ./pkg/chain -run TestKindsInventory", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("what the kinds derive changed; if that is meant, run UPDATE_GOLDEN=1 go test ./pkg/chain -run TestKindsInventory\n%s",
			diff.Diff("kinds.golden", want, "now", got))
	}
}

// kindsInventory writes the inventory: lists sorted where their order
// means nothing, in the order messages use where it does (Kinds(), the
// owners of a key, a file's keys as did-you-mean tries them).
func kindsInventory(t *testing.T) []byte {
	t.Helper()
	var b strings.Builder
	line := func(label string, items []string) {
		if len(items) == 0 {
			fmt.Fprintf(&b, "%s: -\n", label)
			return
		}
		wrapList(&b, label+":", items)
	}
	b.WriteString("# What the chain format derives from its kind units (TestKindsInventory).\n\n")
	line("kinds", Kinds())
	line("common keys", slices.Sorted(maps.Keys(commonKeys())))
	var aliases []string
	for from, to := range stepAliases() {
		aliases = append(aliases, from+"="+to)
	}
	sort.Strings(aliases)
	line("step key aliases", aliases)

	byList := map[string]string{} // a did-you-mean list → its name
	var lists []string
	for _, u := range Units() {
		fmt.Fprintf(&b, "\nkind %s\n", u.Kind)
		var names []string
		for _, a := range u.Aliases {
			names = append(names, string(a))
		}
		line("  aliases", names)
		line("  keys", slices.Sorted(maps.Keys(kindsIndex().accepts[u.Kind]())))
		line("  ignored keys", slices.Sorted(slices.Values(u.Ignored)))
		fmt.Fprintf(&b, "  deterministic: %v\n  conversational: %v\n  runs a model: %v\n",
			u.Kind.Deterministic(), u.Kind.Conversational(), runsModel(u.Kind))
		dym := didYouMeanOf(t, u.Kind)
		name, seen := byList[dym]
		if !seen {
			name = fmt.Sprintf("L%d", len(lists)+1)
			byList[dym] = name
			lists = append(lists, dym)
		}
		fmt.Fprintf(&b, "  did-you-mean: %s\n", name)
	}

	b.WriteString("\nowners of each key (in the order messages name them)\n")
	for _, k := range slices.Sorted(maps.Keys(keyOwners())) {
		line("  "+k, fieldOwners(k))
	}
	var modelKeys []string
	for k := range keyOwners() {
		if modelOnly(k) {
			modelKeys = append(modelKeys, k)
		}
	}
	sort.Strings(modelKeys)
	line("\nmodel-only keys", modelKeys)

	b.WriteString("\ndid-you-mean lists: the keys a step suggests for misspellings of every key a step may hold\n")
	for i, l := range lists {
		fmt.Fprintf(&b, "L%d\n%s", i+1, l)
	}

	b.WriteString("\nkeys of the file shapes (as declared: did-you-mean tries them in this order)\n")
	wfKeys := WorkflowKeyLists()
	for _, s := range []struct {
		name string
		keys []string
	}{
		{"chain file", yamlpos.KeysOf[Chain]()},
		{"input", yamlpos.KeysOf[Input]()},
		{"retry", yamlpos.KeysOf[Retry]()},
		{"cache", yamlpos.KeysOf[Cache]()},
		{"guardrail", yamlpos.KeysOf[Guardrail]()},
		{"pre_tool", yamlpos.KeysOf[PreTool]()},
		{"workflow file", wfKeys[0]},
		{"workflow", wfKeys[1]},
		{"workflow agent", wfKeys[2]},
		{"state", yamlpos.KeysOf[State]()},
		{"transition", yamlpos.KeysOf[Transition]()},
		{"branch transition", yamlpos.KeysOf[BranchTransition]()},
		{"script", yamlpos.KeysOf[wfpart.ScriptKeys]()},
		{"connection", yamlpos.KeysOf[wfpart.ConnectionKeys]()},
	} {
		line("  "+s.name, s.keys)
	}
	return []byte(b.String())
}

// WorkflowKeyLists are the keys of a workflows: file, of a workflow and
// of its agent:, which pkg/chain/wfyaml declares and walks:
// workflows_link_test.go, an external test file, sets it.
var WorkflowKeyLists func() [3][]string

// unknownField is how a step reports a key it does not know.
var unknownField = regexp.MustCompile(`unknown field "([^"]+)"(?: \(did you mean ([^?]+)\?\))?`)

// didYouMeanOf is what a step of kind k suggests, read from Parse's
// messages: every key a step may hold (the common ones, every kind's, the
// aliases) is written misspelt (its last letter twice) on one step, and
// each suggestion is listed. A misspelling that suggests another key, or
// none, is listed as misspelt→suggestion.
func didYouMeanOf(t *testing.T, k Kind) string {
	t.Helper()
	keys := map[string]bool{}
	for key := range commonKeys() {
		keys[key] = true
	}
	for key := range keyOwners() {
		keys[key] = true
	}
	for key := range stepAliases() {
		keys[key] = true
	}
	misspelt := map[string]string{}
	var src strings.Builder
	fmt.Fprintf(&src, "name: c\nsteps:\n  - id: a\n    type: %s\n", k)
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		wrong := key + key[len(key)-1:]
		misspelt[wrong] = key
		fmt.Fprintf(&src, "    %s: x\n", wrong)
	}
	_, err := Parse("c.yaml", []byte(src.String()), Options{})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("kind %s: want a validation error, got %v", k, err)
	}
	suggested := map[string]bool{}
	var odd []string
	reported := map[string]bool{}
	for _, d := range ve.Diagnostics {
		m := unknownField.FindStringSubmatch(d.Message)
		if m == nil || misspelt[m[1]] == "" {
			continue
		}
		reported[m[1]] = true
		if m[2] != "" {
			suggested[m[2]] = true
		}
		if m[2] != misspelt[m[1]] {
			odd = append(odd, m[1]+"→"+cmp.Or(m[2], "(none)"))
		}
	}
	for wrong := range misspelt {
		if !reported[wrong] {
			odd = append(odd, wrong+"→(not reported)")
		}
	}
	sort.Strings(odd)
	var b strings.Builder
	wrapList(&b, "  suggests:", slices.Sorted(maps.Keys(suggested)))
	if len(odd) > 0 {
		wrapList(&b, "  not their own key:", odd)
	}
	return b.String()
}

// wrapList writes label and items, comma-separated, wrapped at 100
// columns with the continuation indented, so a diff shows the item that
// moved.
func wrapList(b *strings.Builder, label string, items []string) {
	last := label[strings.LastIndex(label, "\n")+1:]
	indent := strings.Repeat(" ", len(last)-len(strings.TrimLeft(last, " "))+4)
	b.WriteString(label)
	col := len(last)
	for i, it := range items {
		word := " " + it
		if i < len(items)-1 {
			word += ","
		}
		if col+len(word) > 100 && i > 0 {
			b.WriteString("\n" + indent)
			col = len(indent)
			word = strings.TrimPrefix(word, " ")
		}
		b.WriteString(word)
		col += len(word)
	}
	b.WriteString("\n")
}

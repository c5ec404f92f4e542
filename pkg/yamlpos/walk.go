package yamlpos

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/spell"
	yaml "go.yaml.in/yaml/v4"
)

// Field is one key of a struct of the chain format, found by its yaml tag.
type Field struct {
	Key   string
	Index []int
	Type  reflect.Type
	// text and list mark string and []string fields, read straight from
	// the nodes (nearly all of a chain); the others go through the YAML
	// library, which reports type errors with positions.
	Text, List bool
	// Scalar: a single text is read as a one-item list (tag scalar:"ok").
	Scalar bool
	// Tag holds the field's doc:"..." (what it means, for editors), read
	// only when the schema is written.
	Tag reflect.StructTag
}

// Doc describes the field for editors.
func (f *Field) Doc() string { return f.Tag.Get("doc") }

// FieldSet is the keys of a struct type, embedded structs flattened.
type FieldSet struct {
	ByKey map[string]*Field
	List  []*Field // as declared
	Keys  []string // sorted, for suggestions
	// Declared are the keys as declared: did-you-mean tries them in this
	// order, so a struct puts its likeliest keys first.
	Declared []string
}

var fieldSets sync.Map // reflect.Type → *fieldSet

// FieldsOf returns the keys of struct type t, worked out once per type.
func FieldsOf(t reflect.Type) *FieldSet {
	if fs, ok := fieldSets.Load(t); ok {
		return fs.(*FieldSet)
	}
	fs := &FieldSet{ByKey: map[string]*Field{}}
	collectFields(fs, t, nil)
	fs.index()
	got, _ := fieldSets.LoadOrStore(t, fs)
	return got.(*FieldSet)
}

// FieldsOfParts returns the keys of structs read as one: a value held in
// parts (a chain step: its common fields and the parts of its kind), where
// a field's Index starts with the number of the part that declares it. A
// key declared by two parts is a fault of the program: it panics.
func FieldsOfParts(parts []reflect.Type) *FieldSet {
	fs := &FieldSet{ByKey: map[string]*Field{}}
	for i, t := range parts {
		collectFields(fs, t, []int{i})
	}
	seen := map[string]bool{}
	for _, f := range fs.List {
		if seen[f.Key] {
			panic("yamlpos.FieldsOfParts: key " + f.Key + " is declared by two parts")
		}
		seen[f.Key] = true
	}
	fs.index()
	return fs
}

// index fills the declared and sorted key lists from List.
func (fs *FieldSet) index() {
	for _, f := range fs.List {
		fs.Declared = append(fs.Declared, f.Key)
	}
	fs.Keys = append([]string(nil), fs.Declared...)
	sort.Strings(fs.Keys)
}

func collectFields(fs *FieldSet, t reflect.Type, at []int) {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(append([]int(nil), at...), i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			collectFields(fs, sf.Type, index)
			continue
		}
		key, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if key == "" || key == "-" || !sf.IsExported() {
			continue
		}
		f := &Field{Key: key, Index: index, Type: sf.Type, Tag: sf.Tag, Scalar: sf.Tag.Get("scalar") == "ok",
			Text: sf.Type.Kind() == reflect.String, List: sf.Type == reflect.TypeFor[[]string]()}
		fs.ByKey[key] = f
		fs.List = append(fs.List, f)
	}
}

// WalkOpts say how walk reads and reports on one kind of mapping.
type WalkOpts struct {
	Prefix string // names the mapping's owner in messages
	// Extensions: x-… keys are allowed (they hold YAML anchors for reuse,
	// as in compose files).
	Extensions bool
	Hint       string // added to the message about an unknown key
	// Aliases maps a key to the one it stands for (kind → type); writing
	// both is an error.
	Aliases map[string]string
	// Sorted: unknown keys are suggested from the keys in alphabetical
	// order (a step has many, of many kinds).
	Sorted bool
	// Meant, when set, collects the keys of dst that unknown keys are
	// close to: what the mapping lacks then is likely one of them.
	Meant *[]string
	// Peer: an unknown key is ignored with a warning when the file is a
	// peer's (Diags.Ignore is set), as the peer ignores it; else it is an
	// error.
	Peer bool
	// Keys, when set, are the keys read instead of dst's own, and Into
	// finds the field a key of them is read into: for a value held in
	// parts (a step's body), whose keys are those of a flat view of it.
	Keys *FieldSet
	Into func(f *Field) reflect.Value
}

// Walk reads the pairs of a mapping (mappingPairs: merge keys expanded,
// keys given twice reported) into the struct dst points at by its yaml
// tags; it is the one reader of every mapping of the format. Each key's
// position is kept in pos (when not nil); special, when not nil, takes
// the keys whose value needs more than a plain decode and reports whether
// it took the key; any other key is decoded into dst's field of that tag
// (text and lists straight from the nodes, which is fast; a value of the
// wrong type reported at the value, its field left unset), or reported
// unknown with the closest of dst's keys. Neither error stops any other
// check. walk reports false when a key and its alias are both written.
func Walk(d *Diags, pairs []Pair, dst any, pos map[string]Pos, o WalkOpts, special func(k, v *yaml.Node) bool) bool {
	rv := reflect.ValueOf(dst).Elem()
	fs, into := FieldsOf(rv.Type()), func(f *Field) reflect.Value { return rv.FieldByIndex(f.Index) }
	if o.Keys != nil {
		fs, into = o.Keys, o.Into
	}
	suggestions := fs.Declared
	if o.Sorted {
		suggestions = fs.Keys
	}
	ok := true
	for _, p := range pairs {
		k, v := p.Key, Deref(p.Value)
		key := k.Value
		canonical, aliased := o.Aliases[key]
		if aliased {
			key = canonical
		}
		if _, both := pos[key]; both && (aliased || aliasFor(o.Aliases, key) != "") {
			d.Errorf(Of(k), "%sset %s or %s, not both", o.Prefix, key, aliasFor(o.Aliases, key))
			ok = false
			continue
		}
		if pos != nil {
			pos[key] = Of(k)
		}
		if special != nil && special(k, v) {
			continue
		}
		f := fs.ByKey[key]
		switch {
		case f != nil:
			// a value of the wrong type leaves its field unset and stops
			// no other check; the kind's own checks, which would find the
			// field missing, are skipped as for a misspelt key
			if !decodeField(d, v, into(f), f, o.Prefix+key+": ") {
				// the field counts as not written: no check of what it
				// holds (zero) reports it a second time
				delete(pos, key)
				if o.Meant != nil {
					*o.Meant = append(*o.Meant, key)
				}
			}
		case o.Extensions && strings.HasPrefix(key, "x-"):
		default:
			// the rest of the mapping is read all the same, so one pass
			// reports every error of the file
			m := spell.Closest(key, suggestions)
			delete(pos, key)
			if o.Peer && d.Ignore != nil {
				// ignored, not refused: every check of the mapping runs
				// as if the key were not written, so nothing is meant
				d.Ignore(Of(k), o.Prefix, key, m)
				continue
			}
			if m != "" && o.Meant != nil {
				*o.Meant = append(*o.Meant, m)
			}
			d.LooseErrorf(Of(k), "%sunknown field %q%s%s", o.Prefix, key, spell.DidYouMean(key, suggestions), o.Hint)
		}
	}
	return ok
}

// CheckKeys reports every key of mapping n that is not one of known, for
// mappings the YAML library then decodes whole (inputs, branches).
func CheckKeys(d *Diags, n *yaml.Node, prefix string, known []string) {
	EachUnknownKey(d, n, prefix, known, func(k *yaml.Node) {
		d.LooseErrorf(Of(k), "%sunknown field %q%s", prefix, k.Value, spell.DidYouMean(k.Value, known))
	})
}

// EachUnknownKey calls report with each of mapping n's keys not known.
func EachUnknownKey(d *Diags, n *yaml.Node, prefix string, known []string, report func(k *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for _, p := range MappingPairs(d, n, prefix) {
		if !slices.Contains(known, p.Key.Value) {
			report(p.Key)
		}
	}
}

// DecodeChecked reports n's unknown keys once, with suggestions, and
// decodes its known ones into dst (so the decoder does not report the
// unknown ones a second time, in its own words).
func DecodeChecked(d *Diags, n *yaml.Node, prefix string, known []string, dst any) bool {
	CheckKeys(d, n, prefix, known)
	if n.Kind == yaml.MappingNode {
		m := *n
		m.Content = nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i].Value; slices.Contains(known, k) || k == "<<" {
				m.Content = append(m.Content, n.Content[i], n.Content[i+1])
			}
		}
		n = &m
	}
	return DecodeValue(d, n, dst, prefix)
}

// KeysOf is the keys of struct type T, as declared.
func KeysOf[T any]() []string { return FieldsOf(reflect.TypeFor[T]()).Declared }

// decodeField reads one value into its field; label names the field in
// a message about a value of the wrong type, which stops no other check.
func decodeField(d *Diags, val *yaml.Node, dst reflect.Value, f *Field, label string) bool {
	if f.Text && val.Kind == yaml.ScalarNode {
		if val.Tag != "!!null" {
			dst.SetString(val.Value)
		}
		return true
	}
	if f.List {
		// through a pointer: reflect.ValueOf(list) would box the slice
		p := dst.Addr().Interface().(*[]string)
		if val.Kind == yaml.ScalarNode && val.Tag != "!!null" && f.Scalar {
			*p = []string{val.Value}
			return true
		}
		if list, isText := TextList(val); isText {
			*p = list
			return true
		}
	}
	if !DecodeValue(d, val, dst.Addr().Interface(), label) {
		// what the library filled in before it gave up is not the
		// author's value: checks of it would report errors of their own
		dst.SetZero()
		return false
	}
	return true
}

// aliasFor is the alias of key, or "".
func aliasFor(aliases map[string]string, key string) string {
	for a, c := range aliases {
		if c == key {
			return a
		}
	}
	return ""
}

// TextList reads a sequence of scalars.
func TextList(n *yaml.Node) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		e = Deref(e)
		if e.Kind != yaml.ScalarNode || e.Tag == "!!null" {
			return nil, false
		}
		out = append(out, e.Value)
	}
	return out, true
}

// Pair is one key and value of a YAML mapping.
type Pair struct{ Key, Value *yaml.Node }

// MappingPairs lists the entries of mapping m with YAML merge keys
// (<<: *defaults) expanded — an explicit key wins over a merged one — and
// reports every key written twice (the YAML library would silently keep
// the last).
func MappingPairs(d *Diags, m *yaml.Node, prefix string) []Pair {
	return mergedPairs(d, m, prefix, map[*yaml.Node]bool{})
}

// mergedPairs is mappingPairs with the mappings being merged on the way
// down, so that a merge that refers back to itself is an error, not an
// endless recursion.
func mergedPairs(d *Diags, m *yaml.Node, prefix string, merging map[*yaml.Node]bool) []Pair {
	merging[m] = true
	defer delete(merging, m)
	out := make([]Pair, 0, len(m.Content)/2)
	seen := make(map[string]*yaml.Node, len(m.Content)/2)
	var merged []Pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Tag == "!!merge" {
			for _, src := range mergeSources(v) {
				if merging[src] {
					d.LooseErrorf(Of(k), "%s<< merges a mapping into itself", prefix)
					continue
				}
				merged = append(merged, mergedPairs(d, src, prefix, merging)...)
			}
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			d.LooseErrorf(Of(k), "%s%s is given twice (first at line %d)", prefix, k.Value, prev.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, Pair{k, v})
	}
	for _, p := range merged {
		if _, explicit := seen[p.Key.Value]; !explicit {
			seen[p.Key.Value] = p.Key
			out = append(out, p)
		}
	}
	return out
}

// mergeSources are the mappings a merge key brings in: one, or a list.
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = Deref(v)
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, e := range v.Content {
			if e = Deref(e); e.Kind == yaml.MappingNode {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// Deref follows an alias to the node it names.
func Deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

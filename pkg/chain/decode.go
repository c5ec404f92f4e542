package chain

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v4"
)

// field is one key of a struct of the chain format, found by its yaml tag.
type field struct {
	key   string
	index []int
	typ   reflect.Type
	// text and list mark string and []string fields, read straight from
	// the nodes (nearly all of a chain); the others go through the YAML
	// library, which reports type errors with positions.
	text, list bool
	// scalar: a single text is read as a one-item list (tag scalar:"ok").
	scalar bool
	// tag holds the field's doc:"..." (what it means, for editors), read
	// only when the schema is written.
	tag reflect.StructTag
}

// doc describes the field for editors.
func (f *field) doc() string { return f.tag.Get("doc") }

// fieldSet is the keys of a struct type, embedded structs flattened.
type fieldSet struct {
	byKey map[string]*field
	list  []*field // as declared
	keys  []string // sorted, for suggestions
	// declared are the keys as declared: did-you-mean tries them in this
	// order, so a struct puts its likeliest keys first.
	declared []string
}

var fieldSets sync.Map // reflect.Type → *fieldSet

// fieldsOf returns the keys of struct type t, worked out once per type.
func fieldsOf(t reflect.Type) *fieldSet {
	if fs, ok := fieldSets.Load(t); ok {
		return fs.(*fieldSet)
	}
	fs := &fieldSet{byKey: map[string]*field{}}
	collectFields(fs, t, nil)
	for _, f := range fs.list {
		fs.declared = append(fs.declared, f.key)
	}
	fs.keys = append([]string(nil), fs.declared...)
	sort.Strings(fs.keys)
	got, _ := fieldSets.LoadOrStore(t, fs)
	return got.(*fieldSet)
}

func collectFields(fs *fieldSet, t reflect.Type, at []int) {
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
		f := &field{key: key, index: index, typ: sf.Type, tag: sf.Tag, scalar: sf.Tag.Get("scalar") == "ok",
			text: sf.Type.Kind() == reflect.String, list: sf.Type == reflect.TypeFor[[]string]()}
		fs.byKey[key] = f
		fs.list = append(fs.list, f)
	}
}

// walkOpts say how walk reads and reports on one kind of mapping.
type walkOpts struct {
	prefix string // names the mapping's owner in messages
	// extensions: x-… keys are allowed (they hold YAML anchors for reuse,
	// as in compose files).
	extensions bool
	hint       string // added to the message about an unknown key
	// aliases maps a key to the one it stands for (kind → type); writing
	// both is an error.
	aliases map[string]string
	// step: a step's unknown keys are suggested from its keys in
	// alphabetical order (a step has many, of many kinds).
	step bool
	// meant, when set, collects the keys of dst that unknown keys are
	// close to: what the mapping lacks then is likely one of them.
	meant *[]string
	// peer: an unknown key is ignored with a warning when the file is a
	// peer's (diags.peer), as the peer ignores it; else it is an error.
	peer bool
}

// walk reads the pairs of a mapping (mappingPairs: merge keys expanded,
// keys given twice reported) into the struct dst points at by its yaml
// tags; it is the one reader of every mapping of the format. Each key's
// position is kept in pos (when not nil); special, when not nil, takes
// the keys whose value needs more than a plain decode and reports whether
// it took the key; any other key is decoded into dst's field of that tag
// (text and lists straight from the nodes, which is fast; a value of the
// wrong type reported at the value, its field left unset), or reported
// unknown with the closest of dst's keys. Neither error stops any other
// check. walk reports false when a key and its alias are both written.
func walk(d *diags, pairs []pair, dst any, pos map[string]Pos, o walkOpts, special func(k, v *yaml.Node) bool) bool {
	rv := reflect.ValueOf(dst).Elem()
	fs := fieldsOf(rv.Type())
	suggestions := fs.declared
	if o.step {
		suggestions = fs.keys
	}
	ok := true
	for _, p := range pairs {
		k, v := p.key, deref(p.value)
		key := k.Value
		canonical, aliased := o.aliases[key]
		if aliased {
			key = canonical
		}
		if _, both := pos[key]; both && (aliased || aliasFor(o.aliases, key) != "") {
			d.errorf(posOf(k), "%sset %s or %s, not both", o.prefix, key, aliasFor(o.aliases, key))
			ok = false
			continue
		}
		if pos != nil {
			pos[key] = posOf(k)
		}
		if special != nil && special(k, v) {
			continue
		}
		f := fs.byKey[key]
		switch {
		case f != nil:
			// a value of the wrong type leaves its field unset and stops
			// no other check; the kind's own checks, which would find the
			// field missing, are skipped as for a misspelt key
			if !decodeField(d, v, rv.FieldByIndex(f.index), f, o.prefix+key+": ") {
				// the field counts as not written: no check of what it
				// holds (zero) reports it a second time
				delete(pos, key)
				if o.meant != nil {
					*o.meant = append(*o.meant, key)
				}
			}
		case o.extensions && strings.HasPrefix(key, "x-"):
		default:
			// the rest of the mapping is read all the same, so one pass
			// reports every error of the file
			m := suggest(key, suggestions)
			delete(pos, key)
			if o.peer && d.peer != "" {
				// ignored, not refused: every check of the mapping runs
				// as if the key were not written, so nothing is meant
				d.ignored(posOf(k), o.prefix, key, m)
				continue
			}
			if m != "" && o.meant != nil {
				*o.meant = append(*o.meant, m)
			}
			d.looseErrorf(posOf(k), "%sunknown field %q%s%s", o.prefix, key, didYouMean(key, suggestions), o.hint)
		}
	}
	return ok
}

// checkKeys reports every key of mapping n that is not one of known, for
// mappings the YAML library then decodes whole (inputs, branches).
func checkKeys(d *diags, n *yaml.Node, prefix string, known []string) {
	eachUnknownKey(d, n, prefix, known, func(k *yaml.Node) {
		d.looseErrorf(posOf(k), "%sunknown field %q%s", prefix, k.Value, didYouMean(k.Value, known))
	})
}

// eachUnknownKey calls report with each of mapping n's keys not known.
func eachUnknownKey(d *diags, n *yaml.Node, prefix string, known []string, report func(k *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for _, p := range mappingPairs(d, n, prefix) {
		if !slices.Contains(known, p.key.Value) {
			report(p.key)
		}
	}
}

// decodeChecked reports n's unknown keys once, with suggestions, and
// decodes its known ones into dst (so the decoder does not report the
// unknown ones a second time, in its own words).
func decodeChecked(d *diags, n *yaml.Node, prefix string, known []string, dst any) bool {
	checkKeys(d, n, prefix, known)
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
	return decodeValue(d, n, dst, prefix)
}

// keysOf is the keys of struct type T, as declared.
func keysOf[T any]() []string { return fieldsOf(reflect.TypeFor[T]()).declared }

// decodeField reads one value into its field; label names the field in
// a message about a value of the wrong type, which stops no other check.
func decodeField(d *diags, val *yaml.Node, dst reflect.Value, f *field, label string) bool {
	if f.text && val.Kind == yaml.ScalarNode {
		if val.Tag != "!!null" {
			dst.SetString(val.Value)
		}
		return true
	}
	if f.list {
		// through a pointer: reflect.ValueOf(list) would box the slice
		p := dst.Addr().Interface().(*[]string)
		if val.Kind == yaml.ScalarNode && val.Tag != "!!null" && f.scalar {
			*p = []string{val.Value}
			return true
		}
		if list, isText := textList(val); isText {
			*p = list
			return true
		}
	}
	if !decodeValue(d, val, dst.Addr().Interface(), label) {
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

// textList reads a sequence of scalars.
func textList(n *yaml.Node) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		e = deref(e)
		if e.Kind != yaml.ScalarNode || e.Tag == "!!null" {
			return nil, false
		}
		out = append(out, e.Value)
	}
	return out, true
}

// pair is one key and value of a YAML mapping.
type pair struct{ key, value *yaml.Node }

// mappingPairs lists the entries of mapping m with YAML merge keys
// (<<: *defaults) expanded — an explicit key wins over a merged one — and
// reports every key written twice (the YAML library would silently keep
// the last).
func mappingPairs(d *diags, m *yaml.Node, prefix string) []pair {
	return mergedPairs(d, m, prefix, map[*yaml.Node]bool{})
}

// mergedPairs is mappingPairs with the mappings being merged on the way
// down, so that a merge that refers back to itself is an error, not an
// endless recursion.
func mergedPairs(d *diags, m *yaml.Node, prefix string, merging map[*yaml.Node]bool) []pair {
	merging[m] = true
	defer delete(merging, m)
	out := make([]pair, 0, len(m.Content)/2)
	seen := make(map[string]*yaml.Node, len(m.Content)/2)
	var merged []pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Tag == "!!merge" {
			for _, src := range mergeSources(v) {
				if merging[src] {
					d.looseErrorf(posOf(k), "%s<< merges a mapping into itself", prefix)
					continue
				}
				merged = append(merged, mergedPairs(d, src, prefix, merging)...)
			}
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			d.looseErrorf(posOf(k), "%s%s is given twice (first at line %d)", prefix, k.Value, prev.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, pair{k, v})
	}
	for _, p := range merged {
		if _, explicit := seen[p.key.Value]; !explicit {
			seen[p.key.Value] = p.key
			out = append(out, p)
		}
	}
	return out
}

// mergeSources are the mappings a merge key brings in: one, or a list.
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = deref(v)
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, e := range v.Content {
			if e = deref(e); e.Kind == yaml.MappingNode {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

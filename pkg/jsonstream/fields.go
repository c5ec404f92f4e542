package jsonstream

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// field is a struct field as encoding/json writes it: its name, where it
// is (the index path through embedded structs) and whether it is left out
// when empty.
type field struct {
	name      string
	tagged    bool
	index     []int
	omitEmpty bool
}

// structInfo is how a struct type is written: its fields in order, or
// opaque when Write leaves it whole to encoding/json (a field reached
// through an unexported embedded struct, whose value reflection cannot
// hand on; the ",string" and "omitzero" options).
type structInfo struct {
	fields []field
	opaque bool
}

var structCache sync.Map // reflect.Type → *structInfo

// structOf resolves a struct type's fields as encoding/json does (its
// typeFields): exported fields and the fields of embedded structs, a
// json tag's name and options, and Go's rules for names embedded more
// than once (the shallowest wins, a tagged one over an untagged one at
// the same depth, and a tie hides the name).
func structOf(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	si := resolve(t)
	structCache.Store(t, si)
	return si
}

func resolve(t reflect.Type) *structInfo {
	type embedded struct {
		typ      reflect.Type
		index    []int
		exported bool
	}
	si := &structInfo{}
	var fields []field
	var hidden []bool // per field: reached through an unexported embedded struct
	next := []embedded{{typ: t, exported: true}}
	visited := map[reflect.Type]bool{}
	// count is how often each struct of this depth is embedded in the
	// one above (nextCount, of the next depth)
	var count, nextCount map[reflect.Type]int
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, e := range current {
			if visited[e.typ] {
				continue
			}
			visited[e.typ] = true
			for i := range e.typ.NumField() {
				sf := e.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTag(name) {
					name = ""
				}
				if hasOpt(opts, "string") || hasOpt(opts, "omitzero") {
					si.opaque = true
				}
				index := append(slices.Clone(e.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := field{name: name, tagged: name != "", index: index, omitEmpty: hasOpt(opts, "omitempty")}
					if f.name == "" {
						f.name = sf.Name
					}
					fields = append(fields, f)
					hidden = append(hidden, !e.exported)
					if count[e.typ] > 1 {
						// embedded twice at this depth: a duplicate the
						// tie-break below removes, as encoding/json does
						fields = append(fields, f)
						hidden = append(hidden, !e.exported)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, embedded{typ: ft, index: index, exported: e.exported && sf.IsExported()})
				}
			}
		}
	}
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		fa, fb := fields[a], fields[b]
		if c := strings.Compare(fa.name, fb.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(fa.index), len(fb.index)); c != 0 {
			return c
		}
		if fa.tagged != fb.tagged {
			if fa.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(fa.index, fb.index)
	})
	var out []field
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && fields[order[j]].name == fields[order[i]].name {
			j++
		}
		first := fields[order[i]]
		if j-i > 1 {
			second := fields[order[i+1]]
			if len(first.index) == len(second.index) && first.tagged == second.tagged {
				i = j
				continue // a tie: the name is hidden
			}
		}
		if hidden[order[i]] {
			si.opaque = true
		}
		out = append(out, first)
		i = j
	}
	slices.SortFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	si.fields = out
	return si
}

// hasOpt reports whether a json tag's options (after its name) hold name.
func hasOpt(opts, name string) bool { return slices.Contains(strings.Split(opts, ","), name) }

// validTag is encoding/json's rule for a name given in a json tag.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

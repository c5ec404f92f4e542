package interp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/theory/jsonpath"
	"github.com/theory/jsonpath/spec"
)

// SelectDotted reads a path of OCC's JSON-path dialect from d: dotted names
// and indexes (results.0.name), brackets (data.items[0].name,
// ['a.b'], ["a b"]), * for every item of a list (items.*.title: the rest
// of the path read from each item, a list of what they give), an optional
// leading $ or $. — the one reader of OCC's json_extract transform and its
// http_fetch pre_tool's json_path, so both take the same paths. An error
// says which part of the path the data lacks; it never shows the data.
func SelectDotted(d any, path string) (any, error) {
	segs, err := occSegments(path)
	if err != nil {
		return nil, err
	}
	return selectSegs(d, segs)
}

// occSeg is one part of an OCC path: a name (or a number written after a
// dot, which indexes a list and names a field of an object), or * .
type occSeg struct {
	name   string
	quoted bool // ['name']: a field, even when it is a number
	wild   bool
}

// occSegments splits path into its parts.
func occSegments(path string) ([]occSeg, error) {
	p := strings.TrimPrefix(strings.TrimSpace(path), "$")
	var segs []occSeg
	for i := 0; i < len(p); {
		switch p[i] {
		case '.':
			i++
		case '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("an unclosed [")
			}
			inner := p[i+1 : i+end]
			i += end + 1
			switch {
			case inner == "*":
				segs = append(segs, occSeg{wild: true})
			case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
				segs = append(segs, occSeg{name: inner[1 : len(inner)-1], quoted: true})
			default:
				if _, err := strconv.Atoi(inner); err != nil {
					return nil, fmt.Errorf("[%s] is neither an index nor a quoted name", inner)
				}
				segs = append(segs, occSeg{name: inner})
			}
		default:
			end := strings.IndexAny(p[i:], ".[")
			if end < 0 {
				end = len(p) - i
			}
			tok := p[i : i+end]
			i += end
			segs = append(segs, occSeg{name: tok, wild: tok == "*"})
		}
	}
	return segs, nil
}

// selectSegs follows segs from d. Each run of segments up to a * is one
// RFC 9535 query read by theory/jsonpath, the reader of the workflows'
// paths: a name becomes ['name'], and a bare number [n,'n'] (an item of a
// list or a field of that name, as OCC reads .0). A * maps the rest of the
// path over each item of a list, giving a list per * (nested, as OCC's
// json_extract does, where RFC 9535's [*] would flatten).
func selectSegs(d any, segs []occSeg) (any, error) {
	for k, s := range segs {
		if !s.wild {
			continue
		}
		head, err := selectSegs(d, segs[:k])
		if err != nil {
			return nil, err
		}
		list, ok := head.([]any)
		if !ok {
			return nil, lacks(s, head)
		}
		out := make([]any, len(list))
		for j, item := range list {
			if out[j], err = selectSegs(item, segs[k+1:]); err != nil {
				return nil, fmt.Errorf("item %d: %v", j, err)
			}
		}
		return out, nil
	}
	if nodes := rfc9535(segs).Select(d); len(nodes) == 1 {
		return nodes[0], nil
	}
	// the whole path selects nothing: name the first part that does
	for _, s := range segs {
		nodes := rfc9535([]occSeg{s}).Select(d)
		if len(nodes) != 1 {
			return nil, lacks(s, d)
		}
		d = nodes[0]
	}
	return d, nil
}

// rfc9535 is segs (none of them *) as an RFC 9535 query.
func rfc9535(segs []occSeg) *jsonpath.Path {
	q := make([]*spec.Segment, len(segs))
	for i, s := range segs {
		if n, ok := listIndex(s); ok {
			q[i] = spec.Child(spec.Index(n), spec.Name(s.name))
		} else {
			q[i] = spec.Child(spec.Name(s.name))
		}
	}
	return jsonpath.New(spec.Query(true, q...))
}

// listIndex is the item a bare number names in a list (a quoted one is
// always a field's name).
func listIndex(s occSeg) (int, bool) {
	if s.quoted {
		return 0, false
	}
	n, err := strconv.Atoi(s.name)
	return n, err == nil && n >= 0
}

// lacks says why s selects nothing in v, without showing v.
func lacks(s occSeg, v any) error {
	switch v := v.(type) {
	case map[string]any:
		if s.wild {
			return fmt.Errorf("* needs a list, and the value before it is an object")
		}
		return fmt.Errorf("no field %q", s.name)
	case []any:
		n, err := strconv.Atoi(s.name)
		if s.quoted || err != nil {
			return fmt.Errorf("%q is not an index of a list of %d", s.name, len(v))
		}
		return fmt.Errorf("no item %d in a list of %d", n, len(v))
	}
	name := s.name
	if s.wild {
		name = "*"
	}
	return fmt.Errorf("%q is past the end of the data", name)
}

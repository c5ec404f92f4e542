package interp

import (
	"fmt"
	"strconv"
	"strings"
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

// selectSegs follows segs from d.
func selectSegs(d any, segs []occSeg) (any, error) {
	for k, s := range segs {
		switch cur := d.(type) {
		case map[string]any:
			if s.wild {
				return nil, fmt.Errorf("* needs a list, and the value before it is an object")
			}
			v, ok := cur[s.name]
			if !ok {
				return nil, fmt.Errorf("no field %q", s.name)
			}
			d = v
		case []any:
			if s.wild {
				out := make([]any, len(cur))
				for j, item := range cur {
					v, err := selectSegs(item, segs[k+1:])
					if err != nil {
						return nil, fmt.Errorf("item %d: %v", j, err)
					}
					out[j] = v
				}
				return out, nil
			}
			n, err := strconv.Atoi(s.name)
			if s.quoted || err != nil {
				return nil, fmt.Errorf("%q is not an index of a list of %d", s.name, len(cur))
			}
			if n < 0 || n >= len(cur) {
				return nil, fmt.Errorf("no item %d in a list of %d", n, len(cur))
			}
			d = cur[n]
		default:
			name := s.name
			if s.wild {
				name = "*"
			}
			return nil, fmt.Errorf("%q is past the end of the data", name)
		}
	}
	return d, nil
}

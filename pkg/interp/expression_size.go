package interp

// jsonSize is about what toJSON makes of its argument: its text, and the
// indentation toJSON writes before each item, two spaces a level, which
// grows with the square of the depth (a list 9000 levels deep is a few
// hundred kilobytes, its indented JSON 150 MiB).
func jsonSize(args []any) int {
	if len(args) == 0 {
		return 0
	}
	return sizeIndented(args[0], ExprMemoryBudget+1, 2)
}

// sizeOf is about what v takes as text or in memory (a list item or a
// number counts wordSize), counted no further than limit: a list that
// holds one long text many times is that text many times.
func sizeOf(v any, limit int) int { return sizeIndented(v, limit, 0) }

// sizeIndented is sizeOf with indent more bytes a level before each item
// of a list or map (and before its closing bracket).
func sizeIndented(v any, limit, indent int) int {
	n := 0
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if n > limit {
			return
		}
		item := wordSize + indent*(depth+1)
		switch x := v.(type) {
		case string:
			n += len(x) + 2
		case []any:
			n += indent * depth
			for _, e := range x {
				walk(e, depth+1)
				n += item
				if n > limit {
					return
				}
			}
		case map[string]any:
			n += indent * depth
			for k, e := range x {
				n += len(k) + item
				walk(e, depth+1)
				if n > limit {
					return
				}
			}
		case []string:
			n += indent * depth
			for _, e := range x {
				n += len(e) + item
				if n > limit {
					return
				}
			}
		default:
			n += wordSize
		}
	}
	walk(v, 0)
	return n
}

package project

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// WholeNumber reads a setting's value v (a number from a config file, or
// text from a variable) as a whole number of at least min; hint says
// what values are wanted. Settings are held to the rules of their flags,
// so a value that is no number is never read as 0 without a word.
func WholeNumber(v any, min int, hint string) (int, error) {
	var n int
	switch x := v.(type) {
	case int:
		n = x
	case int64:
		if x > math.MaxInt || x < math.MinInt {
			return 0, fmt.Errorf("%d is out of range", x)
		}
		n = int(x)
	case uint64:
		if x > math.MaxInt {
			return 0, fmt.Errorf("%d is out of range", x)
		}
		n = int(x)
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number; want %s", x, hint)
		}
		n = i
	default:
		return 0, fmt.Errorf("%v is not a whole number; want %s", v, hint)
	}
	if n < min {
		return 0, fmt.Errorf("%d is too small; want %s", n, hint)
	}
	return n, nil
}

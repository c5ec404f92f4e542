package wfpart

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/interp"
)

// rangeNumber is the number a range branch compares: the result, a
// number alone; on a branch with ByFirstNumber set, a result that is not
// one alone is read by its first number (FirstNumber).
func (b *Branch) rangeNumber(result string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(result), 64)
	if err != nil && b.ByFirstNumber {
		return FirstNumber(result)
	}
	return f, err
}

// numberIn finds the first number in a text; compiled on first use,
// as only a contenox chain reads numbers out of text.
var numberIn = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-+]?\d*\.?\d+`) })

// FirstNumber reads a text as a number as contenox's parseNumber does
// (contenox/runtime@7bdaaf86b3 taskengine/taskenv.go): quotes and spaces
// dropped, the text itself, or else the first number it holds ("7 out
// of 10" is 7, the range "5-7" is 5). It is in the model because both
// the range branches of a file read that way and the engine's answer
// parsing use it.
func FirstNumber(text string) (float64, error) {
	s := strings.NewReplacer(`"`, "", "'", "", " ", "").Replace(strings.TrimSpace(text))
	if s == "" {
		return 0, errors.New("the answer is empty")
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, nil
	}
	m := numberIn().FindString(s)
	if m == "" {
		return 0, fmt.Errorf("%q holds no number", interp.ClipText(text, 80))
	}
	return strconv.ParseFloat(m, 64)
}

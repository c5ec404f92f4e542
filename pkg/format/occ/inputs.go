package occ

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
)

// This file reads an input's value as OCC's executor judges it (OCC
// 29f33c0 mcp-server/src/executor.ts, executeChain): a file read as OCC's
// takes what OCC takes, kept as given, where chainrun's own format may
// refuse it.

// occBooleans are the values OCC takes for a boolean input, any case.
var occBooleans = []string{"true", "false", "1", "0", "yes", "no"}

// occDecimal is a decimal number as JavaScript's Number() reads one.
// These patterns compile on first use: only an OCC file's inputs need them.
var occDecimal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`) })

// occPrefixed are the hexadecimal, octal and binary numbers Number() reads.
var occPrefixed = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)$`) })

// occURL is OCC's test of a url input.
var occURL = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^https?://.+`) })

// CheckInputValue reports why text is not a value of input type typ
// as OCC's executor judges it: a boolean is true, false, 1, 0, yes or
// no in any case; a number is what JavaScript's Number() reads (spaces
// around it, 0x1F, 1e3, Infinity); a url starts with http:// or
// https://. Other types are judged as chain.CheckInputValue judges them.
func CheckInputValue(typ, text string) error {
	switch typ {
	case "boolean":
		if !slices.Contains(occBooleans, strings.ToLower(text)) {
			return fmt.Errorf("%q is not true or false (OCC takes %s, in any case)", text, strings.Join(occBooleans, ", "))
		}
	case "number":
		t := strings.TrimSpace(text)
		if t == "" || strings.TrimLeft(t, "+-") == "Infinity" && len(t) <= len("Infinity")+1 {
			return nil
		}
		if !occDecimal().MatchString(t) && !occPrefixed().MatchString(t) {
			return fmt.Errorf("%q is not a number", text)
		}
	case "url":
		if !occURL().MatchString(text) {
			return fmt.Errorf("%q is not an http or https URL (as https://example.com/page)", text)
		}
	default:
		return chain.CheckInputValue(typ, text)
	}
	return nil
}

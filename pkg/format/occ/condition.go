package occ

import (
	"math"
	"strconv"
	"strings"
)

// conditionRule says, in the warning about a condition chainrun's own
// format would refuse, how OCC's evaluator reads one.
const conditionRule = `its {names} filled in, then == "x", != "x", contains "x", > N, < N compared as text, else true unless empty, false or 0`

// ConditionHolds judges a filled-in condition as OCC's evaluator does
// (OCC c591dab mcp-server/src/utils.ts, evaluateCondition): left ==
// "x", left != "x" and left contains "x" compare text (the left side
// trimmed); left > N and left < N compare numbers, false when the left
// side is not one; any other text holds unless it is empty, false or 0
// once trimmed. Each form is tried in that order at its operator's first
// occurrence.
func ConditionHolds(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) > 10000 {
		return false
	}
	quoted := func(s string) (string, bool) {
		if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) {
			return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`), true
		}
		return "", false
	}
	if i := strings.Index(t, "=="); i > 0 && strings.Index(t, "!=") != i-1 {
		left := strings.TrimSpace(t[:i])
		if right, ok := quoted(strings.TrimSpace(t[i+2:])); ok && left != "" {
			return left == right
		}
	}
	if i := strings.Index(t, "!="); i > 0 {
		left := strings.TrimSpace(t[:i])
		if right, ok := quoted(strings.TrimSpace(t[i+2:])); ok && left != "" {
			return left != right
		}
	}
	if i := strings.Index(t, ` contains "`); i >= 0 {
		if right, ok := strings.CutSuffix(t[i+len(` contains "`):], `"`); ok {
			return strings.Contains(strings.TrimSpace(t[:i]), right)
		}
	}
	for _, op := range []string{">", "<"} {
		i := strings.Index(t, op)
		if i <= 0 || strings.HasPrefix(t[i+1:], "=") {
			continue
		}
		rightText := strings.TrimSpace(t[i+1:])
		right, ok := jsNumber(rightText)
		if !ok || rightText == "" {
			continue
		}
		left, ok := jsNumber(t[:i])
		if !ok {
			return false
		}
		if op == ">" {
			return left > right
		}
		return left < right
	}
	return t != "" && t != "false" && t != "0"
}

// jsNumber reads text as JavaScript's Number() does: blank is 0, a 0x,
// 0o or 0b integer, a decimal (with exponent), or Infinity.
func jsNumber(text string) (float64, bool) {
	t := strings.TrimSpace(text)
	switch t {
	case "":
		return 0, true
	case "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if len(t) > 2 && t[0] == '0' && strings.ContainsRune("xXoObB", rune(t[1])) {
		n, err := strconv.ParseUint(t, 0, 64)
		return float64(n), err == nil && !strings.Contains(t, "_")
	}
	if strings.ContainsAny(t, "_xXpPnN") || strings.ContainsAny(strings.ToLower(t), "i") {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil
}

package flowgate

import (
	"fmt"
	"github.com/chainrun/chainrun/pkg/chain"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// This file reads mcp-flowgate's reliability policy, on a transition,
// an onEnter or a capability: {timeoutMs, retry, fallback}, as its
// reliability.rs models it (ReliabilityPolicy, RetryPolicy,
// FallbackPolicy).

// reliabilityKeys are mcp-flowgate's reliability policy.
type reliabilityKeys struct {
	TimeoutMs int            `yaml:"timeoutMs"`
	Retry     *retryPolicyFG `yaml:"retry"`
	Fallback  *fallbackFG    `yaml:"fallback"`
}

// retryPolicyFG is mcp-flowgate's retry policy.
type retryPolicyFG struct {
	MaxAttempts    int      `yaml:"maxAttempts"`
	Backoff        string   `yaml:"backoff"`
	InitialDelayMs int      `yaml:"initialDelayMs"`
	MaxDelayMs     int      `yaml:"maxDelayMs"`
	RetryOn        []string `yaml:"retryOn"`
}

// fallbackFG is mcp-flowgate's fallback policy: the executors tried in
// order once the primary failed past its retries.
type fallbackFG struct {
	Strategy  string `yaml:"strategy"`
	Executors []any  `yaml:"executors"`
}

// retryClasses are the failures mcp-flowgate's retryOn may name.
var retryClasses = map[string]bool{"timeout": true, "transient_error": true, "rate_limited": true, "connection_error": true}

// decodeReliability makes mcp-flowgate's reliability policy the
// executor's timeout_ms and retry, which chainrun already honours (a
// step that sets its own keeps them), and its fallback the executor's
// Fallbacks, each run under the same timeout and retry.
//
// mcp-flowgate reads a block it cannot parse (a value of the wrong type,
// an unknown backoff, a fallback without executors) as no policy at all
// (ReliabilityPolicy::from_value's unwrap_or_default), silently: such a
// file runs there, its executor once, without timeout, retry or
// fallback. chainrun runs it the same, with a warning naming the line.
func readReliability(d *yamlpos.Diags, candidate candidateDecoder, e *chain.Step, v *yaml.Node, prefix string) {
	prefix += "reliability: "
	ignoredKeys(d, v, prefix, yamlpos.KeysOf[reliabilityKeys]())
	if rv := yamlpos.ValueOf(v, "retry"); rv != nil {
		ignoredKeys(d, yamlpos.Deref(rv), prefix+"retry: ", yamlpos.KeysOf[retryPolicyFG]())
	}
	fv := yamlpos.Deref(yamlpos.ValueOf(v, "fallback"))
	if fv != nil {
		ignoredKeys(d, fv, prefix+"fallback: ", yamlpos.KeysOf[fallbackFG]())
	}
	r, at, why := parseReliability(v)
	if why != "" {
		d.Warnf(at, "%snot read: %s; mcp-flowgate reads a reliability block it cannot parse as none at all, and so does chainrun: the executor runs once, without timeout, retry or fallback", prefix, why)
		return
	}
	retry := r.retry(d, v, prefix)
	if r.Fallback != nil && fv != nil {
		decodeFallbacks(d, candidate, e, fv, prefix+"fallback: ")
	}
	for _, s := range append([]*chain.Step{e}, e.Fallbacks...) {
		if r.TimeoutMs > 0 && s.TimeoutMS == 0 {
			s.TimeoutMS = r.TimeoutMs
		}
		if retry != nil && s.Retry == nil {
			s.Retry = retry
		}
	}
}

// parseReliability reads v as mcp-flowgate's serde model does: on what
// it would not parse it returns where and why (why is empty otherwise).
func parseReliability(v *yaml.Node) (reliabilityKeys, chain.Pos, string) {
	var r reliabilityKeys
	if v.Kind != yaml.MappingNode {
		return r, yamlpos.Of(v), "a reliability policy is a mapping {timeoutMs, retry, fallback}"
	}
	if fv := yamlpos.Deref(yamlpos.ValueOf(v, "fallback")); fv != nil && fv.Tag != "!!null" {
		if fv.Kind != yaml.MappingNode {
			return r, yamlpos.Of(fv), "fallback is {strategy, executors}"
		}
		if s := yamlpos.Deref(yamlpos.ValueOf(fv, "strategy")); s != nil && s.Tag != "!!str" {
			return r, yamlpos.Of(s), "fallback: strategy is a word (first_success)"
		}
		if ex := yamlpos.Deref(yamlpos.ValueOf(fv, "executors")); ex == nil || ex.Kind != yaml.SequenceNode {
			return r, yamlpos.Of(fv), "fallback: executors is required, a list of executors"
		}
	}
	if err := v.Load(&r); err != nil {
		return r, yamlpos.Of(v), "a value of the wrong type (" + yamlReason(err) + ")"
	}
	if r.TimeoutMs < 0 {
		return r, posAt(v, "timeoutMs"), "timeoutMs cannot be negative"
	}
	if p := r.Retry; p != nil {
		switch {
		case p.MaxAttempts < 0, p.InitialDelayMs < 0, p.MaxDelayMs < 0:
			return r, posAt(v, "retry"), "retry: maxAttempts, initialDelayMs and maxDelayMs cannot be negative"
		case p.Backoff != "" && p.Backoff != "none" && p.Backoff != "fixed" && p.Backoff != "exponential":
			return r, posAt(v, "retry", "backoff"), fmt.Sprintf("retry: backoff is none, fixed or exponential, not %q", p.Backoff)
		}
	}
	return r, chain.Pos{}, ""
}

// ignoredKeys warns of n's keys mcp-flowgate's model does not name:
// its serde reading ignores them, so a file with one runs there; here
// too, the key named (and the nearest known one).
func ignoredKeys(d *yamlpos.Diags, n *yaml.Node, prefix string, known []string) {
	yamlpos.EachUnknownKey(d, n, prefix, known, func(k *yaml.Node) {
		d.Warnf(yamlpos.Of(k), "%sunknown field %q is not read, as mcp-flowgate reads none%s", prefix, k.Value, chain.DidYouMean(k.Value, known))
	})
}

// posAt is where the value at keys under v is written, or as near as
// the file says (a key merged in from an anchor has no place of its own).
func posAt(v *yaml.Node, keys ...string) chain.Pos {
	at := yamlpos.Of(v)
	for _, k := range keys {
		if v = yamlpos.Deref(v); v == nil || v.Kind != yaml.MappingNode {
			break
		}
		if v = yamlpos.ValueOf(v, k); v != nil {
			at = yamlpos.Of(yamlpos.Deref(v))
		}
	}
	return at
}

// yamlReason is a decoding error's reason without its "yaml:" prefix.
func yamlReason(err error) string {
	msg := strings.TrimSpace(err.Error())
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:")
	msg = strings.TrimPrefix(msg, "yaml: construct errors:")
	msg = strings.TrimPrefix(msg, "yaml: ")
	return strings.Join(strings.Fields(msg), " ")
}

// retry is the policy's retry as chainrun's; nil when it has none.
func (r reliabilityKeys) retry(d *yamlpos.Diags, v *yaml.Node, prefix string) *chain.Retry {
	p := r.Retry
	if p == nil {
		return nil
	}
	at := posAt(v, "retry", "retryOn")
	known := 0
	for _, class := range p.RetryOn {
		if retryClasses[class] {
			known++
			continue
		}
		d.Warnf(at, "%sretryOn: %q is not one of timeout, transient_error, rate_limited, connection_error: it matches no failure, as in mcp-flowgate%s", prefix, class, chain.DidYouMean(class, slices.Sorted(maps.Keys(retryClasses))))
	}
	retry := &chain.Retry{Max: max(p.MaxAttempts, 1), DelayMS: p.InitialDelayMs, MaxDelayMS: p.MaxDelayMs}
	if p.RetryOn != nil && known == 0 && retry.Max > 1 {
		d.Warnf(at, "%sretryOn names no failure class, so no failure is retried (mcp-flowgate retries only the classes it names): the executor runs once", prefix)
		retry.Max = 1
	}
	switch p.Backoff {
	case "", "fixed":
		retry.Backoff = 1
	case "none":
		retry.DelayMS = 0
	case "exponential":
		retry.Backoff = 2
	}
	return retry
}

// candidateDecoder reads fallback number i's executor as the primary's
// place reads one: a transition's as an executor, a branch's as a
// nested step.
type candidateDecoder func(n *yaml.Node, i int, prefix string) *chain.Step

// decodeFallbacks reads fallback.executors: each an executor read as
// the primary e is (any kind, a {capability: NAME} resolved before), so
// a candidate is checked the same way and its messages name its line.
// A strategy other than first_success is run as first_success, as
// mcp-flowgate runs it (the only strategy it implements; its runtime
// never reads the word), with a warning.
func decodeFallbacks(d *yamlpos.Diags, candidate candidateDecoder, e *chain.Step, fv *yaml.Node, prefix string) {
	if s := yamlpos.Deref(yamlpos.ValueOf(fv, "strategy")); s != nil && s.Value != "first_success" {
		d.Warnf(yamlpos.Of(s), "%sstrategy %q runs as first_success: the executors in order, the first that succeeds answers (the only strategy mcp-flowgate implements)", prefix, s.Value)
	}
	for i, n := range yamlpos.Deref(yamlpos.ValueOf(fv, "executors")).Content {
		fb := candidate(yamlpos.Deref(n), i+1, fmt.Sprintf("%sexecutors[%d]: ", prefix, i))
		if fb == nil {
			continue
		}
		chain.AddFallback(e, fb)
	}
}

func init() {
	chain.RegisterReliabilityReader(func(d *yamlpos.Diags, candidate func(n *yaml.Node, i int, prefix string) *chain.Step, e *chain.Step, v *yaml.Node, prefix string) {
		readReliability(d, candidate, e, v, prefix)
	})
}

package contenox

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// Commands policy keys of contenox's local_shell hook, which chainrun
// applies to the Bash tool.
const (
	policyAllowed = "_allowed_commands"
	policyDenied  = "_denied_commands"
)

// toolsPolicies reads execute_config.tools_policies: local_shell's
// _allowed_commands and _denied_commands (comma-separated names, or a
// list) become the task's command policy, which the engine holds every
// Bash call of the task to (and of the calls its model asks for). A
// policy chainrun does not apply is a warning naming it, and the run says
// so in its warnings when the task runs.
func (tc *taskChain) toolsPolicies(h *Handler, v any, at yamlpos.Pos, prefix string) {
	if v == nil {
		return
	}
	hooks, ok := v.(map[string]any)
	if !ok {
		tc.d.Errorf(at, "%stools_policies must be a mapping of hook names to their policies", prefix)
		return
	}
	for _, hook := range interp.SortedKeys(keySet(hooks)) {
		policy, ok := hooks[hook].(map[string]any)
		if !ok {
			tc.d.Errorf(at, "%stools_policies.%s must be a mapping of policy keys to values", prefix, hook)
			continue
		}
		var unapplied []string
		for _, key := range interp.SortedKeys(keySet(policy)) {
			if hook == HookLocalShell && (key == policyAllowed || key == policyDenied) {
				names, err := commandNames(policy[key])
				if err != nil {
					tc.d.Errorf(at, "%stools_policies.%s.%s %v", prefix, hook, key, err)
				}
				if key == policyAllowed {
					h.AllowedCommands = names
				} else {
					h.DeniedCommands = names
				}
				continue
			}
			unapplied = append(unapplied, key)
		}
		if len(unapplied) > 0 {
			name := hook + " (" + strings.Join(unapplied, ", ") + ")"
			h.UnappliedPolicies = append(h.UnappliedPolicies, name)
			tc.d.Warnf(at, "%stools_policies.%s is not applied: chainrun applies local_shell's %s and %s, and its own confinement of the file tools to the step's directory", prefix, name, policyAllowed, policyDenied)
		}
	}
}

// commandNames reads a list of command names: comma-separated text or a
// list of texts. An empty text is no list (nil).
func commandNames(v any) ([]string, error) {
	var parts []string
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, nil
		}
		parts = strings.Split(x, ",")
	case []any:
		for _, p := range x {
			s, ok := p.(string)
			if !ok {
				return nil, fmt.Errorf("must be command names, not %v", p)
			}
			parts = append(parts, s)
		}
	default:
		return nil, fmt.Errorf("must be comma-separated command names")
	}
	names := []string{}
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	return names, nil
}

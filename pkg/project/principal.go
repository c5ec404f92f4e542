package project

import (
	"fmt"
	"strings"
)

// Principal is who runs act for where chainrun runs: what a workflow's
// permission and role guards check, and who its evidence records name.
type Principal struct {
	ID          string
	Roles       []string
	Permissions []string
}

// principalKeys are the keys of config principal, with the environment
// variable that overrides each.
var principalKeys = []string{"id", "roles", "permissions"}

// PrincipalEnv is the environment variable of a key of config principal:
// CHAINRUN_PRINCIPAL_ID, _ROLES, _PERMISSIONS (lists comma-separated).
func PrincipalEnv(key string) string { return EnvName("principal_" + key) }

// ReadPrincipal reads config principal: {id, roles, permissions} (file,
// nil when the config has none), each key overridden by its environment
// variable (read with getenv). It is nil when neither sets anything. where
// names the file in errors.
func ReadPrincipal(where string, file any, getenv func(string) string) (*Principal, error) {
	p := &Principal{}
	set := false
	if file != nil {
		m, ok := file.(map[string]any)
		if !ok {
			return nil, &SettingError{fmt.Sprintf("%sprincipal: write a mapping {id, roles, permissions}", where)}
		}
		for k, v := range m {
			if err := p.set(k, v); err != nil {
				return nil, &SettingError{fmt.Sprintf("%sprincipal.%s: %v", where, k, err)}
			}
			set = true
		}
	}
	for _, k := range principalKeys {
		if raw := getenv(PrincipalEnv(k)); raw != "" {
			_ = p.set(k, raw) // text is always a valid value
			set = true
		}
	}
	if !set {
		return nil, nil
	}
	return p, nil
}

// set reads one key: id is text; roles and permissions a list of names,
// or text with the names comma-separated.
func (p *Principal) set(key string, v any) error {
	switch key {
	case "id":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%v is not text", v)
		}
		p.ID = strings.TrimSpace(s)
		return nil
	case "roles", "permissions":
		names, err := nameList(v)
		if err != nil {
			return err
		}
		if key == "roles" {
			p.Roles = names
		} else {
			p.Permissions = names
		}
		return nil
	}
	return fmt.Errorf("unknown key (keys are %s)", strings.Join(principalKeys, ", "))
}

// nameList reads a list of names, or names comma-separated in a text.
func nameList(v any) ([]string, error) {
	var out []string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok || strings.TrimSpace(s) == "" {
				return nil, fmt.Errorf("%v is not a name: write a list of names", e)
			}
			out = append(out, strings.TrimSpace(s))
		}
		return out, nil
	}
	return nil, fmt.Errorf("write a list of names, or names separated by commas")
}

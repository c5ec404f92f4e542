package inputs

import (
	"encoding/json"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// ParseArgs reads a decision's arguments: --args-file (a JSON object,
// its values typed as written) and --arg key=value (text, converted to
// the type the transition's inputSchema declares when the run checks
// them); flags win.
func ParseArgs(flags []string, file string) (map[string]any, error) {
	out := map[string]any{}
	if file != "" {
		data, err := readInputFile(file)
		if err != nil {
			return nil, usagef("--args-file %s: %v", file, err)
		}
		if err := json.Unmarshal(data, &out); err != nil || out == nil {
			return nil, usagef("--args-file %s: want a JSON object of argument names to values", file)
		}
	}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if !ok || !chain.IsIdentifier(k) {
			return nil, usagef("--arg %q: write name=value", f)
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

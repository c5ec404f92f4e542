package tracefeed

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// configKeys are the keys of config's otel: block.
var configKeys = []string{"endpoint", "protocol", "capture_content"}

// ReadConfig reads config's otel: block (v, as the YAML gave it; nil when
// the file has none). where prefixes an error ("config file F: ").
func ReadConfig(where string, v any) (Choice, error) {
	var c Choice
	if v == nil {
		return c, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return c, fmt.Errorf("%sotel: want a mapping of %s, got %v", where, strings.Join(configKeys, ", "), v)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		val := m[k]
		if !slices.Contains(configKeys, k) {
			return c, fmt.Errorf("%sotel: unknown key %q (keys are %s)", where, k, strings.Join(configKeys, ", "))
		}
		switch k {
		case "endpoint", "protocol":
			s, ok := val.(string)
			if !ok {
				return c, fmt.Errorf("%sotel.%s: want text, got %v", where, k, val)
			}
			if k == "endpoint" {
				if err := CheckEndpoint(s); err != nil {
					return c, fmt.Errorf("%sotel.endpoint: %w", where, err)
				}
				c.Endpoint = s
			} else {
				if !knownProtocol(s) {
					return c, fmt.Errorf("%sotel.protocol: %q is not one of %s, %s", where, s, HTTPProtobuf, GRPC)
				}
				c.Protocol = s
			}
		case "capture_content":
			b, ok := val.(bool)
			if !ok {
				return c, fmt.Errorf("%sotel.capture_content: want true or false, got %v", where, val)
			}
			c.CaptureContent = b
		}
	}
	return c, nil
}

package chaintest

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/cassette"
)

// secretNames are the endings of environment variable names that hold
// credentials by convention (ANTHROPIC_API_KEY, GITHUB_TOKEN, …).
var secretNames = []string{"_API_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_PASSWORD", "_ACCESS_KEY", "_SECRET_KEY"}

// EnvSecrets are the values of environ that look like credentials: a
// cassette refuses to hold any of them.
func EnvSecrets(environ []string) []cassette.Secret {
	var out []cassette.Secret
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(k)
		for _, suffix := range secretNames {
			if strings.HasSuffix(up, suffix) && strings.TrimSpace(v) != "" {
				out = append(out, cassette.Secret{Name: "environment variable " + k, Value: strings.TrimSpace(v)})
				break
			}
		}
	}
	return out
}

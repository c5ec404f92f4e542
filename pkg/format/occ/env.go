package occ

import (
	"regexp"
	"sync"
)

// blockedEnvName matches the names OCC's env_var pre_tool will not
// read (OCC c591dab…a9f962a mcp-server/src/pretool-executor.ts,
// ENV_VAR_BLOCKED_PATTERNS): it gives their default_value instead.
var blockedEnvName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|PRIVATE|^(AWS|GCP|AZURE|GITHUB|NPM|DOCKER|CI|SSH|GPG)_|^(DATABASE_URL|REDIS_URL|LD_PRELOAD|NODE_OPTIONS|PATH)$|^MONGO`)
})

// EnvVarWithheld reports whether OCC's env_var pre_tool will not read
// the variable (no name, a secret's name, or PATH, LD_PRELOAD,
// NODE_OPTIONS, CI_…): in a file read as OCC's its value is the
// pre_tool's default_value, as OCC gives it (chain.Reading.EnvVarWithheld).
func EnvVarWithheld(name string) bool { return name == "" || blockedEnvName().MatchString(name) }

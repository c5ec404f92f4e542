package chaintest

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/cassette"
)

// credentialName matches the names of variables that hold credentials by
// convention, whatever sets them (the environment, the config's dotenv, a
// chain's): a token, secret, password or credential anywhere in the name
// (SERVICE_TOKEN, MY_SECRET_VALUE, DB_PASSWORD, GOOGLE_CREDENTIALS), a
// key at its end or as a part of it (STRIPE_KEY, PRIVATE_KEY, API_KEY_2,
// AWS_SECRET_ACCESS_KEY), a short form at its end (DB_PASS, MYSQL_PWD,
// GH_PAT, NPM_AUTH, SENTRY_DSN), a cookie. PWD alone is the working
// directory, and KEYBOARD or SSH_AUTH_SOCK are no credential.
var credentialName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|COOKIE|APIKEY|(^|_)KEY($|_)|_(PASS|PWD|PAT|AUTH|DSN)$|^(PASS|PAT)$`)
})

// CredentialName reports whether a variable's name says it holds a
// credential: its value must never be written to a cassette.
func CredentialName(name string) bool { return credentialName().MatchString(name) }

// EnvSecrets are the values of environ that look like credentials: a
// cassette refuses to hold any of them.
func EnvSecrets(environ []string) []cassette.Secret {
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	return VarSecrets("environment variable", vars)
}

// VarSecrets are the credentials among vars (from the source named by
// kind: "environment variable", "dotenv variable"): the values of
// credential-named variables, and the password in any value that is a
// URL with one (DATABASE_URL=postgres://u:pw@h/db), whatever the name.
func VarSecrets(kind string, vars map[string]string) []cassette.Secret {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []cassette.Secret
	for _, k := range keys {
		v := strings.TrimSpace(vars[k])
		if v == "" {
			continue
		}
		if CredentialName(k) {
			out = append(out, cassette.Secret{Name: kind + " " + k, Value: v})
			continue
		}
		if pw := urlPassword(v); pw != "" {
			out = append(out, cassette.Secret{Name: "the password in " + kind + " " + k, Value: pw})
		}
	}
	return out
}

// urlPassword is the password of a value that is a URL with user
// information (scheme://user:password@host…), "" otherwise.
func urlPassword(v string) string {
	if !strings.Contains(v, "://") || !strings.Contains(v, "@") {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || u.User == nil {
		return ""
	}
	pw, _ := u.User.Password()
	return pw
}

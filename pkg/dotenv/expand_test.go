package dotenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadExpandsAsComposeDoes: ${VAR} and $VAR in unquoted and
// double-quoted values, from the variables set before (this file's and
// earlier files') and then the environment; defaults with :- and -; none
// in single quotes; \$ in double quotes and $$ anywhere are a literal $.
func TestReadExpandsAsComposeDoes(t *testing.T) {
	defer func(old func(string) (string, bool)) { processEnv = old }(processEnv)
	env := map[string]string{"HOME": "/home/ada", "EMPTY": "", "REGION": "eu"}
	processEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	dir := t.TempDir()
	first := filepath.Join(dir, ".env")
	second := filepath.Join(dir, ".env.local")
	os.WriteFile(first, []byte("HOST=db.internal\nREGION=us\n"), 0o600)
	os.WriteFile(second, []byte(strings.Join([]string{
		`URL=postgres://${HOST}:5432/app`,
		`CACHE=$HOME/.cache`,
		`WHERE="$REGION and ${HOME}"`,
		`SINGLE='${HOST} $HOME'`,
		`DEF=${MISSING:-fallback}`,
		`DEF_EMPTY=${EMPTY:-fallback}`,
		`DASH_EMPTY=${EMPTY-fallback}`,
		`DASH_UNSET=${MISSING-fallback}`,
		`LITERAL="cost \$5 and $$6"`,
		`DOLLARS=a$$b`,
		`NONE=${MISSING}`,
		`CHAIN=${URL}/x`,
	}, "\n")+"\n"), 0o600)
	got, err := Read([]File{{Path: first}, {Path: second}})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"URL": "postgres://db.internal:5432/app", "CACHE": "/home/ada/.cache", "WHERE": "us and /home/ada",
		"SINGLE": "${HOST} $HOME", "DEF": "fallback", "DEF_EMPTY": "fallback", "DASH_EMPTY": "", "DASH_UNSET": "fallback",
		"LITERAL": "cost $5 and $6", "DOLLARS": "a$b", "NONE": "", "CHAIN": "postgres://db.internal:5432/app/x",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
}

// TestExpansionErrorsNameTheLineNotTheValue: a required variable that is
// not set and a $ that begins no variable are errors naming file, line
// and key, never the value (it may be a secret).
func TestExpansionErrorsNameTheLineNotTheValue(t *testing.T) {
	defer func(old func(string) (string, bool)) { processEnv = old }(processEnv)
	processEnv = func(string) (string, bool) { return "", false }
	dir := t.TempDir()
	for _, tc := range []struct{ src, want string }{
		{"A=1\nTOKEN=${API_TOKEN:?set it in CI}\n", ":2: TOKEN: ${API_TOKEN} is not set: set it in CI"},
		{"TOKEN=${API_TOKEN?}\n", ":1: TOKEN: ${API_TOKEN} is not set: it is required"},
		{"PASS=\"s3cr3t${\"\n", ":1: PASS: the value holds a $ that is no variable"},
		{"PASS=s3cr3t${oops\n", ":1: PASS: the value holds a $ that is no variable"},
	} {
		p := filepath.Join(dir, "x.env")
		os.WriteFile(p, []byte(tc.src), 0o600)
		_, err := Read([]File{{Path: p}})
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), p+tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: the value is shown: %v", tc.src, err)
		}
	}
}

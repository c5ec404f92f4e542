package dotenv

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// kv is a Var's exported part, as a test writes it.
type kv struct {
	Key, Value string
	Line       int
}

func plain(vars []Var) []kv {
	var out []kv
	for _, v := range vars {
		out = append(out, kv{v.Key, v.Value, v.Line})
	}
	return out
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []kv
	}{
		{"plain", "A=1\nB=two words\n", []kv{{"A", "1", 1}, {"B", "two words", 2}}},
		{"blank lines and comments", "\n# a comment\n  # indented\nA=1\n\n", []kv{{"A", "1", 4}}},
		{"export", "export A=1\nexport\tB=2\n", []kv{{"A", "1", 1}, {"B", "2", 2}}},
		{"a variable named export", "export=1\n", []kv{{"export", "1", 1}}},
		{"blanks around", "  A = 1  \n", []kv{{"A", "1", 1}}},
		{"empty", "A=\nB=''\nC=\"\"\n", []kv{{"A", "", 1}, {"B", "", 2}, {"C", "", 3}}},
		{"inline comment", "A=1 # why\nB=a#b\nC= # none\n", []kv{{"A", "1", 1}, {"B", "a#b", 2}, {"C", "", 3}}},
		{"single quotes are literal", `A='a\nb $X # not a comment'` + "\n", []kv{{"A", `a\nb $X # not a comment`, 1}}},
		{"double quote escapes", `A="a\nb\tc \"q\" \\ \$X \d"` + "\n", []kv{{"A", "a\nb\tc \"q\" \\ $X \\d", 1}}},
		{"comment after quotes", `A="x" # why` + "\n", []kv{{"A", "x", 1}}},
		{"multi-line value", "A=\"first\nsecond\"\nB=2\n", []kv{{"A", "first\nsecond", 1}, {"B", "2", 3}}},
		{"multi-line single quotes", "K='-----BEGIN-----\nabc\n-----END-----'\nN=1", []kv{{"K", "-----BEGIN-----\nabc\n-----END-----", 1}, {"N", "1", 4}}},
		{"CRLF and BOM", "\uFEFFA=1\r\nB=\"x\"\r\n", []kv{{"A", "1", 1}, {"B", "x", 2}}},
		{"no final newline", "A=1", []kv{{"A", "1", 1}}},
		{"equals in the value", "URL=https://h/?a=b&c=d\n", []kv{{"URL", "https://h/?a=b&c=d", 1}}},
		{"a key twice: both kept, in order", "A=1\nA=2\n", []kv{{"A", "1", 1}, {"A", "2", 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(".env", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(plain(got), tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestParseErrors: every malformed line is named by file and line, with
// what to write instead.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"no equals", "A=1\njust words\n", `.env:2: the line that begins "just" is not an assignment: write KEY=VALUE (the rest of the line is not shown)`},
		{"export alone", "export A\n", `.env:1: the line is not an assignment: write KEY=VALUE (it is not shown)`},
		{"a YAML slip", "A: 1\n", `.env:1: the line that begins "A" is not an assignment: write KEY=VALUE (the rest of the line is not shown)`},
		{"no name to show", "-x y\n", `.env:1: the line is not an assignment: write KEY=VALUE (it is not shown)`},
		{"bad name", "\n\nMY-KEY=1\n", `.env:3: "MY-KEY" is not a variable name: use letters, digits and '_', not starting with a digit`},
		{"digit first", "1A=1\n", `.env:1: "1A" is not a variable name: use letters, digits and '_', not starting with a digit`},
		{"empty name", "=1\n", `.env:1: "" is not a variable name: use letters, digits and '_', not starting with a digit`},
		{"a name with blanks in it", "MY KEY=1\n", `.env:1: the text before '=' is not a variable name: use letters, digits and '_', not starting with a digit`},
		{"unclosed double quote", "A=1\nB=\"open\nC=2\n", `.env:2: B: the value's closing " is missing`},
		{"unclosed single quote", "B='open", `.env:1: B: the value's closing ' is missing`},
		{"text after quotes", "A=1\nB=\"x\ny\" z\n", `.env:3: B: text after the value's closing ": quote the whole value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".env", []byte(tc.src))
			var se *SyntaxError
			if !errors.As(err, &se) || !se.NothingRan() {
				t.Fatalf("want a *SyntaxError, got %v", err)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
		})
	}
}

// TestParseErrorsNeverShowAValue: a malformed line may hold a secret
// (a YAML-style "KEY: value", a .netrc line, a value pasted alone, text
// after a quoted value); its error names the file, line and key, never
// the value, which was never registered to be masked.
func TestParseErrorsNeverShowAValue(t *testing.T) {
	for _, tc := range []struct{ src, key string }{
		{"API_TOKEN: tok_live_9f8e7d\n", "API_TOKEN"},
		{"machine example.com login ada password Hunter2Pw\n", "machine"},
		{"ghp_pastedAloneNoKey0123\n", ""},
		{"A=1\nexport SECRET tok_x_8877\n", "SECRET"},
		{"DB_PASS=\"pw_one\"pw_two_tail\n", "DB_PASS"},
		{"KEY tok_before_equals=1\n", ""},
		{"PASS='open pw_never_closed\n", "PASS"},
	} {
		_, err := Parse("/p/.env", []byte(tc.src))
		if err == nil {
			t.Fatalf("%q parsed", tc.src)
		}
		msg := err.Error()
		for _, secret := range []string{"tok_", "Hunter2", "ghp_", "pw_"} {
			if strings.Contains(msg, secret) {
				t.Errorf("%q: the error shows the value: %s", tc.src, msg)
			}
		}
		if !strings.HasPrefix(msg, "/p/.env:") || tc.key != "" && !strings.Contains(msg, tc.key) {
			t.Errorf("%q: want the file, line and key %q: %s", tc.src, tc.key, msg)
		}
	}
}

// FuzzParse: any text parses or fails with a positioned error; it never
// panics, and a value never holds a line break that its file did not
// quote.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"A=1\n", "export B='x'\n", "C=\"a\\nb\"\n", "# c\n\nD=\"x\ny\"", "E=1 # c", "=", "\"", "F='"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		vars, err := Parse(".env", []byte(src))
		var se *SyntaxError
		if err != nil && (!errors.As(err, &se) || se.Line < 1) {
			t.Fatalf("error without a line: %v", err)
		}
		for _, v := range vars {
			if !ValidName(v.Key) || v.Line < 1 {
				t.Fatalf("bad var %+v", v)
			}
		}
	})
}

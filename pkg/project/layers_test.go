package project

import "testing"

// TestLayersPrecedence: a given flag beats the environment, which beats
// the file, which beats a default, which beats the flag's own default;
// an empty variable counts as unset.
func TestLayersPrecedence(t *testing.T) {
	env := map[string]string{}
	l := NewLayers(func(k string) string { return env[k] })
	given := false
	l.Bind("max_parallel", Flag{Changed: func() bool { return given }, Value: func() string { return "9" }, Default: "4"})
	l.Bind("output", Flag{Changed: func() bool { return false }, Value: func() string { return "" }, Default: ""})
	steps := []struct {
		name  string
		setup func()
		want  int
	}{
		{"the flag's default", func() {}, 4},
		{"a default", func() { l.SetDefault("max_parallel", 3) }, 3},
		{"the file", func() { l.SetFile("c.yaml", map[string]any{"max_parallel": 2}) }, 2},
		{"an empty variable is unset", func() { env["CHAINRUN_MAX_PARALLEL"] = "" }, 2},
		{"the environment", func() { env["CHAINRUN_MAX_PARALLEL"] = "5" }, 5},
		{"the flag given", func() { given = true }, 9},
	}
	for _, s := range steps {
		s.setup()
		if got := l.GetInt("max_parallel"); got != s.want {
			t.Errorf("%s: max_parallel = %d, want %d", s.name, got, s.want)
		}
	}
	if l.File() != "c.yaml" {
		t.Errorf("File() = %q", l.File())
	}
	if got := l.GetString("output"); got != "" {
		t.Errorf("output = %q, want the flag's empty default", got)
	}
	if got := l.Get("nothing"); got != nil {
		t.Errorf("an unknown key = %v, want nil", got)
	}
}

// TestLayersConvert: values of the file and of variables read as the
// type asked for.
func TestLayersConvert(t *testing.T) {
	env := map[string]string{"CHAINRUN_STRICT": "false", "CHAINRUN_N": " 7 "}
	l := NewLayers(func(k string) string { return env[k] })
	l.SetFile("c.yaml", map[string]any{"flag": true, "f": 2.0, "s": 12, "map": map[string]any{"a": 1}})
	l.SetInFile("dir", "/x/chains")
	cases := []struct {
		name string
		got  any
		want any
	}{
		{"bool from the file", l.GetBool("flag"), true},
		{"bool from a variable", l.GetBool("strict"), false},
		{"int from a float", l.GetInt("f"), 2},
		{"int from a variable with spaces", l.GetInt("n"), 7},
		{"text of a number", l.GetString("s"), "12"},
		{"a replaced file value", l.GetString("dir"), "/x/chains"},
		{"not a number", l.GetInt("dir"), 0},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if m, ok := l.Get("map").(map[string]any); !ok || m["a"] != 1 {
		t.Errorf("a map of the file = %v", l.Get("map"))
	}
}

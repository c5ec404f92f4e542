package chain

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func preToolChain(pre string) string {
	return "name: c\nsteps:\n  - id: a\n    prompt: 'go {x}'\n    pre_tools:\n" + pre
}

// TestOCCPreToolsLoad: every OCC pre_tool type loads with its fields, and
// a failure of an OCC type is injected unless on_error says otherwise.
func TestOCCPreToolsLoad(t *testing.T) {
	cases := []struct {
		name, pre  string
		base, mode string
	}{
		{"current_datetime", "      - {type: current_datetime, inject_as: x, timezone: Europe/Paris, format: locale}\n", "current_datetime", "inject"},
		{"http_fetch", "      - {type: http_fetch, url: 'http://h/{input.q}', method: POST, body: '{\"q\": 1}', json_path: 'data.items[0]', headers: {A: b}, inject_as: x, timeout_ms: 10000, retry: 2, cache_ttl_minutes: 5}\n", "http", "inject"},
		{"bash", "      - {type: bash, command: \"cd '{input.q}' && ls\", stderr: true, inject_as: x}\n", "bash", "inject"},
		{"read_file", "      - {type: read_file, path: notes.md, inject_as: x, on_error: fail}\n", "file", "fail"},
		{"write_file", "      - {type: write_file, path: out.txt, content: '{input.q}', append: true, inject_as: x}\n", "write_file", "inject"},
		{"env_var", "      - {type: env_var, var_name: NODE_ENV, default_value: dev, inject_as: x}\n", "env_var", "inject"},
		{"web_search", "      - {type: web_search, query: '{input.q} news', inject_as: x, parallel: true}\n", "web_search", "inject"},
		{"ast_parse", "      - {type: ast_parse, path: '{input.q}', extract: [functions, classes, exports], inject_as: x}\n", "ast_parse", "inject"},
		{"shell keeps fail", "      - {type: shell, run: date, inject_as: x, timeout_ms: 5000}\n", "shell", "fail"},
		{"chained", "      - {type: current_datetime, inject_as: now}\n      - {type: web_search, query: 'news on {now}', inject_as: x}\n", "current_datetime", "inject"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(preToolChain(tc.pre), "name: c\n", "name: c\ninputs: [q]\n", 1)
			l := mustParse(t, src)
			p := l.Chain.Steps[0].PreTools[0]
			if p.Base() != tc.base || p.ErrorMode() != tc.mode {
				t.Errorf("base %q, on_error %q; want %q, %q", p.Base(), p.ErrorMode(), tc.base, tc.mode)
			}
		})
	}
}

// TestPreToolErrors: every bad pre_tool is exit 2 material naming its
// line and field; an unknown type is named before any of its fields.
func TestPreToolErrors(t *testing.T) {
	types := "shell, cli, http, file, current_datetime, http_fetch, bash, read_file, write_file, env_var, web_search, ast_parse"
	cases := []struct {
		name, pre string
		want      []string
	}{
		{"unknown type before its fields", "      - {query: x, type: web_serch, server: s, inject_as: x}\n",
			[]string{`c.yaml:6:20: step "a": unknown pre_tool type "web_serch" (did you mean web_search?); pre_tool types are ` + types}},
		{"unknown type alone", "      - {type: mcp_call, server: s, tool: t, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": unknown pre_tool type "mcp_call"; pre_tool types are ` + types}},
		{"field of another type", "      - {type: web_search, query: q, url: 'http://x', inject_as: x}\n",
			[]string{`c.yaml:6:38: step "a": pre_tool web_search: url does not belong to a web_search pre_tool (it takes query)`}},
		{"unknown field", "      - {type: web_search, qeury: q, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool web_search (x) needs query`, `c.yaml:6:28: step "a": pre_tool web_search: unknown field "qeury" (did you mean query?)`}},
		{"no query", "      - {type: web_search, inject_as: x}\n", []string{`c.yaml:6:10: step "a": pre_tool web_search (x) needs query`}},
		{"no url", "      - {type: http_fetch, inject_as: x}\n", []string{`c.yaml:6:10: step "a": pre_tool http_fetch (x) needs url`}},
		{"no command", "      - {type: bash, inject_as: x}\n", []string{`c.yaml:6:10: step "a": pre_tool bash (x) needs command (the script sh runs)`}},
		{"no path", "      - {type: ast_parse, inject_as: x}\n", []string{`c.yaml:6:10: step "a": pre_tool ast_parse (x) needs path`}},
		{"bad extract", "      - {type: ast_parse, path: ., extract: [methods], inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool ast_parse (x) extract "methods": use functions, classes, types, imports, exports`}},
		{"secret env var", "      - {type: env_var, var_name: OPENAI_API_KEY, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool env_var (x) var_name "OPENAI_API_KEY" names a secret (its name has KEY, TOKEN, SECRET, PASSWORD, AUTH, … in it): an env_var pre_tool never puts a secret into a prompt`}},
		{"env var without name", "      - {type: env_var, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool env_var (x) needs var_name, the environment variable to read`}},
		{"bad format", "      - {type: current_datetime, format: rfc, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool current_datetime (x) format "rfc": use iso, unix, locale, date`}},
		{"bad timezone", "      - {type: current_datetime, timezone: Mars/Base, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool current_datetime (x) timezone "Mars/Base" is not an IANA time zone (as Europe/Paris)`}},
		{"cached write", "      - {type: write_file, path: o, cache_ttl_minutes: 5, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool write_file (x) cache_ttl_minutes does not apply: a write_file pre_tool writes every time`}},
		{"negative retry", "      - {type: current_datetime, retry: -1, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool retry must not be negative`}},
		{"bad on_error", "      - {type: current_datetime, on_error: ignore, inject_as: x}\n",
			[]string{`c.yaml:6:10: step "a": pre_tool on_error is inject, skip or fail, not "ignore"`}},
		{"timeout not a number", "      - {type: current_datetime, timeout_ms: soon, inject_as: x}\n",
			[]string{"c.yaml:6:46: step \"a\": pre_tool current_datetime: timeout_ms: `soon` is text here; a whole number is expected"}},
		{"no type", "      - {query: q, inject_as: x}\n", []string{`c.yaml:6:9: step "a": a pre_tool needs type: ` + types}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := findings(t, preToolChain(tc.pre)); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestSecretEnvName(t *testing.T) {
	for name, secret := range map[string]bool{
		"OPENAI_API_KEY": true, "GITHUB_TOKEN": true, "DB_PASSWORD": true, "MY_SECRET": true, "AWS_REGION": true,
		"DATABASE_URL": true, "SSH_AUTH_SOCK": true, "private_thing": true,
		"NODE_ENV": false, "HOME": false, "TZ": false, "MY_APP_NAME": false, "LANG": false,
	} {
		if SecretEnvName(name) != secret {
			t.Errorf("SecretEnvName(%s) = %v, want %v", name, !secret, secret)
		}
	}
}

// TestOCCFilesWithPreTools: OCC's own chains that need only its pre_tools
// load as written.
func TestOCCFilesWithPreTools(t *testing.T) {
	for _, f := range []string{"full-stack-scaffold.yaml", "repo-health-check.yaml"} {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile("testdata/occ/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Parse(f, data, Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestInputTypes: inputs[].type loads; an unknown type or a default not of
// its type is exit 2 naming the input.
func TestInputTypes(t *testing.T) {
	mustParse(t, "name: c\ninputs:\n  - {name: u, type: url, default: 'https://en.wikipedia.org/wiki/X'}\n  - {name: s, type: string}\nsteps:\n  - {id: a, type: cli, command: echo}\n")
	cases := []struct{ src, want string }{
		{"  - {name: u, type: uri}\n", `c.yaml:3:5: input "u": type "uri" (did you mean url?): use string, number, integer, boolean, url, path, array, object, enum, text, json, file, image`},
		{"  - {name: n, type: number, default: many}\n", `c.yaml:3:5: input "n": default: "many" is not a number`},
	}
	for _, tc := range cases {
		got := findings(t, "name: c\ninputs:\n"+tc.src+"steps:\n  - {id: a, type: cli, command: echo}\n")
		if !slices.Equal(got, []string{tc.want}) {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestOCCPipelineLoads: an OCC pipeline file's chains are chain steps:
// inputs are their with, ids their output_var; a pipeline with steps too,
// or an unknown field in one of its chains, is exit 2.
func TestOCCPipelineLoads(t *testing.T) {
	l := mustParse(t, "name: p\ninputs: [topic]\nchains:\n  - id: research\n    chain: deep-researcher\n    inputs: {topic: '{input.topic}'}\n  - {id: write, chain: content-engine, depends_on: [research], inputs: {notes: '{research}'}}\noutput: write\n")
	s := l.Chain.Steps[1]
	if s.Kind != KindChain || s.Call().Chain != "content-engine" || s.Call().With["notes"] != "{research}" || s.OutputVar != "write" || !slices.Equal(s.DependsOn, []string{"research"}) {
		t.Errorf("step %+v", s)
	}
	if len(l.Warnings) != 0 {
		t.Errorf("warnings %v", l.Warnings)
	}
	cases := []struct{ src, want string }{
		{"name: p\nsteps:\n  - {id: a, type: cli, command: echo}\nchains:\n  - {id: b, chain: c}\n", "c.yaml:4:1: a file has steps or chains (an OCC pipeline), not both"},
		{"name: p\nchains:\n  - {id: b, chain: c, summarize: true}\n", `c.yaml:3:23: chains "b": unknown field "summarize"`},
		{"name: p\nchains:\n  - {id: b, inputs: {x: y}}\n", `c.yaml:3:5: step "b": chain is required for a chain step (the name of the chain to call)`},
	}
	for _, tc := range cases {
		if got := findings(t, tc.src); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

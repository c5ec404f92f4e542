package pretool

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// preToolUnit is what the reader knows of one pre_tool type: the
// fields it takes beyond the ones every pre_tool takes and what it
// requires. The type's name, the type it runs as and its default on_error
// are the core's (chain.PreToolTypes, PreTool.Base, PreTool.ErrorMode).
type preToolUnit struct {
	name   string
	fields []string
	// check reports what the pre_tool lacks or gets wrong, "" when it is
	// complete.
	check func(p *chain.PreTool) string
}

// preToolCommon are the keys every pre_tool takes.
var preToolCommon = []string{"type", "inject_as", "on_error", "timeout_ms", "retry", "cache_ttl_minutes", "parallel", "label"}

var preToolUnits = []*preToolUnit{
	{name: "shell", fields: []string{"command", "args", "run"}, check: func(p *chain.PreTool) string {
		return needs(p.Command == "" && p.Run == "", "command or run")
	}},
	{name: "cli", fields: []string{"command", "args", "run"}, check: func(p *chain.PreTool) string {
		return needs(p.Command == "" && p.Run == "", "command or run")
	}},
	{name: "http", fields: httpPreToolFields, check: needsURL},
	{name: "file", fields: []string{"path"}, check: needsPath},
	{name: "current_datetime", fields: []string{"timezone", "format"}, check: checkDatetime},
	{name: "http_fetch", fields: httpPreToolFields, check: needsURL},
	{name: "bash", fields: []string{"command", "stderr"}, check: func(p *chain.PreTool) string {
		return needs(p.Command == "", "command (the script sh runs)")
	}},
	{name: "read_file", fields: []string{"path", "encoding"}, check: func(p *chain.PreTool) string {
		return cmp.Or(checkEncoding(p), needsPath(p))
	}},
	{name: "write_file", fields: []string{"path", "content", "append", "encoding"}, check: func(p *chain.PreTool) string {
		if p.CacheTTL > 0 {
			return "cache_ttl_minutes does not apply: a write_file pre_tool writes every time"
		}
		return cmp.Or(checkEncoding(p), needsPath(p))
	}},
	{name: "env_var", fields: []string{"var_name", "default_value"}, check: checkEnvVar},
	{name: "web_search", fields: []string{"query"}, check: func(p *chain.PreTool) string {
		return needs(p.Query == "", "query")
	}},
	{name: "ast_parse", fields: []string{"path", "extract"}, check: checkASTParse},
}

// preToolUnitOf is the unit of a pre_tool type, nil for no type.
func preToolUnitOf(name string) *preToolUnit {
	for _, u := range preToolUnits {
		if u.name == name {
			return u
		}
	}
	return nil
}

var httpPreToolFields = []string{"url", "method", "headers", "body", "json_path"}

func needs(missing bool, what string) string {
	if missing {
		return "needs " + what
	}
	return ""
}

func needsURL(p *chain.PreTool) string  { return needs(p.URL == "", "url") }
func needsPath(p *chain.PreTool) string { return needs(p.Path == "", "path") }

// FileEncodings are the encodings read_file and write_file take (OCC's,
// as Node names them; utf8 and binary are other names of utf-8 and
// latin1).
var FileEncodings = []string{"utf-8", "utf8", "latin1", "binary", "ascii", "base64", "hex"}

func checkEncoding(p *chain.PreTool) string {
	if p.Encoding != "" && !slices.Contains(FileEncodings, strings.ToLower(p.Encoding)) {
		return fmt.Sprintf("encoding %q: use %s", p.Encoding, strings.Join(FileEncodings, ", "))
	}
	return ""
}

// ASTExtracts are what an ast_parse pre_tool can list.
var ASTExtracts = []string{"functions", "classes", "types", "imports", "exports"}

func checkASTParse(p *chain.PreTool) string {
	for _, e := range p.Extract {
		if !slices.Contains(ASTExtracts, e) {
			return fmt.Sprintf("extract %q: use %s", e, strings.Join(ASTExtracts, ", "))
		}
	}
	return needsPath(p)
}

// DatetimeFormats are current_datetime's formats.
var DatetimeFormats = []string{"iso", "unix", "locale", "date"}

func checkDatetime(p *chain.PreTool) string {
	if p.Format != "" && !slices.Contains(DatetimeFormats, p.Format) {
		return fmt.Sprintf("format %q: use %s", p.Format, strings.Join(DatetimeFormats, ", "))
	}
	if p.Timezone != "" {
		if _, err := time.LoadLocation(p.Timezone); err != nil {
			return fmt.Sprintf("timezone %q is not an IANA time zone (as Europe/Paris)", p.Timezone)
		}
	}
	return ""
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

func checkEnvVar(p *chain.PreTool) string {
	switch {
	case p.VarName == "":
		return "needs var_name, the environment variable to read"
	case !envName().MatchString(p.VarName):
		return fmt.Sprintf("var_name %q is not an environment variable's name", p.VarName)
	case chain.SecretEnvName(p.VarName):
		return fmt.Sprintf("var_name %q names a secret (its name has KEY, TOKEN, SECRET, PASSWORD, AUTH, … in it): an env_var pre_tool never puts a secret into a prompt", p.VarName)
	}
	return ""
}

// decodePreTools reads a step's pre_tools. Each one's type is read first:
// an unknown type is named (with the closest one) before any of its
// fields, which cannot be judged without it; a known type's fields are
// checked against what that type takes.
func decodePreTools(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) {
	yamlpos.EachItem(d, v, prefix+"pre_tools must be a list of {type, inject_as, …}", prefix+"a pre_tool must be a mapping with type and inject_as", func(_ int, n *yaml.Node) {
		pairs := yamlpos.MappingPairs(d, n, prefix)
		p := chain.PreTool{Pos: yamlpos.Of(n)}
		var u *preToolUnit
		if t, at := preToolTypeOf(pairs); t != nil {
			p.Type, p.Pos = t.Value, at
			if u = preToolUnitOf(t.Value); u == nil {
				d.LooseErrorf(at, "%s: unknown pre_tool type %q%s; pre_tool types are %s", s.Subject(), t.Value, chain.DidYouMean(t.Value, chain.PreToolTypes()), strings.Join(chain.PreToolTypes(), ", "))
				// its inject_as is still a variable of the step: no
				// second error about every use of it
				if id := yamlpos.ValueOf(n, "inject_as"); id != nil && yamlpos.Deref(id).Kind == yaml.ScalarNode {
					p.InjectAs = yamlpos.Deref(id).Value
				}
				s.PreTools = append(s.PreTools, p)
				return
			}
		}
		known := append([]string{}, preToolCommon...)
		for _, o := range preToolUnits {
			// without a type, any pre_tool's field may be meant
			if o == u || u == nil {
				known = append(known, o.fields...)
			}
		}
		what := "pre_tool: "
		if p.Type != "" {
			what = "pre_tool " + p.Type + ": "
		}
		var own []yamlpos.Pair
		for _, pr := range pairs {
			switch k := pr.Key.Value; {
			case slices.Contains(known, k):
				own = append(own, pr)
			case u != nil && fieldOfAnyPreTool(k):
				d.LooseErrorf(yamlpos.Of(pr.Key), "%s%s%s does not belong to a %s pre_tool (it takes %s)", prefix, what, k, p.Type, strings.Join(u.fields, ", "))
			default:
				d.LooseErrorf(yamlpos.Of(pr.Key), "%s%sunknown field %q%s", prefix, what, k, chain.DidYouMean(k, known))
			}
		}
		yamlpos.Walk(d, own, &p, nil, yamlpos.WalkOpts{Prefix: prefix + what}, nil)
		s.PreTools = append(s.PreTools, p)
	})
}

// preToolTypeOf finds a pre_tool's type and where it was written.
func preToolTypeOf(pairs []yamlpos.Pair) (*yaml.Node, chain.Pos) {
	for _, p := range pairs {
		if p.Key.Value == "type" {
			if v := yamlpos.Deref(p.Value); v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
				return v, yamlpos.Of(p.Key)
			}
		}
	}
	return nil, chain.Pos{}
}

func fieldOfAnyPreTool(k string) bool {
	for _, u := range preToolUnits {
		if slices.Contains(u.fields, k) {
			return true
		}
	}
	return false
}

// preTools checks a step's pre_tools and compiles their templates.
func checkPreTools(v chain.Checker, s *chain.Step) {
	seen := map[string]bool{}
	for i, p := range s.PreTools {
		at := p.Pos
		if at.Line == 0 {
			at = s.At("pre_tools")
		}
		rd := v.Chain().Reading()
		if rd.BodylessGet && p.Type == "http_fetch" && p.Body != "" && (p.Method == "" || strings.EqualFold(p.Method, "GET") || strings.EqualFold(p.Method, "DELETE")) {
			// OCC's http_fetch sends no body with GET or DELETE (its linter says "body ignored")
			v.Warnf(at, "%s: pre_tool http_fetch (%s): body ignored with %s, as %s sends none (chainrun's own format sends it)", s.Subject(), orUnnamed(p.InjectAs), cmp.Or(strings.ToUpper(p.Method), "GET"), rd.Source)
			s.PreTools[i].Body, p.Body = "", ""
		}
		u := preToolUnitOf(p.Type)
		switch {
		case p.Type == "":
			v.Errorf(at, "%s: a pre_tool needs type: %s", s.Subject(), strings.Join(chain.PreToolTypes(), ", "))
		case u == nil:
			// named when the file was read
		case rd.EnvVarWithheld != nil && p.Type == "env_var" && p.VarName == "":
			// OCC's env_var without a name gives its default_value
			v.Warnf(at, "%s: pre_tool env_var (%s) has no var_name: its value is default_value %q, as %s gives it (chainrun's own format refuses it)", s.Subject(), orUnnamed(p.InjectAs), p.Default, rd.Source)
		case rd.EnvVarWithheld != nil && p.Type == "env_var" && rd.EnvVarWithheld(p.VarName):
			// the peer will not read it: its default_value is the value
			v.Warnf(at, "%s: pre_tool env_var (%s) var_name %q is one %s will not read (a secret's name, or PATH, CI_…): its value is default_value %q, as %s gives it (chainrun's own format refuses a secret's name)", s.Subject(), orUnnamed(p.InjectAs), p.VarName, rd.Source, p.Default, rd.Source)
		case rd.SecretsReadable && p.Type == "env_var" && chain.SecretEnvName(p.VarName):
			// the peer reads it: the run does too, and never shows its value
			v.Warnf(at, "%s: pre_tool env_var (%s) var_name %q names a secret: %s reads it into the prompt, and so does this run; its value is shown as *** in every output, event and saved run (chainrun's own format refuses it)", s.Subject(), orUnnamed(p.InjectAs), p.VarName, rd.Source)
		default:
			if msg := u.check(&p); msg != "" {
				v.Errorf(at, "%s: pre_tool %s (%s) %s", s.Subject(), p.Type, orUnnamed(p.InjectAs), msg)
			}
		}
		switch {
		case !chain.IsIdentifier(p.InjectAs):
			v.Errorf(at, "%s: a pre_tool needs inject_as, the variable name its data is known by", s.Subject())
		case seen[p.InjectAs] || v.Taken(p.InjectAs):
			v.Errorf(at, "%s: pre_tool inject_as %q is already a variable", s.Subject(), p.InjectAs)
		}
		seen[p.InjectAs] = true
		if p.OnError != "" && !slices.Contains([]string{"inject", "skip", "fail"}, p.OnError) {
			v.Errorf(at, "%s: pre_tool on_error is inject, skip or fail, not %q", s.Subject(), p.OnError)
		}
		for _, n := range []struct {
			field string
			value int
		}{{"timeout_ms", p.TimeoutMS}, {"retry", p.Retry}, {"cache_ttl_minutes", p.CacheTTL}} {
			if n.value < 0 {
				v.Errorf(at, "%s: pre_tool %s must not be negative", s.Subject(), n.field)
			}
		}
		compilePreTool(v, s, p)
	}
}

func orUnnamed(name string) string {
	if name == "" {
		return "without inject_as"
	}
	return name
}

func compilePreTool(v chain.Checker, s *chain.Step, p chain.PreTool) {
	cp := chain.CompiledPreTool{
		URL:     v.Template(s, "pre_tools", p.URL),
		Path:    v.Template(s, "pre_tools", p.Path),
		Headers: v.Templates(s, "pre_tools", p.Headers),
		Body:    v.Template(s, "pre_tools", p.Body),
		Content: v.Template(s, "pre_tools", p.Content),
		Query:   v.Template(s, "pre_tools", p.Query),
	}
	if p.Type == "bash" {
		// OCC's bash command is a script for sh -c: its values reach it
		// as data, as a run: script's do. Only {name} is a reference in
		// it, as in OCC: {{.Names}} is docker's, left as written.
		if p.Command != "" {
			cp.Run = v.ShellRefs(s, "pre_tools", interp.ParseSingleBraces(p.Command))
		}
	} else {
		cp.Command = v.Template(s, "pre_tools", p.Command)
		cp.Run = v.ShellScript(s, "pre_tools", p.Run)
	}
	for _, a := range p.Args {
		cp.Args = append(cp.Args, v.Template(s, "pre_tools", a))
	}
	v.KeepPreTool(s, cp)
}

func init() {
	chain.RegisterPreToolReader(chain.PreToolReader{
		Decode: decodePreTools,
		Check:  checkPreTools,
		Schema: map[string]any{
			"type":     map[string]any{"enum": chain.PreToolTypes()},
			"on_error": map[string]any{"enum": []string{"inject", "skip", "fail"}},
			"extract":  map[string]any{"type": "array", "items": map[string]any{"enum": ASTExtracts}},
			"format":   map[string]any{"enum": DatetimeFormats},
		},
	})
}

package pretool

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
)

// datetime is a current_datetime pre_tool's value: now in the time zone
// (UTC by default), as iso (RFC 3339, the default), unix (seconds),
// locale ("Monday, January 2, 2006 at 15:04:05 MST") or date
// (2006-01-02).
func datetime(now time.Time, zone, format string) string {
	if zone == "" {
		zone = "UTC"
	}
	if loc, err := time.LoadLocation(zone); err == nil {
		now = now.In(loc)
	}
	switch format {
	case "unix":
		return strconv.FormatInt(now.Unix(), 10)
	case "locale":
		return now.Format("Monday, January 2, 2006 at 15:04:05 MST")
	case "date":
		return now.Format(time.DateOnly)
	}
	return now.Format(time.RFC3339)
}

// envVar is an env_var pre_tool's value: the variable, else its
// default_value. A name that says it holds a secret was refused when the
// chain loaded, unless the file is OCC's; it is refused again here,
// should a chain bypass that. In an OCC file a name OCC will not read
// gives its default_value, as OCC's does; another secret-named one is
// read, its value masked (see run's setEnv).
func envVar(s *chain.Step, p chain.PreTool, getenv func(string) (string, bool)) (interp.Value, error) {
	if chain.SecretEnvName(p.VarName) && !s.Reading().SecretsReadable {
		return interp.Value{}, run.Permanent(fmt.Errorf("env_var %s names a secret: it is never read into a step", p.VarName))
	}
	if withheld := s.Reading().EnvVarWithheld; withheld != nil && withheld(p.VarName) {
		return interp.Value{Text: p.Default}, nil
	}
	if v, ok := getenv(p.VarName); ok {
		return interp.Value{Text: v}, nil
	}
	return interp.Value{Text: p.Default}, nil
}

// writeFile is a write_file pre_tool: content written (or appended) to
// path, relative to the step's cwd, its directories made as needed; the
// value is the path written, the content in the encoding named (utf-8 by
// default). In a confined step it stays in the step's directory, as a
// file step's read does.
func writeFile(a *run.Attempt, cp chain.CompiledPreTool, appending bool, encoding string) (run.Outcome, error) {
	p, err := a.Render(cp.Path)
	if err != nil {
		return run.Outcome{}, err
	}
	text, err := a.Render(cp.Content)
	if err != nil {
		return run.Outcome{}, err
	}
	content, err := encodeFile(text, encoding)
	if err != nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("write_file %s: %w", p, err))
	}
	base, err := a.Dir(a.Step().C().Cwd)
	if err != nil {
		return run.Outcome{}, err
	}
	written, err := run.WriteFile(a.PathJail(cp.Path, false, base), base, p, content, appending)
	if err != nil {
		return run.Outcome{}, err
	}
	return run.Outcome{Value: interp.Value{Text: written}}, nil
}

// pickJSON keeps the part of a JSON response that path names, written as
// OCC writes it: data.items[0].name (a leading $. is allowed). A text is
// kept as it is, anything else as JSON.
func pickJSON(v interp.Value, path string) (interp.Value, error) {
	var d any
	if err := json.Unmarshal([]byte(v.Text), &d); err != nil {
		return interp.Value{}, run.Permanent(fmt.Errorf("json_path %s: the response is not JSON", path))
	}
	got, err := interp.SelectDotted(d, path)
	if err != nil {
		return interp.Value{}, run.Permanent(fmt.Errorf("json_path %s: %v", path, err))
	}
	return interp.DataValue(got), nil
}

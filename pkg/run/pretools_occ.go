package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/fsutil"
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

// occDatetime is a current_datetime pre_tool's value in a file read as
// OCC's, as OCC's Node code writes it: iso is toISOString (UTC, with
// milliseconds and Z, whatever the time zone), locale is en-US's full
// date and medium time in the zone ("Wednesday, March 4, 2026 at 5:06:07
// AM"); unix and date as chainrun writes them.
func occDatetime(now time.Time, zone, format string) string {
	switch format {
	case "", "iso":
		return now.UTC().Format("2006-01-02T15:04:05.000Z")
	case "locale":
		if zone == "" {
			zone = "UTC"
		}
		if loc, err := time.LoadLocation(zone); err == nil {
			now = now.In(loc)
		}
		return now.Format("Monday, January 2, 2006 at 3:04:05 PM")
	}
	return datetime(now, zone, format)
}

// envVar is an env_var pre_tool's value: the variable, else its
// default_value. A name that says it holds a secret was refused when the
// chain loaded, unless the file is OCC's; it is refused again here,
// should a chain bypass that. In an OCC file a name OCC will not read
// gives its default_value, as OCC's does; another secret-named one is
// read, its value masked (see setEnv).
func envVar(s *chain.Step, p chain.PreTool, getenv func(string) (string, bool)) (Value, error) {
	if chain.SecretEnvName(p.VarName) && !s.Reading().SecretsReadable {
		return Value{}, &permanentError{fmt.Errorf("env_var %s names a secret: it is never read into a step", p.VarName)}
	}
	if withheld := s.Reading().EnvVarWithheld; withheld != nil && withheld(p.VarName) {
		return Value{Text: p.Default}, nil
	}
	if v, ok := getenv(p.VarName); ok {
		return Value{Text: v}, nil
	}
	return Value{Text: p.Default}, nil
}

// writeFile is a write_file pre_tool: content written (or appended) to
// path, relative to the step's cwd, its directories made as needed; the
// value is the path written, the content in the encoding named (utf-8 by
// default). In a confined step it stays in the step's directory, as a
// file step's read does.
func (x *Execution) writeFile(s *chain.Step, sc Scope, cp chain.CompiledPreTool, appending bool, encoding string) (outcome, error) {
	p, err := x.render(cp.Path, sc)
	if err != nil {
		return outcome{}, err
	}
	text, err := x.render(cp.Content, sc)
	if err != nil {
		return outcome{}, err
	}
	content, err := encodeFile(text, encoding)
	if err != nil {
		return outcome{}, &permanentError{fmt.Errorf("write_file %s: %w", p, err)}
	}
	base, err := x.dir(s.C().Cwd, sc)
	if err != nil {
		return outcome{}, err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appending {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	var f *os.File
	if sc.jail != "" {
		rel, err := jailRel(sc.jail, base, p)
		if err != nil {
			return outcome{}, err
		}
		root, err := os.OpenRoot(sc.jail)
		if err != nil {
			return outcome{}, &permanentError{fmt.Errorf("the step's directory is unusable: %w", err)}
		}
		defer root.Close()
		if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			return outcome{}, rootError(err, p, sc.jail)
		}
		if f, err = fsutil.OpenFileRegularIn(root, rel, flags, 0o644); err != nil {
			return outcome{}, writeError(err, p, sc.jail)
		}
	} else {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return outcome{}, &permanentError{fmt.Errorf("cannot write %s: %w", p, err)}
		}
		if f, err = fsutil.OpenFileRegular(p, flags, 0o644); err != nil {
			return outcome{}, writeError(err, p, "")
		}
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return outcome{}, fmt.Errorf("writing %s: %w", p, err)
	}
	return outcome{Value: Value{Text: p}}, nil
}

// pickJSON keeps the part of a JSON response that path names, written as
// OCC writes it: data.items[0].name (a leading $. is allowed). A text is
// kept as it is, anything else as JSON.
func pickJSON(v Value, path string) (Value, error) {
	var d any
	if err := json.Unmarshal([]byte(v.Text), &d); err != nil {
		return Value{}, &permanentError{fmt.Errorf("json_path %s: the response is not JSON", path)}
	}
	p := strings.TrimPrefix(strings.TrimPrefix(path, "$"), ".")
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	for _, part := range strings.Split(p, ".") {
		if part == "" {
			continue
		}
		switch cur := d.(type) {
		case map[string]any:
			next, ok := cur[part]
			if !ok {
				return Value{}, &permanentError{fmt.Errorf("json_path %s: no field %q", path, part)}
			}
			d = next
		case []any:
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 || n >= len(cur) {
				return Value{}, &permanentError{fmt.Errorf("json_path %s: no item %s in a list of %d", path, part, len(cur))}
			}
			d = cur[n]
		default:
			return Value{}, &permanentError{fmt.Errorf("json_path %s: %q is past the end of the data", path, part)}
		}
	}
	return DataValue(d), nil
}

// setEnv gives the run its dotenv variables and, in a file read as OCC's,
// adds the values of the secret-named variables its env_var pre_tools
// read to what the run masks: OCC lets a chain read them into a prompt;
// no output, event or saved run of chainrun shows them.
func (x *Execution) setEnv(env map[string]string) {
	x.env = env
	if !x.Chain.Reading().SecretsReadable {
		return
	}
	var more []string
	x.Chain.Walk(func(s *chain.Step) {
		for _, p := range s.PreTools {
			if p.Type == "env_var" && chain.SecretEnvName(p.VarName) {
				if v, ok := x.getenv(p.VarName); ok && strings.TrimSpace(v) != "" {
					more = append(more, v)
				}
			}
		}
	})
	if len(more) > 0 {
		x.secretValues = append(slices.Clone(x.secretValues), more...)
		x.Secrets = newMasker(x.secretValues)
	}
}

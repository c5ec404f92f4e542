package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
)

// ChainList is what list_chains answers.
type ChainList struct {
	Chains []ListedChain `json:"chains"`
	// Error says why the chains directory cannot be read at all.
	Error string `json:"error,omitempty"`
	Links []Link `json:"links"`
}

// ListedChain is one chain: what start_run needs to run it, or why it
// cannot run.
type ListedChain struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	File        string `json:"file"`
	Workflow    bool   `json:"workflow"`
	// InputSchema is the JSON Schema of its inputs.
	InputSchema map[string]any `json:"inputSchema,omitempty"`
	// Tool is its own tool, when it has one.
	Tool string `json:"tool,omitempty"`
	// Error is why it does not load (its diagnostics): it cannot run
	// until its file is fixed.
	Error string `json:"error,omitempty"`
}

// listChains answers list_chains from the chains as last loaded.
func (s *Server) listChains(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	s.mu.Lock()
	cat, catErr := s.cat, s.catErr
	s.mu.Unlock()
	out := ChainList{Chains: []ListedChain{}, Links: []Link{}}
	if catErr != nil {
		out.Error = catErr.Error()
		return toolResult(out, true), nil
	}
	for _, f := range cat.Files {
		lc := ListedChain{Name: f.Name, File: f.Path}
		if f.Err != nil {
			lc.Error = f.Err.Error()
		} else {
			c := f.Loaded.Chain
			lc.Description, lc.Workflow = c.Description, c.Workflow != nil
			if sch, problem := inputSchema(c); problem != "" {
				lc.Error = problem
			} else {
				lc.InputSchema = sch
				out.Links = append(out.Links, Link{Title: "Start " + c.Name, Tool: toolStart, Arguments: map[string]any{"chain": c.Name, "inputs": map[string]any{}}})
			}
		}
		if s.hasTool(f.Name) {
			lc.Tool = toolName(f.Name)
		}
		out.Chains = append(out.Chains, lc)
	}
	return toolResult(out, false), nil
}

// chainProblem says why chain name cannot start (ok false), from the
// chains as last loaded: unknown, or broken with its diagnostics.
func (s *Server) chainProblem(name string) (problem string, ok bool) {
	s.mu.Lock()
	cat, catErr := s.cat, s.catErr
	s.mu.Unlock()
	if catErr != nil {
		return catErr.Error(), false
	}
	var names []string
	for _, f := range cat.Files {
		if f.Name != name {
			names = append(names, f.Name)
			continue
		}
		if f.Err != nil {
			return fmt.Sprintf("chain %s (%s) does not load; fix its file: %v", name, f.Path, f.Err), false
		}
		if _, problem := inputSchema(f.Loaded.Chain); problem != "" {
			return problem, false
		}
		return "", true
	}
	return fmt.Sprintf("no chain %q%s; list_chains lists them", name, chain.DidYouMean(name, names)), false
}

// inputSchema is the JSON Schema of a chain's inputs: a workflow's
// inputSchema as written, a DAG chain's from its inputs. problem says
// why it cannot be a tool's input schema (the SDK takes only objects).
func inputSchema(c *chain.Chain) (map[string]any, string) {
	if c.Workflow != nil && c.Workflow.InputSchema != nil {
		data, err := json.Marshal(c.Workflow.InputSchema)
		var sch map[string]any
		if err == nil {
			err = json.Unmarshal(data, &sch)
		}
		if err != nil {
			return nil, fmt.Sprintf("chain %s: its inputSchema cannot be written as JSON: %v", c.Name, err)
		}
		if sch["type"] != "object" {
			return nil, fmt.Sprintf("chain %s: its inputSchema is not of type object", c.Name)
		}
		props, _ := sch["properties"].(map[string]any)
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok && (pm["writeOnly"] == true || isSecret(c, name)) {
				hideSecret(pm)
			}
		}
		if req, ok := sch["required"].([]any); ok && len(req) == 0 {
			delete(sch, "required")
		}
		return sch, ""
	}
	props, required := map[string]any{}, []string{}
	for _, in := range c.Inputs {
		p := map[string]any{"type": jsonType(in.Type)}
		if in.Description != "" {
			p["description"] = in.Description
		}
		if len(in.Enum) > 0 {
			p["enum"] = in.Enum
		}
		if in.Default != nil {
			p["default"] = *in.Default
		}
		if in.Secret {
			hideSecret(p)
		}
		props[in.Name] = p
		if in.Required() {
			required = append(required, in.Name)
		}
	}
	sch := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		sch["required"] = required // never empty: strict clients refuse it
	}
	return sch, ""
}

// isSecret reports whether c's input name is secret.
func isSecret(c *chain.Chain, name string) bool {
	in := c.Input(name)
	return in != nil && in.Secret
}

// hideSecret marks a secret input's schema writeOnly (a client must not
// show what was typed) and leaves its default out: a schema is shown to
// every client and model, and the default is the secret's value.
func hideSecret(p map[string]any) {
	p["writeOnly"] = true
	delete(p, "default")
	delete(p, "examples")
}

// jsonType is the JSON Schema type of an input's declared type.
func jsonType(t string) string {
	switch t {
	case "number", "integer", "boolean", "array", "object":
		return t
	}
	return "string" // string, url, path, none declared
}

// toolName is the name of a chain's own tool.
func toolName(chainName string) string {
	var b strings.Builder
	b.WriteString("run_")
	for _, r := range chainName {
		if r < 128 && (r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (s *Server) hasTool(chainName string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.tools[toolName(chainName)]
	return ok
}

// Reload loads the chains directory again and brings the per-chain tools
// in line with it: a tool for each chain marked for one (or every chain
// when there are few), replaced when its chain changed, removed when its
// chain went; clients are told the list changed. A chain that does not
// load keeps a tool that answers its diagnostics.
func (s *Server) Reload() {
	cat, err := s.b.Catalog()
	s.mu.Lock()
	s.cat, s.catErr = cat, err
	s.mu.Unlock()
	want := map[string]*mcp.Tool{}
	chainOf := map[string]string{} // tool name → chain name
	if err == nil {
		all := len(cat.Files) <= s.opts.AllToolsUpTo
		for _, f := range cat.Files {
			if f.Name != "" && (all || slices.Contains(s.opts.ChainTools, f.Name)) {
				want[toolName(f.Name)], chainOf[toolName(f.Name)] = chainTool(f), f.Name
			}
		}
	}
	s.mu.Lock()
	var gone []string
	for name := range s.tools {
		if want[name] == nil {
			gone = append(gone, name)
			delete(s.tools, name)
		}
	}
	var add []*mcp.Tool
	for name, t := range want {
		data, _ := json.Marshal(t)
		if s.tools[name] != string(data) {
			s.tools[name] = string(data)
			add = append(add, t)
		}
	}
	s.mu.Unlock()
	s.stamp = s.dirStamp()
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
	}
	for _, t := range add {
		name := chainOf[t.Name]
		s.addRunTool(t, func(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) Response {
			var in map[string]any
			if err := decode(raw, &in); err != nil {
				return refused(badArgs(err, ""), listLink())
			}
			return s.start(ctx, req, name, in)
		})
	}
}

// chainTool is the tool of one chain: its input schema, or for a chain
// that does not load (or whose schema is no object) any object, the call
// answering why it cannot run.
func chainTool(f *catalog.File) *mcp.Tool {
	t := &mcp.Tool{Name: toolName(f.Name), Title: "Run " + f.Name, InputSchema: map[string]any{"type": "object"}}
	if f.Err != nil {
		t.Description = "Chain " + f.Name + " does not load, so it cannot run now: " + f.Err.Error()
		return t
	}
	c := f.Loaded.Chain
	t.Description = "Runs chain " + c.Name + " as start_run does. " + c.Description
	if sch, problem := inputSchema(c); problem == "" {
		t.InputSchema = sch
	} else {
		t.Description = problem
	}
	return t
}

// Watch reloads the chains whenever a file of the chains directory
// changes (looked at every `every`), until ctx ends.
func (s *Server) Watch(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if st := s.dirStamp(); st != s.stamp {
				s.stamp = st
				s.Reload()
			}
		}
	}
}

// dirStamp sums up the chains directory: each entry's name, size and
// time of change.
func (s *Server) dirStamp() string {
	s.mu.Lock()
	cat := s.cat
	s.mu.Unlock()
	if cat == nil {
		return ""
	}
	entries, err := os.ReadDir(cat.Dir)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}

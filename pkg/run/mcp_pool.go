package run

import "github.com/chainrun/chainrun/pkg/mcpclient"

// mcpPool is the run's MCP sessions, opened when a step first needs one.
func (x *Execution) mcpPool() *mcpclient.Pool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.mcp == nil {
		x.mcp = &mcpclient.Pool{Grace: x.Engine.grace}
	}
	return x.mcp
}

// closeMCP ends the run's MCP sessions (stdio servers stop).
func (x *Execution) closeMCP() {
	x.mu.Lock()
	p := x.mcp
	x.mcp = nil
	x.mu.Unlock()
	if p != nil {
		if err := p.Close(); err != nil {
			x.Warn("closing MCP sessions: " + err.Error())
		}
	}
}

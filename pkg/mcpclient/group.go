package mcpclient

import (
	"context"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/executor"
)

// groupTransport starts a stdio server in a process group of its own and,
// once its connection is closed, stops that group (TERM, then KILL after
// the grace period): what the server started — workers, a language
// runtime's helpers — does not outlive the session, whether the run
// succeeded, failed or was interrupted.
type groupTransport struct {
	cmd   *exec.Cmd
	grace time.Duration
	// stdio is the SDK's transport over the command's stdin and stdout,
	// which closes stdin and ends the server program itself.
	stdio *mcp.CommandTransport
}

func newGroupTransport(cmd *exec.Cmd, grace time.Duration) *groupTransport {
	executor.OwnGroup(cmd)
	return &groupTransport{cmd: cmd, grace: grace, stdio: &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}}
}

// Connect starts the server.
func (t *groupTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.stdio.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &groupConn{Connection: conn, pid: t.cmd.Process.Pid, grace: t.grace}, nil
}

// groupConn is a stdio server's connection whose Close also stops the
// server's process group.
type groupConn struct {
	mcp.Connection
	pid     int
	grace   time.Duration
	stopped sync.Once
}

// Close ends the session as the SDK does (stdin closed, the server
// waited for), then stops what is left of the server's group.
func (c *groupConn) Close() error {
	err := c.Connection.Close()
	c.stopped.Do(func() { executor.StopGroup(c.pid, c.grace) })
	return err
}

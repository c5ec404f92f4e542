//go:build linux

package executor

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// streams connects a child's stdout and stderr to two pipes that the
// goroutine running the command reads itself, with poll(2), before it
// waits for the child. os/exec would start a goroutine per pipe, register
// both with the network poller and hand every read over between
// goroutines: about 0.1 ms a step on a small VM, a sixth of starting
// `true`. The child still writes to pipes, so a script that opens
// /dev/stdout or /dev/stderr appends to what was captured, as before (a
// file would be truncated by that open).
type streams struct {
	read  [2]int // read ends, -1 once at EOF or abandoned
	write [2]*os.File
	to    [2]io.Writer
	err   error // the first error of a writer
}

// openStreams makes the pipes and gives cmd their write ends.
func openStreams(cmd *exec.Cmd, stdout, stderr io.Writer) (*streams, error) {
	s := &streams{read: [2]int{-1, -1}, to: [2]io.Writer{stdout, stderr}}
	for i := range 2 {
		var p [2]int
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			s.close()
			return nil, err
		}
		// blocking ends: os.NewFile leaves them out of the network poller
		s.read[i], s.write[i] = p[0], os.NewFile(uintptr(p[1]), "|1")
	}
	cmd.Stdout, cmd.Stderr = s.write[0], s.write[1]
	return s, nil
}

// started drops this process's write ends: the child holds its own.
func (s *streams) started() {
	for i, w := range s.write {
		if w != nil {
			_ = w.Close()
			s.write[i] = nil
		}
	}
}

// close releases every end still open (the child did not start, or the
// streams are done).
func (s *streams) close() {
	s.started()
	for i, fd := range s.read {
		if fd >= 0 {
			_ = unix.Close(fd)
			s.read[i] = -1
		}
	}
}

// drain copies both pipes into their writers until both reach EOF. Once
// the child pid has exited, a grandchild that keeps a pipe open (a
// background job) is read for at most delay more; then the pipes are
// closed and what it writes after is lost, as os/exec's WaitDelay does.
// The child is not reaped: cmd.Wait does that after.
func (s *streams) drain(pid int, delay time.Duration) error {
	defer s.close()
	exit := newExitWatch(pid)
	defer exit.close()
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	fds := make([]unix.PollFd, 0, 3)
	var deadline time.Time
	for s.read[0] >= 0 || s.read[1] >= 0 {
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			return s.err // the child is gone; a straggler holds the pipes
		}
		fds = fds[:0]
		for _, fd := range s.read {
			fds = append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
		}
		wait := -1
		switch {
		case !deadline.IsZero():
			wait = max(int(time.Until(deadline)/time.Millisecond), 0)
		case exit.fd >= 0:
			fds = append(fds, unix.PollFd{Fd: int32(exit.fd), Events: unix.POLLIN})
		default:
			wait = 50 // no pidfd: look for the child's exit now and then
		}
		_, err := unix.Poll(fds, wait)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		for i := range s.read {
			if fds[i].Revents != 0 {
				s.readOnce(i, *bp)
			}
		}
		if deadline.IsZero() && (len(fds) == 3 && fds[2].Revents != 0 || exit.fd < 0 && exit.exited()) {
			deadline = time.Now().Add(delay)
		}
	}
	return s.err
}

// readOnce reads what pipe i has (poll said it is ready) and passes it on;
// EOF or an error closes the pipe.
func (s *streams) readOnce(i int, buf []byte) {
	n, err := unix.Read(s.read[i], buf)
	for errors.Is(err, unix.EINTR) {
		n, err = unix.Read(s.read[i], buf)
	}
	if n <= 0 {
		_ = unix.Close(s.read[i])
		s.read[i] = -1
		return
	}
	if s.to[i] == nil {
		return
	}
	if _, werr := s.to[i].Write(buf[:n]); werr != nil {
		// the pipe is still read (the child must not block on it); the
		// rest of the stream is dropped
		s.to[i] = nil
		if s.err == nil {
			s.err = werr
		}
	}
}

// exitWatch tells when a child has exited without reaping it: a pidfd
// that poll(2) reports readable then, or, where the kernel has none
// (before 5.3, or a sandbox that forbids it), waitid with WNOWAIT.
type exitWatch struct {
	pid, fd int
}

// pidfdOpen is unix.PidfdOpen; tests take it away.
var pidfdOpen = unix.PidfdOpen

func newExitWatch(pid int) exitWatch {
	fd, err := pidfdOpen(pid, 0)
	if err != nil {
		fd = -1
	}
	return exitWatch{pid: pid, fd: fd}
}

// exited reports, without a pidfd, whether the child has exited.
func (e exitWatch) exited() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, e.pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != nil || info.Signo != 0
}

func (e exitWatch) close() {
	if e.fd >= 0 {
		_ = unix.Close(e.fd)
	}
}

// devNull is the stdin every child shares, opened once: os/exec would
// open /dev/null (and register it with the network poller) for each.
var devNull = sync.OnceValue(func() *os.File {
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil // os/exec opens its own
	}
	return f
})

// noInput gives cmd the shared /dev/null as its stdin.
func noInput(cmd *exec.Cmd) {
	if f := devNull(); f != nil {
		cmd.Stdin = f
	}
}

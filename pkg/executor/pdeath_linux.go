package executor

import "syscall"

// dieWithParent has the kernel kill a step's process when chainrun dies
// without a chance to stop it (kill -9), so no step goes on unseen while
// a resume runs it again.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

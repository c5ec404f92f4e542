package tools

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// CommandPolicy limits the programs a Bash call may run: none of Denied,
// and, when Allowed is not nil, only those of Allowed. A name matches a
// program by its base name (touch matches /usr/bin/touch and ./touch).
// The command is read, not run: a command whose programs cannot be told
// from its text (a substitution, a variable or pattern in a program's
// place, a group, a keyword, a here-document) is refused, and so is a
// program that runs other programs (env, xargs, a shell, an interpreter,
// find -exec) unless an allow list names it. A deny list screens the
// programs it names; only an allow list bounds what a command can do,
// and a program it allows that runs others (python3, say) can run any.
type CommandPolicy struct {
	Allowed, Denied []string
}

// Empty reports whether the policy limits nothing.
func (p CommandPolicy) Empty() bool { return p.Allowed == nil && len(p.Denied) == 0 }

// Join is the policy under which both p and q hold: every denied name,
// and the names both allow lists hold (either one's when only one has a
// list).
func (p CommandPolicy) Join(q CommandPolicy) CommandPolicy {
	out := CommandPolicy{Denied: append(slices.Clone(p.Denied), q.Denied...)}
	switch {
	case p.Allowed == nil:
		out.Allowed = slices.Clone(q.Allowed)
	case q.Allowed == nil:
		out.Allowed = slices.Clone(p.Allowed)
	default:
		out.Allowed = []string{}
		for _, name := range p.Allowed {
			if slices.Contains(q.Allowed, name) {
				out.Allowed = append(out.Allowed, name)
			}
		}
	}
	return out
}

// Check returns why command may not run under the policy, or nil.
func (p CommandPolicy) Check(command string) error {
	if p.Empty() {
		return nil
	}
	cmds, err := simpleCommands(command)
	if err != nil {
		return fmt.Errorf("the policy cannot tell which programs this command runs (%v): write plain commands", err)
	}
	for _, words := range cmds {
		prog := words[0]
		name := path.Base(prog)
		switch {
		case p.matches(p.Denied, prog, name):
			return fmt.Errorf("%q is denied by the chain's tools_policies (_denied_commands)", name)
		case p.Allowed != nil && strings.Contains(prog, "/") && !slices.Contains(systemDirs, path.Dir(prog)) && !p.matches(p.Allowed, prog, prog):
			return fmt.Errorf("%q is a program outside the system's directories, which the allowed commands do not name by its path", prog)
		case p.Allowed != nil && !p.matches(p.Allowed, prog, name) && !slices.Contains(plainBuiltins, prog):
			return fmt.Errorf("%q is not among the allowed commands (%s) of the chain's tools_policies", name, strings.Join(p.Allowed, ", "))
		case runsOthers(name, words[1:]) && p.Allowed == nil:
			return fmt.Errorf("%q runs other programs, which the policy cannot see: write the program itself", name)
		}
	}
	return nil
}

func (CommandPolicy) matches(list []string, prog, name string) bool {
	for _, n := range list {
		if n == name || strings.Contains(n, "/") && n == prog {
			return true
		}
	}
	return false
}

// plainBuiltins are shell builtins that run nothing and change nothing a
// later program depends on (export of PATH is refused apart): an allow
// list need not name them, a deny list may.
var plainBuiltins = []string{"cd", "pwd", "true", "false", ":", "test", "[", "exit", "set", "shift", "unset", "export", "read", "wait", "echo", "printf"}

// systemDirs are where an allowed name may be given by its path: a
// program anywhere else (one the model wrote, say) is not the program the
// allow list means. The first three are a PATH that finds the usual ones.
var systemDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"}

// wrappers are programs that run a program or code named in their
// arguments.
var wrappers = []string{"env", "sudo", "doas", "su", "runuser", "pkexec", "xargs", "parallel", "exec", "eval",
	"command", "builtin", "source", ".", "alias", "trap", "hash", "enable", "fc", "nohup", "time", "nice", "ionice", "timeout", "stdbuf", "setsid",
	"jobs", "compgen", "complete", "bind", "mapfile", "readarray", // -x, -C, -F: a command or callback
	"let", // arithmetic, which runs the substitutions a variable's value holds
	"chroot", "unshare", "nsenter", "strace", "ltrace", "watch", "flock", "chrt", "taskset", "script", "expect",
	"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox", "toybox",
	"awk", "gawk", "mawk", "nawk", "sed", "ssh", "vi", "vim", "nvim", "emacs", "osascript",
	// shell escapes, configured commands, scripts of a project
	"ex", "ed", "view", "rvim", "vimdiff", "less", "more", "man", "most", "git", "make", "gmake", "npm", "npx", "yarn", "pnpm",
	"pip", "pip3", "go", "cargo", "docker", "podman", "kubectl", "at", "batch", "crontab", "systemd-run", "screen", "tmux",
	"unbuffer", "fakeroot", "firejail", "bwrap", "chpst", "gdb", "rlwrap", "socat", "nc", "ncat", "sqlite3", "mysql", "psql",
	"rsync", "scp", "sftp", "ftp"}

// interpreters run code given as an argument; their versioned names
// (python3.12) count too.
var interpreters = []string{"python", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua", "tclsh", "wish", "pwsh", "Rscript"}

// tarRunners are tar's long options that name a program to run.
var tarRunners = []string{"--to-command", "--checkpoint-action", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command"}

// runsOthers reports whether a program runs programs or code its
// arguments name.
func runsOthers(name string, args []string) bool {
	if slices.Contains(wrappers, name) {
		return true
	}
	for _, i := range interpreters {
		if rest, ok := strings.CutPrefix(name, i); ok && strings.Trim(rest, "0123456789.") == "" {
			return true
		}
	}
	if name == "tar" {
		for i, a := range args {
			// -I and -F in a cluster of short options (or the first
			// word, old style: tar xIf) name a program
			short := strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") || i == 0 && !strings.HasPrefix(a, "-")
			if short && strings.ContainsAny(a, "IF") || slices.ContainsFunc(tarRunners, func(o string) bool { return a == o || strings.HasPrefix(a, o+"=") }) {
				return true
			}
		}
	}
	if name == "find" {
		for _, a := range args {
			if slices.Contains([]string{"-exec", "-execdir", "-ok", "-okdir", "-fprintf", "-fprint", "-fls", "-delete"}, a) {
				return true
			}
		}
	}
	return false
}

// Environ is environ as a command under p runs with: under an allow list,
// PATH keeps only its absolute directories, as an empty or relative entry
// finds a name in the working directory, where a model may have put a
// program under an allowed name.
func (p CommandPolicy) Environ(environ []string) []string {
	if p.Allowed == nil {
		return environ
	}
	out := slices.Clone(environ)
	for i, kv := range out {
		dirs, ok := strings.CutPrefix(kv, "PATH=")
		if !ok {
			continue
		}
		var kept []string
		for _, d := range strings.Split(dirs, ":") {
			if strings.HasPrefix(d, "/") {
				kept = append(kept, d)
			}
		}
		if kept == nil { // an empty PATH is the working directory too
			kept = systemDirs[:3]
		}
		out[i] = "PATH=" + strings.Join(kept, ":")
	}
	return out
}

package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommandPolicy(t *testing.T) {
	deny := CommandPolicy{Denied: []string{"touch", "rm", "sudo"}}
	allow := CommandPolicy{Allowed: []string{"ls", "echo", "grep", "xargs"}}
	both := CommandPolicy{Allowed: []string{"ls", "echo"}, Denied: []string{"touch"}}
	cases := []struct {
		name    string
		p       CommandPolicy
		command string
		refused string // "" runs
	}{
		{"no policy runs anything", CommandPolicy{}, "touch x; $(rm -rf y)", ""},
		{"a denied program", deny, "touch marker", `"touch" is denied`},
		{"a denied program by its path", deny, "/usr/bin/touch marker", `"touch" is denied`},
		{"a denied program after another", deny, "echo hi && rm -rf build", `"rm" is denied`},
		{"a denied program in a pipe", deny, "ls | sudo tee /etc/x", `"sudo" is denied`},
		{"a denied program after a newline", deny, "echo a\ntouch b", `"touch" is denied`},
		{"a denied program in the background", deny, "echo a & touch b", `"touch" is denied`},
		{"a denied program hidden by quotes", deny, `'to'uch x`, `"touch" is denied`},
		{"a denied program hidden by a backslash", deny, `\touch x`, `"touch" is denied`},
		{"a denied program after an assignment", deny, "A=1 touch x", `"touch" is denied`},
		{"a denied program after a redirection", deny, ">out touch x", `"touch" is denied`},
		{"a command substitution", deny, "echo $(touch x)", "cannot tell"},
		{"backquotes", deny, "echo `touch x`", "cannot tell"},
		{"a substitution in double quotes", deny, `echo "$(touch x)"`, "cannot tell"},
		{"a subshell", deny, "(touch x)", "cannot tell"},
		{"a group", deny, "{ touch x; }", "cannot tell"},
		{"a program from a variable", deny, "$CMD x", "cannot tell"},
		{"a program from brace expansion", deny, "{tou,}ch x", "cannot tell"},
		{"a program from a glob", deny, "/usr/bin/tou?h x", "cannot tell"},
		{"a here-document", deny, "cat <<EOF\nx\nEOF", "cannot tell"},
		{"process substitution", deny, "cat <(touch x)", "cannot tell"},
		{"a shell keyword", deny, "if true; then touch x; fi", "cannot tell"},
		{"a program that runs another: env", deny, "env touch x", "runs other programs"},
		{"a program that runs another: sh -c", deny, "sh -c 'touch x'", "runs other programs"},
		{"a program that runs another: python", deny, "python3.12 -c 'open(\"x\",\"w\")'", "runs other programs"},
		{"find -exec", deny, "find . -name a -exec touch {} ;", "runs other programs"},
		{"an unclosed quote", deny, "echo 'x", "cannot tell"},
		{"plain commands pass a deny list", deny, "ls -la | grep go > list.txt 2>&1; echo \"$HOME done\"", ""},
		{"find without -exec passes", deny, "find . -name '*.go'", ""},
		{"an allowed program", allow, "ls -la", ""},
		{"allowed programs together", allow, "ls | grep x && echo ok", ""},
		{"a program outside the allow list", allow, "cat /etc/passwd", `"cat" is not among the allowed commands (ls, echo, grep, xargs)`},
		{"one program outside among allowed ones", allow, "ls; curl http://x", `"curl" is not among`},
		{"an allowed wrapper the author listed", allow, "ls | xargs echo", ""},
		{"an allowed name run from the working directory", allow, "./ls -la", "outside the system's directories"},
		{"an allowed name by a path the model could have written", allow, "/home/u/proj/ls -la", "outside the system's directories"},
		{"an allowed name by a path the allow list names", CommandPolicy{Allowed: []string{"/opt/tools/ls"}}, "/opt/tools/ls", ""},
		{"an allowed name found on a PATH the command sets", allow, "PATH=.:$PATH ls", "an assignment to PATH"},
		{"a loader variable before an allowed name", deny, "LD_PRELOAD=./x.so ls", "an assignment to LD_PRELOAD"},
		{"an alias for a denied program", deny, "alias ls='touch x'\nls", "runs other programs"},
		{"a trap that runs a denied program", deny, "trap 'touch x' EXIT", "runs other programs"},
		{"PATH exported before a name", deny, "export PATH=.:$PATH; ls", "export of PATH"},
		{"a plain export", deny, "export NAME=value; echo $NAME", ""},
		{"an allowed name by its absolute path", allow, "/bin/ls -la", ""},
		{"builtins that run nothing need no allowing", allow, "cd sub && set -e && ls; test -f x || exit 1", ""},
		{"a builtin the deny list names", CommandPolicy{Denied: []string{"cd"}}, "cd /", `"cd" is denied`},
		{"the deny list beats the allow list", both, "echo a; touch b", `"touch" is denied`},
		{"a wrapper both lists leave to the allow list", CommandPolicy{Allowed: []string{"python3", "ls"}, Denied: []string{"sudo"}}, "python3 -c 'print(1)'", ""},
		{"a wrapper with a deny list and no allow list", CommandPolicy{Denied: []string{"sudo"}}, "xargs -n1 echo", "runs other programs"},
		{"an empty command", both, "   ", ""},
		{"PATH set by printf -v before an allowed name", allow, "printf -v PATH %s .; ls", "printf of PATH"},
		{"PATH set by printf -vNAME", deny, "printf -vPATH %s /tmp; ls", "printf of PATH"},
		{"PATH unset: the shell then looks in the working directory", allow, "unset PATH; ls", "unset of PATH"},
		{"PATH read from a file", allow, "read -r PATH < p; ls", "read of PATH"},
		{"bash's table of programs set by printf", allow, "printf -v 'BASH_CMDS[ls]' %s ./ls; ls", "printf of BASH_CMDS"},
		{"a loader variable read from a file", deny, "read LD_PRELOAD < f", "read of LD_PRELOAD"},
		{"a variable a setter names by an expansion", allow, `read "$v" < p; ls`, "a variable named by an expansion"},
		{"a name reference to PATH", CommandPolicy{Denied: []string{"rm"}}, "declare -n r=PATH; r=.; ls", "a name reference"},
		{"mapfile of PATH", deny, "mapfile -t PATH < f", "mapfile of PATH"},
		{"printf of the word PATH prints it", allow, "printf '%s\\n' PATH; echo PATH", ""},
		{"a value holding a variable may be exported", deny, "export GOBIN=$PWD/bin; read -r line < f", ""},
		{"jobs -x runs a program", deny, "jobs -x touch x", "runs other programs"},
		{"a descriptor that is the start of a file's name", CommandPolicy{Allowed: []string{"echo"}}, ">&1set touch x", `"touch" is not among`},
		{"a file named like a descriptor after <&", deny, "<&0x touch y", `"touch" is denied`},
		{"a closed descriptor glued to a program", deny, ">&-touch y", `"touch" is denied`},
		{"a closed input glued to a program", CommandPolicy{Allowed: []string{"echo"}}, "2<&-touch y", `"touch" is not among`},
		{"a redirection whose file looks like another", CommandPolicy{Allowed: []string{"echo"}}, ">& 2>&1 touch y", "without its file"},
		{"a moved descriptor", deny, "echo a 3>&1- ; echo b >&1-x", ""},
		{"descriptors still pass", deny, "echo a 2>&1 >&- 3<&0; echo b>&2", ""},
		{"an appending assignment before a program", deny, "x+= touch y", `"touch" is denied`},
		{"an appending assignment before an expansion", deny, "x+=1 $T", "cannot tell"},
		{"PATH appended to by export", allow, "export PATH+=:.; ls", "export of PATH"},
		{"PATH appended to before a name", allow, "PATH+=:. ls", "an assignment to PATH"},
		{"an assignment split by a line continuation", deny, "A\\\n=1 touch x", `"touch" is denied`},
		{"an assignment's name joined across a continuation", deny, "read\\\nonly= touch", `"touch" is denied`},
		{"git runs what its config or hooks say", deny, "git -c core.pager='touch x' log", "runs other programs"},
		{"make runs a Makefile's recipes", deny, "make all", "runs other programs"},
		{"an editor's shell escape", deny, "ex -c '!touch x' -c q f", "runs other programs"},
		{"a pager's shell escape", deny, "less +'!touch x' f", "runs other programs"},
		{"a package manager's scripts", deny, "npx cowsay hi", "runs other programs"},
		{"tar's command options", deny, "tar -xf a.tar --to-command='touch x'", "runs other programs"},
		{"tar's checkpoint action", deny, "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='touch x' .", "runs other programs"},
		{"tar with a compressor it names", deny, "tar -I 'touch x' -cf a.tar .", "runs other programs"},
		{"a plain tar passes a deny list", deny, "tar -czf out.tgz src; tar xzf out.tgz", ""},
		{"tar's -I in a cluster, old style", deny, "tar cIf 'touch x' a.tar .", "runs other programs"},
		{"socat EXEC", deny, "socat - EXEC:touch", "runs other programs"},
		{"$[…] evaluates a variable holding a substitution", deny, "a='x[$(touch p)]'; echo $[a]", "cannot tell"},
		{"let evaluates a variable holding a substitution", deny, "a='x[$(touch p)]'; let a", "runs other programs"},
		{"an integer variable evaluates what it is given", deny, "declare -i n; n=$c", "declare -i"},
		{"an integer local given a substitution by name", deny, "local -ai n=c", "local -ai"},
		{"test -v evaluates an element's subscript", deny, "test -v 'x[$(touch p)]'", "subscript"},
		{"test -v of an expansion", allow, "a='x[$(touch p)]'; test -v \"$a\" && ls", "subscript"},
		{"read into an element whose subscript is code", deny, "read 'x[$(touch p)]' < f", "subscript"},
		{"printf -v into an element whose subscript is code", allow, "printf -v 'x[`touch p`]' %s v", "subscript"},
		{"an element with a number for subscript may be read", deny, "read 'x[2]' < f; test -v 'x[1]'; test -v HOME", ""},
		{"wait -p sets PATH to a number, a directory the model may have made", allow, "wait -n -p PATH; ls", "wait of PATH"},
		{"compgen -C runs a command", deny, "compgen -C 'touch x' w", "runs other programs"},
		{"mapfile -C runs a callback", CommandPolicy{Denied: []string{"rm"}}, "mapfile -C 'rm -rf x' -c 1 a < f", "runs other programs"},
		{"readarray -C runs a callback", CommandPolicy{Denied: []string{"rm"}}, "readarray -t -C 'rm x' a < f", "runs other programs"},
		{"complete -C names a command", deny, "complete -C 'touch x' ls", "runs other programs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Check(tc.command)
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused != "" && err == nil:
				t.Errorf("ran, want refused with %q", tc.refused)
			case tc.refused != "" && !strings.Contains(err.Error(), tc.refused):
				t.Errorf("refused with %q, want %q", err, tc.refused)
			}
		})
	}
}

func TestCommandPolicyJoin(t *testing.T) {
	a := CommandPolicy{Allowed: []string{"ls", "echo", "cat"}, Denied: []string{"rm"}}
	b := CommandPolicy{Allowed: []string{"echo", "cat", "ls", "grep"}, Denied: []string{"touch"}}
	j := a.Join(b)
	for cmd, ok := range map[string]bool{"ls": true, "grep x": false, "rm x": false, "touch x": false, "cat f": true} {
		if err := j.Check(cmd); (err == nil) != ok {
			t.Errorf("%q: %v, want ran=%v", cmd, err, ok)
		}
	}
	if j := (CommandPolicy{}).Join(b); j.Check("grep x") != nil || j.Check("touch x") == nil {
		t.Error("a policy joined with none is itself")
	}
}

// Bash runs no command its Env's policy refuses.
func TestBashKeepsToItsCommandPolicy(t *testing.T) {
	dir := t.TempDir()
	env := Env{Dir: dir, Commands: CommandPolicy{Allowed: []string{"printf"}}}
	if _, err := Run(t.Context(), env, "Bash", []byte(`{"command": "printf ok > ran.txt"}`)); err != nil {
		t.Fatalf("an allowed command: %v", err)
	}
	_, err := Run(t.Context(), env, "Bash", []byte(`{"command": "printf a; mkdir made"}`))
	if err == nil || !strings.Contains(err.Error(), `command not run: "mkdir" is not among the allowed commands`) {
		t.Fatalf("a refused command: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "made")); serr == nil {
		t.Error("the refused command ran")
	}
}

// Under an allow list, a name is never found in the working directory
// through a PATH entry that is empty or relative: a model that copied a
// shell there under an allowed name would run anything.
func TestBashAllowListIgnoresRelativePathEntries(t *testing.T) {
	for _, path := range []string{":/usr/bin:/bin", ".:/usr/bin:/bin", "sub:/usr/bin:/bin", "sub"} {
		t.Run(path, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{dir, filepath.Join(dir, "sub")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, "ls"), []byte("#!/bin/sh\necho planted > planted.txt\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			env := Env{Dir: dir, Environ: []string{"PATH=" + path}, Commands: CommandPolicy{Allowed: []string{"ls"}}}
			if _, err := Run(t.Context(), env, "Bash", []byte(`{"command": "ls"}`)); err != nil {
				t.Fatalf("ls: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "planted.txt")); err == nil {
				t.Error("the ls in the working directory ran")
			}
		})
	}
}

// FuzzCommandPolicy reads arbitrary commands: it never panics, and a
// command it lets through under a deny list holds no denied program as
// a word of its own at a command's start.
func FuzzCommandPolicy(f *testing.F) {
	for _, s := range []string{"ls -la | grep x", "echo $(touch x)", "A=1 'to'uch x 2>&1", "cat <<E\nx\nE", "x\\\ny", `"$a"b`, "find . -exec rm {} +", "a>&-; b&>f"} {
		f.Add(s)
	}
	p := CommandPolicy{Denied: []string{"touch"}}
	f.Fuzz(func(t *testing.T, command string) {
		if p.Check(command) != nil {
			return
		}
		cmds, err := simpleCommands(command)
		if err != nil {
			t.Fatalf("%q passed but does not read: %v", command, err)
		}
		for _, words := range cmds {
			if filepath.Base(words[0]) == "touch" {
				t.Fatalf("%q runs touch", command)
			}
		}
	})
}

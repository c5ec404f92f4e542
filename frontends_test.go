package main

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// frontEndImporters are the packages that may import a front-end
// (pkg/format/...): pkg/load lists them. Every other package reads a
// peer's file through pkg/load, so that the model never depends on which
// front-end a chain came from. A peer's own kinds package runs what its
// front-end read (pkg/kind/contenox runs contenox's task handler, whose
// type and names are the front-end's): it may import that front-end, and
// no other (peerKinds).
var frontEndImporters = []string{"pkg/load"}

// peerKinds are the kinds packages of one peer, each with the one
// front-end it may import.
var peerKinds = map[string]string{"pkg/kind/contenox": "pkg/format/contenox"}

// TestFrontEndsDirection holds the direction of the front-ends: only
// frontEndImporters import a pkg/format package; a front-end imports
// neither the engine (pkg/run) nor a kind (pkg/kind), since it reads
// files and runs nothing; and the model and the engine (pkg/chain,
// pkg/run and their sub-packages) import no front-end, kind or builtin.
func TestFrontEndsDirection(t *testing.T) {
	under := func(rel, dir string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }
	for _, p := range goList(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		for _, imp := range p.Imports {
			imp, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if under(imp, "pkg/format") && !slices.Contains(frontEndImporters, rel) && peerKinds[rel] != imp {
				t.Errorf("%s imports the front-end %s: only %v may; read files through pkg/load", rel, imp, frontEndImporters)
			}
			if under(rel, "pkg/format") && (under(imp, "pkg/run") || under(imp, "pkg/kind")) {
				t.Errorf("the front-end %s imports %s: a front-end reads files into the model and runs nothing", rel, imp)
			}
			if (under(rel, "pkg/chain") || under(rel, "pkg/run")) && (under(imp, "pkg/format") || under(imp, "pkg/kind") || under(imp, "pkg/builtin")) {
				t.Errorf("%s imports %s: the model and the engine know no front-end or kind", rel, imp)
			}
		}
	}
}

// peerWords are the peers whose names no identifier of the core may hold,
// as a camel-case word (isTaskChain, ContenoxNumber): what is a peer's is
// in its front-end. A peer joins the list when its reader has left
// pkg/chain; messages and comments may still name it.
var peerWords = []string{"contenox", "taskchain", "flowgate", "occ"}

// coreDirs are the packages peerWords hold for, with their sub-packages.
var coreDirs = []string{"pkg/chain", "pkg/run"}

// TestNoPeerNamesInCore scans the identifiers (not comments or string
// literals) of the core's non-test files for a peer's name.
func TestNoPeerNamesInCore(t *testing.T) {
	for _, p := range goList(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if !slices.ContainsFunc(coreDirs, func(d string) bool { return rel == d || strings.HasPrefix(rel, d+"/") }) {
			continue
		}
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
			for {
				pos, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.IDENT {
					continue
				}
				if w := peerWord(lit); w != "" {
					t.Errorf("%s:%d: identifier %s names the peer %s: move it to the peer's front-end, or name what it does", filepath.Join(rel, name), fset.Position(pos).Line, lit, w)
				}
			}
		}
	}
}

// peerWord is the peer an identifier names, "" for none: a peer's word
// is a run of its camel-case words (task+Chain), so that a word that
// merely begins with a peer's letters does not count.
func peerWord(ident string) string {
	words := camelWords(ident)
	for _, peer := range peerWords {
		for i := range words {
			joined := ""
			for _, w := range words[i:] {
				if joined += strings.ToLower(w); joined == peer {
					return peer
				}
				if !strings.HasPrefix(peer, joined) {
					break
				}
			}
		}
	}
	return ""
}

// camelWords splits an identifier at case changes and underscores:
// isTaskChain is is, Task, Chain; OCCReading is OCC, Reading.
func camelWords(ident string) []string {
	var words []string
	r := []rune(ident)
	start := 0
	for i := 1; i <= len(r); i++ {
		end := i == len(r) || r[i] == '_' ||
			unicode.IsUpper(r[i]) && (unicode.IsLower(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1]) && unicode.IsUpper(r[i-1]))
		if end {
			if w := strings.Trim(string(r[start:i]), "_"); w != "" {
				words = append(words, w)
			}
			start = i
		}
	}
	return words
}

// TestPeerWord holds the camel-case rule to examples, including the
// names the front-ends moved out of the core.
func TestPeerWord(t *testing.T) {
	for _, tt := range []struct{ ident, want string }{
		{"isTaskChain", "taskchain"},
		{"decodeTaskChain", "taskchain"},
		{"ContenoxNumber", "contenox"},
		{"contenox", "contenox"},
		{"taskchain_funcs", "taskchain"},
		{"TaskRequest", ""},
		{"taskChainer", ""},
		{"FirstNumber", ""},
		{"HandlerChat", ""},
		{"decodeFlowgateSettings", "flowgate"},
		{"FlowgateInputs", "flowgate"},
		{"isFlowgateFlag", "flowgate"},
		{"flowgate", "flowgate"},
		{"flowGraph", ""},
	} {
		if got := peerWord(tt.ident); got != tt.want {
			t.Errorf("peerWord(%q) = %q, want %q (words %q)", tt.ident, got, tt.want, camelWords(tt.ident))
		}
	}
}

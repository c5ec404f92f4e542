// Command gen writes the benchmark workloads once, in five forms: a
// chainrun chain file, a Makefile, a go-task Taskfile, a justfile and a
// plain spec for the os/exec floor program. Writing all five from one
// in-memory graph is
// what makes the comparison fair: every runner gets the same nodes, the
// same edges and the same argv.
//
// Usage: go run ./bench/gen -out DIR [-branches N]
//
// Workloads: wide, chain, layered, skew, foreach (see their builders
// below) and one, a single step that shows each runner's fixed start-up
// cost.
//
// It prints "skew-critical-path-ms N" on stdout so bench/run.sh can compare
// chainrun's skew time with the best any runner could do.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// node is one step: an id, the ids it waits for, and the argv it runs.
type node struct {
	id   string
	deps []string
	argv []string
}

// workload is a named DAG; nodes are listed in an order where every
// dependency comes before its dependents. A loop's nodes are written for
// chainrun as the items of one for_each step (their last word is the item).
type workload struct {
	name  string
	nodes []node
	loop  bool
}

func main() {
	out := flag.String("out", "", "directory to write the workloads into")
	branches := flag.Int("branches", 2, "skew branches (keep it <= the parallelism, or the critical path is unreachable)")
	items := flag.Int("items", 1000, "items of the foreach workload")
	flag.Parse()
	if *out == "" {
		log.Fatal("gen: -out is required")
	}
	// go-task runs commands through an in-process shell where `true` is a
	// builtin; the absolute path makes it fork a process like the others.
	truePath, err := exec.LookPath("true")
	if err != nil {
		log.Fatal(err)
	}
	skew, critical := skewWorkload(*branches)
	// one is a single step: its time is each runner's fixed start-up cost.
	one := wide(1)
	one.name = "one"
	for _, w := range []workload{wide(500), chain(200), layered(20, 25), skew, foreach(*items), one} {
		if err := writeAll(*out, w, truePath); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("skew-critical-path-ms %d\n", critical)
}

// wide is n independent steps: it measures pure per-step spawn cost and
// how well a runner keeps every slot busy.
func wide(n int) workload {
	w := workload{name: "wide"}
	for i := 1; i <= n; i++ {
		w.nodes = append(w.nodes, node{id: fmt.Sprintf("s%d", i), argv: []string{"true"}})
	}
	return w
}

// foreach is n independent `true ITEM` commands, which chainrun runs as
// the items of one for_each step and the others as n steps: it measures
// what an item costs. Every runner passes the item, since `true` with an
// argument does more than without (coreutils' sets its locale up to look
// for --help), so a floor of bare `true` would not be the same work.
func foreach(n int) workload {
	w := workload{name: "foreach", loop: true}
	for i := 1; i <= n; i++ {
		w.nodes = append(w.nodes, node{id: fmt.Sprintf("i%d", i), argv: []string{"true", strconv.Itoa(i)}})
	}
	return w
}

// chain is n steps in a line: no parallelism at all, so it measures the
// latency between one step ending and the next one starting.
func chain(n int) workload {
	w := workload{name: "chain"}
	for i := 1; i <= n; i++ {
		nd := node{id: fmt.Sprintf("s%d", i), argv: []string{"true"}}
		if i > 1 {
			nd.deps = []string{fmt.Sprintf("s%d", i-1)}
		}
		w.nodes = append(w.nodes, nd)
	}
	return w
}

// layered is layers x width steps where each step waits for the whole
// previous layer: many edges, and a join after every layer.
func layered(layers, width int) workload {
	w := workload{name: "layered"}
	var prev []string
	for l := 1; l <= layers; l++ {
		var cur []string
		for i := 1; i <= width; i++ {
			id := fmt.Sprintf("l%d_%d", l, i)
			w.nodes = append(w.nodes, node{id: id, deps: prev, argv: []string{"true"}})
			cur = append(cur, id)
		}
		prev = cur
	}
	return w
}

// skewWorkload builds branches of two sleeps each, alternating long-short
// and short-long. A runner that starts steps as soon as their deps are done
// needs the critical path (0.6 s); one that runs in waves waits for the
// slowest step of each wave and needs 1.0 s. It returns the critical path
// in milliseconds.
func skewWorkload(branches int) (workload, int) {
	w := workload{name: "skew"}
	pairs := [][2]int{{500, 100}, {100, 500}} // sleeps in ms, per branch
	critical := 0
	for b := 0; b < max(branches, 2); b++ {
		p := pairs[b%2]
		first, second := fmt.Sprintf("b%d_1", b), fmt.Sprintf("b%d_2", b)
		w.nodes = append(w.nodes,
			node{id: first, argv: []string{"sleep", seconds(p[0])}},
			node{id: second, deps: []string{first}, argv: []string{"sleep", seconds(p[1])}})
		critical = max(critical, p[0]+p[1])
	}
	return w, critical
}

// seconds formats ms as the decimal seconds sleep(1) takes, e.g. "0.5".
func seconds(ms int) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)
}

// writeAll writes one workload in the five formats, named after it.
func writeAll(dir string, w workload, truePath string) error {
	files := map[string]string{
		w.name + ".yaml":         chainrunYAML(w),
		w.name + ".mk":           makefile(w),
		w.name + ".taskfile.yml": taskfile(w, truePath),
		w.name + ".justfile":     justfile(w, truePath),
		w.name + ".spec":         spec(w),
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// chainrunYAML renders cli steps with command + args, so chainrun execs
// the argv directly, as the other runners do.
func chainrunYAML(w workload) string {
	if w.loop {
		return chainrunLoop(w)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nsteps:\n", w.name)
	for _, n := range w.nodes {
		fmt.Fprintf(&b, "  - id: %s\n    type: cli\n    command: %q\n", n.id, n.argv[0])
		if len(n.argv) > 1 {
			fmt.Fprintf(&b, "    args: [%s]\n", quoteAll(n.argv[1:]))
		}
		if len(n.deps) > 0 {
			fmt.Fprintf(&b, "    depends_on: [%s]\n", strings.Join(n.deps, ", "))
		}
	}
	return b.String()
}

// chainrunLoop renders a loop workload as one for_each step over an
// input whose default holds the items, one a line: no step or process
// makes the list, so the run is the items alone. Every node runs the same
// command; its last word is the item.
func chainrunLoop(w workload) string {
	items := make([]string, len(w.nodes))
	for i, n := range w.nodes {
		items[i] = n.argv[len(n.argv)-1]
	}
	argv := w.nodes[0].argv
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\ninputs:\n  - name: items\n    default: %q\n", w.name, strings.Join(items, "\n"))
	fmt.Fprintf(&b, "steps:\n  - id: each\n    type: cli\n    for_each: \"{input.items}\"\n    command: %q\n", argv[0])
	fmt.Fprintf(&b, "    args: [%s]\n", quoteAll(append(argv[1:len(argv)-1:len(argv)-1], "{item}")))
	return b.String()
}

// makefile renders phony targets whose prerequisites are the deps. Simple
// recipes like these are exec'd by GNU make without a shell.
func makefile(w workload) string {
	var b strings.Builder
	ids := make([]string, len(w.nodes))
	for i, n := range w.nodes {
		ids[i] = n.id
	}
	fmt.Fprintf(&b, ".SUFFIXES:\n.PHONY: all %s\nall: %s\n", strings.Join(ids, " "), strings.Join(ids, " "))
	for _, n := range w.nodes {
		fmt.Fprintf(&b, "%s:%s\n\t%s\n", n.id, prefixAll(" ", n.deps), strings.Join(n.argv, " "))
	}
	return b.String()
}

// taskfile renders go-task v3 tasks. run: once is essential: by default a
// task needed by 25 others would run 25 times.
func taskfile(w workload, truePath string) string {
	var b strings.Builder
	b.WriteString("version: '3'\nrun: once\ntasks:\n  default:\n    deps: [")
	for i, n := range w.nodes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n.id)
	}
	b.WriteString("]\n")
	for _, n := range w.nodes {
		argv := append([]string(nil), n.argv...)
		if argv[0] == "true" {
			argv[0] = truePath
		}
		fmt.Fprintf(&b, "  %s:\n    cmds: [%q]\n", n.id, strings.Join(argv, " "))
		if len(n.deps) > 0 {
			fmt.Fprintf(&b, "    deps: [%s]\n", strings.Join(n.deps, ", "))
		}
	}
	return b.String()
}

// justfile renders just recipes. just runs each recipe line through its
// shell (sh -cu), where true is a builtin: the absolute path makes it
// start a process as the others do, so just pays a shell and the command
// per step. all and every recipe with several dependencies are
// [parallel], so just runs their dependencies up to --jobs at once; a
// recipe runs once per invocation, however many depend on it.
func justfile(w workload, truePath string) string {
	var b strings.Builder
	ids := make([]string, len(w.nodes))
	for i, n := range w.nodes {
		ids[i] = n.id
	}
	fmt.Fprintf(&b, "[parallel]\nall:%s\n", prefixAll(" ", ids))
	for _, n := range w.nodes {
		argv := append([]string(nil), n.argv...)
		if argv[0] == "true" {
			argv[0] = truePath
		}
		b.WriteString("\n")
		if len(n.deps) > 1 {
			b.WriteString("[parallel]\n")
		}
		fmt.Fprintf(&b, "%s:%s\n    @%s\n", n.id, prefixAll(" ", n.deps), strings.Join(argv, " "))
	}
	return b.String()
}

// spec renders the floor program's input: one line per node, "id deps
// argv...", with deps comma-separated or "-" for none.
func spec(w workload) string {
	var b strings.Builder
	for _, n := range w.nodes {
		deps := "-"
		if len(n.deps) > 0 {
			deps = strings.Join(n.deps, ",")
		}
		fmt.Fprintf(&b, "%s %s %s\n", n.id, deps, strings.Join(n.argv, " "))
	}
	return b.String()
}

// quoteAll double-quotes each word for a YAML flow sequence, so "0.5"
// stays a string and not a number.
func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}

// prefixAll joins words with each one preceded by sep ("" for none), so a
// target without prerequisites gets no trailing blank.
func prefixAll(sep string, words []string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(sep + w)
	}
	return b.String()
}

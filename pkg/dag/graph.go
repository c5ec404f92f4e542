package dag

import "fmt"

// Graph holds nodes of type K in declaration order with the edges "i
// depends on j". It is immutable once built and safe for concurrent reads.
type Graph[K comparable] struct {
	nodes      []K
	index      map[K]int
	deps       [][]int
	dependents [][]int
	order      []int // a topological order (dependencies first)
	rank       []int // position of each node in order
}

// MissingError says a node depends on something that is not a node.
type MissingError[K comparable] struct {
	Node, Dep K
}

func (e *MissingError[K]) Error() string {
	return fmt.Sprintf("%v depends on %v, which is not in the graph", e.Node, e.Dep)
}

// CycleError carries a dependency cycle as a path whose last element
// repeats the first: a depends on b, b on c, c on a.
type CycleError[K comparable] struct {
	Path []K
}

func (e *CycleError[K]) Error() string {
	s := ""
	for i, k := range e.Path {
		if i > 0 {
			s += " → "
		}
		s += fmt.Sprint(k)
	}
	return "dependency cycle: " + s
}

// New builds a graph. deps gives the nodes each node depends on (it is
// asked twice for each node, and must answer the same). It fails
// with *MissingError for an unknown dependency and *CycleError for a cycle.
func New[K comparable](nodes []K, deps func(K) []K) (*Graph[K], error) {
	g := &Graph[K]{
		nodes:      nodes,
		index:      make(map[K]int, len(nodes)),
		deps:       make([][]int, len(nodes)),
		dependents: make([][]int, len(nodes)),
	}
	for i, k := range nodes {
		g.index[k] = i
	}
	// the edges are held in one block per direction, each node's a
	// part of it: a graph of many edges costs a few allocations, not a
	// growing list per node
	total := 0
	for _, k := range nodes {
		total += len(deps(k))
	}
	edges := make([]int, 0, total)
	from, fanIn := make([]int, len(nodes)+1), make([]int, len(nodes))
	for i, k := range nodes {
		for _, d := range deps(k) {
			j, ok := g.index[d]
			if !ok {
				return nil, &MissingError[K]{Node: k, Dep: d}
			}
			edges = append(edges, j)
			fanIn[j]++
		}
		from[i+1] = len(edges)
	}
	back, at := make([]int, len(edges)), 0
	for i := range nodes {
		g.deps[i] = edges[from[i]:from[i+1]:from[i+1]]
		g.dependents[i], at = back[at:at:at+fanIn[i]], at+fanIn[i]
	}
	for i := range nodes {
		for _, j := range g.deps[i] {
			g.dependents[j] = append(g.dependents[j], i)
		}
	}
	if cyc := g.findCycle(); cyc != nil {
		return nil, &CycleError[K]{Path: cyc}
	}
	g.order = g.topoOrder()
	g.rank = make([]int, len(nodes))
	for pos, i := range g.order {
		g.rank[i] = pos
	}
	return g, nil
}

// Len is the number of nodes.
func (g *Graph[K]) Len() int { return len(g.nodes) }

// Nodes returns the nodes in declaration order.
func (g *Graph[K]) Nodes() []K { return g.nodes }

// findCycle returns one cycle as a path, or nil. Iterative so a deep
// chain cannot overflow the stack.
func (g *Graph[K]) findCycle() []K {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(g.nodes))
	type frame struct{ node, next int }
	for start := range g.nodes {
		if color[start] != white {
			continue
		}
		stack := []frame{{start, 0}}
		color[start] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(g.deps[top.node]) {
				d := g.deps[top.node][top.next]
				top.next++
				switch color[d] {
				case white:
					color[d] = grey
					stack = append(stack, frame{d, 0})
				case grey:
					var path []K
					in := false
					for _, f := range stack {
						if f.node == d {
							in = true
						}
						if in {
							path = append(path, g.nodes[f.node])
						}
					}
					return append(path, g.nodes[d])
				}
				continue
			}
			color[top.node] = black
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}

// topoOrder is Kahn's algorithm, stable in declaration order.
func (g *Graph[K]) topoOrder() []int {
	indeg := make([]int, len(g.nodes))
	for i := range g.nodes {
		indeg[i] = len(g.deps[i])
	}
	order := make([]int, 0, len(g.nodes))
	for i := range g.nodes {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for h := 0; h < len(order); h++ {
		for _, d := range g.dependents[order[h]] {
			indeg[d]--
			if indeg[d] == 0 {
				order = append(order, d)
			}
		}
	}
	return order
}

// Waves groups nodes by depth: wave 0 has no dependencies, wave n depends
// on something in wave n-1. Waves are for showing and reporting a graph;
// Run never waits for a wave to finish.
func (g *Graph[K]) Waves() [][]K {
	depth := make([]int, len(g.nodes))
	maxDepth := 0
	for _, i := range g.order {
		for _, d := range g.deps[i] {
			if depth[d]+1 > depth[i] {
				depth[i] = depth[d] + 1
			}
		}
		maxDepth = max(maxDepth, depth[i])
	}
	if len(g.nodes) == 0 {
		return nil
	}
	waves := make([][]K, maxDepth+1)
	for i, k := range g.nodes {
		waves[depth[i]] = append(waves[depth[i]], k)
	}
	return waves
}

// Deps returns the direct dependencies of k.
func (g *Graph[K]) Deps(k K) []K {
	i, ok := g.index[k]
	if !ok {
		return nil
	}
	out := make([]K, len(g.deps[i]))
	for n, j := range g.deps[i] {
		out[n] = g.nodes[j]
	}
	return out
}

// DependsOn reports whether a depends on b, directly or through others.
func (g *Graph[K]) DependsOn(a, b K) bool {
	ia, okA := g.index[a]
	ib, okB := g.index[b]
	if !okA || !okB || ia == ib || g.rank[ib] > g.rank[ia] {
		return false
	}
	for _, d := range g.deps[ia] {
		if d == ib {
			return true
		}
	}
	seen := map[int]bool{ia: true}
	queue := []int{ia}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, d := range g.deps[n] {
			if d == ib {
				return true
			}
			// a dependency later in topological order than b cannot reach b
			if !seen[d] && g.rank[d] > g.rank[ib] {
				seen[d] = true
				queue = append(queue, d)
			}
		}
	}
	return false
}

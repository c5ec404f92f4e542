package graph

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

// Graph is what a picture shows, whatever its format: the same model is
// printed by Mermaid and by DOT, so both draw the same thing.
type Graph struct {
	// Name titles the picture (DOT's graph name).
	Name string
	// States says it is a state diagram: an initial state entered from a
	// start, terminal states, edges that may lead to the end. Otherwise it
	// is a flowchart of steps grouped by wave.
	States bool
	// Initial is the state a workflow starts in.
	Initial string
	// Groups hold a flowchart's nodes, one group per wave, in order.
	Groups []Group
	// Nodes are a state diagram's nodes, ungrouped, in file order.
	Nodes []Node
	// Edges are the arrows in order; To "" is the end of a workflow.
	Edges []Edge
	// Outcomes colour nodes by what happened to them in a run; empty for
	// a chain's plain picture, which shades decision points instead.
	Outcomes Outcomes
}

// Group is a set of nodes drawn together (a wave).
type Group struct {
	Name, Label string
	Nodes       []Node
}

// Node is one step or state.
type Node struct {
	ID, Label string
	// Task is the kind of a state's task, "" for none: Mermaid shows it
	// in the state's label, DOT keeps the state's name alone.
	Task string
	// Kind and Title are a step's kind and its label (when it has one),
	// which the text form shows beside its id.
	Kind, Title string
	// Terminal and Decision mark a workflow's ending states and its
	// decision points (an agent or a person chooses the transition).
	Terminal, Decision bool
}

// Edge is one arrow: a dependency (dashed when the step has a
// condition), a transition or a branch (labelled).
type Edge struct {
	From, To, Label string
	Dashed          bool
}

// Of is the model of a chain's picture: a state diagram for a workflow,
// else a flowchart by wave; out colours it by a run's outcomes.
func Of(c *chain.Chain, out Outcomes) *Graph {
	if c.Workflow != nil {
		return ofWorkflow(c, out)
	}
	g := &Graph{Name: c.Name, Outcomes: out}
	for i, wave := range c.Graph().Waves() {
		grp := Group{Name: fmt.Sprintf("wave%d", i+1), Label: fmt.Sprintf("wave %d", i+1)}
		for _, id := range wave {
			s := c.Step(id)
			n := Node{ID: id, Label: stepLabel(s), Kind: string(s.Kind)}
			if s.Label != id {
				n.Title = s.Label
			}
			grp.Nodes = append(grp.Nodes, n)
		}
		g.Groups = append(g.Groups, grp)
	}
	for _, s := range c.Steps {
		for _, d := range s.DependsOn {
			g.Edges = append(g.Edges, Edge{From: d, To: s.ID, Dashed: s.Condition != ""})
		}
	}
	return g
}

func stepLabel(s *chain.Step) string {
	label := s.ID
	if s.Label != "" && s.Label != s.ID {
		label = s.Label
	}
	return fmt.Sprintf("%s (%s)", label, s.Kind)
}

// ofWorkflow is a workflow's state diagram: named transitions labelled
// with their actor (deterministic ones with their executor's kind), and
// branches with their operator.
func ofWorkflow(c *chain.Chain, out Outcomes) *Graph {
	w := c.Workflow
	g := &Graph{Name: c.Name, States: true, Initial: w.InitialState, Outcomes: out}
	for _, s := range w.States {
		n := Node{ID: s.Name, Label: s.Name, Terminal: s.Terminal, Decision: !s.Terminal && s.Task == nil && !s.Automatic()}
		if s.Task != nil {
			n.Task = string(s.Task.Kind)
		}
		g.Nodes = append(g.Nodes, n)
		for _, t := range s.Transitions {
			label := t.Name
			switch {
			case t.Actor != chain.ActorDeterministic:
				label += " [" + t.Actor + "]"
			case t.Executor != nil:
				label += " (" + string(t.Executor.Kind) + ")"
			}
			g.Edges = append(g.Edges, Edge{From: s.Name, To: t.Target, Label: label})
		}
		for _, b := range s.Branches {
			label := b.Operator
			if b.Operator != chain.OpDefault {
				label += " " + b.When
			}
			to := b.Goto
			if to == chain.End {
				to = ""
			}
			g.Edges = append(g.Edges, Edge{From: s.Name, To: to, Label: label})
		}
	}
	return g
}

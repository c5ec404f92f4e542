package model

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"reflect"
	"slices"
	"sort"
	"strings"
)

// RouterFields configure a router step (OCC's router): a model call whose
// answer picks one of the routes; the steps listed only in the routes not
// picked are skipped.
type RouterFields struct {
	// Routes maps each answer the model may give to the steps that run
	// when it gives it.
	Routes map[string][]string `yaml:"routes" doc:"Route name → the steps that run when the model's answer picks it; steps listed only in other routes are skipped."`
	// DefaultRoute is taken when the answer names no route.
	DefaultRoute string `yaml:"default_route" doc:"The route taken when the model's answer names none (without it such an answer fails the step)."`
}

// routerKind asks a model (it takes every field of an agent step) and
// matches its answer to a route: the route the whole answer names, else
// the one named earliest in it, else default_route. Every step a route
// lists must depend on the router, so that none starts before the choice.
func init() {
	chain.Register(chain.Unit{
		Kind:           chain.KindRouter,
		Order:          130,
		Body:           reflect.TypeFor[RouterFields](),
		Borrows:        chain.KindAgent,
		Conversational: true,
		Check: func(v chain.Checker, s *chain.Step) {
			if s.Agent().Prompt == "" {
				v.Errorf(s.Pos, "%s: prompt is required for a router step: the question whose answer picks the route", s.Subject())
			} else {
				checkAgent(v, s)
			}
			if len(Router(s).Routes) == 0 {
				v.Errorf(s.Pos, "%s: routes is required for a router step: the answers it expects, each with the steps it runs", s.Subject())
			}
			for name := range Router(s).Routes {
				if strings.TrimSpace(name) == "" {
					v.Errorf(s.At("routes"), "%s: routes: a route needs a name", s.Subject())
				}
			}
			if Router(s).DefaultRoute != "" && Router(s).Routes[Router(s).DefaultRoute] == nil {
				v.Errorf(s.At("default_route"), "%s: default_route %q is not one of its routes (%s)", s.Subject(), Router(s).DefaultRoute, strings.Join(RouteNames(s), ", "))
			}
		},
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			compileAgent(v, s, c)
			if v.Graph() == nil || s.Owner() != "" {
				v.Errorf(s.At("type"), "%s: a router step belongs in a DAG chain's steps: its routes name the steps it selects", s.Subject())
				return
			}
			for _, name := range RouteNames(s) {
				for _, id := range Router(s).Routes[name] {
					switch {
					case v.Chain().Step(id) == nil:
						v.Errorf(s.At("routes"), "%s: route %s names %q, which is not a step%s", s.Subject(), name, id, chain.DidYouMean(id, v.Chain().StepIDs()))
					case id == s.ID || !v.Graph().DependsOn(id, s.ID):
						v.Errorf(s.At("routes"), "%s: route %s names step %q, which does not depend on the router: add depends_on: [%s] to it, so that it starts only once the route is chosen", s.Subject(), name, id, s.ID)
					}
				}
			}
		},
	})
}

// RouteNames are the router's routes, sorted.
func RouteNames(s *chain.Step) []string {
	names := make([]string, 0, len(Router(s).Routes))
	for name := range Router(s).Routes {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// PickRoute is the route a router's answer picks: the route whose name is
// the whole answer (case, surrounding space, quotes and punctuation
// aside), else the one whose name comes earliest in the answer (the
// longest of those at the same place), else default_route. ok is false
// when none applies.
func PickRoute(s *chain.Step, answer string) (route string, how string, ok bool) {
	a := strings.ToLower(strings.Trim(strings.TrimSpace(answer), "`*_\"'.:!;, \n\t"))
	names := RouteNames(s)
	for _, name := range names {
		if strings.ToLower(name) == a {
			return name, "exact", true
		}
	}
	best, at := "", -1
	for _, name := range names {
		i := strings.Index(a, strings.ToLower(name))
		if i >= 0 && (at < 0 || i < at || i == at && len(name) > len(best)) {
			best, at = name, i
		}
	}
	if at >= 0 {
		return best, "named in the answer", true
	}
	if Router(s).DefaultRoute != "" {
		return Router(s).DefaultRoute, "default_route", true
	}
	return "", "", false
}

// Unselected are the steps a router's route leaves out: those listed in
// its other routes and not in route.
func Unselected(s *chain.Step, route string) []string {
	chosen := Router(s).Routes[route]
	var out []string
	for _, name := range RouteNames(s) {
		for _, id := range Router(s).Routes[name] {
			if !slices.Contains(chosen, id) && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// Router is the step's RouterFields, a shared zero value when it has none (read
// only; write through Own).
func Router(s *chain.Step) *RouterFields { return chain.Part[RouterFields](s) }

// Package builtin links every step kind chainrun ships: importing it
// registers each kind's run unit, the state-workflow driver and the
// runner of pre_tools with pkg/run. cmd and the durable
// engines import it, and each package whose tests run steps
// links it through one external test file (builtin_test.go), so that its
// internal tests run every kind without importing a kind package (which
// imports the package under test). It may import, of this module:
// kind/authoring, kind/basic, kind/compose, kind/contenox, kind/model,
// kind/remote, run/flow, run/pretool.
package builtin

import (
	_ "github.com/chainrun/chainrun/pkg/kind/authoring" // dry_run, registry, structural_analysis
	_ "github.com/chainrun/chainrun/pkg/kind/basic"     // cli, script, file, transform, noop, human, gate
	_ "github.com/chainrun/chainrun/pkg/kind/compose"   // parallel, pipeline, chain, subchain, workflow, loop, merge, debate
	_ "github.com/chainrun/chainrun/pkg/kind/contenox"  // a contenox task chain's tasks (steps with a handler)
	_ "github.com/chainrun/chainrun/pkg/kind/model"     // agent, router, evaluator
	_ "github.com/chainrun/chainrun/pkg/kind/remote"    // http, rest, mcp, webhook
	_ "github.com/chainrun/chainrun/pkg/run/flow"       // the driver of state workflows
	_ "github.com/chainrun/chainrun/pkg/run/pretool"    // the runner of a step's pre_tools
)

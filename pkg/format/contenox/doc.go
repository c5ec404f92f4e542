// Package contenox is the front-end of contenox's task chains: a JSON (or
// YAML) document {id, tasks}, and contenox's API request body {input,
// inputType, chain} holding one. Format, which pkg/load lists, reads
// either into chainrun's model as one workflow chain, a state per task,
// so that the engine that runs chainrun's own workflows runs it, and the
// model's validation holds it to the same rules.
//
// It owns everything that is contenox's and not chainrun's: the keys of a
// task chain and a task, the handler names and what each becomes, the
// hooks and their tools, execute_config and its macros, tools_policies,
// the earlier formats' names, operators and handlers (history.go,
// older.go) with the warnings that name them, and the messages that speak
// contenox's words. pkg/chain knows none of that vocabulary: it gets a
// workflow built through its constructors (chain.NewWorkflow,
// Workflow.AddState, Step.Place; wfyaml.DecodeBranches) and a
// chain.Handler on each task's step, this package's Handler (task.go, with
// the names of contenox's handlers, hooks and results), which the engine
// runs through pkg/kind/contenox.
//
// A front-end reads files into the model and nothing else: it runs
// nothing, so it imports neither pkg/run nor any kind; pkg/load imports
// it, and pkg/kind/contenox for the Handler it runs. It may import, of this module: chain, chain/wfyaml, interp,
// spell, yamlpos.
//
// Its tables (older keys, hooks, template functions) and patterns are
// built on first use (sync.OnceValue): every chainrun links this package,
// and a command that reads no contenox file pays nothing for them at start.
package contenox

package catalog

// StarterFile is one file of a new project.
type StarterFile struct{ Path, Text string }

// StarterFiles are what `chainrun init` writes, by path relative to the
// project's directory: a config and a chain that runs on any machine.
// They live with the format so that a test loads them as chains.
var StarterFiles = []StarterFile{
	{"chainrun.yaml", `# chainrun configuration: every key can also be set as CHAINRUN_<KEY>.
chains_dir: chains
# default_model: anthropic/claude-sonnet-4-6   # for LLM steps that name no model
# max_parallel: 8
# retention: {keep: 200, older_than: 30d}   # after each run, prune saved runs beyond the newest 200 unchanged for 30 days
`},
	{"chains/hello.yaml", `name: hello
description: Greet someone from the shell, then shout it
inputs:
  - name: who
    description: Who to greet
    default: world
steps:
  - id: greet
    type: cli
    command: echo
    args: ["hello, {input.who}"]
    output_var: greeting
  - id: shout
    type: transform
    depends_on: [greet]
    expr: upper(greeting) + "!"
    output_var: shouted
output: shouted
`},
}

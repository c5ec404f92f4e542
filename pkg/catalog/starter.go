package catalog

// StarterFile is one file of a new project.
type StarterFile struct{ Path, Text string }

// StarterFiles are what `chainrun init` writes, by path relative to the
// project's directory: a config and a chain that runs on any machine.
// They live with the format so that a test loads them as chains.
var StarterFiles = []StarterFile{
	{"chainrun.yaml", `# chainrun configuration. Every key may also be set as CHAINRUN_<KEY> in the
# environment, and a flag beats both. docs/cli.md lists every key.
chains_dir: chains
# state_dir: .chainrun                        # where runs are saved (default: the user's state directory)
# max_parallel: 8                             # steps running at once

# Models (docs/providers.md): keys come from the environment, never from here.
# default_model: anthropic/claude-sonnet-4-6  # for LLM steps that name no model
# model_aliases:
#   fast: anthropic/claude-haiku-4-5
#   precise: {model: openai/gpt-5, params: {seed: 7, reasoning_effort: high}}
# providers:
#   gateway: {type: openai, base_url: https://llm-gw.internal/v1, api_key_env: GW_TOKEN}
# max_parallel_llm: 4                         # requests in flight per provider

# Runs (docs/runs.md).
# retention: {keep: 200, older_than: 30d}     # after each run, prune saved runs beyond the newest 200 unchanged for 30 days
# dotenv: [{path: .env, required: false}]     # variables every run's commands get
# pass_exit_code: true                        # a failed command's exit code is chainrun's

# Traces (docs/observability.md) and chain tests (docs/testing.md).
# otel: {endpoint: http://localhost:4318}
# test: {grader: openai/gpt-4o-mini}
`},
	{"chains/hello.yaml", `# yaml-language-server: $schema=https://raw.githubusercontent.com/chainrun/chainrun/main/docs/chain.schema.json
name: hello
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

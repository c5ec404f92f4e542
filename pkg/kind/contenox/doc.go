// Package contenox holds the run side of contenox's task chains: every step
// with a handler (a chain.Handler, pkg/format/contenox's Handler) runs
// here, whatever its kind — a chat_completion turn, a route, the prompt_to_
// handlers of earlier formats, parse_command and parse_key_value,
// execute_tool_calls, a tools task and the test hooks echo and print,
// openai response conversion — and the tools of the mission and oracle
// hooks, with the conversation a task leaves behind its output. It
// registers with run.RegisterHandlerRunner in its init and reaches the run
// only through run.Attempt, so the engine names no handler; the reading of
// the format is pkg/format/contenox's, whose Handler and names this package
// reads. It may import, of this module: chain, event, format/contenox,
// interp, llm, run, run/record, run/response, run/toolcall, tools.
package contenox

// Package response holds the words a state workflow's run is answered
// and asked in, shared by the engine, its workflow driver, the saved
// runs, the MCP server and every view: reference 000's response
// (WorkflowResult: where a run stands, the chain of transitions taken, its
// context, its guidance and the links that may be taken next), a decision
// point's question (Decision) and the choice made there (Choice,
// Decider, Scripted), what a decider reads (Described, SkillRef), what
// evidence guards count (EvidenceRecord), the refusals of a resume's
// arguments, acknowledgments, --take and --rerun (ArgError, AckError,
// TakeError, RerunError, RerunNameError), the refusals of a run before
// any step ran (PreflightError, EmptyChainError, ChangedError), and the
// links that
// take a transition or retry what failed (LinkOf, RetryLink), with the
// rule of which retries need confirming (NeedsConfirmation), and the
// command lines a response and every hint print for pasting (Command,
// ResumeCommand, ArgFlags, ShellWord: chainrun as the user ran it, each
// word quoted for a POSIX shell). They are plain
// values, kept apart from the engine so that a reader of a response meets
// none of the machinery that made it.
//
// It must not import run or any package that runs a step. It may import,
// of this module: chain.
package response

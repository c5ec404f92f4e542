package event

// Status is every outcome chainrun reports, in one typed vocabulary: the
// status of a run and of a step in the JSON result, of a saved run in
// run.json, and of an attempt, a model request or a tool call in the
// events. The words are the contract's; they are never renamed.
type Status string

// How a run stands or ended.
const (
	Running     Status = "running"
	Succeeded   Status = "succeeded"
	Failed      Status = "failed"
	Interrupted Status = "interrupted"
	Paused      Status = "paused"
	// Cancelled is a workflow that ended at a terminal state declared
	// outcome: cancelled (an abort): not a success, not a failure; and a
	// step (or a called chain) stopped while it ran because another step
	// failed.
	Cancelled Status = "cancelled"
	// Corrupt is a saved run whose record cannot be read.
	Corrupt Status = "corrupt"
)

// How a step ended, besides succeeded and failed.
const (
	Skipped Status = "skipped"
	Cached  Status = "cached"
)

// How an attempt, a model request or a tool call went.
const (
	OK       Status = "ok"
	Retrying Status = "retrying"
	// Error is a tool call that ran and failed; Denied one that was not
	// allowed to run; Unknown one that names no tool.
	Error   Status = "error"
	Denied  Status = "denied"
	Unknown Status = "unknown"
)

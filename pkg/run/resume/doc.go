// Package resume holds the rules of what a resume of a saved run keeps,
// runs again and takes, read from the chain and the saved steps alone:
// the steps a DAG run keeps (KeptSteps: a reusable step whose
// dependencies are all kept), the steps --rerun may name (RerunSet, with
// OwnerOf and ScopedRecords naming a called chain's, a branch's or a
// pipeline's steps), and the gates a saved run waits at with the
// decisions they take (WaitingGates, GateLinks, CheckGateTake).
//
// It is a leaf under pkg/run, which calls it when a run resumes; cmd
// reads --rerun through it. It must not import run or any package that
// runs a step. It may import, of this module: chain, run/record,
// run/response.
package resume

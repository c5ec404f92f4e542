// Package temporalrun runs chains on Temporal: one generic workflow (the
// chain's file and inputs are its input) drives the local engine's DAG
// and flow drivers in deterministic workflow code, each step an activity
// whose id is the step's; decisions are updates with validators; the CLI
// follows runs with queries. It lives in a module of its own so the
// Temporal SDK stays out of the default build (docs/temporal.md).
package temporalrun

// Package store keeps every run on disk so that it can be listed, shown
// and resumed. A run is a directory under <state>/runs/<run_id>:
//
//	run.json        what the run is: chain, inputs (secrets left out), status
//	chain.yaml      the chain exactly as it was at launch (resume uses it)
//	events.jsonl    the append-only audit log of run events; it is also the
//	                journal: a step.saved event carries each finished step
//	                (result and output) and is flushed to disk (fsync)
//	                before any step that depends on it starts
//	result.json     the last result
//	lock            held (flock) by the process driving the run
//
// Beside runs/, runs.index lists the runs in the order they were created
// and runs.stamp says when it can be trusted (index.go, index_trust.go):
// the newest runs, "last" and a partial id are found from the index's
// end, at the same cost with 50,000 runs as with ten. A run is made in
// runs/.new/ and its index line written before it is renamed into runs/,
// so a crash never hides one; an index runs/ no longer matches is
// rebuilt before it is read. Config retention prunes after each run.
//
// A run whose record says running but whose lock is free has lost its
// process (a crash, kill -9) and is reported as interrupted. A Session
// owns one attempt of a run, from creation to its recorded result.
//
// It keeps run's records; run does not import it. It may import, of this
// module: chain, event, executor, fsutil, jsonstream, load, retry, run,
// run/record, run/response.
package store

// Package run is the execution seam of chainrun. Engine is the interface
// cmd/ drives; Local is the first implementation, running a validated
// chain in this process with dependency-driven parallelism. Engines report
// progress only through the event stream (package event) and return a
// Result; they never print.
//
// run may import chain, dag, event, executor and guard; it must not import
// cobra, viper or anything under cmd/.
package run

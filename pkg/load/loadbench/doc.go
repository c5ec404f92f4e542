// Package loadbench holds what the load benchmarks of pkg/chain and
// pkg/load share: the chains they load (the 10,000-step chain, bench/gen's
// layered chain) and the sampler of a load's peak heap, so both packages
// measure the same files the same way (docs/performance.md). It is test
// support, linked into no command. It imports nothing of this module.
package loadbench

// Package retry is the one retry policy of chainrun. Step attempts, model
// requests, agent decisions and run locks all wait and give up by the same
// rules, so `retry: {max: 3}` means one thing wherever it is read.
//
// It imports nothing of this module.
package retry

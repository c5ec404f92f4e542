package web

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

// What a request of a step says of itself, in its plan, its failure and a
// stand-in's failure alike.

// MethodOf is the method a request is sent with: GET when none is set.
func MethodOf(method string) string {
	if method == "" {
		return "GET"
	}
	return method
}

// AcceptHint says how a step would accept a status it failed on: a
// real response's failure and a stand-in's say it the same way.
func AcceptHint(s *chain.Step) string {
	if len(s.Success().SuccessStatus) > 0 {
		return fmt.Sprintf("success_status lists %v", s.Success().SuccessStatus)
	}
	return "set fail_on_status: false to accept it"
}

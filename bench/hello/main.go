// Command hello is the floor of a Go command's start-up: it links
// net/http, as chainrun does, prints one line and exits. `chainrun
// version` is held to 1.7 times its time (bench/run.sh, issue 31).
package main

import (
	"fmt"
	"net/http"
)

// client keeps net/http linked and its package initialisation run.
var client = http.DefaultClient

func main() {
	if client != nil {
		fmt.Println("hello")
	}
}

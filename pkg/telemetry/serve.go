package telemetry

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/tracectx"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// Serve is chainrun-otel: it reads chainrun's feed (pkg/tracefeed's JSON
// lines) from in, makes each run's spans and exports them, and returns
// once in ends and what is left is sent (within FlushTimeout). What fails
// is said once on warn (chainrun's stderr); the exit status is 0 unless
// the feed itself is unreadable, so that a trace never changes a run's.
func Serve(in io.Reader, getenv func(string) string, warn io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20) // an event holds a step's error, or captured messages
	if !sc.Scan() {
		fmt.Fprintln(warn, "chainrun-otel: no feed on stdin (chainrun starts this program itself)")
		return 2
	}
	var hello tracefeed.Hello
	if err := json.Unmarshal(sc.Bytes(), &hello); err != nil {
		fmt.Fprintf(warn, "chainrun-otel: the feed's first line: %v\n", err)
		return 2
	}
	x, err := Start(context.Background(), hello.Settings, getenv, hello.Version, warn)
	if err != nil {
		fmt.Fprintf(warn, "chainrun: traces are not exported: %v\n", err)
		for sc.Scan() { // read on: chainrun never waits on its feed
		}
		return 0
	}
	runs := map[int]*Run{}
	for sc.Scan() {
		var l tracefeed.Line
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		switch {
		case l.Open != nil:
			runs[l.Run] = x.open(*l.Open)
		case l.Event != nil:
			if r := runs[l.Run]; r != nil {
				r.Emit(*l.Event)
			}
		case l.End != nil:
			if r := runs[l.Run]; r != nil {
				r.End(*l.End)
				delete(runs, l.Run)
			}
		}
	}
	x.Close(-1)
	return 0
}

// open begins the run a feed's line opens.
func (x *Exporter) open(o tracefeed.Opening) *Run {
	own, _ := tracectx.Parse(o.Trace, o.State)
	parent, _ := tracectx.Parse(o.Parent, o.State)
	if o.Served {
		return x.NewServedRun(own, parent, o.Earlier)
	}
	return x.NewRun(own, parent, o.Earlier)
}

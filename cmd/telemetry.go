package cmd

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/chainrun/chainrun/pkg/buildinfo"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// keyOtel is config's otel: block (docs/observability.md).
const keyOtel = "otel"

// defineOtel adds --otel to a command that runs chains.
func defineOtel(fl *pflag.FlagSet) {
	fl.String("otel", "", "export the run as an OpenTelemetry trace over OTLP: --otel alone sends to OTEL_EXPORTER_OTLP_ENDPOINT (or http://localhost:4318), --otel=URL there, --otel=off nowhere")
	fl.Lookup("otel").NoOptDefVal = "on"
}

// traceRun begins the trace of one run, nil when nothing asks for export;
// the process's feed opens at the first run (config loaded) and closes in execute.
func (f *factory) traceRun(o engineOptions) (*tracefeed.Run, error) {
	if !f.traceOpened {
		f.traceOpened = true
		choice, err := tracefeed.ReadConfig("config otel: ", f.v.Get(keyOtel))
		if err != nil {
			return nil, usagef("%v", err)
		}
		if o.flags != nil && o.flags.Changed("otel") {
			choice.Flag = o.flags.Lookup("otel").Value.String()
		}
		if f.traces, err = tracefeed.Open(choice, os.Getenv, buildinfo.Read(version, commit, date).Version, f.io.ErrOut); err != nil {
			return nil, usagef("%v", err)
		}
	}
	if o.served { // chainrun mcp: the client's trace, a span that ends with the run
		return f.traces.NewRun(o.parentTrace, o.earlierTraces, true), nil
	}
	return f.traces.NewRun(tracefeed.ParentFromEnv(os.Getenv), o.earlierTraces, false), nil
}

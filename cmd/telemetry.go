package cmd

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/chainrun/chainrun/pkg/buildinfo"
	"github.com/chainrun/chainrun/pkg/telemetry"
)

// keyOtel is config's otel: block (docs/observability.md).
const keyOtel = "otel"

// defineOtel adds --otel to a command that runs chains.
func defineOtel(fl *pflag.FlagSet) {
	fl.String("otel", "", "export the run as an OpenTelemetry trace over OTLP: --otel alone sends to OTEL_EXPORTER_OTLP_ENDPOINT (or http://localhost:4318), --otel=URL there, --otel=off nowhere")
	fl.Lookup("otel").NoOptDefVal = "on"
}

// traceRun begins the trace of one run, nil when nothing asks for export.
// earlier are the traceparents of the run's earlier attempts (a resume
// links to them). The process's exporter is opened by the first run and
// closed by execute once the exit code is known.
func (f *factory) traceRun(fl *pflag.FlagSet, earlier []string) (*telemetry.Run, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	if !f.traceOpened {
		f.traceOpened = true
		choice, err := telemetry.ReadConfig("config otel: ", v.Get(keyOtel))
		if err != nil {
			return nil, usagef("%v", err)
		}
		if fl != nil && fl.Lookup("otel") != nil && fl.Changed("otel") {
			choice.Flag = fl.Lookup("otel").Value.String()
		}
		if f.traces, err = telemetry.Open(choice, os.Getenv, buildinfo.Read(version, commit, date).Version, f.io.ErrOut); err != nil {
			return nil, usagef("%v", err)
		}
	}
	return f.traces.NewRun(telemetry.ParentFromEnv(os.Getenv), earlier), nil
}

package tracefeed

import (
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name     string
		choice   Choice
		env      map[string]string
		on       bool
		endpoint string
		protocol string
		warn     string
		err      string
	}{
		{name: "nothing asks", on: false},
		{name: "the SDK's endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, on: true, protocol: HTTPProtobuf},
		{name: "the traces endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, on: true, protocol: HTTPProtobuf},
		{name: "config", choice: Choice{Endpoint: "http://cfg:4318"}, on: true, endpoint: "http://cfg:4318", protocol: HTTPProtobuf},
		{name: "env over config", choice: Choice{Endpoint: "http://cfg:4318"}, env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318"}, on: true, endpoint: "", protocol: HTTPProtobuf},
		{name: "flag over env", choice: Choice{Flag: "http://flag:4318"}, env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318"}, on: true, endpoint: "http://flag:4318", protocol: HTTPProtobuf},
		{name: "bare flag, default endpoint", choice: Choice{Flag: "on"}, on: true, protocol: HTTPProtobuf},
		{name: "flag off", choice: Choice{Flag: "off", Endpoint: "http://cfg:4318"}, on: false},
		{name: "sdk disabled", choice: Choice{Flag: "on"}, env: map[string]string{"OTEL_SDK_DISABLED": "TRUE"}, on: false},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}, on: false},
		{name: "exporter zipkin", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "zipkin"}, on: false, warn: "OTLP only"},
		{name: "protocol from env", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, on: true, protocol: HTTPProtobuf},
		{name: "json protocol", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, on: false, warn: "http/json"},
		{name: "bad env endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "c:4318"}, on: false, warn: "not exporting"},
		{name: "bad flag", choice: Choice{Flag: "localhost:4318"}, err: "--otel localhost:4318"},
		{name: "bad config endpoint", choice: Choice{Endpoint: "ftp://x"}, err: "otel.endpoint"},
		{name: "bad config protocol", choice: Choice{Endpoint: "http://x", Protocol: "thrift"}, err: "otel.protocol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, on, warn, err := Resolve(tc.choice, envOf(tc.env))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want an error naming %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if on != tc.on || (tc.warn == "") != (warn == "") || !strings.Contains(warn, tc.warn) {
				t.Fatalf("on %v warn %q, want on %v warn %q", on, warn, tc.on, tc.warn)
			}
			if on && (s.Endpoint != tc.endpoint || s.Protocol != tc.protocol) {
				t.Fatalf("settings %+v, want endpoint %q protocol %q", s, tc.endpoint, tc.protocol)
			}
		})
	}
}

func TestReadConfig(t *testing.T) {
	c, err := ReadConfig("F: ", map[string]any{"endpoint": "https://otel.example:4318", "protocol": "grpc", "capture_content": true})
	if err != nil || c.Endpoint != "https://otel.example:4318" || c.Protocol != GRPC || !c.CaptureContent {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []struct {
		v    any
		want string
	}{
		{"http://x", "F: otel: want a mapping"},
		{map[string]any{"endpont": "http://x"}, `F: otel: unknown key "endpont"`},
		{map[string]any{"endpoint": 4318}, "F: otel.endpoint: want text"},
		{map[string]any{"endpoint": "localhost"}, "F: otel.endpoint:"},
		{map[string]any{"protocol": "http/json"}, "F: otel.protocol"},
		{map[string]any{"capture_content": "yes"}, "F: otel.capture_content: want true or false"},
	} {
		if _, err := ReadConfig("F: ", bad.v); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: want %q, got %v", bad.v, bad.want, err)
		}
	}
}

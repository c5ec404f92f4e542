package tracefeed

import (
	"fmt"
	"net/url"
	"strings"
)

// Protocols an endpoint can be spoken to in (OTEL_EXPORTER_OTLP_PROTOCOL).
// http/json, the third the specification names, is not offered: its
// encoder alone initialises 128 allocations at every start, and every
// OTLP receiver takes http/protobuf.
const (
	HTTPProtobuf = "http/protobuf"
	GRPC         = "grpc"
)

// Settings are what the user asked for: from --otel, config's otel: block
// and the SDK's environment variables (OTEL_*), resolved by Resolve.
type Settings struct {
	// Endpoint is the OTLP endpoint chainrun set (a URL), empty when the
	// SDK's own variables name it (OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT)
	// or the protocol's default (localhost:4318, :4317 for gRPC) applies.
	Endpoint string
	// Protocol is http/protobuf or grpc.
	Protocol string
	// CaptureContent puts prompts and answers on model spans
	// (gen_ai.input.messages, gen_ai.output.messages), masked as
	// everywhere; off by default.
	CaptureContent bool
}

// Choice is what the flag and config say, before the environment is read.
type Choice struct {
	// Flag is --otel's value: "" when it was not given, "on" for a bare
	// --otel, "off" to turn export off, or an endpoint URL.
	Flag string
	// Endpoint, Protocol and CaptureContent are config's otel: keys.
	Endpoint, Protocol string
	CaptureContent     bool
}

// Resolve decides whether a run is exported and how, from the flag, the
// config and the environment (getenv). It returns ok false when nothing
// asks for export, or something turns it off (OTEL_SDK_DISABLED=true,
// OTEL_TRACES_EXPORTER=none, --otel=off). err is a flag or config value
// chainrun cannot use (an exit 2 before anything runs). warn is a problem
// of the SDK's environment variables, which are often set for a whole
// machine: the run goes on without export and says so once.
func Resolve(c Choice, getenv func(string) string) (s Settings, ok bool, warn string, err error) {
	s = Settings{Endpoint: c.Endpoint, Protocol: c.Protocol, CaptureContent: c.CaptureContent}
	if s.Endpoint != "" {
		if err := CheckEndpoint(s.Endpoint); err != nil {
			return s, false, "", fmt.Errorf("config otel.endpoint: %w", err)
		}
	}
	if s.Protocol != "" && !knownProtocol(s.Protocol) {
		return s, false, "", fmt.Errorf("config otel.protocol: %q is not one of %s, %s", s.Protocol, HTTPProtobuf, GRPC)
	}
	asked, flagURL := s.Endpoint != "", false
	switch f := strings.TrimSpace(c.Flag); strings.ToLower(f) {
	case "":
	case "on", "true", "1":
		asked = true
	case "off", "false", "0":
		return s, false, "", nil
	default:
		if err := CheckEndpoint(f); err != nil {
			return s, false, "", fmt.Errorf("--otel %s: %w (give an endpoint URL such as http://localhost:4318, or --otel alone to use OTEL_EXPORTER_OTLP_ENDPOINT)", f, err)
		}
		s.Endpoint, asked, flagURL = f, true, true
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return s, false, "", nil
	}
	if exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exp != "" {
		switch first, _, _ := strings.Cut(exp, ","); strings.TrimSpace(first) {
		case "none":
			return s, false, "", nil
		case "otlp":
		default:
			if asked || envEndpoint(getenv) != "" {
				return s, false, fmt.Sprintf("OTEL_TRACES_EXPORTER=%s: chainrun exports traces over OTLP only; not exporting", exp), nil
			}
			return s, false, "", nil
		}
	}
	if e := envEndpoint(getenv); e != "" {
		// the SDK's variables name the endpoint over config's, never
		// over the flag's
		if !flagURL {
			if err := CheckEndpoint(e); err != nil {
				return s, false, fmt.Sprintf("%s: %v; not exporting", e, err), nil
			}
			s.Endpoint = ""
		}
		asked = true
	}
	if !asked {
		return s, false, "", nil
	}
	if p := envProtocol(getenv); p != "" {
		if !knownProtocol(p) {
			return s, false, fmt.Sprintf("OTEL_EXPORTER_OTLP_PROTOCOL=%s: chainrun exports %s or %s; not exporting", p, HTTPProtobuf, GRPC), nil
		}
		s.Protocol = p
	}
	if s.Protocol == "" {
		s.Protocol = HTTPProtobuf
	}
	return s, true, "", nil
}

// envEndpoint is the endpoint the SDK's variables name for traces.
func envEndpoint(getenv func(string) string) string {
	if e := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")); e != "" {
		return e
	}
	return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT"))
}

// envProtocol is the protocol the SDK's variables name for traces.
func envProtocol(getenv func(string) string) string {
	if p := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")); p != "" {
		return p
	}
	return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_PROTOCOL"))
}

func knownProtocol(p string) bool { return p == HTTPProtobuf || p == GRPC }

// CheckEndpoint accepts an http or https URL with a host.
func CheckEndpoint(e string) error {
	u, err := url.Parse(e)
	if err != nil {
		return fmt.Errorf("not a URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("want an http:// or https:// URL, got %q", e)
	}
	if u.Host == "" {
		return fmt.Errorf("%q names no host", e)
	}
	return nil
}

package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/tracefeed"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// exportTimeout bounds one export request when the SDK's variables set
// none (OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT): a dead endpoint must not
// hold a run's exit for the default of ten seconds a try.
const exportTimeout = 2 * time.Second

// retryTotal bounds the retries of one failed export (429, 502, 503, 504,
// or no connection): a few quick tries, never the minute the SDK's own
// clients allow.
const retryTotal = 3 * time.Second

// httpClient sends OTLP over HTTP (protobuf) for the SDK's OTLP
// exporter (otlptrace.New: it turns the SDK's spans into OTLP's messages;
// a Client only carries them). It is chainrun's rather than
// otlptracehttp's because that package links gRPC and grpc-gateway into
// every build (5.5 MB of a 20 MB binary, and 85 packages initialised at
// every start, traced or not); this one links only the OTLP messages.
// It reads the OTLP exporter variables the specification names for
// HTTP: endpoint, headers, timeout, compression and certificates.
type httpClient struct {
	url     string
	headers map[string]string
	gzip    bool
	timeout time.Duration
	client  *http.Client
}

// newHTTPClient reads the settings and the OTEL_EXPORTER_OTLP_* variables.
func newHTTPClient(s Settings, getenv func(string) string) (*httpClient, error) {
	c := &httpClient{timeout: exportTimeout, headers: map[string]string{}}
	switch {
	case s.Endpoint != "":
		c.url = tracesURL(s.Endpoint)
	case env(getenv, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "":
		c.url = env(getenv, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") // as written
	case env(getenv, "OTEL_EXPORTER_OTLP_ENDPOINT") != "":
		c.url = tracesURL(env(getenv, "OTEL_EXPORTER_OTLP_ENDPOINT"))
	default:
		c.url = "http://localhost:4318/v1/traces"
	}
	if err := tracefeed.CheckEndpoint(c.url); err != nil {
		return nil, err
	}
	for _, name := range []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"} {
		if err := parseHeaders(env(getenv, name), c.headers); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if t := signalEnv(getenv, "TIMEOUT"); t != "" {
		ms, err := strconv.Atoi(t)
		if err != nil || ms < 0 {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT %q: want milliseconds", t)
		}
		c.timeout = time.Duration(ms) * time.Millisecond
	}
	switch comp := signalEnv(getenv, "COMPRESSION"); comp {
	case "", "none":
	case "gzip":
		c.gzip = true
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_COMPRESSION %q: want gzip or none", comp)
	}
	tlsConfig, err := tlsFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	c.client = &http.Client{Transport: transport}
	return c, nil
}

// newExporter makes the SDK's OTLP exporter with the transport the
// settings ask for. It connects lazily: a dead endpoint is found by the
// first export.
func newExporter(ctx context.Context, s Settings, getenv func(string) string) (*otlptrace.Exporter, error) {
	if s.Protocol == GRPC {
		return newGRPCExporter(ctx, s, getenv)
	}
	c, err := newHTTPClient(s, getenv)
	if err != nil {
		return nil, err
	}
	return otlptrace.New(ctx, c)
}

// Start connects nothing: HTTP connects on the first export.
func (c *httpClient) Start(context.Context) error { return nil }

// Stop closes idle connections.
func (c *httpClient) Stop(context.Context) error {
	c.client.CloseIdleConnections()
	return nil
}

// UploadTraces sends one ExportTraceServiceRequest, retrying what the
// OTLP specification says may be retried, within retryTotal.
func (c *httpClient) UploadTraces(ctx context.Context, spans []*tracepb.ResourceSpans) error {
	body, contentType, err := c.encode(spans)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(retryTotal)
	wait := 250 * time.Millisecond
	for {
		retry, after, err := c.send(ctx, body, contentType)
		if err == nil || !retry {
			return err
		}
		if after > 0 {
			wait = after
		}
		if time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(wait*2, time.Second)
	}
}

// encode is the request body: an ExportTraceServiceRequest, whose one
// field (resource_spans = 1) holds the messages the SDK's transform made.
func (c *httpClient) encode(spans []*tracepb.ResourceSpans) ([]byte, string, error) {
	var b []byte
	for _, rs := range spans {
		one, err := proto.Marshal(rs)
		if err != nil {
			return nil, "", err
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, one)
	}
	const contentType = "application/x-protobuf"
	if !c.gzip {
		return b, contentType, nil
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	if _, err := w.Write(b); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return z.Bytes(), contentType, nil
}

// send posts body once: retry says whether it may be sent again, after
// how long the server asked for (Retry-After).
func (c *httpClient) send(ctx context.Context, body []byte, contentType string) (retry bool, after time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return false, 0, err
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", contentType)
	if c.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded), 0, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return false, 0, nil
	}
	err = fmt.Errorf("%s answered %s: %s", redactURL(c.url), resp.Status, strings.TrimSpace(string(msg)))
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s >= 0 {
			after = time.Duration(s) * time.Second
		}
		return true, after, err
	}
	return false, 0, err
}

// tracesURL is the traces path under an endpoint given as a base, as the
// specification treats OTEL_EXPORTER_OTLP_ENDPOINT: http://host:4318
// sends to http://host:4318/v1/traces, https://host/api/otel to
// https://host/api/otel/v1/traces.
func tracesURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
	return u.String()
}

// redactURL drops a URL's user information, which may hold a secret.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	u.User = nil
	return u.String()
}

// parseHeaders reads the W3C baggage-like list the specification gives
// OTEL_EXPORTER_OTLP_HEADERS: key=value pairs, comma-separated, values
// percent-encoded.
func parseHeaders(list string, into map[string]string) error {
	for _, pair := range strings.Split(list, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("%q is not key=value", pair)
		}
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%q: %v", pair, err)
		}
		into[k] = dv
	}
	return nil
}

// tlsFromEnv reads the certificate variables: a CA to trust, and a
// client certificate and key for mutual TLS.
func tlsFromEnv(getenv func(string) string) (*tls.Config, error) {
	ca, cert, key := signalEnv(getenv, "CERTIFICATE"), signalEnv(getenv, "CLIENT_CERTIFICATE"), signalEnv(getenv, "CLIENT_KEY")
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CERTIFICATE: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CERTIFICATE %s: no PEM certificate in it", ca)
		}
		cfg.RootCAs = pool
	}
	if cert != "" || key != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE/CLIENT_KEY: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// env is a variable, trimmed.
func env(getenv func(string) string, name string) string { return strings.TrimSpace(getenv(name)) }

// signalEnv is OTEL_EXPORTER_OTLP_TRACES_<name>, else
// OTEL_EXPORTER_OTLP_<name>.
func signalEnv(getenv func(string) string, name string) string {
	if v := env(getenv, "OTEL_EXPORTER_OTLP_TRACES_"+name); v != "" {
		return v
	}
	return env(getenv, "OTEL_EXPORTER_OTLP_"+name)
}

// timeoutSet reports whether the variables set the export timeout.
func timeoutSet(getenv func(string) string) bool { return signalEnv(getenv, "TIMEOUT") != "" }

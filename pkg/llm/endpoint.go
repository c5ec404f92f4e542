package llm

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
)

// endpointNamed wraps p so that a connection failure names the host:port
// it tried and the setting that chose it (OPENAI_BASE_URL, OLLAMA_HOST, a
// config key): the fix is then to change that setting or start the server.
func endpointNamed(p Provider, hostPort, from string) Provider {
	if hostPort == "" {
		return p
	}
	return &named{Provider: p, where: hostPort + ", set by " + from}
}

type named struct {
	Provider
	where string
}

// Complete adds the endpoint to a connection failure.
func (p *named) Complete(ctx context.Context, req Request) (*Response, error) {
	resp, err := p.Provider.Complete(ctx, req)
	var e *Error
	if errors.As(err, &e) && e.Status == 0 && strings.HasPrefix(e.Message, "connection failed") && !strings.Contains(e.Message, p.where) {
		e.Message += " (" + p.where + ")"
	}
	return resp, err
}

// endpointOf is the host:port a provider of type kind at base connects
// to; an empty base is the provider's public API.
func endpointOf(kind, base string) string {
	if base == "" {
		switch kind {
		case "anthropic":
			return "api.anthropic.com:443"
		case "openai":
			return "api.openai.com:443"
		}
		return ""
	}
	return HostPort(base)
}

// HostPort is the host:port a URL connects to, the port filled in from
// the scheme; "" when raw is not a URL with a host.
func HostPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

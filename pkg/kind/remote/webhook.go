package remote

import (
	"reflect"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	yaml "go.yaml.in/yaml/v4"
)

// WebhookFields configure what a webhook step adds to an http step (its
// url, method, headers, body and security rules), which POSTs by default
// and whose default body is a JSON payload of the run: OCC's list of the
// statuses that mean success.
type WebhookFields struct {
}

func init() {
	chain.Register(chain.Unit{
		Kind:   chain.KindWebhook,
		Decode: map[string]chain.KeyDecoder{"webhook_retry": decodeWebhookRetry},
		Order:  200,
		Body:   reflect.TypeFor[WebhookFields](),
		Also:   []string{"success_status", "url", "method", "headers", "body", "fail_on_status", chain.KeyField, "prompt"},
		// OCC's engine spells a webhook's fields with its type before them
		KeyAliases: map[string]chain.KeyAlias{
			"webhook_url":            {To: "url", Note: "is OCC's own spelling of a webhook's url: read as url (its chain files write url)"},
			"webhook_method":         {To: "method", Note: "is OCC's own spelling of a webhook's method: read as method (its chain files write method)"},
			"webhook_headers":        {To: "headers", Note: "is OCC's own spelling of a webhook's headers: read as headers (its chain files write headers)"},
			"webhook_body":           {To: "body", Note: "is OCC's own spelling of a webhook's body: read as body (its chain files write body)"},
			"webhook_retry":          {To: "retry", Note: "is OCC's own spelling of a webhook's retry: read as retry (its chain files write retry)"},
			"webhook_success_status": {To: "success_status", Note: "is OCC's own spelling of a webhook's success_status: read as success_status (its chain files write success_status)"},
			"webhook_timeout_ms":     {To: "timeout_ms", Note: "is OCC's own spelling of a webhook's timeout_ms: read as timeout_ms (its chain files write timeout_ms)"},
		},
		Ignored: []string{"model"},
		Check: func(v chain.Checker, s *chain.Step) {
			if s.HTTP().URL == "" {
				v.Errorf(s.Pos, "%s: url is required for a webhook step (where its payload is sent)", s.Subject())
			}
			chain.Own[chain.HTTPFields](s).Method = strings.ToUpper(s.HTTP().Method)
			if s.HTTP().Method == "" {
				chain.Own[chain.HTTPFields](s).Method = "POST"
			}
			if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, s.HTTP().Method) {
				v.Errorf(s.At("method"), "%s: a webhook's method is POST, PUT, PATCH, GET or DELETE, not %q", s.Subject(), s.HTTP().Method)
			}
			if (s.HTTP().Method == "GET" || s.HTTP().Method == "DELETE") && (s.HTTP().Body != "" || s.HTTP().BodyData != nil) && v.Chain().Reading().BodylessGet {
				// OCC's webhook builds no body for GET and DELETE
				v.Warnf(s.At("body"), "%s: body ignored with %s, as %s's webhook sends none (chainrun's own format sends it)", s.Subject(), s.HTTP().Method, v.Chain().Reading().Source)
				chain.Own[chain.HTTPFields](s).Body, chain.Own[chain.HTTPFields](s).BodyData = "", nil
			}
		},
		Compile: compileHTTP,
	})
}

// Webhook is the step's WebhookFields, a shared zero value when it has none (read
// only; write through Own).
func Webhook(s *chain.Step) *WebhookFields { return chain.Part[WebhookFields](s) }

// decodeWebhookRetry reads OCC's webhook_retry: N as OCC's webhook runs
// it: N more attempts after the first, one second apart and then longer
// (OCC waits 1 s, 2 s, … between them), where a step's retry: N is N
// attempts in all. A mapping is read as a retry: block.
func decodeWebhookRetry(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) bool {
	if v.Kind != yaml.ScalarNode {
		return false
	}
	var n int
	if err := v.Load(&n); err != nil || n < 0 {
		d.Errorf(yamlpos.Of(v), "%swebhook_retry: the retries after the first attempt, a number (0 or more), not %q", prefix, v.Value)
		return true
	}
	s.Retry = &chain.Retry{Max: n + 1, DelayMS: 1000, Backoff: 2}
	return true
}

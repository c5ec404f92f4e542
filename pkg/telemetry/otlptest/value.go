package otlptest

import commonpb "go.opentelemetry.io/proto/otlp/common/v1"

// value is an attribute's value as a Go value.
func value(v any) any {
	switch v := v.(type) {
	case *commonpb.AnyValue_StringValue:
		return v.StringValue
	case *commonpb.AnyValue_IntValue:
		return v.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return v.DoubleValue
	case *commonpb.AnyValue_BoolValue:
		return v.BoolValue
	case *commonpb.AnyValue_ArrayValue:
		var out []any
		for _, e := range v.ArrayValue.GetValues() {
			out = append(out, value(e.GetValue()))
		}
		return out
	}
	return nil
}

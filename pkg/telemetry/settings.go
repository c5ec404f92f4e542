package telemetry

import "github.com/chainrun/chainrun/pkg/tracefeed"

// Settings are what chainrun resolved from --otel, config and the
// environment (tracefeed.Resolve), handed over in the feed's first line.
type Settings = tracefeed.Settings

// The protocols, as tracefeed names them.
const (
	HTTPProtobuf = tracefeed.HTTPProtobuf
	GRPC         = tracefeed.GRPC
)

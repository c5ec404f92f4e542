#!/usr/bin/env bash
# The Temporal build (module temporal/): vet, tests with the SDK's test
# environment and replays of committed histories, and the integration
# test against a real dev server on loopback, with two workers. The
# Temporal CLI (the dev server) is built once from the Go module proxy
# and cached under $(go env GOPATH)/chainrun-ci.
set -euo pipefail
cd "$(dirname "$0")/../../temporal"

cli_dir="$(go env GOPATH)/chainrun-ci/temporal-cli-1.5.1"
if [ ! -x "$cli_dir/temporal" ]; then
  echo "building the Temporal CLI v1.5.1 once (cached in $cli_dir)"
  mkdir -p "$cli_dir"
  GOBIN="$cli_dir" GOFLAGS=-mod=mod go install github.com/temporalio/cli/cmd/temporal@v1.5.1
fi
export CHAINRUN_TEMPORAL_CLI="$cli_dir/temporal"

go vet ./...
go build -o /dev/null .
go test -count=1 ./...
go test -race -count=1 ./...

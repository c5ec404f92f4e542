#!/usr/bin/env bash
# The trace backend the telemetry tests export to: Jaeger v2 all-in-one
# (an OpenTelemetry Collector distribution with in-memory storage and the
# query API). Built once from the Go module proxy and cached under
# $(go env GOPATH)/chainrun-ci, like the Temporal CLI. Prints the path of
# the binary on stdout (and nothing else there), for
#   export CHAINRUN_JAEGER=$(bash .ci/otel/install.sh)
#
# Jaeger's go.mod has a replace directive, so `go install …@version` refuses
# it: the build happens in a throwaway module next to the binary, which
# requires Jaeger as a tool (`go get -tool`) and repeats its replace.
# A cold build takes about 5 minutes on 2 shared cores (downloads
# included) and makes an 82 MB stripped binary.
set -euo pipefail

version=v1.76.0
dir="$(go env GOPATH)/chainrun-ci/jaeger-$version"
bin="$dir/jaeger"

if [ ! -x "$bin" ]; then
  echo "building Jaeger $version once (cached in $dir)" >&2
  src="$dir/module"
  rm -rf "$src"
  mkdir -p "$src"
  cat >"$src/go.mod" <<MOD
module chainrun-ci/jaeger

go 1.26

// the same replace as github.com/jaegertracing/jaeger's own go.mod
replace github.com/Shopify/sarama => github.com/Shopify/sarama v1.33.0
MOD
  (
    cd "$src"
    export GOFLAGS=-mod=mod GOWORK=off
    go get -tool "github.com/jaegertracing/jaeger/cmd/jaeger@$version" >&2
    go build -trimpath \
      -ldflags "-s -w -X github.com/jaegertracing/jaeger/internal/version.latestVersion=$version" \
      -o "$bin.tmp" github.com/jaegertracing/jaeger/cmd/jaeger >&2
  )
  mv "$bin.tmp" "$bin"
fi
echo "$bin"

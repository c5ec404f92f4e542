#!/usr/bin/env bash
# The release tools the release test drives: goreleaser, and
# cyclonedx-gomod, which writes the release's SBOMs (goreleaser's default
# SBOM tool, syft, is not a Go module one can install from the proxy).
# Both are built once from the Go module proxy and cached under
# $(go env GOPATH)/chainrun-ci, like the Temporal CLI and Jaeger, side by
# side: the test puts goreleaser's directory first on PATH, so its `sboms`
# step finds cyclonedx-gomod. Prints the path of goreleaser on stdout
# (and nothing else there), for
#   export CHAINRUN_GORELEASER=$(bash .ci/release/install.sh)
#
# A cold build takes about 4 minutes on 2 shared cores (downloads
# included): goreleaser is an 86 MB binary, cyclonedx-gomod 27 MB.
set -euo pipefail

goreleaser_version=v2.15.1
cyclonedx_version=v1.10.0
dir="$(go env GOPATH)/chainrun-ci/goreleaser-$goreleaser_version"

build() { # build MODULE/PACKAGE VERSION NAME
  if [ ! -x "$dir/$3" ]; then
    echo "building $3 $2 once (cached in $dir)" >&2
    mkdir -p "$dir/tmp"
    GOBIN="$dir/tmp" GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 \
      go install -trimpath -ldflags "-s -w" "$1@$2" >&2
    mv "$dir/tmp/$3" "$dir/$3"
    rmdir "$dir/tmp"
  fi
}

build github.com/goreleaser/goreleaser/v2 "$goreleaser_version" goreleaser
build github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod "$cyclonedx_version" cyclonedx-gomod
echo "$dir/goreleaser"

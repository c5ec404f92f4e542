#!/bin/sh
# The release's man pages and shell completions, made from the CLI itself
# (goreleaser runs this in before.hooks): manpages/chainrun*.1.gz, one
# page per command (./cmd/chainrun-man), and completions/chainrun.bash,
# .zsh and .fish (`chainrun completion SHELL`). The archives, the
# Homebrew formula and the deb/rpm/apk packages install them.
#   sh .ci/release/assets.sh VERSION COMMIT_TIMESTAMP
# The commit's time (Unix seconds) dates the pages, so two builds of one
# commit make the same files.
set -eu
version=${1:-dev}
if [ -n "${2:-}" ]; then
  SOURCE_DATE_EPOCH=$2
  export SOURCE_DATE_EPOCH
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chainrun" -ldflags "-X github.com/chainrun/chainrun/cmd.version=$version" .
rm -rf manpages completions
mkdir -p completions
go run -ldflags "-X github.com/chainrun/chainrun/cmd.version=$version" ./cmd/chainrun-man manpages
gzip -9n manpages/*.1
for sh in bash zsh fish; do
  "$tmp/chainrun" completion "$sh" >"completions/chainrun.$sh"
done

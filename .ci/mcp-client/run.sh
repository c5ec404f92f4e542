#!/usr/bin/env bash
# CI: the official MCP TypeScript SDK's client drives `chainrun mcp` over
# stdio (client.mjs). Its packages are installed once into a cache under
# $(go env GOPATH); npm's registry is the only network it needs. Any
# failure, installing included, fails CI: nothing is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=$(go env GOPATH)/chainrun-ci/mcp-client
mkdir -p "$cache"
cp "$here/package.json" "$here/client.mjs" "$cache/"
if [[ ! -d $cache/node_modules/@modelcontextprotocol/sdk ]]; then
  (cd "$cache" && npm install --no-audit --no-fund --loglevel=error)
fi
bin=$(mktemp -d)/chainrun
(cd "$root" && go build -o "$bin" .)
state=$(mktemp -d)
CHAINRUN_STATE_DIR=$state HOME=$state XDG_CONFIG_HOME=$state/.config node "$cache/client.mjs" "$bin" "$root/chains"

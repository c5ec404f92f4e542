#!/usr/bin/env bash
# bench/bigoutput.sh: a step that prints 500 MB, run by the chainrun binary
# with its peak memory measured (GNU time's maximum resident set size).
# chainrun keeps at most 8 MiB of a stream in memory and the whole in the
# run's directory; the peak must stay under 100 MB.
#
#   bash bench/bigoutput.sh            # SIZE_MB=500 by default
set -euo pipefail
SIZE_MB=${SIZE_MB:-500}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chainrun" "$root"
mkdir -p "$tmp/chains"
cat > "$tmp/chains/loud.yaml" <<YAML
name: loud
steps:
  - {id: loud, type: cli, run: 'head -c $((SIZE_MB * 1024 * 1024)) /dev/zero | tr "\\\\0" a', output_var: out}
  - {id: size, type: transform, expr: 'len(out)', depends_on: [loud], output_var: size}
output: size
YAML
cd "$tmp"
export CHAINRUN_STATE_DIR="$tmp/state"
/usr/bin/time -f '%M' -o "$tmp/rss" ./chainrun run loud -q > "$tmp/out"
rss_kb=$(cat "$tmp/rss")
kept=$(du -b "$tmp"/state/runs/*/outputs/* | awk '{s += $1} END {print s}')
echo "printed: ${SIZE_MB} MB; value kept in memory: $(cat "$tmp/out") bytes; kept in the run directory: $kept bytes"
echo "peak memory (max RSS): $((rss_kb / 1024)) MB"
if [ "$rss_kb" -gt $((100 * 1024)) ]; then
	echo "FAIL: over 100 MB" >&2
	exit 1
fi
echo "ok: under 100 MB"

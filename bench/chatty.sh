#!/usr/bin/env bash
# bench/chatty.sh: a step that prints LINES short lines (seq LINES), run
# by the chainrun binary with and without --verbose in paired rounds
# (bench/pair, stderr to /dev/null), then the saved run's directory
# measured and `runs show` of it timed. Targets: -v at most 1.5× the run
# without it, the -v run's directory at most 1.2× the output, `runs show`
# of it at most 50 ms.
#
#   bash bench/chatty.sh          # LINES=1000000 ROUNDS=21 by default
set -euo pipefail
LINES=${LINES:-1000000}
ROUNDS=${ROUNDS:-21}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CGO_ENABLED=0
(cd "$root" && go build -trimpath -ldflags '-s -w' -o "$tmp/chainrun" . && go build -o "$tmp/pair" ./bench/pair)
cat > "$tmp/chatty.yaml" <<YAML
name: chatty
steps:
  - {id: out, type: cli, command: seq, args: ["$LINES"]}
YAML
# stderr, where -v writes, goes to /dev/null as a terminal-less log would
printf '#!/bin/sh\nexec "$@" 2>/dev/null\n' > "$tmp/quiet"
chmod +x "$tmp/quiet"
export CHAINRUN_STATE_DIR="$tmp/state"
cd "$tmp"
echo "seq $LINES: $(seq "$LINES" | wc -c) bytes of output; $ROUNDS paired rounds"
"$tmp/pair" -n "$ROUNDS" plain="$tmp/quiet $tmp/chainrun run chatty.yaml -q" \
	verbose="$tmp/quiet $tmp/chainrun run chatty.yaml -v" | tee "$tmp/pair.out"
ratio=$(awk '/^verbose \/ plain:/ {sub("x", "", $4); print $4}' "$tmp/pair.out")
# one more -v run, the newest: its directory, and runs show of it
"$tmp/quiet" "$tmp/chainrun" run chatty.yaml -v
id=$(ls -t "$tmp/state/runs" | head -1)
out=$(seq "$LINES" | wc -c)
dir=$(du -sb "$tmp/state/runs/$id" | cut -f1)
echo "run directory of the -v run: $dir bytes ($(awk -v d="$dir" -v o="$out" 'BEGIN {printf "%.4f", d / o}')× the output)"
"$tmp/pair" -n "$ROUNDS" version="$tmp/chainrun version" show="$tmp/chainrun runs show $id" \
	json="$tmp/chainrun runs show $id -o json" | tee "$tmp/show.out"
show=$(awk '$1 == "show" && $2 == "wall" {print $3}' "$tmp/show.out")
fail=0
verdict() { # name, value, limit
	if awk -v v="$2" -v l="$3" 'BEGIN {exit !(v > l)}'; then
		echo "OVER: $1 $2 (target $3)"
		fail=1
	else
		echo "ok: $1 $2 (target $3)"
	fi
}
verdict "-v / without" "$ratio" 1.5
verdict "run directory / output" "$(awk -v d="$dir" -v o="$out" 'BEGIN {printf "%.4f", d / o}')" 1.2
verdict "runs show (ms)" "$show" 50
exit $fail

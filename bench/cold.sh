#!/usr/bin/env bash
# bench/cold.sh: time the README's two commands as a newcomer meets them:
# on an empty Go build cache (the module cache is kept: filling it is
# download time, which depends on the network, not on chainrun).
#
#   bash bench/cold.sh
#
# Prints wall time, CPU time and peak RSS of each (GNU time). The first
# command pauses at its decision point, as the README says, so `go run`
# exits 1 there; that is expected.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -x /usr/bin/time ]] || { echo "bench/cold.sh needs GNU time (/usr/bin/time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
echo "nproc: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
go version

# measure NAME CMD...: runs CMD from the repository with an empty build
# cache and a private state directory.
measure() {
	local name=$1
	shift
	local cache=$tmp/cache-$name
	mkdir -p "$cache"
	(cd "$root" && GOCACHE=$cache CHAINRUN_STATE_DIR=$tmp/state-$name GOFLAGS=-buildvcs=false \
		/usr/bin/time -o "$tmp/$name.time" -f '%e %U %S %M' "$@" >"$tmp/$name.out" 2>&1) || true
	# the last line: GNU time writes "Command exited with non-zero status"
	# first when the command fails
	read -r wall user sys rss < <(tail -n 1 "$tmp/$name.time")
	printf '%-40s wall %6.1f s  cpu %6.1f s  peak RSS %5d MiB\n' "$*" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" $((rss / 1024))
}

measure run go run . run deploy --input service=payment-api
grep -q "paused" "$tmp/run.out" || { echo "the deploy chain did not pause as the README says:" >&2; cat "$tmp/run.out" >&2; exit 1; }
measure build go build -o "$tmp/chainrun" .
measure test go test ./...

#!/usr/bin/env bash
# bench/manyoutputs.sh: STEPS steps that each print SIZE bytes (default
# 30 × 8,000,000: just under the 8 MiB a step keeps in memory, so every
# output is kept in memory and in the journal), and a last step that fails
# until a file exists. It measures the peak memory (GNU time's maximum
# resident set size) and wall time of: the run (it fails at the last
# step), `runs show`, `runs show -o json`, `runs show --gantt`, the
# resume that finishes it, and `runs show -o json` of the finished run.
#
# Every output is a variable of the run, so a run holds their sum
# ("kept" below) once; the target is a peak of at most 1.5× that, and for
# `runs show` far less.
#
#   bash bench/manyoutputs.sh            # STEPS=30 SIZE=8000000
#
# KEEP=1 leaves the temporary directory (binary, chains, state) in place.
set -euo pipefail
STEPS=${STEPS:-30}
SIZE=${SIZE:-8000000}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chainrun" "$root"
mkdir -p "$tmp/chains"
{
	echo "name: many"
	echo "steps:"
	deps=""
	for i in $(seq -w 1 "$STEPS"); do
		echo "  - {id: s$i, type: cli, run: 'head -c $SIZE /dev/zero | tr \"\\\\0\" a', output_var: o$i}"
		deps="$deps${deps:+, }s$i"
	done
	echo "  - {id: gate, type: cli, run: 'test -e go-ahead', depends_on: [$deps]}"
	echo "  - {id: size, type: transform, expr: 'len(o01) * $STEPS', depends_on: [gate], output_var: size}"
	echo "output: size"
} > "$tmp/chains/many.yaml"
cd "$tmp"
export CHAINRUN_STATE_DIR="$tmp/state" CHAINRUN_CHAINS_DIR="$tmp/chains"
kept=$((STEPS * SIZE))
measure() { # label, then the command
	local label=$1
	shift
	local rc=0
	/usr/bin/time -f '%M %e' -o "$tmp/m" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	read -r rss_kb secs < <(tail -n 1 "$tmp/m")
	printf '%-28s exit %-3s %6d MB  %5.2f× kept  %6.1f s\n' "$label" "$rc" $((rss_kb / 1024)) \
		"$(echo "scale=2; $rss_kb * 1024 / $kept" | bc)" "$secs"
}
echo "$STEPS outputs of $SIZE bytes: $((kept / 1000000)) MB kept"
measure "run (fails at gate)" ./chainrun run many -q
id=$(./chainrun runs -o json | sed -n 's/.*"run_id": "\(.*\)".*/\1/p' | head -n 1)
measure "runs show" ./chainrun runs show "$id"
measure "runs show -o json" ./chainrun runs show "$id" -o json
measure "runs show --gantt" ./chainrun runs show "$id" --gantt
touch go-ahead
measure "resume (finishes)" ./chainrun resume "$id" -q
measure "runs show -o json (done)" ./chainrun runs show "$id" -o json
echo "events.jsonl: $(du -m state/runs/"$id"/events.jsonl | cut -f1) MB; result.json: $(du -m state/runs/"$id"/result.json | cut -f1) MB"

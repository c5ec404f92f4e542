#!/usr/bin/env bash
# bench/run.sh: time chainrun against GNU make, go-task, just and a plain
# os/exec floor on the same generated workloads, and print a table of
# median wall times with chainrun's ratio to each. See bench/README.md for
# the method and the targets.
#
#   RUNS=5 PAR=2 bash bench/run.sh
#
# Env: RUNS (timed runs per cell, default 5), PAR (parallelism, default 2),
# LIMIT (seconds before the whole script gives up, default 1800),
# TASK_VERSION (go-task to install when none is found, default latest),
# JUST (a just binary, when none is on PATH).
# The only network traffic is `go install` of go-task, when it is missing.
set -euo pipefail

RUNS=${RUNS:-5}
PAR=${PAR:-2}
LIMIT=${LIMIT:-1800}
TASK_VERSION=${TASK_VERSION:-latest}
# Known to install from the module proxy; tried when @latest cannot be built.
TASK_FALLBACK=v3.53.1
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
bin=$tmp/bin wl=$tmp/workloads res=$tmp/results
mkdir -p "$bin" "$wl" "$res"

# Watchdog: after LIMIT seconds stop the command being timed, then this
# script, so a hung runner cannot keep the benchmark going forever.
(
	trap 'kill "$s" 2>/dev/null; exit 0' TERM
	sleep "$LIMIT" &
	s=$!
	wait "$s"
	echo "bench: still running after ${LIMIT}s, stopping" >&2
	[[ -s $tmp/current ]] && kill -TERM "$(cat "$tmp/current")" 2>/dev/null
	kill -TERM $$
) &
dog=$!
trap 'kill "$dog" 2>/dev/null; rm -rf "$tmp"' EXIT

# Built as the release is (.goreleaser.yaml): static, stripped. A build
# with cgo links libc dynamically, which costs every start a millisecond
# or two of loading.
echo "== building chainrun, floor and hello as the release builds"
export CGO_ENABLED=0
flags=(-trimpath -ldflags=-s\ -w)
(cd "$root" && go build "${flags[@]}" -o "$bin/chainrun" . && go build "${flags[@]}" -o "$bin/floor" ./bench/floor &&
	go build "${flags[@]}" -o "$bin/hello" ./bench/hello)

# go-task: use one on PATH or in GOPATH/bin, else install it there once.
task=""
gobin=$(go env GOPATH)/bin
if command -v task >/dev/null; then
	task=$(command -v task)
elif [[ -x $gobin/task ]]; then
	task=$gobin/task
else
	for v in "$TASK_VERSION" "$TASK_FALLBACK"; do
		echo "== installing go-task @$v into $gobin"
		if (cd "$tmp" && GOBIN=$gobin go install "github.com/go-task/task/v3/cmd/task@$v"); then
			task=$gobin/task
			break
		fi
		echo "bench: go install of go-task @$v failed" >&2
		[[ $v == "$TASK_FALLBACK" ]] && break
	done
fi
[[ -n $task ]] || echo "bench: no go-task: its column will say n/a" >&2

mk=$(command -v make || true)
[[ -n $mk ]] || echo "bench: no make (apt-get install make): its column will say n/a" >&2

# just: JUST, else one on PATH. It is not in Debian; npm's rust-just
# package ships the static binary (npm install rust-just).
just=${JUST:-$(command -v just || true)}
[[ -n $just ]] || echo "bench: no just (set JUST, or npm install rust-just): its column will say n/a" >&2

echo "== machine"
echo "nproc: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "kernel: $(uname -r)"
go version
[[ -n $mk ]] && echo "make: $("$mk" --version | head -1)"
[[ -n $task ]] && echo "go-task: $("$task" --version)"
[[ -n $just ]] && echo "just: $("$just" --version)"
echo "RUNS=$RUNS PAR=$PAR"

# Skew gets one branch per slot, so its critical path is reachable.
critical=$(cd "$root" && go run ./bench/gen -out "$wl" -branches "$PAR" | awk '/skew-critical-path-ms/ {print $2}')

# cmd_for RUNNER WORKLOAD sets CMD to the argv that runs WORKLOAD with
# RUNNER (from the workload directory).
cmd_for() {
	case $1 in
	make) CMD=("$mk" -s -r "-j$PAR" -f "$2.mk" all) ;;
	go-task) CMD=("$task" -s --concurrency "$PAR" -t "$2.taskfile.yml") ;;
	just) CMD=("$just" -q -f "$2.justfile" -d . --jobs "$PAR" all) ;;
	floor) CMD=("$bin/floor" -j "$PAR" "$2.spec") ;;
	chainrun) CMD=("$bin/chainrun" run "$2.yaml" --max-parallel "$PAR" -q) ;;
	esac
}

# now_us sets NOW to the wall clock in microseconds; bash 5 has it
# without a fork, which would otherwise be timed too.
now_us() {
	if [[ -n ${EPOCHREALTIME:-} ]]; then
		NOW=${EPOCHREALTIME//[.,]/}
	else
		NOW=$(($(date +%s%N) / 1000))
	fi
}

# timed CMD...: runs CMD (from the workload directory, the script's
# working directory from here on) and sets US to its wall time in
# microseconds; a failing command stops the benchmark. Nothing but bash's
# fork and the exec of CMD lies between the two clock readings.
timed() {
	local t0 rc=0
	now_us
	t0=$NOW
	"$@" >/dev/null 2>"$tmp/stderr" &
	echo $! >"$tmp/current"
	wait $! || rc=$?
	now_us
	if ((rc != 0)); then
		echo "bench: '$*' failed (exit $rc):" >&2
		cat "$tmp/stderr" >&2
		exit 1
	fi
	US=$((NOW - t0))
}

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'
}

workloads=(wide chain layered skew foreach one)
runners=()
[[ -n $mk ]] && runners+=(make)
[[ -n $task ]] && runners+=(go-task)
[[ -n $just ]] && runners+=(just)
runners+=(floor chainrun)

cd "$wl"
echo "== warm-up (each runner once on each workload, not timed)"
for w in "${workloads[@]}"; do
	for r in "${runners[@]}"; do
		cmd_for "$r" "$w"
		timed "${CMD[@]}"
	done
done

# Interleave runners inside each round, so a slow spell of the machine
# hits all of them alike rather than one runner's whole series.
for ((i = 1; i <= RUNS; i++)); do
	echo "== round $i/$RUNS"
	for w in "${workloads[@]}"; do
		for r in "${runners[@]}"; do
			cmd_for "$r" "$w"
			timed "${CMD[@]}"
			echo "$US" >>"$res/$w.$r"
		done
	done
	timed "$bin/chainrun" version
	echo "$US" >>"$res/version.chainrun"
	timed "$bin/hello"
	echo "$US" >>"$res/version.hello"
done

# Peak memory of the layered workload (GNU time's maximum resident set).
rss=n/a
if [[ -x /usr/bin/time ]]; then
	rss=$(/usr/bin/time -f %M "$bin/chainrun" run layered.yaml --max-parallel "$PAR" -q 2>&1 >/dev/null | tail -1)
fi

# cell WORKLOAD RUNNER: the median in µs, or n/a; ms US: it in ms.
cell() { [[ -s $res/$1.$2 ]] && median "$res/$1.$2" || echo n/a; }
ms() { [[ $1 == n/a ]] && echo n/a || awk -v u="$1" 'BEGIN {printf "%.1f", u / 1000}'; }

# vs PEER_US CHAINRUN_US: chainrun's time as a multiple of the peer's
# (under 1: chainrun is faster), or n/a.
vs() { [[ $1 == n/a ]] && echo n/a || awk -v p="$1" -v c="$2" 'BEGIN {printf "%.2fx", c / p}'; }

echo
echo "median wall time in ms over $RUNS runs, PAR=$PAR; chainrun's time / each's (under 1x: chainrun is faster)"
printf '%-9s %7s %7s %7s %7s %8s  %-13s %-8s %-8s %-8s %s\n' workload make go-task just floor chainrun "/floor" "/make" "/go-task" "/just" notes
for w in "${workloads[@]}"; do
	m=$(cell "$w" make) t=$(cell "$w" go-task) j=$(cell "$w" just) f=$(cell "$w" floor) c=$(cell "$w" chainrun)
	target=1.10
	[[ $w == one ]] && target=2.30
	ratio=$(awk -v c="$c" -v f="$f" -v t="$target" 'BEGIN {r = c / f; printf "%.2fx %s", r, (r <= t ? "ok" : "OVER")}')
	notes=""
	if [[ $w == skew ]]; then
		notes=$(awk -v c="$c" -v f="$f" -v p="$critical" 'BEGIN {c /= 1000; f /= 1000; d = (c - p) / p * 100; printf "critical path %d ms: floor %+.1f%%, chainrun %+.1f%% %s", p, (f - p) / p * 100, d, (d <= 5 ? "ok" : "OVER")}')
	elif [[ $w == one ]]; then
		notes="1 step: the fixed cost of a run, target 2.3x"
	elif [[ $w == foreach ]]; then
		notes="for_each items, each true ITEM (the others: as many steps)"
	fi
	printf '%-9s %7s %7s %7s %7s %8s  %-13s %-8s %-8s %-8s %s\n' "$w" "$(ms "$m")" "$(ms "$t")" "$(ms "$j")" "$(ms "$f")" "$(ms "$c")" "$ratio" \
		"$(vs "$m" "$c")" "$(vs "$t" "$c")" "$(vs "$j" "$c")" "$notes"
done
v=$(median "$res/version.chainrun") h=$(median "$res/version.hello")
echo "chainrun version: $(ms "$v") ms, a Go hello linking net/http: $(ms "$h") ms: $(awk -v v="$v" -v h="$h" 'BEGIN {r = v / h; printf "%.2fx %s", r, (r <= 1.7 ? "ok" : "OVER")}') (target 1.7x)"
if [[ $rss == n/a ]]; then
	echo "peak RSS of layered: n/a (no /usr/bin/time)"
else
	echo "peak RSS of layered: $((rss / 1024)) MiB ($rss KiB): $( ((rss <= 20 * 1024)) && echo ok || echo OVER) (target 20 MiB)"
fi

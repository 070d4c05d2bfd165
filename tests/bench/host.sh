#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pcptop's own costs on this machine, beside a reference: ns per event of
# each BPF program (the kernel's accounting, kernel.bpf_stats_enabled)
# under page churn, with bpftrace counting the same tracepoints beside it;
# time from start to exit with one 50 ms interval; peak and steady RSS;
# memory locked by the maps here (4 CPUs: tests/bench/icount.sh); the static
# binaries' stripped sizes. A benchmark, not a test: a Markdown table on
# stdout, never a failure on a number.
#
# Usage: tests/bench/host.sh [BUILD_DIR]   (default build; needs root)

set -uo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
P=$B/pcptop
RUNS=5
[ -x "$P" ] && [ -x "$B/churn" ] || { echo "bench: build first (make)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench: needs root" >&2; exit 2; }

old_stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
trap 'echo "$old_stats" >/proc/sys/kernel/bpf_stats_enabled' EXIT
echo 1 >/proc/sys/kernel/bpf_stats_enabled

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
row() { echo "| $1 | $2 |"; }

echo "| figure | value |"
echo "|---|---|"
row machine "$(nproc) CPUs, $(uname -r), $(date -u +%Y-%m-%d)"

# ns per event, pcptop's programs, under churn
json=$("$P" stat -i 4 -c 1 --json 2>/dev/null & sp=$!; sleep 1
	"$B/churn" -m 256 -n 4 >/dev/null; wait $sp)
row "pcptop mode" "$(jq -r .mode <<<"$json")"
jq -r '.self.programs[] | select(.runs > 0) |
	"| \(.name): ns per run under churn | \(.run_ns / .runs | floor) (\(.runs) runs) |"' <<<"$json"
mb=$(jq .self.map_bytes <<<"$json")
row "maps locked, $(nproc) CPUs" "$((mb / 1024)) KiB"

# bpftrace on the same tracepoints, counting only
if command -v bpftrace >/dev/null; then
	bpftrace -e 'tracepoint:kmem:mm_page_pcpu_drain { @d = count(); }
		tracepoint:kmem:mm_page_alloc_zone_locked /args->percpu_refill/ { @r = count(); }' \
		>/dev/null 2>&1 &
	bt=$!
	sleep 3
	"$B/churn" -m 256 -n 4 >/dev/null
	bpftool prog show 2>/dev/null | awk '
		/^[0-9]+: tracepoint/ { name = $4 }
		/run_time_ns/ && name { for (i = 1; i < NF; i++) { if ($i == "run_time_ns") t = $(i + 1); if ($i == "run_cnt") c = $(i + 1) }
			if (c > 0) printf "| bpftrace %s: ns per run under churn | %d (%d runs) |\n", name, t / c, c; name = "" }'
	kill -INT $bt 2>/dev/null
	wait $bt 2>/dev/null
else
	row "bpftrace" "not installed (apt-get install bpftrace)"
fi

# start to exit with one 50 ms interval, and peak RSS
for i in $(seq $RUNS); do
	/usr/bin/time -f '%e %M' "$P" stat -i 0.05 -c 1 -H 2>&1 >/dev/null | tail -n 1
done >/tmp/pcptop-bench-start
row "start to exit, stat -i 0.05 -c 1 (median of $RUNS)" "$(awk '{ print $1 }' /tmp/pcptop-bench-start | median) s"
row "peak RSS, dynamic build" "$(awk '{ print $2 }' /tmp/pcptop-bench-start | median) KiB"
if [ -x build/vm-x86/pcptop ]; then
	pk=$(/usr/bin/time -f '%M' build/vm-x86/pcptop stat -i 0.05 -c 1 -H 2>&1 >/dev/null | tail -n 1)
	row "peak RSS, static x86 build" "$pk KiB"
fi
"$P" stat -i 3 -c 1 -H >/dev/null 2>&1 &
sp=$!
sleep 1.5
row "steady RSS, dynamic build" "$(sed -n 's/^VmRSS: *//p' /proc/$sp/status)"
wait $sp

for b in build/vm-x86/pcptop build/arm64/pcptop; do
	[ -x "$b" ] || continue
	s=$(mktemp)
	case $(file -b "$b") in
	*aarch64*) aarch64-linux-gnu-strip -o "$s" "$b" ;;
	*) strip -o "$s" "$b" ;;
	esac
	row "static $(basename "$(dirname "$b")") binary, stripped" "$(($(stat -c %s "$s") / 1024)) KiB"
	rm -f "$s"
done

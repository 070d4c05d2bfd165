#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench's cost of `record --trace` where issue 22 sets its bound (2 %):
# reference 000's run (tests/rehearsal/lib.sh: the patched 6.12, one CPU,
# 1 GiB, ext4 on virtio, -icount, bonnie++ -d /mnt -u root recorded with
# --latency) at scale 5, with --trace (its runs: format 1.6), with --trace
# a record an event (pcptest.trace=noruns, as before the runs) and
# without, in turn, one boot at a time (two guests on two host cores stretch each other's
# wall time, not their instructions). The measure is the guest's CPU work
# (/proc/stat busy, counted in instructions under -icount): bonnie++'s
# throughput follows the host's disk.
#
# Usage: tests/bench/trace-rehearsal.sh [-n N]   (default 2 rounds of
# three boots, about 4 minutes a boot here)

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${REHEARSAL_OUT:-$root/build/rehearsal}
BIN=$root/build/vm-x86
N=2
die() { echo "bench trace-rehearsal: $1" >&2; exit "${2:-1}"; }
log() { echo "bench trace-rehearsal: $*" >&2; }
. "$root/tests/rehearsal/lib.sh"

rh_bench_n "$@"
[ -x "$BIN/pcptop" ] || die "missing $BIN/pcptop: make vm-builds" 2
mkdir -p "$OUT/runs"
rh_setup
start=$SECONDS
for i in $(seq 1 "$N"); do
	log "round $i of $N ($((SECONDS - start)) s so far)"
	rh_run "tr-trace-$i" "$bzimage" "$OUT/initrd.cpio.gz" \
		"$RH_APPEND pcp_batch_scale_max=5 pcptest.trace=1" 0 on
	rh_run "tr-noruns-$i" "$bzimage" "$OUT/initrd.cpio.gz" \
		"$RH_APPEND pcp_batch_scale_max=5 pcptest.trace=noruns" 0 on
	rh_run "tr-plain-$i" "$bzimage" "$OUT/initrd.cpio.gz" \
		"$RH_APPEND pcp_batch_scale_max=5" 0 on
done

# the trace's events as the report counts them: "trace N allocations, M frees"
events() {
	"$root/build/pcptop" report "$OUT/$1.data" 2>/dev/null |
		awk '$1 == "trace" { print $2 + $4; exit }'
}
# its records: a run of events is one
records() {
	"$root/build/pcptop" report --json "$OUT/$1.data" 2>/dev/null |
		jq -r '.trace.records // "-"'
}

echo "## record --trace on the rehearsal's bonnie++ (tests/bench/trace-rehearsal.sh, $(date -u +%Y-%m-%d), $((SECONDS - start)) s)"
echo
echo "| round | trace | busy, s: --latency | busy, s: --latency --trace | trace over none | events | records | guest instructions an event |"
echo "|---|---|---|---|---|---|---|---|"
for i in $(seq 1 "$N"); do
	a=$(rh_mj "tr-plain-$i" .busy_s)
	for v in trace noruns; do
		b=$(rh_mj "tr-$v-$i" .busy_s)
		n=$(events "tr-$v-$i")
		r=$(records "tr-$v-$i")
		awk -v i="$i" -v v="$v" -v a="$a" -v b="$b" -v n="$n" -v r="$r" 'BEGIN {
			name = v == "trace" ? "runs" : "a record an event"
			if (a + 0 <= 0 || b + 0 <= 0) { printf "| %d | %s | %s | %s | - | %s | %s | - |\n", i, name, a, b, n, r; exit }
			per = n > 0 ? sprintf("%.0f", (b - a) * 1e9 / n) : "-"
			printf "| %d | %s | %.2f | %.2f | %+.2f %% | %s | %s | %s |\n", i, name, a, b,
				(b - a) * 100 / a, n, r, per }'
	done
done

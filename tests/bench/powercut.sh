#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench's power cuts: reference 000's run at scale 5 (tests/rehearsal/
# lib.sh) recorded to the ext4 disk bonnie++ fills, qemu killed -9 at a
# random guest second of the middle half of the run, the VM booted again
# on the same disk to read the recording back. Each round cuts two runs
# at the same second, side by side: cut-i with --sync at its default and
# cutns-i with --sync 0 (fsync only at the end). Prints, per run, where
# the cut fell and how many seconds before it the recording ends (what a
# power cut loses), then the mean and worst per --sync.
#
# Usage: tests/bench/powercut.sh [-n N]   (default 5 rounds, about 3
# minutes each here)

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${REHEARSAL_OUT:-$root/build/rehearsal}
BIN=$root/build/vm-x86
N=5
# the middle half of a run of about 42 guest seconds (make rehearsal's s5-1)
CUT_FROM_S=10
CUT_TO_S=32
TICK_S=1
die() { echo "bench powercut: $1" >&2; exit "${2:-1}"; }
log() { echo "bench powercut: $*" >&2; }
. "$root/tests/rehearsal/lib.sh"

rh_bench_n "$@"
[ -x "$BIN/pcptop" ] || die "missing $BIN/pcptop: make vm-builds" 2
mkdir -p "$OUT/runs"
rh_setup
I=$OUT/initrd.cpio.gz
start=$SECONDS
for i in $(seq 1 "$N"); do
	c=$((CUT_FROM_S + RANDOM % (CUT_TO_S - CUT_FROM_S + 1)))
	log "round $i of $N: cut after $c s ($((SECONDS - start)) s so far)"
	rh_cut "cut-$i" "$bzimage" "$I" "pcp_batch_scale_max=5" "$c" &
	rh_cut "cutns-$i" "$bzimage" "$I" "pcp_batch_scale_max=5 pcptest.sync=0" "$c" &
	wait
done

echo "## Power cuts (tests/bench/powercut.sh, $(date -u +%Y-%m-%d), $((SECONDS - start)) s)"
echo
echo "| run | --sync | cut after, s of bonnie++ | intervals read back | recording ends before the cut, s | widest tick gap, s |"
echo "|---|---|---|---|---|---|"
for i in $(seq 1 "$N"); do
	for r in "cut-$i" "cutns-$i"; do
		read -r lost at gap < <(rh_cut_lost "$r" "$TICK_S")
		sync=5
		[ "${r#cutns}" != "$r" ] && sync=0
		echo "| $r | $sync | $at | $(rh_rj "$r" '.intervals // 0') | $lost | $gap |"
		echo "$sync $lost" >>"$OUT/runs/powercut.$$"
	done
done
echo
awk '$2 != "none" { n[$1]++; s[$1] += $2; if ($2 > m[$1]) m[$1] = $2 }
	END { for (k in n) printf "--sync %s: lost %.1f s on average, %.1f s at most, over %d cuts\n", k, s[k] / n[k], m[k], n[k] }' \
	"$OUT/runs/powercut.$$" | sort
rm -f "$OUT/runs/powercut.$$"

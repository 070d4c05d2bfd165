#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pcptop diff of a 6.x and a 7.x recording compares like with like (issue
# 21). Up to 6.18 a flush is one free_pcppages_bulk call; from 7.x the
# kernel frees it in calls of at most pcp->batch, so bulk_free's sizes
# stop at batch while the flush, which the scale still sets, keeps its
# size. Boots KERNEL_A and KERNEL_B (Debian's, tests/vm/matrix) with
# tests/vm/flush-proof.sh's workload recorded (vm-flushrec.sh), brings
# the recordings out on the console and diffs them on the host: the
# largest flush the same on both, the largest bulk call not, the bulk
# calls per flush apart by the chunking. The figures themselves are
# checked against the kernel's own counts by tests/vm (flush-proof.sh,
# tests/oracle/check_k7.sh); this checks what diff puts side by side.
# Needs the static builds (make vm-builds) and the host's build/pcptop.
# Usage: tests/record/vm-diff.sh [KERNEL_A KERNEL_B]
#   (default amd64-6.12 amd64-7.3)
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

A=${1:-amd64-6.12}
B=${2:-amd64-7.3}
RUNNER=${VM_RUNNER:-tests/vm/run.sh}
PCPTOP=${PCPTOP:-build/pcptop}
# batch 63 at 1 GiB; the last whole entry freed past a request is up to
# 7 more pages of an order-3 entry, or up to 511 of a THP (below)
BATCH=63
# a flush frees whole pages until its request is met, and a THP list's
# last page (pageblock_order 9 on amd64) can take it past by up to 511
# pages: CI's amd64-6.12 saw a 2112-page flush of a 2016-page request,
# with THPs the guest's page cache freed beside the workload's (the vm
# suite's checks.sh allows the same)
THP_SLACK=511
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for k in "$A" "$B"; do
	echo "== pcptop record in VM $k, around flush-proof.sh's workload"
	start=$SECONDS
	"$RUNNER" --exec tests/record/vm-flushrec.sh "$k" >"$TMP/$k.log" 2>"$TMP/$k.err"
	# the runner's boot lines, for tests/run-all.sh's count
	grep '^boot: ' "$TMP/$k.err"
	v() { tr -d '\r' <"$TMP/$k.log" | sed -n "s/^.*VMDIFF:$1://p"; }
	if [ "$(v done)" != 1 ]; then
		# as the vm suite's rows: a kernel the mirror lacks is a skip
		if [ -f "${VMTEST_OUT:-build/vmtest}/$k/skip" ]; then
			t_skip "vm-diff $A $B" "$k could not be had: $(cat "${VMTEST_OUT:-build/vmtest}/$k/skip")"
			t_summary
			exit $?
		fi
		t_fail "$k: the VM ran the script to its end ($(tail -n 1 "$TMP/$k.err"))"
		t_summary
		exit 1
	fi
	echo "   VM run took $((SECONDS - start)) s ($(v release))"
	t_eq "$k: record exits 0" "$(v record_rc)" 0
	v data | base64 -d >"$TMP/$k.data"
	"$PCPTOP" report --json "$TMP/$k.data" >"$TMP/$k.json" 2>&1
	t_eq "$k: the recording reads on the host" "$?" 0
done

"$PCPTOP" diff --json "$TMP/$A.data" "$TMP/$B.data" >"$TMP/diff.json" 2>"$TMP/diff.err"
t_eq "pcptop diff --json $A $B exits 0" "$?" 0
"$PCPTOP" diff "$TMP/$A.data" "$TMP/$B.data" >"$TMP/diff.txt" 2>>"$TMP/diff.err"
d() { jq -r ".delta[\"$1\"].$2 // \"null\"" "$TMP/diff.json"; }
fa=$(d flush.max a) fb=$(d flush.max b)
in_flush() { # MAX: the scale's request, or past it by a last page at most
	[[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge $((BATCH << 5)) ] &&
		[ "$1" -le $(((BATCH << 5) + THP_SLACK)) ]
}
t_check "the largest flush is the scale's ($((BATCH << 5)), + $THP_SLACK at most) on both: $A $fa" -- in_flush "$fa"
t_check "  and $B $fb" -- in_flush "$fb"
t_cmp "the largest bulk call: $A's is the flush" "$(d bulk_free.max a)" -ge $((BATCH << 5))
# a THP is one entry of the pcp lists (pindex NR_LOWORDER_PCP_LISTS): a
# chunk that reaches one frees it whole (the clean clone of 2026-12-04
# 23:28 saw 564 = 52 + 512 on amd64-7.3)
t_cmp "  $B's at most a batch and its last entry" "$(d bulk_free.max b)" -le $((BATCH + THP_SLACK))
ca=$(d flush.bulk_calls_per_flush a) cb=$(d flush.bulk_calls_per_flush b)
t_check "bulk calls per flush: $A $ca, $B $cb, four times as many at least" -- \
	awk -v a="$ca" -v b="$cb" 'BEGIN { exit !(a >= 1 && b >= 4 * a) }'
# the same workload on both: a flush's pages alike (KERNELS.md: 89775
# against 88653 on one boot each)
t_check "flush pages within 25 %: $(d flush.pages a) against $(d flush.pages b)" -- \
	awk -v c="$(d flush.pages change_pct)" 'BEGIN { exit !(c != "null" && c > -25 && c < 25) }'
t_check "the text diff has the row" -- grep -q '^  flush\.bulk_calls_per_flush ' "$TMP/diff.txt"
t_summary

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: whether the stalls phase of tests/oracle/guest.sh makes
# the kernel stall is up to kswapd and kcompactd, so a boot where it did
# not is a could-not-run of the stall checks (check_where.sh's
# stalled_checks), not a failure. A suite where most boots did not stall
# has proven nothing about the stall figures, though: this is the
# suite-level check, as vmtest's free_high line is for free_high.
#
# Usage: stalls-required.sh PREFIX ORACLE_FILE...
#   ORACLE_FILE: the oracle check lines of one boot (check.sh's output)
# Prints "PREFIX stalls: PASS|FAIL|SKIP (...)"; exits 1 on FAIL, 3 on
# SKIP (no boot had the window: the callers count it as a skip, not a
# pass), 0 on PASS.
# A kind passes when its stall checks could run (the kernel stalled) on
# at least STALLS_MIN_SHARE percent of the boots that had the stalls
# window, and on one boot at least.

STALLS_MIN_SHARE=${STALLS_MIN_SHARE:-50}

prefix=$1
shift
rc=0 out=()
for kind in reclaim compaction; do
	pat="direct $kind stalled (stalls window)"
	stalled=0 none=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		if grep -q "$pat: pcptop=- kernel=[1-9][0-9]* PASS" "$f"; then
			stalled=$((stalled + 1))
		elif grep -q "$pat: .*\(SKIP (none on this boot\|FAIL\)" "$f"; then
			none=$((none + 1))
		fi
	done
	n=$((stalled + none))
	if [ "$n" -eq 0 ]; then
		out+=("$kind: no boot with the stalls window")
		continue
	fi
	out+=("$kind stalled on $stalled of $n boots")
	if [ "$stalled" -eq 0 ] || [ $((stalled * 100)) -lt $((STALLS_MIN_SHARE * n)) ]; then
		rc=1
	fi
done
if [ "$rc" -ne 0 ]; then
	echo "$prefix stalls: FAIL (${out[0]}, ${out[1]}; at least $STALLS_MIN_SHARE % needed: the stall figures were compared on too few boots)"
elif [[ "${out[*]}" == *"no boot"*"no boot"* ]]; then
	echo "$prefix stalls: SKIP (no boot had the stalls window)"
	rc=3
else
	echo "$prefix stalls: PASS (${out[0]}, ${out[1]}; at least $STALLS_MIN_SHARE % needed)"
fi
exit $rc

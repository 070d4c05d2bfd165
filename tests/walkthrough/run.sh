#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# CONTRIBUTING.md's two walk-throughs, applied as written: its sampled
# figure and its BPF figure put into a scratch copy of the tree (the
# files git tracks, as they are in the working tree), the copy built and
# its unit tests run. A walk-through whose place or code no longer fits
# the code fails here, so the doc has to follow the code.
# Usage: tests/walkthrough/run.sh [CONTRIBUTING.md]   (no root)
# Environment: PCPTOP_BUILD (default build): the tree's own build, which
# must not hold the walk-throughs' figures.

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

DOC=$(realpath "${1:-CONTRIBUTING.md}")
B=${PCPTOP_BUILD:-build}
TMP=$(mktemp -d /tmp/pcptop-walkthrough.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
TREE=$TMP/tree
mkdir -p "$TREE"
git ls-files -z | tar --null -T - -cf - | tar -C "$TREE" -xf -

# what each walk-through must add: its figure's key and a Prometheus name
declare -A KEYS=([sampled]="thp_fault_alloc pcptop_thp_fault_alloc_total"
	[bpf]="refill_short_by_order pcptop_refill_short_pages_total")

for name in sampled bpf; do
	out=$(tests/walkthrough/apply.py "$DOC" "$TREE" "$name" 2>&1)
	rc=$?
	t_check "the $name walk-through applies ($(tr '\n' ' ' <<<"$out"))" -- test $rc -eq 0
done

make -C "$TREE" -j"$(nproc)" WERROR=1 build/pcptop build/unit_tests \
	>"$TMP/make.log" 2>&1
rc=$?
t_check "the copy with both walk-throughs builds with -Werror" -- test $rc -eq 0
[ $rc -ne 0 ] && grep -E 'error|Error' "$TMP/make.log" | head -n 10

if [ $rc -eq 0 ]; then
	# in the copy: its docs/METRICS.md, not this tree's
	(cd "$TREE" && build/unit_tests) >"$TMP/unit.log" 2>&1
	urc=$?
	grep '^FAIL' "$TMP/unit.log" | head -n 10
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$TMP/unit.log" | tail -n 1)
	t_check "its unit tests pass ($last)" -- test $urc -eq 0 -a -n "$last"
	mine=$("$B/unit_tests" 2>/dev/null | grep -E '^[0-9]+ passed' | tail -n 1)
	t_check "as many unit tests ran as in $B ($mine)" -- \
		test "${last%% passed*}" -ge "${mine%% passed*}" -a "${mine%% passed*}" -gt 0
	for name in sampled bpf; do
		for k in ${KEYS[$name]}; do
			t_check "the $name figure's $k is in the copy's pcptop" -- \
				grep -qaxF "$k" <(strings -a "$TREE/build/pcptop")
			t_check "... and not in $B/pcptop (the walk-through adds it)" -- \
				bash -c "! strings -a '$B/pcptop' | grep -qxF '$k'"
		done
	done
fi
t_summary

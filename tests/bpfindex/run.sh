#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every program of the built BPF objects has its line in its source's
# index (the first comment of bpf/pcptop.bpf.c and bpf/trace.bpf.c), and
# a copy of an index with a line taken out fails, so the check can fail.
# Usage: tests/bpfindex/run.sh [BUILD_DIR]   (no root; needs llvm-objdump)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

B=${1:-build}
C=tests/bpfindex/check.py
for f in "$B/pcptop.bpf.o" "$B/trace.bpf.o"; do
	[ -f "$f" ] || { echo "bpfindex: $f missing: run make first" >&2; exit 2; }
done
command -v llvm-objdump >/dev/null || { echo "bpfindex: needs llvm-objdump" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for s in pcptop trace; do
	out=$("$C" "bpf/$s.bpf.c" "$B/$s.bpf.o" 2>&1)
	rc=$?
	t_check "bpf/$s.bpf.c's index names every program of $s.bpf.o ($(tail -n 1 <<<"$out"))" -- test $rc -eq 0
	[ $rc -ne 0 ] && head -n 5 <<<"$out"
done
# the index without its tx_dead line must fail, naming tx_dead
grep -v '^ \* tx_dead, tr_dead ' bpf/trace.bpf.c >"$TMP/trace.bpf.c"
out=$("$C" "$TMP/trace.bpf.c" "$B/trace.bpf.o" 2>&1)
rc=$?
t_check "an index without its tx_dead line fails" -- test $rc -ne 0
t_check "... naming tx_dead and tr_dead" -- \
	test "$(grep -c 'program t[xr]_dead' <<<"$out")" -eq 2
t_summary

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The oracle lines only a 7.x kernel has. Why it exists: from 7.x the
# commit function frees a flush in chunks of pcp->batch and drops the pcp
# and zone locks between them ("mm/page_alloc: Batch page freeing in
# free_frozen_page_commit", Joshua Hahn, 2025), so one free_pcppages_bulk
# call is no longer one flush. tests/vm/kernel/pcp-oracle-7.3.patch counts
# flushes, chunks, free_high decisions and lock holds at the exact lines;
# this script checks that those counts add up to the per-call ones
# tests/oracle/check.sh compares pcptop with, that the scale sets the flush
# size and the batch the chunk, and pcptop's flush figure (where it prints
# one) against them. Run after check.sh on the same console log; its lines
# have check.sh's form.
#
# Usage: tests/oracle/check_k7.sh CONSOLE_LOG LABEL TRUE_SCALE
# Environment: ORACLE_TOP_ORDER, the highest page order on the pcp lists
# (default: the report's pageblock_order)
# Prints "oracle LABEL FIGURE: ... PASS|FAIL|SKIP (...)" and a last line
# "oracle LABEL (7.x): N passed, N failed, N could not run". Exits 0 when
# nothing failed, 1 when something did, 2 on bad input.

set -uo pipefail

[ $# -eq 3 ] || { echo "usage: tests/oracle/check_k7.sh CONSOLE_LOG LABEL TRUE_SCALE" >&2; exit 2; }
LOGF=$1 LABEL=$2 TRUE_SCALE=$3
[ -r "$LOGF" ] || { echo "oracle check_k7: cannot read '$LOGF'" >&2; exit 2; }
[[ "$TRUE_SCALE" =~ ^[0-6]$ ]] ||
	{ echo "oracle check_k7: TRUE_SCALE must be 0-6, not '$TRUE_SCALE'" >&2; exit 2; }

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
tr -d '\r' <"$LOGF" | sed -n 's/^.*ORACLE:/ORACLE:/p' >"$TMP/lines"
LABEL="$LABEL (7.x)"

if ! grep -q '^ORACLE:end:done' "$TMP/lines"; then
	skip all "the guest printed no oracle run"
	failed=$((failed + 1))
	finish
fi
sed -n 's/^ORACLE:report://p' "$TMP/lines" >"$TMP/report.json"
parse_snaps
flatten_report
have proc || { skip all "$(why_not proc)"; failed=$((failed + 1)); finish; }
if [ "$(ksum A3 proc flush_chunked)" != 1 ]; then
	skip all "/proc/pcp_oracle has no flush_chunked 1: not the 7.x instrumentation"
	failed=$((failed + 1))
	finish
fi

CPUS=$(sed -n 's/^ORACLE:load:done:cpus //p' "$TMP/lines" | tail -n 1)
[[ "$CPUS" =~ ^[1-9][0-9]*$ ]] || CPUS=1
batch=$(pj '[.zones[].cpus[].batch] | max')
[[ "$batch" =~ ^[1-9][0-9]*$ ]] || batch=0
cap=$((batch << TRUE_SCALE))
# free_pcppages_bulk() frees whole pages: the last one of a chunk can
# overshoot the count by (1 << order) - 1, per chunk. Seen on 7.3 with
# transparent_hugepage=never: a flush of 2500 pages in 33 chunks of
# batch 63, asked for at most 2016, so pages above order 3 still reach
# the pcp lists there; the bound takes the report's pageblock_order.
slack=$(((1 << ${ORACLE_TOP_ORDER:-$(pj '.pageblock_order // 9')}) - 1))

# over A0..A3 (the whole oracle run); each CPU can be inside one chunk
# while /proc/pcp_oracle is printed, between the two counters
outer() { read -r _ o <<<"$(window proc "$@")"; echo "$o"; }
equal_within() { # NAME LEFT RIGHT SPAN WHY
	local d=$(($2 - $3))
	d=${d#-}
	if [ "$d" -le "$4" ]; then
		pass "$1" "$2" "$3" "$5"
	else
		fail "$1" "$2" "$3" "$5 (off by $d, allowed $4)"
	fi
}

# --- the kernel's own counts add up --------------------------------------------
drain_chunks=0 drain_pages=0
for ((c = 0; c < CPUS; c++)); do
	drain_chunks=$((drain_chunks + $(outer "drain_chunks_cpu$c")))
	drain_pages=$((drain_pages + $(outer "drain_pages_cpu$c")))
done
calls=$(outer bulk_calls)
chunks=$(($(outer commit_chunks) + $(outer decay_chunks) + $(outer numa_drain_chunks) + drain_chunks))
equal_within "bulk calls = chunks" "$calls" "$chunks" "$CPUS" \
	"every free_pcppages_bulk call is one chunk of a commit flush, a decay step, a NUMA drain or a pageset drain"
pages=$(outer bulk_pages)
cpages=$(($(outer commit_flush_pages) + $(outer decay_pages) + $(outer numa_drain_pages) + drain_pages))
equal_within "bulk pages = chunk pages" "$pages" "$cpages" "$((CPUS * (cap + slack)))" \
	"the pages of those chunks"
asked=$(outer commit_flush_asked)
flushes=$(outer commit_flushes)
check_le "flush asked <= flushes x (batch << scale)" "$asked" "$((flushes * cap))" \
	"nr_pcp_free() asks at most batch $batch << scale $TRUE_SCALE a flush"
freed=$(($(outer commit_flush_pages) + $(outer commit_flush_cut_pages)))
check_le "flush pages + cut <= asked + overshoot" "$freed" "$((asked + $(outer commit_chunks) * slack))" \
	"a flush frees what nr_pcp_free() asked, less what a cut left, more a last page's overshoot per chunk"

# --- what the scale and the batch set ---------------------------------------------
fmax=$(ksum A3 proc flush_size_pages_max)
cmax=$(ksum A3 proc flush_chunks_max)
line "flushes: INFO (kernel: $flushes commit flushes in $(outer commit_chunks) chunks, largest $fmax pages in $cmax chunks; $(outer free_high) free_high flushes in $(outer free_high_chunks) chunks; cut short $(outer commit_flush_cut))"
check_le "flush size max <= batch << scale + overshoot" "$fmax" "$((cap + cmax * slack))" \
	"at most batch $batch << scale $TRUE_SCALE asked, and a last page's overshoot per chunk"
# the 7.x shape: a flush asking more than one batch comes in chunks
if [ "$asked" -gt "$flushes" ] && [ "$fmax" -gt $((2 * batch + slack)) ]; then
	check_le "chunks of the largest flush >= 2" 2 "$cmax" \
		"free_frozen_page_commit frees at most pcp->batch a chunk"
else
	skip "chunks of the largest flush" "no flush above two batches ($fmax)"
fi
check_le "free_high flushes <= their chunks" "$(outer free_high)" "$(outer free_high_chunks)" \
	"each free_high flush is one chunk or more"
if [ "$TRUE_SCALE" -gt 0 ] && [ "$(outer free_high)" -gt 0 ]; then
	check_le "free_high size max > batch" "$((batch + 1))" "$(ksum A3 proc free_high_size_pages_max)" \
		"a free_high flush asks up to batch << scale ($cap): the largest beyond one chunk"
fi

# --- pcptop's flush figure ------------------------------------------------------------
if [ "$(pj '.totals.flush // null')" = null ]; then
	skip "flush (pcptop)" "pcptop's report has no flush figure (totals.flush)"
else
	line "flush (pcptop): INFO (pcptop: $(pj .totals.flush.count) flushes, $(pj .totals.flush.pages) pages, max $(pj .totals.flush.max), $(pj .totals.flush.bulk_calls) bulk calls; kernel commit flushes alone: $flushes, max $fmax)"
	# pcptop's flushes: the commit's, one per decay call that freed and
	# one per drain_pages_zone call that freed (a drain call frees the
	# whole pageset in chunks of batch << scale: no size bound). The
	# kernel counts no drain calls; pcptop's drain.calls, checked against
	# the fprobe by check.sh, bounds them from above.
	# A chunk whose pageset count or free_count moved since the chunk
	# before (an interrupt or another task freed or allocated between
	# the unlock and the trylock, or the task was preempted there) or
	# that came over 10 ms after it starts a flush of its own in
	# pcptop's grouping: the kernel
	# counts those breaks (commit_chunk_breaks), and each may add one.
	# 0 on a kernel built before the line was added.
	read -r fin fout <<<"$(window proc commit_flushes)"
	read -r din dout <<<"$(window proc decay_freeing)"
	read -r _ bout <<<"$(window proc commit_chunk_breaks)"
	pf=$(pj .totals.flush.count)
	dc=$(pj '.totals.drain.calls // 0')
	hi=$((fout + dout + dc + bout + K7_TICK_EDGE))
	why="commit flushes and freeing decay calls, plus at most pcptop's $dc drain calls, the kernel's $bout chunk breaks and $K7_TICK_EDGE gaps at the 10 ms edge (K7_TICK_EDGE)"
	if [ "$pf" -ge $((fin + din)) ] && [ "$pf" -le "$hi" ]; then
		pass "flush.count (pcptop)" "$pf" "$((fin + din))..$hi" "$why"
	else
		fail "flush.count (pcptop)" "$pf" "$((fin + din))..$hi" \
			"$why: the chunks were not grouped as the kernel cut them"
	fi
	check_le "flush.bulk_calls (pcptop) <= bulk calls" "$(pj .totals.flush.bulk_calls)" "$calls" \
		"pcptop's chunks are among the kernel's free_pcppages_bulk calls of the run"
fi
finish

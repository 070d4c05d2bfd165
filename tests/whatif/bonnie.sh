#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: issue 22 asks whether the rehearsal's own run predicts
# the other scale. Reference 000's bonnie++ (tests/rehearsal/: one CPU,
# 1 GiB, ext4 on a virtio disk, the instrumented 6.12) is recorded with
# --trace at pcp_batch_scale_max=0 and =5, one boot each (the rehearsal's
# boots, tests/rehearsal/lib.sh), and on the host:
#   - each trace replayed at its own scale gives back its recording's
#     counts (whatif --check, issue 22's self-consistency bounds);
#   - the scale-5 trace at scale 0 against the scale-0 run, and the
#     reverse: bulk-free and refill calls and pages within 10 %, the
#     largest bulk free exact, interrupts-off p99 within one log2 bucket;
#   - whatif prints the table for scales 0-6 and writes the chart.
# tests/whatif/run.sh does the comparisons, and tests/whatif/cross.sh
# those of issue 31 (drains and the zone->lock hold total too); this
# script boots and hands them the two recordings.
#
# Usage: tests/whatif/bonnie.sh [-r]   (-r: reuse the recordings)
# Environment: WHATIF_OUT (build/whatif/bonnie), REHEARSAL_TIMEOUT,
# WHATIF_TRACE (pcptest.trace=: 1, or noruns for a record an event).
# Prints run.sh's lines and its "N passed, N failed", then cross.sh's;
# exit 1 when either failed.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/lib.sh"
OUT=${WHATIF_OUT:-$root/build/whatif/bonnie}
BIN=$root/build/vm-x86
log() { echo "whatif-bonnie: $*" >&2; }
die() { echo "whatif-bonnie: $1" >&2; echo "0 passed, 1 failed"; exit "${2:-1}"; }
. "$root/tests/rehearsal/lib.sh"

for t in qemu-system-x86_64 cpio gzip jq debugfs mkfs.ext4 timeout; do
	command -v "$t" >/dev/null || die "missing $t (scripts/deps.sh)" 2
done
mkdir -p "$OUT/runs" || die "cannot create $OUT" 2
start=$SECONDS
if [ "${1:-}" != -r ]; then
	rh_trace_boots "pcptest.trace=${WHATIF_TRACE:-1}" || die "the boots could not start"
fi
log "boots done after $((SECONDS - start)) s"
"$root/build/pcptop" whatif "$OUT/suite/s5/t.data" --scale 0-6 \
	--html "$OUT/knee.html" >"$OUT/table.txt" 2>&1 ||
	log "whatif on the scale-5 trace failed: $(head -n 1 "$OUT/table.txt")"
# The known misses as tests/whatif/reclaim.sh's, at 1 GiB, for run.sh's
# and cross.sh's calls, pages and lock hold, each at issue 31's 20 %
# (docs/ACCURACY.md, "Lock time from the kernel's sums" and "Reclaim":
# 0 -> 5 lock hold -10.62 % on 2026-12-05 22:40, where the pages had
# -8.05 % before); the drains printed, not held, as there
export CROSS_KNOWN="0:5:bulk_free.calls 0:5:refill.calls 0:5:bulk_free.pages 0:5:refill.pages 0:5:lock_hold_ns.total"
export CROSS_NOT_HELD="5:0:drain.chunks 5:0:drain.pages 0:5:drain.chunks 0:5:drain.pages"
# The rehearsal's guests keep THP on (an order-9 entry's 511 pages past
# a bulk free's request). The scale-0 self replay drifts by up to 3.31 %
# of its calls and pages, its origin not found: known within 5 %
# ("The rehearsal's bonnie++").
WHATIF_OUT=$OUT/suite WHATIF_PAIRS="5:0 0:5" WHATIF_OVERSHOOT=511 \
	WHATIF_SELF_DRIFT_PCT=5 "$here/run.sh" -r 5 0
rc=$?
# issue 31's figures beside run.sh's: drains and the zone->lock time too
"$here/cross.sh" "$OUT/suite" 5:0 0:5 || rc=1
exit $rc

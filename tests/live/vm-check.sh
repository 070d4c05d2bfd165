#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The live checks where fentry attaches (the vmlive suite). Where the
# host refuses fentry (the development machines' policy), tests/live/run.sh
# proves only the fallback branch; this boots KERNEL (a Debian kernel that allows fentry) once with
# tests/vm/run.sh --exec running tests/live/vm-live.sh, and checks what it
# printed with the same tests/live/checks.sh: the mode info reports against
# floor's fentry witness, no fallback, info --mode fentry, stat in info's
# modes and with --mode tracepoint, and each stat's pages against the
# kernel's own count of the window (a kmem:mm_page_pcpu_drain hist
# trigger): A1..A2 <= pcptop <= A0..A3, the oracle suite's bracket.
# Needs what tests/vm/run.sh needs (the static builds: make vm-builds).
# Usage: tests/live/vm-check.sh [KERNEL]   (default amd64-6.12)
# Environment: VM_RUNNER (default tests/vm/run.sh), VMTEST_* as run.sh reads,
#   VMLIVE_LOG=FILE keeps the console log
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/live/checks.sh

K=${1:-amd64-6.12}
RUNNER=${VM_RUNNER:-tests/vm/run.sh}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== the live checks in VM $K"
start=$SECONDS
"$RUNNER" --exec tests/live/vm-live.sh "$K" >"$TMP/console.log" 2>"$TMP/runner.err"
# qemu's status: once the runner came back in 5 s with an empty console
echo "   VM run took $((SECONDS - start)) s (runner exit $?, console $(wc -c <"$TMP/console.log") bytes)"
# the runner's boot lines, for tests/run-all.sh's count
grep '^boot: ' "$TMP/runner.err"
[ -n "${VMLIVE_LOG:-}" ] && cp "$TMP/console.log" "$VMLIVE_LOG"
v() { tr -d '\r' <"$TMP/console.log" | sed -n "s/^.*VMLIVE:$1://p"; }
t_eq "the VM ran the script to its end" "$(v done)" 1
for f in info info_err floor mode_fentry_err default_json tp_json; do
	v "$f" >"$TMP/$f"
done

echo "== info"
t_eq "info exits 0" "$(v info_rc)" 0
FENTRY=$(live_fentry_state "$(v floor_rc)" "$TMP/floor")
echo "   fentry on free_pcppages_bulk: $FENTRY ($(grep -m 1 '^floor:' "$TMP/floor"))"
# the branch this suite is for: a guest that refuses fentry proves nothing
t_eq "fentry attaches in this guest (floor's witness)" "$FENTRY" attaches
live_check_info "$TMP/info" "$TMP/info_err" "$FENTRY"
live_check_mode_fentry "$(v mode_fentry_rc)" "$TMP/mode_fentry_err" "$FENTRY"

# pages_at TAG SNAP: pages the hist counted by then, hitcount << order
pages_at() {
	v "$1:$2" | awk '{ o = $3; n = $6; for (i = 0; i < o; i++) n *= 2; t += n }
		END { printf "%.0f\n", t }'
}
# check_window TAG WHAT: pcptop's bulk_free.pages inside the kernel's
# bracket of the same window
check_window() {
	local tag=$1 got inner outer
	got=$(jq '.bulk_free.pages // -1' "$TMP/${tag}_json")
	inner=$(($(pages_at "$tag" A2) - $(pages_at "$tag" A1)))
	outer=$(($(pages_at "$tag" A3) - $(pages_at "$tag" A0)))
	t_cmp "  the kernel counted the churn's pages (A1..A2)" "$inner" -gt 0
	t_check "  pcptop's bulk_free.pages in the kernel's bracket: $inner <= $got <= $outer" -- \
		test "$inner" -le "$got" -a "$got" -le "$outer"
}

echo "== stat in the mode info chose, under churn"
t_eq "the kernel counts mm_page_pcpu_drain (hist trigger)" "$(v hist)" yes
t_eq "stat exits 0" "$(v default_rc)" 0
live_check_stat_default "$TMP/default_json" "$TMP/info"
check_window default

echo "== stat --mode tracepoint under churn"
t_eq "stat --mode tracepoint exits 0" "$(v tp_rc)" 0
live_check_stat_tp "$TMP/tp_json" "$(v batch)" "$(v cpus)" "$(jq -r .pageblock_order "$TMP/info")"
check_window tp

if [ "$T_FAILED" -gt 0 ]; then
	echo "--- console (errors)"
	grep -E 'VMLIVE:(info_err|default_err|tp_err|floor)|vmtest:' "$TMP/console.log" | head -n 40
	# its boot lines were printed above: once, for run-all's count
	grep -v '^boot: ' "$TMP/runner.err" | tail -n 20
fi
t_summary

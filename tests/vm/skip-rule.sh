#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The matrix's rule for rows that cannot be fetched (tests/vm/run.sh): a
# SKIP names the package, and the run fails when a bookworm row skips or
# when more than one of the newer rows does. And its free_high check
# (tests/vm/free-high.sh) over made-up rows: seen, not seen where it can
# be, out of reach on every row. Fed matrices whose patterns
# no mirror has, so nothing boots and nothing is downloaded: a few
# seconds. And the matrix's self-replay bound (tests/vm/checks.sh) on
# lines of whatif --check, made up from a real row's. Prints "N passed,
# N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# row NAME SUITES: a row of the real matrix's shape that no suite has
row() {
	printf '%-16s amd64 -          2   ^linux-image-0\\.0\\.0-pcptop-%s-amd64$ fentry,fentry,none,fentry,heuristic no no drain - %s 30\n' \
		"$1" "$1" "$2"
}

# run NAME ROWS...: run.sh over a matrix of those rows; its exit status
run() {
	local name=$1
	shift
	printf '%s\n' "$@" >"$TMP/$name.matrix"
	VMTEST_MATRIX=$TMP/$name.matrix VMTEST_OUT=$TMP/$name \
		tests/vm/run.sh >"$TMP/$name.out" 2>&1
}

NEW=sid+trixie+trixie-backports
run one-new "$(row new1 "$NEW")"
t_eq "one newer row that cannot be fetched: a SKIP, the run passes" "$?" 0
t_check "the SKIP names the package" -- \
	grep -q 'vmtest new1: SKIP (cannot fetch: .*linux-image-0' "$TMP/one-new.out"
# free_high's suite-level check had no boot to look at: a skip too
t_check "free_high's check says it could not run" -- \
	grep -q '^vmtest free_high: SKIP (no kernel booted)' "$TMP/one-new.out"
t_check "the closing line counts both" -- grep -q '^0 passed, 0 failed, 2 skipped$' "$TMP/one-new.out"
run two-new "$(row new1 "$NEW")" "$(row new2 "$NEW")"
t_eq "two newer rows skipped: the run fails" "$?" 1
t_check "and says why" -- grep -q '^vmtest skips: FAIL (2 of the newer rows skipped' "$TMP/two-new.out"
run bookworm "$(row old1 -)"
t_eq "a bookworm row skipped: the run fails" "$?" 1
t_check "and names it" -- grep -q '^vmtest skips: FAIL (bookworm rows skipped: old1)' "$TMP/bookworm.out"

# free_high over made-up rows, NAME:STATUS:COUNT:RELEASE:HIGH_MIN each
# (batch 63, scale 5: free_count stops at 2016 + 7; 6.16+ needs
# 63 + HIGH_MIN / 2)
. tests/vm/free-high.sh
fh() {
	local r k st n rel hm rows=()
	rm -rf "$TMP/fh"
	for r in "$@"; do
		IFS=: read -r k st n rel hm <<<"$r"
		mkdir -p "$TMP/fh/$k"
		echo "$st" >"$TMP/fh/$k/status"
		echo "$n" >"$TMP/fh/$k/free_high"
		printf '{"kernel":{"release":"%s"},"scale":{"value":5},"zones":[{"cpus":[{"batch":63,"high_min":%d}]}]}\n' \
			"$rel" "$hm" >"$TMP/fh/$k/info.json"
		rows+=("$k")
	done
	free_high_verdict "$TMP/fh" "${rows[@]}" >"$TMP/fh.out"
}
fh amd64-6.12:PASS:1377:6.12.118:6928 amd64-7.3:PASS:0:7.3.4:6928
t_eq "free_high seen on one row: passes" "$?" 0
fh amd64-6.12:PASS:0:6.12.118:6928 amd64-7.3:PASS:0:7.3.4:6928
t_eq "free_high on no row, a 6.12 among them: fails" "$?" 1
t_check "  naming the rows that could have" -- \
	grep -q '^vmtest free_high: FAIL (.*, amd64-6.12 among those that can flush it)' "$TMP/fh.out"
fh amd64-6.16:PASS:0:6.16.12:6928 arm64-7.3:FAIL:0:7.3.4:6928
t_eq "free_high on no row, out of reach on each (63 + 3464 > 2023): a skip" "$?" 3
t_check "  saying why" -- grep -q '^vmtest free_high: SKIP (out of reach on every kernel' "$TMP/fh.out"
fh amd64-7.3:PASS:0:7.3.4:3920
t_eq "a 7.3 pageset within reach (63 + 1960 <= 2023) and no free_high: fails" "$?" 1
fh amd64-6.1:SKIP:0:6.1.192:6928 amd64-7.2:PASS:0:7.2.13:6928
t_eq "a 6.1 row that did not boot does not count" "$?" 3

# The matrix's self replay (checks.sh self_replay_known) on a decay in
# flight at the recording's last flip: the amd64-7.2 row of the clean
# clone of 2026-12-06 01:00. record now waits for such a decay before its
# last flip (src/live/record.c), so the row's lines are a failure, not a
# known miss; between a decay's chunks (fewer bulk frees replayed) the
# known miss stays
. tests/vm/checks.sh
# sr CALLS PAGES DECAY_LINE: whatif --check's lines of that row, with the
# replay's bulk-free calls and pages and the decay.max line given
sr() {
	cat <<EOF2 | self_replay_known 1 "${ENDS:-0}" >"$TMP/sr.out"
ok   trace.lost_events      0 (must be 0)
FAIL bulk_free.calls        replay $1, recorded 37: +x % (bound 1 %)
FAIL bulk_free.pages        replay $2, recorded 2331: +x % (bound 1 %)
ok   bulk_free.hist         0.000 % of calls more than one log2 bucket from the recording's (bound 1 %)
ok   refill.pages           replay 10395, recorded 10395: +0.000 % (bound 1 %)
ok   bulk_free.max          replay 63, recorded 63 (exact)
$3
ok   drain.max              replay 0, recorded 0 (exact)
FAIL lock_hold_ns.total     replay 3769679, recorded 3243677: +16.216 % (bound 10 %)
EOF2
}
sr 43 2688 'FAIL decay.max              replay 672, recorded 0 (exact)'
t_eq "self replay: 6 bulk frees of a decay in flight at the last flip, fails" "$?" 1
sr 43 2688 'ok   decay.max              replay 672, recorded 672 (exact)'
t_eq "self replay: 6 extra bulk frees beside a decay counted whole, fails" "$?" 1
sr 31 1953 'ok   decay.max              replay 672, recorded 672 (exact)'
t_eq "self replay: 6 bulk frees fewer, within the decay's 11 chunks, known" "$?" 0
t_check "  saying so" -- grep -q "bulk frees between a decay's chunks: 6 of at most 11" "$TMP/sr.out"
sr 25 1575 'ok   decay.max              replay 672, recorded 672 (exact)'
t_eq "self replay: 12 bulk frees fewer, more than the decay's 11 chunks, fails" "$?" 1
# a trace with each decay's return (hooks bit 17) frees the chunks there:
# the same 6 fewer are a failure
ENDS=131072 sr 31 1953 'ok   decay.max              replay 672, recorded 672 (exact)'
t_eq "self replay: 6 bulk frees fewer where the decay's return is traced, fails" "$?" 1

# check_trace on the amd64-7.3 row's trace phase of 2026-12-06 (its
# VMTEST lines, the report cut to the fields read): the trace's decay
# returns between the kernel's counts around the churn and the recording
# tl DECAYS_LINE: check_trace's fails, one a line, into $TMP/tl.out
tl() {
	local fails=() trace_fig= logf=$TMP/trace.log
	declare -A K_SMP=([amd64-7.3]=2)
	cat >"$logf" <<EOF2
VMTEST:begin:7.3.4+deb13-amd64 x86_64
VMTEST:trace_rc:0
VMTEST:trace_report:{"trace":{"hooks":197119,"lost":0,"events":{"alloc":17235,"free":17077,"decay":4,"decay_end":4}}}
VMTEST:trace_hits:16737 16685 22692 23833
$1
VMTEST:trace_whatif_rc:0
VMTEST:trace_whatif:ok   bulk_free.calls        replay 0, recorded 0: +0.000 % (bound 1 %)
EOF2
	check_trace amd64-7.3 "$logf" fentry
	printf '%s\n' "${fails[@]}" >"$TMP/tl.out"
	[ ${#fails[@]} -eq 0 ]
}
tl 'VMTEST:trace_decays:4 8'
t_eq "trace: 4 decay returns, the kernel's 4..8, pass" "$?" 0
tl 'VMTEST:trace_decays:5 8'
t_eq "trace: 4 decay returns under the churn's 5, fails" "$?" 1
t_check "  saying so" -- grep -q "4 decay returns outside the kernel's 5..8" "$TMP/tl.out"
tl 'VMTEST:trace_decays:4 3'
t_eq "trace: 4 decay returns over the recording's 3, fails" "$?" 1
tl ''
t_eq "trace: no kernel count of the returns, fails" "$?" 1
t_summary

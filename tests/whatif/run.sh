#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: pcptop whatif predicts what another pcp_batch_scale_max
# would have done from one `record --trace`; a prediction is a figure like
# any other and is checked against what the kernel counted (issue 22). The
# instrumented 6.12 kernel (tests/vm/kernel/) is booted once per scale
# (tests/whatif/boot.sh; fentry mode, where the recording's own counts are
# exact: tests/oracle/ checks them against /proc/pcp_oracle), the same
# workload recorded with --trace at each, and on the host:
#   - self-consistency: each trace replayed at its recorded scale gives
#     back the recording's own counts (whatif --check: bulk-free and
#     refill calls and pages within 1 %, their size histograms within one
#     log2 bucket for 99 % of calls, no event lost, and the zone->lock
#     hold total the replay's calls are priced at within 10 % of the one
#     measured: issue 31); the largest bulk free in asked..asked + 7, the
#     largest free_high flush and drain chunk within 7 pages and the
#     largest decay within 7 a chunk (whole entries: KNOWN_OVERSHOOT below);
#   - prediction: the trace of scale A replayed at scale B against the
#     real run at B: bulk-free and refill calls and pages within 10 %,
#     the largest bulk free exact or in asked..asked + 14, interrupts-off
#     p99 within 3 log2 buckets. Pairs: 5->0 and 0->5 (reference 000's
#     two scales), 5->3, 5->6, 3->5, 6->5.
# The instrumented 7.3 (issue 31) is booted at scales 5 and 0 with the same
# workload, recorded with --trace --exact-free-high: 7.x chunks a commit
# flush into calls of at most batch, so the 6.12 pairs prove nothing of
# the 7.x rules. On the host:
#   - prediction under the 7.x rules, k73 5->0 (0->5 printed, not held):
#     bulk-free and refill calls and pages within 10 %, known while within
#     KNOWN_K73_PRED_PCT (the largest bulk free and the p99 are not issue
#     31's: not checked); and the same two scales again with the stream
#     over a unix socket pair, its receivers on a CPU apart from its
#     senders (k73unix-sS), where both directions are held;
#   - free_high under another kernel's rule: each 7.3 trace replayed at its
#     own scale under --rules 6.16 (the free_high test 7.3 has: free_count
#     >= batch + high_min / 2) and --rules 6.12 (free_count >= batch), the
#     free_high flushes and pages of each against the recording's exact
#     ones. 6.16's within 10 %; 6.12's must miss by more, or the workload
#     never reached where the two rules differ and 6.16's agreement says
#     nothing. Scale 5 must have free_high flushes at all (at scale 0
#     free_count stops at batch + 7, below 6.16's threshold: none).
# Bounds are issue 22's, or where it asks "exact" of what whole entries
# leave open or "one bucket" of the emulator's tail, the fixed ones below;
# docs/ACCURACY.md says which runs set each. Do not widen them here. A
# miss measured and written up there prints "KNOWN MISS" with the bound
# it missed, counted neither as a pass nor as a failure, and only inside
# the fixed envelope its measurements drew (KNOWN_SELF_PAGES_PCT,
# KNOWN_PRED_PAGES_PCT, KNOWN_K73_PRED_PCT); past that it fails. No
# envelope moves with a run's own error.
#
# Usage: tests/whatif/run.sh [-r] [SCALE...]   (default scales 5 0 3 6)
#   -r   reuse the recordings of an earlier run (no boot): re-check only
# The 7.3 boots go to OUTDIR k73-sS and k73unix-sS; with SCALEs given,
# none unless WHATIF_K73 names them.
# Environment: WHATIF_OUT (build/whatif/suite), WHATIF_BIN (static build,
# build/vm-x86), WHATIF_JOBS (boots at once, 2), PCPTOP (the host's pcptop
# that replays, build/pcptop),
# WHATIF_PAIRS ("A:B ...", the predictions checked; tests/whatif/bonnie.sh
# sets "5:0 0:5"), WHATIF_K73 (the 7.3 kernel's scales, "5 0" when no
# SCALE is given, else none; "" for none; its pairs only when it names
# two; WHATIF_K73_UNIX, WHATIF_K73UNIX_HELD below), WHATIF_OVERSHOOT and
# CROSS_KNOWN (bounds a caller sets for its own guests: below).
# Prints one "whatif ok|FAIL|KNOWN MISS WHAT: ..." line per check and
# "N passed, N failed, N known misses" (tests/run-all.sh reads the first
# two); exit 0 when nothing failed, 1 on a failure, 2 on bad input or a
# missing tool.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=${WHATIF_OUT:-$root/build/whatif/suite}
PCPTOP=${PCPTOP:-$root/build/pcptop}
reuse=0
[ "${1:-}" = -r ] && { reuse=1; shift; }
scales=("$@")
k73_default=
[ ${#scales[@]} -gt 0 ] || { scales=(5 0 3 6); k73_default="5 0"; }
PAIRS=${WHATIF_PAIRS:-"5:0 0:5 5:3 5:6 3:5 6:5"}
read -r -a k73_scales <<<"${WHATIF_K73-$k73_default}"
# the 7.3 pairs: both directions of the two scales, as issue 31 asks
K73_PAIRS=
[ ${#k73_scales[@]} -eq 2 ] &&
	K73_PAIRS="${k73_scales[0]}:${k73_scales[1]} ${k73_scales[1]}:${k73_scales[0]}"
# the pairs held to the bound; the others are printed (WHATIF_K73_HELD)
K73_HELD=${WHATIF_K73_HELD-"5:0"}
# The same two scales booted again with the stream over a unix socket
# pair, senders on CPU 0 and receivers on the last CPU (boot.sh's
# WHATIF_STREAM=unix): the receivers' reads free every fragment on their
# CPU, and the real runs repeat at both scales (bulk pages within 3.0 %
# over 12 boots of each, where the one-CPU TCP stream's spread 118 % at
# 5), so both directions are held: bulk pages, refills and refill pages
# at 10 %, no envelope; its bulk-free calls are printed (below)
# (docs/ACCURACY.md, "The stream apart").
# WHATIF_K73_UNIX=0 boots none; WHATIF_K73UNIX_HELD names its held pairs.
K73_UNIX=${WHATIF_K73_UNIX:-1}
K73UNIX_HELD=${WHATIF_K73UNIX_HELD-"5:0 0:5"}
k73_sets=()
[ ${#k73_scales[@]} -gt 0 ] && k73_sets=(k73)
[ ${#k73_scales[@]} -gt 0 ] && [ "$K73_UNIX" = 1 ] && k73_sets+=(k73unix)
# issue 22's bounds
PRED_PCT=10
# Fixed bounds, each written in docs/ACCURACY.md ("What-if predictions",
# "Bounds in tests/whatif/run.sh") with the runs that set it; none moves
# with what a run or its replay missed.
# Plain checks (a pass or a failure), where issue 22 asks "exact" of a
# figure that whole-entry freeing leaves open:
# - free_pcppages_bulk() frees whole entries, so a call asked N frees N
#   plus up to the last entry's other pages, 7 of an order-3 entry (the
#   suite's guests boot with transparent_hugepage=never), and which entry
#   is last is the run's list contents. The largest bulk free at the
#   recorded scale lies in asked..asked + 7, asked being the replay's
#   bulk_free.asked_max. Guests that keep transparent hugepages (the
#   rehearsal's, tests/whatif/bonnie.sh) have order-9 entries on the
#   lists (NR_PCP_THP, src/core/pcpmodel.h): 511 there
#   (WHATIF_OVERSHOOT; the 1 GiB scale-0 run of 2026-12-05 08:40 freed
#   573 pages in a call that asked 63).
KNOWN_OVERSHOOT=${WHATIF_OVERSHOOT:-7}
[[ "$KNOWN_OVERSHOOT" =~ ^[0-9]+$ ]] || { echo "whatif: bad WHATIF_OVERSHOOT '$KNOWN_OVERSHOOT'" >&2; exit 2; }
# - across scales the request is the other run's: a commit flush asks
#   free_count, which stops growing only once past batch << scale, by up
#   to the same 7: asked..asked + 2 x 7.
KNOWN_CROSS_OVERSHOOT=$((2 * KNOWN_OVERSHOOT))
# - a free_high flush and a drain's chunk ask min(count, batch << scale),
#   the same in both; the last entry past it differs: +-7 pages.
# - decay.max: decay_pcp_high() frees in chunks of batch on 6.12.117+,
#   each of whole entries: each chunk may end 7 pages (one order-3
#   entry) past what it asked, and the next asks the same regardless, so
#   a decay may differ by 7 a chunk: +-7 x ceil(decay / batch) pages.
#   The suite's guests have 1 GiB: batch 63.
KNOWN_DECAY_BATCH=63
# - interrupts-off p99 across scales: within 3 log2 buckets (8x).
#   Issue 22 asks 1; the TCG tail moves a bucket from boot to boot and
#   the replay prices a call by its pages where the kernel's cost is per
#   entry: the check is named by the bound it holds.
P99_BUCKETS=3
# Known misses (counted apart, each inside a fixed envelope, past it a
# failure):
# - a self replay's pages, calls within their 1 %: allocations traced
#   after rmqueue_pcplist() unlocked; within 6 %.
KNOWN_SELF_PAGES_PCT=6
# - a self replay's calls and pages that drift together, where a caller
#   declares its guests drift (WHATIF_SELF_DRIFT_PCT, none by default):
#   tests/whatif/bonnie.sh's scale-0 trace, one CPU under
#   ZONE_RECLAIM_ACTIVE with THP on, where a page parked more or less on
#   the unmovable list moves every flush's window (docs/ACCURACY.md,
#   "The rehearsal's bonnie++"): seven runs -3.31 to +1.70 %
KNOWN_SELF_DRIFT_PCT=${WHATIF_SELF_DRIFT_PCT:-0}
[[ "$KNOWN_SELF_DRIFT_PCT" =~ ^[0-9]+$ ]] || { echo "whatif: bad WHATIF_SELF_DRIFT_PCT '$KNOWN_SELF_DRIFT_PCT'" >&2; exit 2; }
# - a prediction's figure the caller declares known, as tests/whatif/
#   cross.sh reads them: CROSS_KNOWN ("A:B:figure[:PCT] ...", none by
#   default), within PCT, else issue 31's 20 % (tests/whatif/bonnie.sh's
#   0 -> 5 calls under reclaim).
KNOWN_CROSS_PCT=20
# - a prediction's pages: a real run is one sample of the kernel's own
#   spread (scale 6's bulk pages over boots of the same workload); within
#   16 %.
KNOWN_PRED_PAGES_PCT=16
# - 7.3's 5 -> 0 calls and pages: the real runs at 0 spread 448 to 533
#   bulk frees (19 %) over 15 boots of 2026-12-04/05, the traces of 5
#   predicted 434 to 516, and pairs missed by -9.6 to +14.3 %; within
#   issue 31's 20 % (16 %, drawn from the first six boots, failed CI).
KNOWN_K73_PRED_PCT=20

# -r boots nothing: jq only
tools=(jq)
[ $reuse = 1 ] || tools+=(qemu-system-x86_64 cpio gzip timeout)
for t in "${tools[@]}"; do
	command -v "$t" >/dev/null || {
		echo "whatif: missing $t (scripts/deps.sh)" >&2
		exit 2
	}
done
[ -x "$PCPTOP" ] || { echo "whatif: no $PCPTOP: run make" >&2; exit 2; }
for s in "${scales[@]}" "${k73_scales[@]}"; do
	[[ "$s" =~ ^[0-6]$ ]] || { echo "whatif: bad scale '$s' (0..6)" >&2; exit 2; }
done

passed=0
failed=0
known=0
# say ok|FAIL|KNOWN WHAT: a check's line; KNOWN also names its cause
say() {
	case "$1" in
	ok) passed=$((passed + 1)) ;;
	KNOWN)
		known=$((known + 1))
		echo "whatif KNOWN MISS $2: docs/ACCURACY.md, $3"
		return
		;;
	*) failed=$((failed + 1)) ;;
	esac
	echo "whatif $1 $2"
}

# in_overshoot REAL ASKED [SPAN]: whether REAL lies in asked..asked + SPAN
# (KNOWN_OVERSHOOT unless given)
in_overshoot() {
	[[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ ]] &&
		[ "$1" -ge "$2" ] && [ "$1" -le $(($2 + ${3:-$KNOWN_OVERSHOOT})) ]
}

# whether |a - b| * 100 <= pct * b
within_pct() {
	awk -v a="$1" -v b="$2" -v pct="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		exit !(b > 0 && d * 100 <= pct * b) }'
}

# calls_within WHAT: whether WHAT's replayed calls are within 1 % of the
# recording's, held (ok) or, where the recording estimated them from a
# tracepoint's pages in runs (6.12 on: rmqueue_bulk() inlined), within
# 1 % of that estimate. The pages envelope below needs the calls to
# agree; a `--` line is not a verdict of --check, but its two numbers
# still tell whether the replay made the same refills (CI, 2026-12-02:
# s5 refill.pages -3.03 % with its calls `--` was failed for that alone)
calls_within() {
	local rest
	[ "${self_res[$1]:-}" = ok ] && return 0
	rest=${self_est[$1]:-}
	[[ "$rest" =~ ^replay\ ([0-9]+),\ recorded\ ~([0-9]+) ]] &&
		within_pct "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" 1
}

# known_pct A:B:FIGURE DEFAULT: the envelope CROSS_KNOWN gives it
. "$here/known.sh"

# self_miss SCALE WHAT REST: the verdict on a failed --check line: a
# plain check where the bound is whole-entry freeing's (ok or FAIL), a
# KNOWN miss inside its fixed envelope, else FAIL
self_miss() {
	local s=$1 what=$2 rest=$3 x y d asked
	if [[ ! "$rest" =~ ^replay\ ([0-9]+),\ recorded\ ([0-9]+) ]]; then
		say FAIL "s$s self $what: $rest"
		return
	fi
	x=${BASH_REMATCH[1]} y=${BASH_REMATCH[2]}
	d=$((x > y ? x - y : y - x))
	case "$what" in
	bulk_free.calls | bulk_free.pages | refill.pages)
		if [ "$KNOWN_SELF_DRIFT_PCT" -gt 0 ] &&
		   within_pct "$x" "$y" "$KNOWN_SELF_DRIFT_PCT"; then
			say KNOWN "s$s self $what: $rest" \
				"envelope $KNOWN_SELF_DRIFT_PCT % (WHATIF_SELF_DRIFT_PCT): the drift under reclaim, \"The rehearsal's bonnie++\""
			return
		fi
		;;&
	bulk_free.pages | refill.pages)
		if calls_within "${what%.pages}.calls" &&
		   within_pct "$x" "$y" "$KNOWN_SELF_PAGES_PCT"; then
			say KNOWN "s$s self $what: $rest" \
				"envelope $KNOWN_SELF_PAGES_PCT % with the calls within 1 %: allocations traced after the pcp unlock"
			return
		fi
		# CI prints the failing lines alone: a pages miss names its calls
		rest+="; calls: ${self_rest[${what%.pages}.calls]:-${self_est[${what%.pages}.calls]:-none}}"
		;;
	bulk_free.max)
		asked=$(jq '.scales[] | select(.recorded_scale) | .figures["bulk_free.asked_max"]' \
			"$OUT/s$s/w.json" 2>/dev/null)
		rest="${rest% (exact)}, replay asked $asked (bound asked..asked+$KNOWN_OVERSHOOT: the last entry's overshoot)"
		in_overshoot "$y" "$asked" && { say ok "s$s self $what: $rest"; return; }
		;;
	free_high.max | drain.max)
		rest="${rest% (exact)} (bound +-$KNOWN_OVERSHOOT pages: the last entry's overshoot)"
		[ "$d" -le "$KNOWN_OVERSHOOT" ] && { say ok "s$s self $what: $rest"; return; }
		;;
	decay.max)
		local chunks=$(((y + KNOWN_DECAY_BATCH - 1) / KNOWN_DECAY_BATCH))
		rest="${rest% (exact)} (bound +-$((KNOWN_OVERSHOOT * chunks)) pages: each of its $chunks chunks' last order-3 entry)"
		[ "$d" -le $((KNOWN_OVERSHOOT * chunks)) ] && { say ok "s$s self $what: $rest"; return; }
		;;
	esac
	say FAIL "s$s self $what: $rest"
}

# A real run is one sample of the kernel's own spread: at scale 6 a run's
# pages are some 50 free_high flushes of 4032, and which CPU frees when
# moves a few of them (real s6 bulk pages 188 to 218 thousand over
# boots of the same workload, docs/ACCURACY.md). WHATIF_REPEAT's scales
# are booted a second time (OUTDIR sNr) so that each run measures that
# spread again and prints it: a record for KNOWN_PRED_PAGES_PCT in
# docs/ACCURACY.md, not a bound that moves with the run. None by
# default: the second boot asserts nothing, and make test's budget
# (issue 30) has no room for a boot that only prints
# (WHATIF_REPEAT=6 tests/whatif/run.sh measures the spread again)
REPEAT=${WHATIF_REPEAT:-}
# the 7.3 boots first: the longer ones, so that two at a time ends even
boots=()
for set in "${k73_sets[@]}"; do
	for s in "${k73_scales[@]}"; do
		boots+=("$set-s$s")
	done
done
boots+=("${scales[@]}")
for s in $REPEAT; do
	[[ " ${scales[*]} " == *" $s "* ]] && boots+=("${s}r")
done

start=$SECONDS
if [ $reuse = 0 ]; then
	mkdir -p "$OUT"
	# two at a time: a boot is one qemu thread (-icount), 16 s each
	# here; alone they left a core idle (72 s for four, 2026-12-01)
	for run in "${boots[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "${WHATIF_JOBS:-2}" ]; do
			wait -n
		done
		case "$run" in
		k73-s*) name=$run series=7.3 s=${run#k73-s} opts=--exact-free-high stream=one ;;
		k73unix-s*) name=$run series=7.3 s=${run#k73unix-s} opts=--exact-free-high stream=unix ;;
		*) name=s$run series=6.12 s=${run%%r*} opts=- stream=one ;;
		esac
		{
			WHATIF_SERIES=$series WHATIF_STREAM=$stream "$here/boot.sh" "$s" "$OUT/$name" "$opts" \
				2>"$OUT/boot-$name.log" ||
				echo "whatif: $series scale $s: the guest did not finish, see $OUT/$name/console.log" >&2
		} &
	done
	wait
	for run in "${boots[@]}"; do
		case "$run" in k73*-s*) name=$run ;; *) name=s$run ;; esac
		# each boot's marker for tests/run-all.sh's count
		grep -h '^boot: ' "$OUT/boot-$name.log" >&2
		cat "$OUT/boot-$name.log" >>"$OUT/boot.log" 2>/dev/null
		rm -f "$OUT/boot-$name.log"
	done
fi
echo "whatif: boots done after $((SECONDS - start)) s" >&2

# self-consistency, per scale
for s in "${scales[@]}"; do
	d=$OUT/s$s
	if [ ! -s "$d/t.data" ]; then
		say FAIL "s$s: no recording ($d/console.log)"
		continue
	fi
	"$PCPTOP" whatif "$d/t.data" --check >"$d/check.host" 2>&1
	rc=$?
	# the replay's request sizes judge a largest-free miss: JSON first
	"$PCPTOP" whatif "$d/t.data" --scale 0-6 --json >"$d/w.json" 2>"$d/w.err" ||
		say FAIL "s$s: whatif --json: $(head -n 1 "$d/w.err")"
	# every verdict first: a pages miss is known only with its calls
	# within 1 % (calls_within)
	unset self_res self_rest self_est
	declare -A self_res=() self_rest=() self_est=()
	whats=()
	while read -r res what rest; do
		case "$res" in
		ok | FAIL)
			self_res[$what]=$res
			self_rest[$what]=$rest
			whats+=("$what")
			;;
		# compared with the recording's estimate: shown, not
		# counted; a pages miss below asks its calls within 1 %
		--)
			self_est[$what]=$rest
			echo "whatif s$s self $what: $rest"
			;;
		esac
	done <"$d/check.host"
	for what in "${whats[@]}"; do
		if [ "${self_res[$what]}" = ok ]; then
			say ok "s$s self $what: ${self_rest[$what]}"
		else
			self_miss "$s" "$what" "${self_rest[$what]}"
		fi
	done
	# the suite's guests time zone->lock (fentry): a --check that does
	# not hold the lock time has not checked what issue 31 asks
	[ -n "${self_res[lock_hold_ns.total]:-}" ] ||
		say FAIL "s$s self lock_hold_ns.total: not held by --check"
	[ $rc -le 1 ] || say FAIL "s$s self: whatif --check exit $rc: $(head -n 1 "$d/check.host")"
done

# the trace against the kernel's own count (tests/whatif/guest.sh): each
# boot's allocations and frees within mm_page_alloc's and mm_page_free's
# hits around the workload (inner) and around the recording (outer)
# (tests/whatif/hits.sh)
args=()
for s in "${scales[@]}"; do
	args+=("s$s=$OUT/s$s")
done
for set in "${k73_sets[@]}"; do
	for s in "${k73_scales[@]}"; do
		args+=("$set-s$s=$OUT/$set-s$s")
	done
done
hits=$("$here/hits.sh" "${args[@]}")
if [ -z "$hits" ]; then
	say FAIL "trace.events: tests/whatif/hits.sh said nothing"
else
	while read -r verdict line; do
		say "$verdict" "$line"
	done <<<"$hits"
fi

# the log2 bucket of a value as the histograms bound it (2^k - 1)
bucket() {
	awk -v v="$1" 'BEGIN { b = 0; while (v >= 1) { v /= 2; b++ } print b }'
}

# the second runs: their measured figures only (the spread above)
for run in "${boots[@]}"; do
	[[ "$run" == *r ]] || continue
	d=$OUT/s$run
	if [ ! -s "$d/t.data" ]; then
		say FAIL "s$run: no recording ($d/console.log)"
		continue
	fi
	"$PCPTOP" whatif "$d/t.data" --scale "${run%r}" --json >"$d/w.json" 2>"$d/w.err" ||
		say FAIL "s$run: whatif --json: $(head -n 1 "$d/w.err")"
	echo "whatif s$run: a second real run of scale ${run%r}: bulk_free.pages $(jq '.measured.figures["bulk_free.pages"]' "$d/w.json"), against $(jq '.measured.figures["bulk_free.pages"]' "$OUT/s${run%r}/w.json" 2>/dev/null)"
done

# prediction: A's trace at B against B's run
for pair in $PAIRS; do
	a=${pair%:*} b=${pair#*:}
	pa=$OUT/s$a/w.json mb=$OUT/s$b/w.json
	if [ ! -s "$pa" ] || [ ! -s "$mb" ]; then
		continue
	fi
	for k in bulk_free.calls bulk_free.pages refill.calls refill.pages; do
		p=$(jq --argjson b "$b" --arg k "$k" '.scales[] | select(.scale == $b) | .figures[$k]' "$pa")
		m=$(jq --arg k "$k" '.measured.figures[$k]' "$mb")
		line=$(awk -v p="$p" -v m="$m" -v bd="$PRED_PCT" 'BEGIN {
			if (m == 0 || p == "null" || m == "null") { print "FAIL " p " vs " m; exit }
			e = (p - m) * 100 / m
			printf "%s predicted %d, real %d: %+.2f %% (bound %d %%)\n",
				(e <= bd && e >= -bd) ? "ok" : "FAIL", p, m, e, bd }')
		# a real run is one sample of the kernel's spread: a pages
		# miss inside the fixed envelope is known, past it a failure
		if [ "${line%% *}" = FAIL ] && [[ "$k" == *.pages ]] &&
		   within_pct "$p" "$m" "$KNOWN_PRED_PAGES_PCT"; then
			say KNOWN "$a->$b $k: ${line#* }" \
				"envelope $KNOWN_PRED_PAGES_PCT %: scale 6's real bulk pages spread 188 to 218 thousand over boots of the same workload"
			continue
		fi
		if [ "${line%% *}" = FAIL ] && pct=$(known_pct "$a:$b:$k" "$KNOWN_CROSS_PCT") &&
		   within_pct "$p" "$m" "$pct"; then
			say KNOWN "$a->$b $k: ${line#* }" \
				"\"Reclaim\", envelope $pct % (CROSS_KNOWN)"
			continue
		fi
		say "${line%% *}" "$a->$b $k: ${line#* }"
	done
	p=$(jq --argjson b "$b" '.scales[] | select(.scale == $b) | .figures["bulk_free.max"]' "$pa")
	m=$(jq '.measured.figures["bulk_free.max"]' "$mb")
	# the request the replay decided, overshoot apart: the recording
	# counts no request sizes, so the real one is not known
	asked=$(jq --argjson b "$b" '.scales[] | select(.scale == $b) | .figures["bulk_free.asked_max"]' "$pa")
	# exact where the pages agree, else within the other run's
	# request and its last entry's overshoot
	line="$a->$b bulk_free.max: predicted $p (asked $asked), real $m (bound asked..asked+$KNOWN_CROSS_OVERSHOOT: the other run's request and its last entry)"
	if [ "$p" = "$m" ] || in_overshoot "$m" "$asked" "$KNOWN_CROSS_OVERSHOOT"; then
		say ok "$line"
	else
		say FAIL "$line"
	fi
	p=$(jq --argjson b "$b" '.scales[] | select(.scale == $b) | .figures["irqs_off_ns.p99"]' "$pa")
	m=$(jq '.measured.figures["irqs_off_ns.p99"]' "$mb")
	if [[ "$p" =~ ^[0-9]+$ && "$m" =~ ^[0-9]+$ ]]; then
		d=$(($(bucket "$p") - $(bucket "$m")))
		line="$a->$b irqs_off_ns.p99_within_${P99_BUCKETS}_buckets: predicted <= $p, real <= $m ns ($d log2 buckets, bound $P99_BUCKETS)"
		if [ ${d#-} -le "$P99_BUCKETS" ]; then
			say ok "$line"
		else
			say FAIL "$line"
		fi
	else
		say FAIL "$a->$b irqs_off_ns.p99_within_${P99_BUCKETS}_buckets: predicted $p, real $m"
	fi
done
# pct_line P M: "ok|FAIL predicted P, real M: E %" against PRED_PCT; a
# real 0 (free_high at scale 0 on 7.3) holds only an exact 0
pct_line() {
	awk -v p="$1" -v m="$2" -v bd="$PRED_PCT" 'BEGIN {
		if (p == "null" || m == "null" || p == "" || m == "") { print "FAIL predicted " p ", real " m; exit }
		if (m == 0) { printf "%s predicted %d, real 0 (bound: exactly 0)\n", p == 0 ? "ok" : "FAIL", p; exit }
		e = (p - m) * 100 / m
		printf "%s predicted %d, real %d: %+.2f %% (bound %d %%)\n",
			(e <= bd && e >= -bd) ? "ok" : "FAIL", p, m, e, bd }'
}

# The 7.3 boots: each trace under the rules its recording names (7.x,
# where a flush is chunks of batch), and under 6.16's and 6.12's free_high
# tests at its own scale
for set in "${k73_sets[@]}"; do
	for s in "${k73_scales[@]}"; do
		d=$OUT/$set-s$s
		if [ ! -s "$d/t.data" ]; then
			say FAIL "$set-s$s: no recording ($d/console.log)"
			continue
		fi
		"$PCPTOP" whatif "$d/t.data" --scale 0-6 --json >"$d/w.json" 2>"$d/w.err" ||
			say FAIL "$set-s$s: whatif --json: $(head -n 1 "$d/w.err")"
		# the pairs below check the 7.x rules only if record said 7.x
		r=$(jq -r '.rules' "$d/w.json" 2>/dev/null)
		if [ "$r" = 7.x ]; then
			say ok "$set-s$s rules: 7.x, from the recording"
		else
			say FAIL "$set-s$s rules: '$r' from the recording, not 7.x"
		fi
		for r in 6.16 6.12; do
			"$PCPTOP" whatif "$d/t.data" --scale "$s" --rules "$r" --json \
				>"$d/w-$r.json" 2>"$d/w-$r.err" ||
				say FAIL "$set-s$s rules $r: whatif --json: $(head -n 1 "$d/w-$r.err")"
		done
		# free_high is exact only where the commit function was probed
		# (--exact-free-high), else the recording estimated it
		fh=$(jq -r '.probes[] | select(.name == "free_high") | "\(.mode) estimated=\(.estimated)"' \
			"$d/report.json" 2>/dev/null)
		if [ "$fh" = "fentry estimated=false" ]; then
			say ok "$set-s$s free_high exact: the commit function probed ($fh)"
		else
			say FAIL "$set-s$s free_high exact: probe '${fh:-none}', not fentry on the commit function"
		fi
		n=$(jq '.measured.figures["free_high.count"]' "$d/w.json" 2>/dev/null)
		if [ "$s" -ge 5 ]; then
			# batch + high_min / 2 within free_count's cap: free_high is
			# reachable, and without flushes the rules are not told apart
			if [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ]; then
				say ok "$set-s$s free_high reached: $n flushes recorded"
			else
				say FAIL "$set-s$s free_high reached: $n flushes recorded, the workload never got there"
			fi
		fi
		for k in free_high.count free_high.pages; do
			m=$(jq --arg k "$k" '.measured.figures[$k]' "$d/w.json" 2>/dev/null)
			p=$(jq --argjson s "$s" --arg k "$k" '.scales[] | select(.scale == $s) | .figures[$k]' \
				"$d/w-6.16.json" 2>/dev/null)
			line=$(pct_line "$p" "$m")
			say "${line%% *}" "$set-s$s rules 6.16 $k: ${line#* }"
			# 6.12's test on the same trace: within the bound, the workload
			# cannot tell the rules apart and the line above proves nothing
			p=$(jq --argjson s "$s" --arg k "$k" '.scales[] | select(.scale == $s) | .figures[$k]' \
				"$d/w-6.12.json" 2>/dev/null)
			line=$(pct_line "$p" "$m")
			# apart, the receiving CPU's runs of frees are long and 6.12's
			# flushes came within 3.2-7.4 % of 6.16's: the one-CPU boots
			# tell the rules apart, these are printed
			if [ "$set" = k73unix ]; then
				echo "whatif not held $set-s$s rules 6.12 $k: ${line#* } (docs/ACCURACY.md, \"The 7.3 pair\")"
			elif [ "${line%% *}" = FAIL ] && [[ "$p" =~ ^[0-9]+$ ]]; then
				say ok "$set-s$s rules 6.12 $k misses: ${line#* }"
			else
				say FAIL "$set-s$s rules 6.12 $k misses: ${line#* }: the rules are not told apart"
			fi
		done
	done
done

# the 7.x rules across scales: calls and pages, issue 22's 10 %; a miss
# of the one-CPU pair's 5 -> 0 inside KNOWN_K73_PRED_PCT is known, past
# it a failure. A direction whose real run does not repeat from boot to
# boot is printed (docs/ACCURACY.md, "The 7.3 pair": a failing line
# points there)
for set in "${k73_sets[@]}"; do
	held=$K73_HELD
	[ "$set" = k73unix ] && held=$K73UNIX_HELD
	for pair in $K73_PAIRS; do
		a=${pair%:*} b=${pair#*:}
		pa=$OUT/$set-s$a/w.json mb=$OUT/$set-s$b/w.json
		if [ ! -s "$pa" ] || [ ! -s "$mb" ]; then
			continue
		fi
		for k in bulk_free.calls bulk_free.pages refill.calls refill.pages; do
			p=$(jq --argjson b "$b" --arg k "$k" '.scales[] | select(.scale == $b) | .figures[$k]' "$pa")
			m=$(jq --arg k "$k" '.measured.figures[$k]' "$mb")
			line=$(pct_line "$p" "$m")
			# the other direction's real run is one sample of a
			# spread past the bound: a 10 % check of it is a coin's
			# toss
			if [[ " $held " != *" $pair "* ]]; then
				echo "whatif not held $set $a->$b $k: ${line#* } (docs/ACCURACY.md, \"The 7.3 pair\")"
				continue
			fi
			# the unix pair's calls: 7.x flushes in calls of at most
			# batch, and how often a request passes batch by a few
			# pages (an order-3 free past free_count's cap) moved its
			# real calls 24 % at 0 where its pages moved 1.9 %
			if [ "$set" = k73unix ] && [ "$k" = bulk_free.calls ]; then
				echo "whatif not held $set $a->$b $k: ${line#* } (docs/ACCURACY.md, \"The stream apart\")"
				continue
			fi
			# one real run at 0 is one sample of a 19 % spread: a miss
			# inside the fixed envelope is known, past it a failure (at
			# 0 only: the runs at 5 spread 46 %, no envelope there; the
			# unix pair's pages and refills, within 4.3 % in 12 pairs,
			# none either)
			if [ "${line%% *}" = FAIL ] && [ "$set" = k73 ] && [ "$b" = 0 ] &&
			   within_pct "$p" "$m" "$KNOWN_K73_PRED_PCT"; then
				say KNOWN "$set $a->$b $k: ${line#* }" \
					"envelope $KNOWN_K73_PRED_PCT %: 7.3's real runs at scale 0 spread 19 % in bulk frees over 15 boots (\"The 7.3 pair\")"
				continue
			fi
			[ "${line%% *}" = FAIL ] && line+=" (docs/ACCURACY.md, \"The 7.3 pair\")"
			say "${line%% *}" "$set $a->$b $k: ${line#* }"
		done
	done
done
echo "whatif: done in $((SECONDS - start)) s" >&2
echo "$passed passed, $failed failed, $known known misses"
[ "$failed" -eq 0 ]

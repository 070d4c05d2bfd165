#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: issue 31 holds a prediction across scales to the real
# run on every figure the scale moves under reclaim, not only the calls
# and pages tests/whatif/run.sh checks: bulk frees, refills, drains and
# the zone->lock hold total. Given the recordings of two or more scales
# (DIR/sN/t.data, each recorded with --trace), each trace is replayed on
# the host at every other scale and each figure held to that scale's
# real run; each trace's self-replay is printed beside (whatif --check
# holds it, in tests/whatif/run.sh).
#
# Usage: tests/whatif/cross.sh DIR A:B [A:B...]
#   A:B  the trace of scale A replayed at B against B's run
# Environment: PCPTOP (build/pcptop), CROSS_KNOWN ("A:B:figure[:PCT] ...":
# the misses docs/ACCURACY.md writes up, held to PCT, else KNOWN_PCT,
# instead), CROSS_NOT_HELD ("A:B:figure ...": printed with both runs'
# direct reclaims, counted neither way: the drains, which follow the
# record's reclaims where the other scale made 7 to 66 % more or fewer,
# docs/ACCURACY.md "Why the trace's reclaims stay").
# Prints "whatif-cross ok|FAIL|KNOWN MISS|not held ..." lines and "N
# passed, N failed, N known misses"; exit 0 when nothing failed, 1 on a
# failure, 2 on bad input.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
PCPTOP=${PCPTOP:-$root/build/pcptop}
# issue 31's bound
PRED_PCT=10
# A figure that cannot meet it: at most this, with its miss and cause in
# docs/ACCURACY.md ("What-if predictions", "Reclaim")
KNOWN_PCT=20
# Where the real run drained nothing, a predicted drain is held to a
# share of the real run's bulk-freed pages (its drains are bulk frees):
# the same 10 %'s scale, as pages, not a percentage of zero
DRAIN_OF_BULK_PCT=1
FIGS="bulk_free.calls bulk_free.pages refill.calls refill.pages drain.chunks drain.pages lock_hold_ns.total"
# The trace's direct reclaims against the kernel's own count of them
# (/proc/vmstat allocstall_*, sampled by the recorder): exact. Of those,
# the share whose drain (or none) the kernel's free pages against its
# order-0 mark at the reclaim's end decide as the kernel did: the rule
# itself (99.69 to 100 % in 14 recordings, 2026-12-05); and the
# replay's own free pages at the recorded scale, from the last read or
# the last reclaim's mark: how well it tracks the zone (91.96 to 99.47 %
# in the same 14, the scale-0 ones lowest: their retries failed within
# a few pages of the mark; 77 and 87 % with compaction's isolations
# left out, 81.65 % in one with no start from the mark, where a 1 s
# read was 130 pages off the kernel's for its whole second)
RULE_MIN_PCT=99
TRACKED_MIN_PCT=85

[ $# -ge 2 ] || { echo "usage: cross.sh DIR A:B [A:B...]" >&2; exit 2; }
dir=$1
shift
command -v jq >/dev/null || { echo "whatif-cross: missing jq" >&2; exit 2; }
[ -x "$PCPTOP" ] || { echo "whatif-cross: no $PCPTOP: run make" >&2; exit 2; }

passed=0 failed=0 known=0
say() {
	case "$1" in
	ok) passed=$((passed + 1)) ;;
	KNOWN) known=$((known + 1)); echo "whatif-cross KNOWN MISS $2"; return ;;
	*) failed=$((failed + 1)) ;;
	esac
	echo "whatif-cross $1 $2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# json SCALE: sN's replay at every scale with its measured figures, made
# once a run (a pcptop rebuilt since must not meet an old replay)
json() {
	local f=$tmp/s$1.json
	if [ ! -s "$f" ]; then
		"$PCPTOP" whatif "$dir/s$1/t.data" --scale 0-6 --json >"$f" 2>"$f.err" ||
			{ rm -f "$f"; return 1; }
	fi
	echo "$f"
}

pred() { jq --argjson b "$2" --arg k "$3" '.scales[] | select(.scale == $b) | .figures[$k]' "$1"; }
real() { jq --arg k "$2" '.measured.figures[$k]' "$1"; }
# pct P M: (P - M) / M in %, or "none" where M is 0
pct() { awk -v p="$1" -v m="$2" 'BEGIN { if (m == 0) print "none"; else printf "%+.2f\n", (p - m) * 100 / m }'; }
within() { awk -v e="$1" -v b="$2" 'BEGIN { if (e < 0) e = -e; exit !(e <= b) }'; }
# known_pct A:B:FIG DEFAULT: the envelope CROSS_KNOWN gives it
. "$here/known.sh"

# guest_pair FILE: g1 and g2, the two counts the guest wrote to FILE
# (tests/rehearsal/lib.sh); fails without a first one
guest_pair() {
	[ -s "$1" ] && read -r g1 g2 <"$1" && [[ "$g1" =~ ^[0-9]+$ ]]
}

# not_held A:B:FIG: whether CROSS_NOT_HELD names it
not_held() {
	local t
	for t in ${CROSS_NOT_HELD:-}; do
		[ "$t" = "$1" ] && return 0
	done
	return 1
}

for pair in "$@"; do
	[[ "$pair" =~ ^([0-6]):([0-6])$ ]] || { echo "whatif-cross: bad pair '$pair'" >&2; exit 2; }
	a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
	if ! ja=$(json "$a") || ! jb=$(json "$b"); then
		say FAIL "$a->$b: no replay of $dir/s$a or s$b ($(cat "$tmp"/*.err 2>/dev/null | head -n 1))"
		continue
	fi
	for k in $FIGS; do
		p=$(pred "$ja" "$b" "$k") m=$(real "$jb" "$k")
		if ! [[ "$p" =~ ^[0-9.]+$ && "$m" =~ ^[0-9.]+$ ]]; then
			say FAIL "$a->$b $k: predicted $p, real $m"
			continue
		fi
		e=$(pct "$p" "$m")
		if not_held "$a:$b:$k"; then
			[ "$e" = none ] && e="nothing real to be a share of" || e="$e %"
			echo "whatif-cross not held $a->$b $k: predicted $p, real $m ($e): the replay keeps the trace's $(pred "$ja" "$b" reclaim.traced) direct reclaims (+$(pred "$ja" "$b" reclaim.added) added), the real run made $(pred "$jb" "$b" reclaim.traced) (docs/ACCURACY.md, \"Why the trace's reclaims stay\")"
			continue
		fi
		if [ "$e" = none ]; then
			# nothing real to be a share of: drains as bulk pages
			bulk=$(real "$jb" bulk_free.pages)
			lim=$(awk -v b="$bulk" -v s="$DRAIN_OF_BULK_PCT" 'BEGIN { printf "%d\n", b * s / 100 }')
			line="$a->$b $k: predicted $p, real 0 (bound $DRAIN_OF_BULK_PCT % of the real $bulk pages bulk-freed: $lim)"
			case "$k" in
			drain.pages) [ "${p%.*}" -le "$lim" ] && say ok "$line" || say FAIL "$line" ;;
			*) say ok "$line, held on drain.pages" ;;
			esac
			continue
		fi
		line="$a->$b $k: predicted $p, real $m: $e % (bound $PRED_PCT %)"
		if within "$e" "$PRED_PCT"; then
			say ok "$line"
		elif envelope=$(known_pct "$a:$b:$k" "$KNOWN_PCT") && within "$e" "$envelope"; then
			say KNOWN "$line: docs/ACCURACY.md, envelope $envelope %"
		else
			say FAIL "$line"
		fi
	done
done
# the self-replays, printed: whatif --check is what holds them; and
# each recording's lock pricing from the kernel's sums by pages bucket,
# which whatif takes only where they add up to the recorded total
# (pcpmodel_cost.c): the guests record with function probes
for s in $(printf '%s\n' "$@" | tr ':' '\n' | sort -u); do
	f=$(json "$s") || continue
	for k in lock_hold_ns irqs_off_ns; do
		m=$(jq -r --arg k "$k" '.fits[$k].bucket_means' "$f")
		line="s$s $k bucket means: $m (kernel: the sums by pages bucket add up to the total)"
		[ "$m" = kernel ] && say ok "$line" || say FAIL "$line"
	done
	rep=$tmp/s$s.report
	"$PCPTOP" report --json "$dir/s$s/t.data" >"$rep" 2>/dev/null
	stalls=$(jq '.totals.allocstall.value // "none"' "$rep" 2>/dev/null)
	traced=$(jq '.trace.events.reclaim // "none"' "$rep" 2>/dev/null)
	line="s$s reclaim events: $traced traced, the kernel's allocstall_* $stalls (exact)"
	[ "$traced" = "$stalls" ] && [ "$traced" != none ] && say ok "$line" || say FAIL "$line"
	# no direct reclaim (the 1 GiB run at scale 0): nothing to judge
	[ "$traced" = 0 ] && [ "$stalls" = 0 ] &&
		echo "whatif-cross s$s reclaim.*: no direct reclaim to judge"
	for k in kernel_explained_pct:$RULE_MIN_PCT explained_pct:$TRACKED_MIN_PCT; do
		[ "$traced" = 0 ] && [ "$stalls" = 0 ] && break
		v=$(pred "$f" "$s" "reclaim.${k%:*}")
		line="s$s reclaim.${k%:*}: $v % (at least ${k#*:} %)"
		[[ "$v" =~ ^[0-9.]+$ ]] && awk -v v="$v" -v b="${k#*:}" 'BEGIN { exit !(v >= b) }' &&
			say ok "$line" || say FAIL "$line"
	done
	# printed: the boost and the free highatomic pages in the kernel's
	# mark, which the scale moves and the trace does not carry; held: a
	# trace with reclaims has the figure (the guests trace the commit),
	# and whatif's text says what its JSON does
	v=$(pred "$f" "$s" reclaim.mark_over_min) rt=$(pred "$f" "$s" reclaim.traced)
	if [[ "$v" =~ ^[0-9.]+$ ]]; then
		v=$(printf %.0f "$v")
		echo "whatif-cross s$s reclaim marks: the kernel's order-0 mark $v pages over the lowest min read, mean over $rt reclaims (docs/ACCURACY.md, \"What moves the reclaims\")"
		text=$("$PCPTOP" whatif "$dir/s$s/t.data" --scale "$s" 2>/dev/null)
		want="of the trace's $rt direct reclaims ... $v pages over the lowest min read"
		grep -qF "of the trace's $rt direct reclaims the kernel's order-0 mark" <<<"$text" &&
			grep -q "^$v pages over the lowest min read" <<<"$text" &&
			say ok "s$s whatif text: \"$want\"" || say FAIL "s$s whatif text: no \"$want\""
	elif [[ "$rt" =~ ^[1-9] ]]; then
		say FAIL "s$s reclaim.mark_over_min: $v with $rt direct reclaims traced"
	fi
	# printed: the guest's counts of the fallbacks and of kswapd's wakeups
	guest_pair "$dir/s$s/extfrag" &&
		echo "whatif-cross s$s fallbacks: $g1 to another migratetype's free lists, ${g2:-?} of them claiming the block (the kernel's kmem:mm_page_alloc_extfrag; docs/ACCURACY.md, \"What moves the reclaims\")"
	guest_pair "$dir/s$s/kswapd" &&
		echo "whatif-cross s$s kswapd: $g1 wakeups asked, ${g2:-?} balancing passes begun (vmscan:mm_vmscan_wakeup_kswapd, mm_vmscan_kswapd_wake)"
	line="s$s self:"
	for k in $FIGS; do
		p=$(pred "$f" "$s" "$k") m=$(real "$f" "$k")
		line+=" $k $(pct "$p" "$m")"
	done
	echo "whatif-cross $line"
done
echo "$passed passed, $failed failed, $known known misses"
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The host half of pcptop's oracle suite. Why it exists: every figure
# pcptop prints must agree with a count the kernel took itself, over the
# same window, with no BPF involved. tests/oracle/guest.sh printed, on
# the VM's console, the kernel's counts at A0 (before pcptop), A1 (pcptop
# attached, its command starting), A2 (command done) and A3 (pcptop gone),
# and pcptop's own report of the window. This script compares them:
#
#   counts   the kernel's count over A1..A2 <= pcptop <= the count over
#            A0..A3: pcptop's window lies between the two. When the two
#            differ the line says by how much and why (events while pcptop
#            attached or detached, outside its command).
#   bounds   figures the kernel only bounds (queued lock waits, the
#            irqsoff tracer's maximum): pcptop on the right side of it.
#   times    log2 histograms: at least 99 % of the calls within one log2
#            bucket of the kernel's histogram of the same calls, timed at
#            the exact lines (/proc/pcp_oracle) or by an fprobe pair
#            (tracefs synthetic event). The fprobe's window holds
#            pcptop's fentry/fexit window and its own handlers, which can
#            cost more than the call under TCG: where the 99 % within one
#            bucket fail, pcptop's time at or below the fprobe's for 99 %
#            of the calls is the measured reason, and passes.
#
# Usage: tests/oracle/check.sh CONSOLE_LOG LABEL TRUE_SCALE
#   LABEL       "KERNEL smp=N scale=S", the start of every line
#   TRUE_SCALE  the scale the kernel runs with, "none" before 6.7
#
# Prints "oracle LABEL FIGURE: pcptop=X kernel=Y PASS|FAIL (...)" or
# "... SKIP (why)" for a check this kernel cannot run (never a pass), and
# a last line "oracle LABEL: N passed, N failed, N could not run".
# Exits 0 when nothing failed, 1 when something did, 2 on bad input.

set -uo pipefail

[ $# -eq 3 ] || { echo "usage: tests/oracle/check.sh CONSOLE_LOG LABEL TRUE_SCALE" >&2; exit 2; }
LOGF=$1 LABEL=$2 TRUE_SCALE=$3
[ -r "$LOGF" ] || { echo "oracle check: cannot read '$LOGF'" >&2; exit 2; }

# at least this share of the calls within one log2 bucket
TIME_MATCH_MIN=0.99
# tracepoint mode's calls, estimated from runs of page events: the error
# docs/ACCURACY.md promises (measured: under 1 %)
ESTIMATE_PCT=5
# A kprobe-event pair and pcptop's kprobes on one function interleave:
# entry handlers run in the order they registered, and so do the return
# handlers, so neither window holds the other and each carries the other's
# handler cost once, which under TCG can double a short call: one log2
# bucket for that, one for the bucket edges. Measured on arm64 6.1: 90.0-
# 94.8 % of the allocator's calls within one bucket, all within two.
INTERLEAVED_MATCH_MIN=0.99
INTERLEAVED_BUCKETS=2
# tracepoint mode's spans against the kernel's hold of the same calls
# (measured: 98.3-99.7 %)
SPAN_MATCH_MIN=0.95

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0 skipped=0

# the ORACLE: lines, serial \r gone
tr -d '\r' <"$LOGF" | sed -n 's/^.*ORACLE:/ORACLE:/p' >"$TMP/lines"

line() {
	echo "oracle $LABEL $*"
}
pass() {
	line "$1: pcptop=$2 kernel=$3 PASS${4:+ ($4)}"
	passed=$((passed + 1))
}
fail() {
	line "$1: pcptop=$2 kernel=$3 FAIL${4:+ ($4)}"
	failed=$((failed + 1))
}
skip() {
	line "$1: SKIP ($2)"
	skipped=$((skipped + 1))
}
finish() {
	echo "oracle $LABEL: $passed passed, $failed failed, $skipped could not run"
	[ "$failed" -eq 0 ]
	exit
}

if ! grep -q '^ORACLE:end:done' "$TMP/lines"; then
	why=$(sed -n 's/^ORACLE:have:tracefs:no //p' "$TMP/lines")
	skip all "${why:-the guest printed no oracle run}"
	[ -n "$why" ] || failed=$((failed + 1))
	finish
fi
sed -n 's/^ORACLE:report://p' "$TMP/lines" >"$TMP/report.json"
if ! jq -e .totals >/dev/null 2>&1 <"$TMP/report.json"; then
	fail report "$(sed -n 's/^ORACLE:record_rc://p' "$TMP/lines")" - \
		"no pcptop report: $(sed -n 's/^ORACLE:\(record\|report\)_err://p' "$TMP/lines" | head -n 1)"
	finish
fi

# Snapshots as "snap source key field value": hist lines
# "{ order: 3 } hitcount: 5 count: 9" and "{ lat: ~ 2^10 } hitcount: 5",
# /proc/pcp_oracle lines "name value" and "name_log2 v0 v1 ...".
awk -F: '
	$2 ~ /^A[0-3]$/ {
		snap = $2; src = $3
		rest = $0; sub(/^ORACLE:[^:]*:[^:]*:/, "", rest)
		if (src == "proc" || src == "irqsoff") {
			n = split(rest, w, " ")
			if (w[1] ~ /_log2$/)
				for (i = 2; i <= n; i++)
					print snap, src, i - 2, w[1], w[i]
			else if (w[2] ~ /^[0-9-]+$/)
				print snap, src, "-", w[1], w[2]
			next
		}
		if (rest !~ /^\{/)
			next
		key = rest; sub(/\}.*/, "", key)
		if (key ~ /2\^/) { sub(/.*2\^/, "", key) } else { sub(/^[^:]*: */, "", key) }
		gsub(/[^0-9]/, "", key)
		vals = rest; sub(/^[^}]*\} */, "", vals)
		n = split(vals, w, /[: ]+/)
		for (i = 1; i + 1 <= n; i += 2)
			if (w[i] != "")
				print snap, src, key, w[i], w[i + 1]
	}' "$TMP/lines" >"$TMP/snaps"

have() {
	grep -q "^ORACLE:have:$1:yes" "$TMP/lines"
}
why_not() {
	sed -n "s/^ORACLE:have:$1:no (\(.*\))\$/\1/p" "$TMP/lines" | head -n 1
}

# sum of FIELD of SOURCE at SNAP; KEY restricts to one key; PAGES=1 sums
# value << key (key = order)
ksum() {
	local snap=$1 src=$2 field=$3 key=${4:-} pages=${5:-0}
	awk -v s="$snap" -v src="$src" -v f="$field" -v k="$key" -v p="$pages" '
		$1 == s && $2 == src && $4 == f && (k == "" || $3 == k) {
			v = $5
			if (p) for (i = 0; i < $3; i++) v *= 2
			t += v
		}
		END { printf "%.0f\n", t }' "$TMP/snaps"
}

# the count over A1..A2 and over A0..A3
window() {
	local a0 a1 a2 a3
	a0=$(ksum A0 "$@") a1=$(ksum A1 "$@") a2=$(ksum A2 "$@") a3=$(ksum A3 "$@")
	echo "$((a2 - a1)) $((a3 - a0))"
}

# The report's scalars flattened once, "PATH<TAB>VALUE" with PATH as
# .a.b[0].c: a check reads some sixty figures, and a jq process for each
# took 2 of the 3.5 s a boot's check cost. null and false are left out, so
# that they, and any path that is not a plain one, still go through jq's
# `// "null"`.
jq -r 'paths(scalars) as $p | getpath($p) as $v | select($v != null and $v != false) |
	[($p | map(if type == "number" then "[\(.)]" else ".\(.)" end) | join("")),
	 ($v | tostring)] | @tsv' "$TMP/report.json" >"$TMP/report.flat"
jq -r '.probes[]? | "\(.name)\t\(.mode // "null")"' "$TMP/report.json" >"$TMP/report.modes"

# tab_get FILE KEY: the value of KEY in FILE's "KEY<TAB>VALUE" lines;
# fails when there is none
tab_get() {
	awk -F '\t' -v k="$2" '$1 == k { print $2; f = 1; exit } END { exit !f }' "$1"
}
pj() {
	local path=${1//\"/}
	[[ "$path" =~ ^(\.[A-Za-z0-9_]+|\[[0-9]+\])+$ ]] &&
		tab_get "$TMP/report.flat" "$path" && return
	jq -r "$1 // \"null\"" "$TMP/report.json"
}
mode_of() {
	tab_get "$TMP/report.modes" "$1" || echo null
}
fn_mode() {
	case "$(mode_of "$1")" in fentry | kprobe) return 0 ;; esac
	return 1
}

# check_count FIGURE PCPTOP_VALUE ORACLE_ARGS...
check_count() {
	local fig=$1 got=$2 inner outer note=
	shift 2
	read -r inner outer <<<"$(window "$@")"
	if ! [[ "$got" =~ ^[0-9]+$ ]]; then
		fail "$fig" "$got" "$inner" "pcptop printed no number"
		return
	fi
	local k=$inner
	if [ "$inner" != "$outer" ]; then
		k="$inner..$outer"
		note="$((outer - inner)) counted outside the command, while pcptop attached or detached"
	fi
	if [ "$got" -ge "$inner" ] && [ "$got" -le "$outer" ]; then
		pass "$fig" "$got" "$k" "$note"
	elif [ "$got" -lt "$inner" ] && [ "$MISSES" -gt 0 ] &&
	     [ $((inner - got)) -le $((MISSES * MISS_SPAN)) ]; then
		# the kernel's own count of the probe runs it skipped explains it
		pass "$fig" "$got" "$k" "short by $((inner - got)): $MISSES probe runs the kernel skipped (recursion_misses), at most $MISS_SPAN each${note:+; $note}"
	elif [ -n "${IN_FLIGHT_SPAN:-}" ] && [ "$got" -lt "$inner" ] &&
	     [ $((inner - got)) -le $(((CPUS - 1) * IN_FLIGHT_SPAN)) ]; then
		# The kernel counts this at the call's entry, pcptop at its exit.
		# Under -icount one vCPU can run for a whole timer slice while
		# another waits inside a call: A2 taken, the command gone and
		# pcptop's last read done before that call returns (seen once,
		# s6 in a trial of -icount sleep=off: a bulk free of 101 entered
		# before A2, 1 call and 101 of count_arg short; its pages,
		# counted at exit, equal).
		pass "$fig" "$got" "$k" "short by $((inner - got)): calls in flight as the window closed, one per other CPU at most ($((CPUS - 1)) x $IN_FLIGHT_SPAN), counted at entry by the kernel and at exit by pcptop${note:+; $note}"
	else
		fail "$fig" "$got" "$k" "outside the window's bracket${note:+; $note}"
	fi
}

# An estimate (tracepoint mode's event runs): within ESTIMATE_PCT % of the
# kernel's count over the command's window, the error printed.
check_estimate() {
	local fig=$1 got=$2 inner outer err
	shift 2
	read -r inner outer <<<"$(window "$@")"
	if ! [[ "$got" =~ ^[0-9]+$ ]] || [ "$inner" -le 0 ]; then
		fail "$fig" "$got" "$inner" "nothing to compare"
		return
	fi
	err=$(awk -v a="$got" -v b="$inner" 'BEGIN { printf "%+.1f", (a - b) * 100 / b }')
	if awk -v e="$err" -v m="$ESTIMATE_PCT" 'BEGIN { exit !(e <= m && e >= -m) }'; then
		pass "$fig" "$got" "$inner" "an estimate: $err %, within $ESTIMATE_PCT %"
	else
		fail "$fig" "$got" "$inner" "an estimate off by $err %, more than $ESTIMATE_PCT %"
	fi
}

# check_le FIGURE PCPTOP_VALUE KERNEL_VALUE WHY
check_le() {
	if [[ "$2" =~ ^[0-9]+$ ]] && [[ "$3" =~ ^[0-9]+$ ]] && [ "$2" -le "$3" ]; then
		pass "$1" "$2" "$3" "a bound: $4"
	else
		fail "$1" "$2" "$3" "pcptop above the kernel's bound: $4"
	fi
}

# Two log2 histograms as "slot count" lines: the largest share of calls
# that can be paired within one bucket. For two distributions on a line
# that is 1 - the largest gap between one's CDF and the other's shifted
# by one bucket, both ways.
match_share() {
	awk -v k="${3:-1}" '
		FNR == 1 { file++ }
		{ h[file, $1] += $2; n[file] += $2; if ($1 > top) top = $1 }
		END {
			if (n[1] == 0 || n[2] == 0) { print (n[1] == n[2]) ? 1 : 0; exit }
			worst = 0; c1 = 0; c2 = 0
			for (b = 0; b <= top + 1; b++) {
				c1 += h[1, b] / n[1]; c2 += h[2, b] / n[2]
				cdf1[b] = c1; cdf2[b] = c2
			}
			for (b = top + 2; b <= top + k; b++) { cdf1[b] = c1; cdf2[b] = c2 }
			for (b = 0; b <= top; b++) {
				g = cdf1[b] - cdf2[b + k]; if (g > worst) worst = g
				g = cdf2[b] - cdf1[b + k]; if (g > worst) worst = g
			}
			printf "%.4f\n", 1 - worst
		}' "$1" "$2"
}

# The share of calls that can be paired with a kernel time in the same
# bucket or above: 1 - the largest excess of the kernel's CDF over
# pcptop's.
inside_share() {
	awk '
		FNR == 1 { file++ }
		{ h[file, $1] += $2; n[file] += $2; if ($1 > top) top = $1 }
		END {
			if (n[1] == 0 || n[2] == 0) { print (n[1] == n[2]) ? 1 : 0; exit }
			worst = 0; c1 = 0; c2 = 0
			for (b = 0; b <= top; b++) {
				c1 += h[1, b] / n[1]; c2 += h[2, b] / n[2]
				if (c2 - c1 > worst) worst = c2 - c1
			}
			printf "%.4f\n", 1 - worst
		}' "$1" "$2"
}

pct() {
	awk -v s="$1" 'BEGIN { printf "%.1f", s * 100 }'
}

# pcptop's histogram KEY as "slot count"
p_hist() {
	jq -r ".hist.\"$1\".buckets // [] | to_entries[] | \"\(.key) \(.value.count)\"" \
		"$TMP/report.json"
}

# the kernel's histogram over A1..A2: SOURCE FIELD [SHIFT]; SHIFT 1 turns
# tracefs's log2 keys (2^N rounds up) into pcptop's slots (rounds down).
# A synthetic latency of 0-2 ns is no call (seen now and then on 6.12,
# never reproduced): such pairs are left out and counted in $TMP/k.odd.
k_hist() {
	local src=$1 field=$2 shift=${3:-0}
	awk -v src="$src" -v f="$field" -v sh="$shift" -v odd="$TMP/k.odd" '
		$2 == src && $4 == f && ($1 == "A1" || $1 == "A2") {
			d = ($1 == "A2") ? $5 : -$5
			if (sh && $3 <= 1) { bad += d; next }
			slot = $3 - sh; if (slot < 0) slot = 0
			v[slot] += d
		}
		END {
			for (s in v) print s, v[s]
			print bad + 0 > odd
		}' "$TMP/snaps" | sort -n
}

# check_times match|inside|interleaved|estimate FIGURE HIST_KEY SOURCE FIELD [SHIFT]
check_times() {
	local rule=$1 fig=$2 key=$3 share n_p n_k within
	shift 3
	p_hist "$key" >"$TMP/p"
	k_hist "$@" >"$TMP/k"
	n_p=$(awk '{ t += $2 } END { print t + 0 }' "$TMP/p")
	n_k=$(awk '{ t += $2 } END { print t + 0 }' "$TMP/k")
	if [ "$n_k" -eq 0 ]; then
		skip "$fig" "the kernel timed no call in the window"
		return
	fi
	if [ "$rule" = interleaved ]; then
		within=$(match_share "$TMP/p" "$TMP/k" "$INTERLEAVED_BUCKETS")
	else
		within=$(match_share "$TMP/p" "$TMP/k")
	fi
	local what="$n_p calls vs $n_k; $(pct "$within") % within $([ "$rule" = interleaved ] && echo "$INTERLEAVED_BUCKETS log2 buckets" || echo "one log2 bucket")"
	[ "$(cat "$TMP/k.odd")" -gt 0 ] &&
		what="$what; $(cat "$TMP/k.odd") fprobe pairs of 0-2 ns left out (no call is that short)"
	share=$within
	local need=$TIME_MATCH_MIN
	if [ "$rule" = interleaved ]; then
		need=$INTERLEAVED_MATCH_MIN
		what="$what, >= $(pct "$need") % needed (kprobe pairs interleave with pcptop's kprobes)"
	elif [ "$rule" = estimate ]; then
		# runs of events merge back-to-back calls and split long ones
		need=$SPAN_MATCH_MIN
		what="$what, >= $(pct "$need") % needed of an estimate"
	elif [ "$rule" = inside ] && ! awk -v s="$within" -v m="$TIME_MATCH_MIN" 'BEGIN { exit !(s >= m) }'; then
		# the fprobe's own handlers are the measured reason, when
		# pcptop's fentry/fexit window sits inside its window
		share=$(inside_share "$TMP/p" "$TMP/k")
		what="$what; $(pct "$share") % at or below the fprobe-timed call holding them (its handlers run outside fentry/fexit), >= $(pct "$TIME_MATCH_MIN") % needed"
	elif [ "${UNSEEN_WAITS:-0}" -gt 0 ] && ! awk -v s="$within" -v m="$need" 'BEGIN { exit !(s >= m) }'; then
		# a waiter spinning on the pending bit fires no
		# lock:contention_begin, so its spin stays in pcptop's hold
		# (not in its interrupts-off time, which holds the wait too):
		# at most one call each of the waits the kernel saw and pcptop
		# did not (s3: 98.8 % with 40 of them, 20 calls 2 buckets up)
		need=$(awk -v m="$need" -v u="$UNSEEN_WAITS" -v n="$n_k" 'BEGIN { printf "%.4f", m - u / n }')
		what="$what; $UNSEEN_WAITS waits the kernel counted and lock:contention_begin did not report (their spin is in pcptop's hold), so >= $(pct "$need") % needed"
	else
		what="$what, >= $(pct "$TIME_MATCH_MIN") % needed"
	fi
	if awk -v s="$share" -v m="$need" 'BEGIN { exit !(s >= m) }'; then
		pass "$fig" "p50<=$(pj ".hist.\"$key\".p50")ns" "hist" "$what"
	else
		fail "$fig" "p50<=$(pj ".hist.\"$key\".p50")ns" "hist" "$what"
	fi
}

# --- the checks ------------------------------------------------------------------
t=.totals
# runs the kernel skipped (bpf_prog_info recursion_misses, kprobe nmissed):
# each can hide one call, or one call's pages (at most batch << 6, or a
# pageblock, whichever the figure is)
MISSES=$(pj "$t.recursion_misses.value")
[[ "$MISSES" =~ ^[0-9]+$ ]] || MISSES=0
MISS_SPAN=1
# CPUs of the guest: at most one call each in flight as a window closes
CPUS=$(sed -n 's/^ORACLE:load:done:cpus //p' "$TMP/lines" | tail -n 1)
[[ "$CPUS" =~ ^[1-9][0-9]*$ ]] || CPUS=1
PAGE_SPAN=$(jq '[.totals.bulk_free.max // 0, .totals.refill.max // 0] | max' "$TMP/report.json")
fn_mode bulk_free && bulk_fn=1 || bulk_fn=0

# bulk frees
MISS_SPAN=$PAGE_SPAN check_count bulk_free.pages "$(pj "$t.bulk_free.pages")" drain_order hitcount "" 1
if [ "$(pj "$t.cross_check")" != null ]; then
	MISS_SPAN=$PAGE_SPAN check_count cross_check.drain_tracepoint_pages \
		"$(pj "$t.cross_check.drain_tracepoint_pages")" drain_order hitcount "" 1
fi
if [ $bulk_fn = 1 ]; then
	if have bulk; then
		check_count bulk_free.calls "$(pj "$t.bulk_free.calls")" bulk hitcount
		MISS_SPAN=$PAGE_SPAN check_count bulk_free.count_arg "$(pj "$t.bulk_free.count_arg")" bulk count
	else
		skip bulk_free.calls "$(why_not bulk)"
	fi
	if have bulk_lat; then
		check_times inside bulk_free_call_ns bulk_free_call_ns bulk_lat hitcount 1
	else
		skip bulk_free_call_ns "$(why_not bulk_lat)"
	fi
else
	# tracepoint mode: calls are runs of page events, an estimate
	if have proc; then
		check_estimate "bulk_free.calls (runs)" "$(pj "$t.bulk_free.calls")" proc bulk_calls
	elif have bulk; then
		check_estimate "bulk_free.calls (runs)" "$(pj "$t.bulk_free.calls")" bulk hitcount
	else
		skip "bulk_free.calls (runs)" "$(why_not bulk)"
	fi
fi

# refills
case "$(mode_of refill)" in
fentry | kprobe)
	if have refill; then
		check_count refill.calls "$(pj "$t.refill.calls")" refill_calls hitcount
		MISS_SPAN=$PAGE_SPAN check_count refill.pages "$(pj "$t.refill.pages")" refill n "" 1
	else
		skip refill "$(why_not refill)"
	fi
	;;
tracepoint)
	if have refill_order; then
		MISS_SPAN=$PAGE_SPAN check_count refill.pages "$(pj "$t.refill.pages")" refill_order hitcount "" 1
	else
		skip refill.pages "$(why_not refill_order)"
	fi
	if have proc && fn_mode alloc; then
		skip "refill.calls (runs)" "not with --latency: its probe on every allocation changes the timing the runs rest on (+3.1 and +5.8 % seen, +0.6 % without); checked in the other boots"
	elif have proc; then
		check_estimate "refill.calls (runs)" "$(pj "$t.refill.calls")" proc refill_calls
	else
		skip "refill.calls (runs)" "no kernel count of rmqueue_bulk calls: it is inlined here, and this is not the instrumented kernel"
	fi
	;;
*) skip refill "refill is not probed ($(mode_of refill))" ;;
esac

# drains, by the CPU owning the pageset
if fn_mode drain; then
	if have drain; then
		check_count drain.calls "$(pj "$t.drain.calls")" drain hitcount
		ncpu=$(pj '.per_cpu | length')
		for ((c = 0; c < ncpu; c++)); do
			check_count "drain.calls[cpu$c]" \
				"$(pj ".per_cpu[$c].drain_calls")" drain hitcount "$c"
		done
	else
		skip drain.calls "$(why_not drain)"
	fi
else
	skip drain.calls "drain is not probed in $(mode_of drain) mode"
fi

# decay
if fn_mode decay; then
	if have decay; then
		check_count decay.calls "$(pj "$t.decay.calls")" decay hitcount
	else
		skip decay.calls "$(why_not decay)"
	fi
else
	skip decay.calls "decay_pcp_high is not probed ($(mode_of decay))"
fi

# latency (--latency): every call of the allocator's entry points timed
for dir in alloc free; do
	if ! fn_mode $dir; then
		skip "${dir}_ns.samples" "not timed ($(mode_of $dir) mode: --latency not given)"
	elif have $dir; then
		check_count "${dir}_ns.samples" "$(pj ".hist.${dir}_ns.samples")" $dir hitcount
		if have ${dir}_lat; then
			rule=inside
			[ "$(mode_of $dir)" = kprobe ] &&
				grep -q "^ORACLE:have:${dir}_lat:yes kprobe" "$TMP/lines" &&
				rule=interleaved
			check_times $rule ${dir}_ns ${dir}_ns ${dir}_lat hitcount 1
		else
			skip ${dir}_ns "$(why_not ${dir}_lat)"
		fi
	else
		skip "${dir}_ns.samples" "$(why_not $dir)"
	fi
done
# an allocation with a refill inside holds at least one refill
if fn_mode alloc && fn_mode refill; then
	check_le "alloc_ns.refill.samples <= refill.calls" \
		"$(pj '[.hist.alloc_ns_by_order[].refill.samples] | add')" \
		"$(pj "$t.refill.calls")" "each such allocation ran at least one refill"
fi

# the instrumented kernel's counts at the exact lines
if have proc; then
	P=proc
	MISS_SPAN=$PAGE_SPAN check_count "bulk_free.pages (exact lines)" "$(pj "$t.bulk_free.pages")" $P bulk_pages
	if [ $bulk_fn = 1 ]; then
		IN_FLIGHT_SPAN=1 check_count "bulk_free.calls (exact lines)" "$(pj "$t.bulk_free.calls")" $P bulk_calls
		MISS_SPAN=$PAGE_SPAN IN_FLIGHT_SPAN=$PAGE_SPAN check_count "bulk_free.count_arg (exact lines)" "$(pj "$t.bulk_free.count_arg")" $P bulk_count_arg
	fi
	if fn_mode refill; then
		check_count "refill.calls (exact lines)" "$(pj "$t.refill.calls")" $P refill_calls
		MISS_SPAN=$PAGE_SPAN check_count "refill.pages (exact lines)" "$(pj "$t.refill.pages")" $P refill_pages
	elif [ "$(mode_of refill)" = tracepoint ]; then
		read -r ri ro <<<"$(window $P refill_pages)"
		read -r ti to <<<"$(window refill_order hitcount "" 1)"
		line "refill.pages: INFO (tracepoint mode's pages are percpu_refill events: order 0-3 pages of a pcp migratetype taken under zone->lock, rmqueue_buddy's in, __rmqueue_steal's out: $ti here, where rmqueue_bulk took $ri)"
	fi
	if fn_mode decay; then
		IN_FLIGHT_SPAN=1 check_count "decay.calls (exact lines)" "$(pj "$t.decay.calls")" $P decay_calls
		check_count decay.trims "$(pj "$t.decay.trims")" $P decay_lowered
		check_count decay.frees "$(pj "$t.decay.frees")" $P decay_freeing
		MISS_SPAN=$PAGE_SPAN check_count decay.pages "$(pj "$t.decay.pages")" $P decay_pages
	fi
	if fn_mode drain; then
		ncpu=$(pj '.per_cpu | length')
		for ((c = 0; c < ncpu; c++)); do
			check_count "drain.chunks[cpu$c]" \
				"$(pj ".per_cpu[$c].drain_chunks")" $P "drain_chunks_cpu$c"
			MISS_SPAN=$PAGE_SPAN check_count "drain.pages[cpu$c]" \
				"$(pj ".per_cpu[$c].drain_pages")" $P "drain_pages_cpu$c"
		done
	fi
	case "$(mode_of free_high)" in
	fentry | kprobe)
		check_count free_high.count "$(pj "$t.free_high.count")" $P free_high
		MISS_SPAN=$PAGE_SPAN check_count free_high.pages "$(pj "$t.free_high.pages")" $P free_high_pages
		# 6.7+ lowers pcp->high by at most batch << scale per free_high
		# flush (nr_pcp_high); 6.1 never does
		if [ "$TRUE_SCALE" != none ]; then
			fb=$(pj '[.zones[].cpus[].batch] | max')
			check_le free_high.high_cut "$(pj "$t.free_high.high_cut")" \
				"$(($(pj "$t.free_high.count") * (fb << TRUE_SCALE)))" \
				"each free_high flush lowers high by at most batch << scale"
			[ "$(pj "$t.free_high.count")" -gt 0 ] &&
				check_le "free_high.high_cut > 0" 1 "$(pj "$t.free_high.high_cut")" \
					"free_high flushes happened, so high was cut"
		fi
		;;
	heuristic)
		# An estimate: the kernel evaluates the same rule at the same
		# point (pcp_oracle_looks_free_high), so the count must match
		# that, and how far the rule is from the truth is measured.
		check_count "free_high.count (estimate)" "$(pj "$t.free_high.count")" $P free_high_guess
		MISS_SPAN=$PAGE_SPAN check_count "free_high.pages (estimate)" "$(pj "$t.free_high.pages")" $P free_high_guess_pages
		read -r g _ <<<"$(window $P free_high_guess)"
		read -r r _ <<<"$(window $P free_high_guess_right)"
		read -r f _ <<<"$(window $P free_high)"
		line "free_high.count: INFO (the estimate took $g flushes for free_high: $r were, $((g - r)) were ordinary flushes asking batch << scale; it missed $((f - r)) of the kernel's $f; --exact-free-high counts them all)"
		;;
	*) skip free_high.count "free_high is not measured ($(mode_of free_high))" ;;
	esac
	if [ "$(mode_of bulk_free)" = tracepoint ]; then
		# A span (first to last page event of a run) lies inside the
		# lock hold of its call: the kernel's hold is its yardstick.
		check_times estimate "bulk_free_span_ns (vs hold)" bulk_free_span_ns $P lock_hold_bulk_ns_log2
		check_times estimate "refill_span_ns (vs hold)" refill_span_ns $P lock_hold_refill_ns_log2
		read -r fh _ <<<"$(window $P free_high)"
		line "hi_order_runs: INFO (runs starting at an order 1-3 list: $(pj "$t.hi_order_runs.runs"); the kernel's free_high flushes, all among them: $fh)"
	fi
	if [ $bulk_fn = 1 ]; then
		# hold: bulk frees, and refills where rmqueue_bulk is probed
		if fn_mode refill; then
			awk '$2 == "proc" && $4 == "lock_hold_refill_ns_log2" { $4 = "lock_hold_bulk_ns_log2" } { print }' \
				"$TMP/snaps" >"$TMP/snaps2" && mv "$TMP/snaps2" "$TMP/snaps"
		fi
		read -r wi wo <<<"$(window $P contended)"
		pw=$(pj "$t.lock_wait_ns.waits")
		[[ "$pw" =~ ^[0-9]+$ ]] || pw=0
		UNSEEN_WAITS=$((wo > pw ? wo - pw : 0)) \
			check_times match lock_hold_ns lock_hold_ns $P lock_hold_bulk_ns_log2
		if fn_mode refill; then
			skip irqs_off_ns "the instrumentation times interrupts off in bulk frees only, pcptop adds refills"
		else
			check_times match irqs_off_ns irqs_off_ns $P irqs_off_bulk_ns_log2
		fi
		check_le lock_wait_ns.waits "$(pj "$t.lock_wait_ns.waits")" "$wo" \
			"lock:contention_begin fires on queued waits only, a lone waiter spinning on the pending bit is not seen"
	fi
else
	for f in free_high decay.trims drain.chunks lock_hold_ns lock_wait_ns irqs_off_ns; do
		skip "$f" "$(why_not proc)"
	done
fi

# the irqsoff tracer's longest section bounds every one pcptop saw
if have irqsoff && [ $bulk_fn = 1 ]; then
	us=$(ksum A2 irqsoff max_us)
	check_le irqs_off_ns.max "$(pj "$t.irqs_off_ns.max")" "$((us * 1000 * 2))" \
		"twice the irqsoff tracer's longest section ($us us): the probes' own time is inside pcptop's"
elif [ $bulk_fn = 1 ]; then
	skip irqs_off_ns.max "$(why_not irqsoff)"
fi

# what the kernel skipped, from the programs' own stats (fdinfo)
mk=$(sed -n 's/^ORACLE:misses:A2://p' "$TMP/lines")
got=$(pj "$t.recursion_misses.value")
if [[ "$mk" =~ ^[0-9]+$ ]] && [[ "$got" =~ ^[0-9]+$ ]] && [ "$got" -ge "$mk" ]; then
	pass recursion_misses "$got" ">=$mk" "fdinfo recursion_misses at the command's end"
else
	fail recursion_misses "$got" ">=$mk" "fdinfo recursion_misses at the command's end"
fi

# the scale: what pcptop infers is never above what the kernel runs with
lb=$(pj .scale.inferred_at_least)
ex=$(pj .scale.inferred_exact)
if [ "$TRUE_SCALE" = none ]; then
	src=$(pj .scale.source)
	if [ "$src" = none ] && [ "$lb" = null ]; then
		pass scale.source "$src" none "no cap before 6.7, nothing inferred"
	else
		fail scale.source "$src, inferred $lb" none "this kernel has no scale cap"
	fi
else
	if [ "$lb" = null ] || [ "$lb" -le "$TRUE_SCALE" ]; then
		pass scale.inferred_at_least "$lb" "$TRUE_SCALE" "a lower bound"
	else
		fail scale.inferred_at_least "$lb" "$TRUE_SCALE" "above the scale in force"
	fi
	if [ "$ex" = null ]; then
		pass scale.inferred_exact "$ex" "$TRUE_SCALE" "null: no drain chunk was cut short"
	elif [ "$ex" = "$TRUE_SCALE" ]; then
		pass scale.inferred_exact "$ex" "$TRUE_SCALE" "drain chunks cut at batch << scale"
	else
		fail scale.inferred_exact "$ex" "$TRUE_SCALE" "not the scale in force"
	fi
fi
finish

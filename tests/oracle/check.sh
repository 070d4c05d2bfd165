#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The host half of pcptop's oracle suite. Why it exists: every figure
# pcptop prints must agree with a count the kernel took itself, over the
# same window, with no BPF involved. tests/oracle/guest.sh printed, on
# the VM's console, the kernel's counts at A0 (before pcptop), A1 (pcptop
# attached, its command starting), A2 (command done) and A3 (pcptop gone),
# and pcptop's own report of the window. This script says which figure
# is checked against which count, by one of these rules (their code and
# thresholds: tests/oracle/lib.sh):
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
#            bucket fail, 99 % of the calls must sit between the two
#            bounds that follow: pcptop's time at or below the fprobe's,
#            and above half of it where the call outlasts twice what the
#            handlers cost (lib.sh's inside_shares says why; the
#            latter 90 % in tests/vm/run.sh, INSIDE_MATCH_MIN says why).
#
# Usage: tests/oracle/check.sh CONSOLE_LOG LABEL TRUE_SCALE
#   LABEL       "KERNEL smp=N scale=S", the start of every line
#   TRUE_SCALE  the scale the kernel runs with, "none" before 6.7
#
# Prints "oracle LABEL FIGURE: pcptop=X kernel=Y PASS|FAIL (...)" or
# "... SKIP (why)" for a check this kernel cannot run (never a pass), and
# a last line "oracle LABEL: N passed, N failed, N could not run" (and
# ", N known misses" when there are any).
# Exits 0 when nothing failed, 1 when something did, 2 on bad input.

set -uo pipefail

[ $# -eq 3 ] || { echo "usage: tests/oracle/check.sh CONSOLE_LOG LABEL TRUE_SCALE" >&2; exit 2; }
LOGF=$1 LABEL=$2 TRUE_SCALE=$3
[ -r "$LOGF" ] || { echo "oracle check: cannot read '$LOGF'" >&2; exit 2; }

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the ORACLE: lines, serial \r gone
tr -d '\r' <"$LOGF" | sed -n 's/^.*ORACLE:/ORACLE:/p' >"$TMP/lines"

if ! grep -q '^ORACLE:end:done' "$TMP/lines"; then
	why=$(sed -n 's/^ORACLE:have:tracefs:no //p' "$TMP/lines")
	skip all "${why:-the guest printed no oracle run}"
	[ -n "$why" ] || failed=$((failed + 1))
	finish
fi
sed -n 's/^ORACLE:report://p' "$TMP/lines" >"$TMP/report.json"
# jq -e passes an empty input: a log without the report line would go on
# to some twenty "printed no number" lines instead of this one
if [ ! -s "$TMP/report.json" ] || ! jq -e .totals >/dev/null 2>&1 <"$TMP/report.json"; then
	fail report "$(sed -n 's/^ORACLE:record_rc://p' "$TMP/lines")" - \
		"no pcptop report: $(sed -n 's/^ORACLE:\(record\|report\)_err://p' "$TMP/lines" | head -n 1)"
	finish
fi
parse_snaps
flatten_report

# --- the checks ------------------------------------------------------------------
t=.totals
# On 7.x (commit flushes in chunks), a miss measured on the instrumented
# 7.3.4 and written up in docs/ACCURACY.md: at 2 CPUs the free_high
# estimate booked 0.4 % fewer pages than the kernel's guess once (cause
# not traced)
K7=0
case "$(pj .kernel.release)" in
7.*) KNOWN_MISS="free_high.pages (estimate)" K7=1 ;;
esac
# On 7.x the refill runs split: the kernel's refill hold is 3.5 us a
# page, 70 % of the 5 us run gap, and 7.x refills are long (a p50 of 511
# pages), so a refill's page events drift apart. Not a miss that comes
# and goes but the estimate's own error there: +29.7 to +51.4 % in seven
# boots at 1 CPU (k73-up-s5), and at 2 CPUs (k73-s5) -0.1 % to +37.5 %
# as the workload's refills came long or short: held to a fixed bound
# above, ESTIMATE_PCT below as everywhere (runs can only split)
K7_RUNS_OVER=60
# runs the kernel skipped (bpf_prog_info recursion_misses, kprobe nmissed):
# each can hide one call, or one call's pages (at most batch << 6, or a
# pageblock, whichever the figure is)
MISSES=$(pj "$t.recursion_misses.value")
[[ "$MISSES" =~ ^[0-9]+$ ]] || MISSES=0
# those of the --latency programs for alloc_ns and free_ns alone (lib.sh)
misses_apart "$MISSES" A1 A2
MISS_SPAN=1
# CPUs of the guest: at most one call each in flight as a window closes
CPUS=$(sed -n 's/^ORACLE:load:done:cpus //p' "$TMP/lines" | tail -n 1)
[[ "$CPUS" =~ ^[1-9][0-9]*$ ]] || CPUS=1
PAGE_SPAN=$(jq '[.totals.bulk_free.max // 0, .totals.refill.max // 0] | max' "$TMP/report.json")
# where the kernel and pcptop count a free_high flush
FH_WHY="counted by the kernel after the bulk free returns, by pcptop at the commit's exit"
fn_mode bulk_free && bulk_fn=1 || bulk_fn=0

# bulk frees
MISS_SPAN=$PAGE_SPAN check_count bulk_free.pages "$(pj "$t.bulk_free.pages")" drain_order hitcount "" 1
if [ "$(pj "$t.cross_check")" != null ]; then
	MISS_SPAN=$PAGE_SPAN check_count cross_check.drain_tracepoint_pages \
		"$(pj "$t.cross_check.drain_tracepoint_pages")" drain_order hitcount "" 1
fi
if [ $bulk_fn = 1 ]; then
	if have bulk; then
		# the fprobe (kprobe) event fires at the call's entry, as the
		# exact lines count: a call may be in flight as the window closes
		IN_FLIGHT_SPAN=1 check_count bulk_free.calls "$(pj "$t.bulk_free.calls")" bulk hitcount
		MISS_SPAN=$PAGE_SPAN IN_FLIGHT_SPAN=$PAGE_SPAN check_count bulk_free.count_arg "$(pj "$t.bulk_free.count_arg")" bulk count
	else
		skip bulk_free.calls "$(why_not bulk)"
	fi
	if have bulk_lat; then
		ENTRIES=$(window bulk hitcount | cut -d' ' -f2) \
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
	elif have proc && [ "$K7" = 1 ]; then
		EST_OVER=$K7_RUNS_OVER EST_WHY="7.x: long refills' runs split, docs/ACCURACY.md" \
			check_estimate "refill.calls (runs)" "$(pj "$t.refill.calls")" proc refill_calls
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
		IN_FLIGHT_SPAN=1 check_count decay.calls "$(pj "$t.decay.calls")" decay hitcount
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
		MISSES=$MISSES_ALL MISSES_WHOSE='' \
			check_count "${dir}_ns.samples" "$(pj ".hist.${dir}_ns.samples")" $dir hitcount
		if have ${dir}_lat; then
			rule=inside
			[ "$(mode_of $dir)" = kprobe ] &&
				grep -q "^ORACLE:have:${dir}_lat:yes kprobe" "$TMP/lines" &&
				rule=interleaved
			ENTRIES=$(window $dir hitcount | cut -d' ' -f2) \
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
		# the kernel counts these before the call's first chunk,
		# pcptop at its exit
		IN_FLIGHT_SPAN=1 check_count decay.trims "$(pj "$t.decay.trims")" $P decay_lowered
		IN_FLIGHT_SPAN=1 check_count decay.frees "$(pj "$t.decay.frees")" $P decay_freeing
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
		# counted after the bulk free returns, pcptop at the commit's exit
		IN_FLIGHT_SPAN=1 IN_FLIGHT_WHY=$FH_WHY check_count free_high.count "$(pj "$t.free_high.count")" $P free_high
		MISS_SPAN=$PAGE_SPAN IN_FLIGHT_SPAN=$PAGE_SPAN IN_FLIGHT_WHY=$FH_WHY check_count free_high.pages "$(pj "$t.free_high.pages")" $P free_high_pages
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
		# 7.x drops the pcp lock between a flush's chunks: where
		# something ran in that gap, pcptop's flush is two, each
		# judged by the rule (k73-s5, 2026-12-02: 2550 against 2548,
		# with 4 breaks); the kernel counts the breaks
		breaks=
		case "$(pj .kernel.release)" in
		7.*) read -r _ breaks <<<"$(window proc commit_chunk_breaks)" ;;
		esac
		[ -n "$breaks" ] && breaks=$((breaks + K7_TICK_EDGE))
		OVER_SPAN=$breaks OVER_WHY="the kernel's chunk breaks (commit_chunk_breaks), each a flush pcptop may see as two, and $K7_TICK_EDGE gaps at the 10 ms edge" \
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

# What the kernel skipped, from the programs' own stats (fdinfo): a
# counter since the programs loaded, read at the command's start (A1) and
# end (A2). pcptop's figure is its counter's rise from its first sample,
# before A1, to its last, after A2: at least A2 - A1. Runs skipped while
# pcptop attached are in A1 only (s3, 2026-12-05: 7 at A1 and A2, pcptop
# 0), and runs skipped as the command exits and pcptop detaches are in
# pcptop's only (clean clone cc26: amd64-7.3 3397 against 3388 at A2, s3
# 2 against 0): no kernel read bounds it from above.
m1=$(sed -n 's/^ORACLE:misses:A1://p' "$TMP/lines")
m2=$(sed -n 's/^ORACLE:misses:A2://p' "$TMP/lines")
got=$(pj "$t.recursion_misses.value")
if ! [[ "$m1" =~ ^[0-9]+$ ]] || ! [[ "$m2" =~ ^[0-9]+$ ]]; then
	fail recursion_misses "$got" "-" "no fdinfo recursion_misses at the command's start and end"
elif [[ "$got" =~ ^[0-9]+$ ]] && [ "$got" -ge $((m2 - m1)) ]; then
	pass recursion_misses "$got" ">=$((m2 - m1))" "fdinfo recursion_misses' rise over the command ($m1 at its start, $m2 at its end)"
else
	fail recursion_misses "$got" ">=$((m2 - m1))" "under fdinfo recursion_misses' rise over the command ($m1 at its start, $m2 at its end)"
fi

# issue 20's figures: by order, reason and caller, and the stalls. The
# 7.3 port of the instrumentation patch has none of their counters (its
# mm/swap.c hunks have no file to go to): there they have no oracle,
# which is not a count of 0
if have proc && ! grep -q '^ORACLE:A0:proc:drain_calls_offline ' "$TMP/lines" &&
	[ "$(jq "$t | has(\"bulk_free_by_reason\")" "$TMP/report.json")" = true ]; then
	skip "where the pages go" "this kernel's /proc/pcp_oracle does not count them (tests/vm/kernel/pcp-oracle-7.3.patch: not ported)"
else
	. "$(dirname "${BASH_SOURCE[0]}")/check_where.sh"
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

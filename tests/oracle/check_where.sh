# SPDX-License-Identifier: GPL-2.0-only
# Where the pages go and why, and what an allocating task waits for:
# the checks of issue 20's figures, sourced by tests/oracle/check.sh after
# its own (it has read the log, $t and the spans), before it finishes.
#
#   by order    bulk_free_by_order against kmem:mm_page_pcpu_drain's order,
#               and the instrumented kernel's pages by order in
#               free_pcppages_bulk(); refill_by_order against the refill
#               counts by order of the mode's oracle
#   by reason   bulk_free_by_reason against the instrumented kernel's commit
#               flushes (minus free_high's, estimated or exact as pcptop
#               is) and drains by their caller
#   by caller   drain_by_caller against the caller the instrumented kernel
#               names at each drain (current->pcp_oracle_why)
#   stalls      reclaim_stall_ns and compact_stall_ns against a tracefs
#               synthetic latency of the same stalls and the instrumented
#               kernel's clock around them, and the kernel's compact_stall
#               (pcptop's own sample of /proc/vmstat)
#   identities  a split's parts add up to the figure it splits
#
# Not run on its own.

# check_near FIGURE PCPTOP_VALUE VALUE SLACK WHY: equal within SLACK
check_near() {
	local d
	if ! [[ "$2" =~ ^[0-9]+$ ]] || ! [[ "$3" =~ ^[0-9]+$ ]]; then
		fail "$1" "$2" "$3" "no number: $5"
		return
	fi
	d=$(($2 > $3 ? $2 - $3 : $3 - $2))
	if [ "$d" -le "$4" ] && [ "$4" -eq 0 ]; then
		pass "$1" "$2" "$3" "$5"
	elif [ "$d" -le "$4" ]; then
		pass "$1" "$2" "$3" "$5; $d apart, $4 allowed"
	else
		fail "$1" "$2" "$3" "$d apart, more than the $4 allowed: $5"
	fi
}

# the sum of a split's parts
parts_sum() {
	jq "[.totals.\"$1\".parts[]] | add // 0" "$TMP/report.json"
}

# check_bracket FIGURE PCPTOP_VALUE LO HI WHY: LO <= pcptop <= HI, where
# a figure is a difference of two kernel counts, each with its bracket
check_bracket() {
	if [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		pass "$1" "$2" "$3..$4" "$5"
	else
		fail "$1" "$2" "$3..$4" "outside: $5"
	fi
}

# the kernel's count A - B, bracketed: A's window less B's, both ways
diff_bracket() {
	local ai ao bi bo
	read -r ai ao <<<"$(window "$1" "$2")"
	read -r bi bo <<<"$(window "$1" "$3")"
	echo "$((ai - bo)) $((ao - bi))"
}

# calls in flight at the recording's edges: at most one a CPU
EDGE_SLACK=$((CPUS * PAGE_SPAN))
# the interrupts-off time pcptop books a call beyond the kernel's lock
# section: the function's code around it and the probes' own (measured
# +0.8 % in s5)
IRQS_OFF_OVER_PCT=5

# check_pos WHAT VALUE WHY: the workload made it happen
check_pos() {
	if [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ]; then
		pass "$1" - "$2" "$3"
	else
		fail "$1" - "$2" "none, though $3"
	fi
}

# --- by order --------------------------------------------------------------------
if [ "$(pj "$t.bulk_free_by_order")" != null ]; then
	for o in 0 1 2 3; do
		MISS_SPAN=$PAGE_SPAN check_count "bulk_free_by_order.$o" \
			"$(pj "$t.bulk_free_by_order.parts.$o")" drain_order hitcount "$o" 1
	done
	MISS_SPAN=$PAGE_SPAN check_count bulk_free_by_order.thp \
		"$(pj "$t.bulk_free_by_order.parts.thp")" drain_order hitcount ">=4" 1
	# beside a function probe the pages are counted as their events come
	# and the call's pages at its exit: a call across an edge of the
	# recording differs; in tracepoint mode it is the same count
	slack=0
	[ $bulk_fn = 1 ] && slack=$EDGE_SLACK
	check_near "bulk_free_by_order adds up to bulk_free.pages" \
		"$(parts_sum bulk_free_by_order)" "$(pj "$t.bulk_free.pages")" "$slack" \
		"the same pages, by order"
	if have proc; then
		for o in 0 1 2 3 4; do
			part=$o
			[ $o = 4 ] && part=thp
			MISS_SPAN=$PAGE_SPAN check_count "bulk_free_by_order.$part (exact lines)" \
				"$(pj "$t.bulk_free_by_order.parts.$part")" proc "bulk_pages_order$o"
		done
	fi
else
	skip bulk_free_by_order "$(mode_of bulk_free) mode, bulk_order $(mode_of bulk_order): not measured"
fi

if [ "$(pj "$t.refill_by_order")" != null ]; then
	for o in 0 1 2 3 thp; do
		key=$o
		[ $o = thp ] && key=">=4"
		case "$(mode_of refill)" in
		fentry | kprobe)
			if have refill; then
				MISS_SPAN=$PAGE_SPAN check_count "refill_by_order.$o" \
					"$(pj "$t.refill_by_order.parts.$o")" refill n "$key" 1
			else
				skip "refill_by_order.$o" "$(why_not refill)"
			fi
			;;
		tracepoint)
			if have refill_order; then
				MISS_SPAN=$PAGE_SPAN check_count "refill_by_order.$o" \
					"$(pj "$t.refill_by_order.parts.$o")" refill_order hitcount "$key" 1
			else
				skip "refill_by_order.$o" "$(why_not refill_order)"
			fi
			;;
		esac
	done
	check_near "refill_by_order adds up to refill.pages" \
		"$(parts_sum refill_by_order)" "$(pj "$t.refill.pages")" 0 \
		"one counter, by order"
fi

# --- by reason ---------------------------------------------------------------------
if [ "$(pj "$t.bulk_free_by_reason")" != null ]; then
	# one reason a bulk free, booked at its exit as its pages are
	check_near "bulk_free_by_reason adds up to bulk_free.pages" \
		"$(parts_sum bulk_free_by_reason)" "$(pj "$t.bulk_free.pages")" 0 \
		"every bulk free has one reason"
	check_near "bulk_free_by_reason.drain + .offline = drain.pages" \
		"$(($(pj "$t.bulk_free_by_reason.parts.drain") + $(pj "$t.bulk_free_by_reason.parts.offline")))" \
		"$(pj "$t.drain.pages")" 0 "a drain's pages, split by its caller"
	if have proc; then
		P=proc
		# the commit's flushes less free_high's: the kernel's flag where
		# pcptop probes the commit, its estimate's evaluation where not
		fh=free_high_guess_pages
		fn_mode free_high && fh=free_high_pages
		read -r lo hi <<<"$(diff_bracket $P commit_flush_pages $fh)"
		check_bracket bulk_free_by_reason.high \
			"$(pj "$t.bulk_free_by_reason.parts.high")" "$((lo - EDGE_SLACK))" "$((hi + EDGE_SLACK))" \
			"the commit's flushes ($fh taken out), each bracket widened by a call a CPU in flight at an edge"
		MISS_SPAN=$PAGE_SPAN check_count bulk_free_by_reason.offline \
			"$(pj "$t.bulk_free_by_reason.parts.offline")" $P drain_pages_offline
		read -r di do <<<"$(window $P drain_pages_reclaim)"
		for w in compaction sysctl other; do
			read -r i o <<<"$(window $P drain_pages_$w)"
			di=$((di + i)) do=$((do + o))
		done
		check_bracket bulk_free_by_reason.drain \
			"$(pj "$t.bulk_free_by_reason.parts.drain")" "$di" "$do" \
			"drain_pages_zone()'s pages but a CPU going offline's"
	fi
fi

# --- by caller -------------------------------------------------------------------
if [ "$(pj "$t.drain_by_caller")" != null ]; then
	check_near "drain_by_caller adds up to drain.calls" \
		"$(parts_sum drain_by_caller)" "$(pj "$t.drain.calls")" 0 \
		"every drain has one caller"
	if have proc; then
		# the kernel counts a drain at its entry, pcptop at its exit
		for w in reclaim compaction offline sysctl other; do
			IN_FLIGHT_SPAN=1 check_count "drain_by_caller.$w" \
				"$(pj "$t.drain_by_caller.parts.$w")" proc "drain_calls_$w"
		done
	else
		skip "drain_by_caller.*" "only the instrumented kernel names a drain's caller (here: the parts add up)"
	fi
fi

# --- stalls ------------------------------------------------------------------------
if [ "$(mode_of reclaim)" = tracepoint ]; then
	if have reclaim_lat; then
		check_count reclaim_stall_ns.samples "$(pj '.hist.reclaim_stall_ns.samples // 0')" \
			reclaim_lat hitcount
		# both hang on the same two tracepoints, each window holding
		# the other's handler once: two buckets, as kprobe pairs
		check_times interleaved reclaim_stall_ns reclaim_stall_ns reclaim_lat hitcount 1
	else
		skip reclaim_stall_ns "$(why_not reclaim_lat)"
	fi
	if have proc; then
		check_count "reclaim_stall_ns.samples (exact lines)" \
			"$(pj '.hist.reclaim_stall_ns.samples // 0')" proc reclaim_stall_ns_log2
		check_times match "reclaim_stall_ns (exact lines)" reclaim_stall_ns proc reclaim_stall_ns_log2
	fi
else
	skip reclaim_stall_ns "reclaim is not probed ($(mode_of reclaim))"
fi

case "$(mode_of compact)" in
fentry | kprobe)
	samples=$(pj '.hist.compact_stall_ns.samples // 0')
	# the kernel counts compact_stall where pcptop books a stall
	check_near "compact_stall_ns.samples = compact_stall" "$samples" \
		"$(pj "$t.compact_stall.value")" "$CPUS" \
		"/proc/vmstat as pcptop sampled it, a stall a CPU in flight at an edge"
	if have compact_lat; then
		check_count compact_stall_ns.samples "$samples" compact_lat hitcount
		rule=inside
		[ "$(mode_of compact)" = kprobe ] &&
			grep -q "^ORACLE:have:compact_lat:yes kprobe" "$TMP/lines" &&
			rule=interleaved
		check_times $rule compact_stall_ns compact_stall_ns compact_lat hitcount 1
	else
		skip compact_stall_ns "$(why_not compact_lat)"
	fi
	if have proc; then
		# the kernel's clock inside try_to_compact_pages, pcptop's
		# window around it
		check_count "compact_stall_ns.samples (exact lines)" "$samples" proc compact_stall_ns_log2
		check_times match "compact_stall_ns (exact lines)" compact_stall_ns proc compact_stall_ns_log2
	fi
	;;
tracepoint)
	# a stand-in: from try_to_compact_pages's tracepoint to its last
	# zone's end, and only stalls that compacted a zone
	samples=$(pj '.hist.compact_stall_ns.samples // 0')
	check_le "compact_stall_ns.samples (estimate)" "$samples" \
		"$(pj "$t.compact_stall.value")" "stalls that compacted no zone are not seen"
	if have proc; then
		check_times estimate "compact_stall_ns (estimate, vs exact lines)" \
			compact_stall_ns proc compact_stall_ns_log2
	elif have compact_lat; then
		check_times estimate "compact_stall_ns (estimate)" compact_stall_ns compact_lat hitcount 1
	fi
	;;
*) skip compact_stall_ns "compact is not probed ($(mode_of compact))" ;;
esac

# --- interrupts off, per second ------------------------------------------------
# On SMP the pcp paths turn interrupts off for zone->lock only: where the
# instrumented kernel times the same sections (bulk frees; it does not
# time refills, which pcptop adds where rmqueue_bulk is probed), pcptop's
# total is theirs and a little more, never less.
if have proc && [ $bulk_fn = 1 ] && ! fn_mode refill; then
	read -r ki ko <<<"$(window proc irqs_off_bulk_ns_total)"
	got=$(pj "$t.irqs_off_ns.total")
	ps=$(pj "$t.irqs_off_ns.per_s")
	kps=$(awk -v k="$ki" -v g="$got" -v p="$ps" 'BEGIN { printf "%.0f", (g > 0 ? k * p / g : 0) }')
	hi=$(awk -v k="$ki" -v m="$IRQS_OFF_OVER_PCT" 'BEGIN { printf "%.0f", k * (100 + m) / 100 }')
	if [[ "$got" =~ ^[0-9]+$ ]] && [ "$got" -ge "$ki" ] && [ "$got" -le "$hi" ]; then
		pass irqs_off_ns.per_s "${ps%.*}ns/s" "${kps}ns/s" "totals $got and $ki ns over the same seconds: at or above the kernel's lock sections, within $IRQS_OFF_OVER_PCT %"
	else
		fail irqs_off_ns.per_s "${ps%.*}ns/s" "${kps}ns/s" "totals $got and $ki ns over the same seconds: not at or above the kernel's lock sections within $IRQS_OFF_OVER_PCT %"
	fi
fi

# --- the workload stalled ---------------------------------------------------
# the stalls phase (holes, then pressure past what is free) must give
# these checks something to count on the instrumented kernel
if have proc && grep -q '^ORACLE:load:holes:' "$TMP/lines"; then
	read -r ri _ <<<"$(window proc reclaim_stall_ns_log2)"
	check_pos "direct reclaim stalled" "$ri" "the load reclaimed past what was free"
	read -r ci _ <<<"$(window proc compact_stall_ns_log2)"
	check_pos "direct compaction stalled" "$ci" "order-2 allocations met free memory in holes"
	read -r di _ <<<"$(window proc drain_calls_reclaim)"
	check_pos "direct reclaim drained" "$di" "reclaim made progress and the allocation still failed"
	if [ "$CPUS" -gt 1 ]; then
		read -r oi _ <<<"$(window proc drain_calls_offline)"
		check_pos "a CPU going offline drained" "$oi" "CPUs went offline"
	fi
fi

# SPDX-License-Identifier: GPL-2.0-only
# The live checks on what a pcptop run left in files, shared by
# tests/live/run.sh (the host's kernel: fentry attaches or is refused,
# floor says which) and tests/live/vm-check.sh (a Debian guest, where
# fentry attaches): the same
# assertions prove both branches of the fentry question. Whether fentry
# attaches is never taken from pcptop itself: floor (tests/bench/floor.c),
# a count-only fentry program on free_pcppages_bulk, is the witness.
# Sourced after tests/lib.sh, not run.

# live_fentry_state FLOOR_RC FLOOR_OUT: "attaches" when floor attached
# its fentry program and ended cleanly on SIGINT, "refused" when the
# kernel refused it (floor exits 1 then, saying why), else "unknown"
live_fentry_state() {
	if [ "$1" = 0 ] && grep -q '^floor: attached 1 hooks' "$2"; then
		echo attaches
	elif [ "$1" = 1 ] && grep -qE '^floor: (load|attach)' "$2"; then
		echo refused
	else
		echo unknown
	fi
}

# live_probe_mode JSON NAME: a probe's mode in info --json
live_probe_mode() {
	jq -r --arg n "$2" '.probes[] | select(.name == $n) | .mode' "$1"
}

# live_check_info INFO_JSON INFO_ERR STATE: the mode pcptop chose is the
# one the kernel allows; a fallback is explained where fentry is refused
# and absent where it attaches
live_check_info() {
	local js=$1 err=$2 state=$3 bm
	bm=$(live_probe_mode "$js" bulk_free)
	case "$state" in
	attaches)
		t_eq "bulk_free in fentry mode (a fentry program attaches here)" "$bm" fentry
		t_eq "  no fallback in info" "$(jq -r .fallback "$js")" ""
		t_cmp "  nothing said of falling back on stderr" \
			"$(grep -c 'falling back' "$err")" -eq 0
		;;
	refused)
		# kprobe where the kernel has kprobes, else the tracepoints
		t_check "bulk_free in kprobe or tracepoint mode, not fentry (floor's fentry was refused): $bm" -- \
			grep -qxE 'kprobe|tracepoint' <<<"$bm"
		t_check "  the fallback is explained in info" -- \
			grep -q 'fentry refused (' <<<"$(jq -r .fallback "$js")"
		t_cmp "  the fallback said once on stderr" \
			"$(grep -c 'falling back' "$err")" -eq 1
		;;
	*)
		t_fail "floor could neither attach fentry nor be refused: no answer to check pcptop's mode against"
		;;
	esac
}

# live_check_mode_fentry RC ERR STATE: info --mode fentry works where
# fentry attaches, and exits 2 saying why where it is refused
live_check_mode_fentry() {
	if [ "$3" = attaches ]; then
		t_eq "--mode fentry where fentry attaches exits 0" "$1" 0
	else
		t_eq "--mode fentry where fentry is refused exits 2" "$1" 2
		t_check "  and says why" -- grep -q 'fentry.*refused' "$2"
	fi
}

# live_check_stat_default STAT_JSON INFO_JSON: stat without --mode runs
# the modes info chose and counts a churn's bulk frees; calls are
# estimated from event runs in tracepoint mode only
live_check_stat_default() {
	local s=$1 js=$2 bm
	bm=$(live_probe_mode "$js" bulk_free)
	t_eq "stat runs the modes info chose" "$(jq -Sc .modes "$s")" \
		"$(jq -Sc '[.probes[] | {(.name): .mode}] | add' "$js")"
	t_cmp "  bulk_free.pages > 0 under churn" "$(jq '.bulk_free.pages // 0' "$s")" -gt 0
	t_cmp "  bulk_free.calls > 0 under churn" "$(jq '.bulk_free.calls // 0' "$s")" -gt 0
	t_eq "  bulk_free.calls estimated only in tracepoint mode ($bm)" \
		"$(jq .bulk_free.estimated "$s")" "$([ "$bm" = tracepoint ] && echo true || echo false)"
}

# live_check_stat_tp STAT_JSON BATCH CPUS PAGEBLOCK_ORDER: one interval of
# stat --mode tracepoint holding a churn; BATCH is the Normal zone's pcp
# batch from /proc/zoneinfo, PAGEBLOCK_ORDER info's (none: 0, the strict
# bound)
live_check_stat_tp() {
	local s=$1 batch=$2 cpus=$3 pbo=$4 hist_sum hist_gap
	[[ "$pbo" =~ ^[0-9]+$ ]] || pbo=0
	t_eq "stat --mode tracepoint runs in tracepoint mode" "$(jq -r .mode "$s")" tracepoint
	t_cmp "bulk_free.pages > 0" "$(jq '.bulk_free.pages // 0' "$s")" -gt 0
	t_cmp "refill.pages > 0" "$(jq '.refill.pages // 0' "$s")" -gt 0
	t_cmp "bulk_free.calls > 0" "$(jq '.bulk_free.calls // 0' "$s")" -gt 0
	t_cmp "bulk_free_span_ns.total > 0 (tracepoint mode: event spans)" \
		"$(jq '.bulk_free_span_ns.total // 0' "$s")" -gt 0
	t_eq "no zone->lock hold in tracepoint mode" "$(jq .lock_hold_ns "$s")" null
	hist_sum=$(jq '[.hist.bulk_free_pages.buckets[].count] | add // 0' "$s")
	# a run is counted as it starts and sampled as it closes, at the next event
	hist_gap=$(($(jq .bulk_free.calls "$s") - hist_sum))
	t_cmp "bulk_free_pages histogram: a sample per call, give or take a run per CPU" \
		"${hist_gap#-}" -le "$cpus"
	# free_pcppages_bulk() frees whole entries: a flush that ends on a
	# high-order one overshoots its request by up to (1 << order) - 1,
	# pageblock_order on the THP lists (tests/vm/checks.sh's rule; this
	# host's clean clone of 2026-12-05 had 2018 against 63 << 5)
	t_cmp "largest bulk free <= batch << scale + (1 << pageblock_order) - 1" \
		"$(jq .bulk_free.max "$s")" -le \
		$(((batch << $(jq .scale.value "$s")) + (1 << pbo) - 1))
	t_eq "refill.by_migratetype adds up to refill.pages" \
		"$(jq '[.refill.by_migratetype[].pages] | add' "$s")" "$(jq .refill.pages "$s")"
	t_eq "refill.by_migratetype adds up to refill.calls" \
		"$(jq '[.refill.by_migratetype[].calls] | add' "$s")" "$(jq .refill.calls "$s")"
	t_eq "refill.by_migratetype has CMA on its own row" \
		"$(jq -r '[.refill.by_migratetype[].migratetype] | join(",")' "$s")" \
		"Unmovable,Movable,Reclaimable,CMA,other"
	t_cmp "churn's refills are mostly Movable" \
		"$(jq '.refill.by_migratetype[1].pages * 2 - .refill.pages' "$s")" -gt 0
}

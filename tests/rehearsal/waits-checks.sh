# SPDX-License-Identifier: GPL-2.0-only
# make rehearsal's wall-time figures (issue 29) against the kernel's own
# counts, sourced by tests/rehearsal/run.sh after the boots, for each run
# in $waits_runs (booted with pcptest.waits=): the hist triggers of
# tests/rehearsal/guest.sh, snapshotted before pcptop record (W0), as its
# command started (W1, pcptop attached), as bonnie++ ended (W2) and after
# record (W3). pcptop's count of a window it was attached through lies
# between the kernel's inner count (W2 - W1) and its outer one (W3 - W0);
# where those agree, it must be that count. Uses run.sh's settings,
# lib.sh and tests/lib.sh.
#
# Usage, by hand on a run's files (no boot):
#   W_LOG=console.log W_REPORT=report.json W_NAME=NAME \
#       bash -c '. tests/lib.sh; . tests/rehearsal/lib.sh; \
#                . tests/rehearsal/waits-checks.sh; t_summary'

# times: the kernel's common_timestamp and pcptop's bpf_ktime_get_ns()
# read the same TSC, a few microseconds apart at each end of a wait
W_TIME_PCT=1
# the budget's identity: CPU states against elapsed x CPUs (USER_HZ ticks
# a CPU, and the first and last intervals' edges)
W_IDENTITY_PCT=1
# The idle split's own idle total against /proc/stat's iowait + idle,
# which the patched 6.12 (HZ_PERIODIC) samples at the tick; on the SD
# card's rates a writer woken by its pause's timer runs between ticks and
# its time is booked idle, so there the two are further apart. The runs
# that set both bounds are in docs/ACCURACY.md "Wall time"; the figure's
# own oracle is the kernel's idle task time, within W_TIME_PCT.
W_SPLIT_PCT=3
W_SPLIT_SD_PCT=8
# and never further apart than this, where waiting is short (a tick of
# sampling a second, over a run of tens of seconds)
W_SPLIT_ABS_S=0.5

# the kernel's count: w_val LOG SNAP SRC CLASS FIELD prints the sum of
# FIELD (hitcount, or a value's name) over SRC's entries at SNAP whose key
# falls in CLASS: "all"; for rwbs keys (blk, blklat) and the request's
# cmd_flags (rqlat) read, write or other; for reclaim_throttle's reason
# bit writeback, isolated, noprogress or congested; for mm_page_alloc's
# order 0..3 or 4+
w_val() {
	rh_tagged "$1" "w:$2:$3" | awk -v src="$3" -v cls="$4" -v fld="$5" '
		function rwbs(s) {
			# a leading F is the preflush flag when an op follows it
			if (length(s) > 1 && substr(s, 1, 1) == "F" && substr(s, 2, 1) ~ /[RWDFN]/)
				s = substr(s, 2)
			s = substr(s, 1, 1)
			return s == "R" ? "read" : s == "W" ? "write" : "other"
		}
		function class(k) {
			if (src == "blk" || src == "blk0" || src == "blklat")
				return rwbs(k)
			if (src == "rqlat") {
				# REQ_OP_MASK: the op is the low 8 bits
				k = k % 256
				return k == 0 ? "read" : k == 1 ? "write" : "other"
			}
			if (src == "blkrlat")
				return "read"
			if (src == "blkwlat")
				return "write"
			if (src == "throttle")
				return k == 1 ? "writeback" : k == 2 ? "isolated" : k == 4 ? "noprogress" : k == 8 ? "congested" : "?"
			if (src == "allocfail")
				return k >= 4 ? "4+" : k
			return "all"
		}
		/^\{/ {
			i = index($0, "}")
			key = substr($0, 2, i - 2)
			sub(/^[^:]*: */, "", key)
			sub(/ *$/, "", key)
			if (cls != "all" && class(key) != cls)
				next
			n = split(substr($0, i + 1), v, " ")
			for (j = 1; j < n; j += 2)
				if (v[j] == fld ":")
					s += v[j + 1]
		}
		END { printf "%.0f\n", s }'
}

# w_win LOG SRC CLASS FIELD: "INNER OUTER", the kernel's count over
# W1..W2 and W0..W3
w_win() {
	local w0 w1 w2 w3
	w0=$(w_val "$1" W0 "$2" "$3" "$4")
	w1=$(w_val "$1" W1 "$2" "$3" "$4")
	w2=$(w_val "$1" W2 "$2" "$3" "$4")
	w3=$(w_val "$1" W3 "$2" "$3" "$4")
	echo "$((w2 - w1)) $((w3 - w0))"
}

# w_bracket DESC GOT INNER OUTER PCT [SCALE]: GOT is the kernel's count
# within PCT % where its windows agree, else between them (PCT % wider);
# the kernel's counts are multiplied by SCALE first (a unit's factor)
w_bracket() {
	local desc=$1 got=$2 in=$3 out=$4 pct=$5 scale=${6:-1}
	local msg
	msg=$(awk -v p="$got" -v i="$in" -v o="$out" -v pct="$pct" -v k="$scale" '
		BEGIN {
			if (p !~ /^-?[0-9.e+]+$/ || i !~ /^-?[0-9]+$/ || o !~ /^-?[0-9]+$/) {
				printf "FAIL got %s, kernel %s..%s", p, i, o; exit
			}
			i *= k; o *= k; f = pct / 100
			if (i == o) {
				d = p - i; if (d < 0) d = -d
				ok = d <= f * i
				printf "%s %.0f, the kernel %.0f in both windows%s", (ok ? "ok" : "FAIL"), p, i,
					(pct > 0 ? sprintf(" (within %s %%)", pct) : " (exact)")
			} else {
				ok = p >= i * (1 - f) && p <= o * (1 + f)
				printf "%s %.0f, the kernel %.0f inner .. %.0f outer%s", (ok ? "ok" : "FAIL"), p, i, o,
					(pct > 0 ? sprintf(" (%s %% wider)", pct) : "")
			}
		}')
	case "$msg" in
	ok*) t_pass "$desc: ${msg#ok }" ;;
	*) t_fail "$desc: ${msg#FAIL }" ;;
	esac
}

# w_abs_le DESC A B PCT ABS: |A - B| <= max(PCT % of B, ABS)
w_abs_le() {
	if awk -v a="$2" -v b="$3" -v p="$4" -v m="$5" 'BEGIN {
		d = a - b; if (d < 0) d = -d; lim = p * b / 100; if (lim < m) lim = m
		exit !(a != "" && b != "" && a ~ /^[0-9.e+-]+$/ && b ~ /^[0-9.e+-]+$/ && d <= lim) }'; then
		t_pass "$1 ($2 vs $3, within max($4 %, $5))"
	else
		t_fail "$1 ($2 vs $3, not within max($4 %, $5))"
	fi
}

# one run's checks: w_checks NAME LOG REPORT [SD]; SD=1 where the disk
# is throttled, so that writers must have been throttled
w_checks() {
	local r=$1 logf=$2 rep=$3 sd=${4:-0} t have p cls part in0 out0 in1 out1
	wj() { jq -r "$1" "$rep" 2>/dev/null; }
	rh_tagged "$logf" have | sed "s/^/  $r kernel counts: /" >&2
	for t in dirty nosleep slept throttle blk blklat idle; do
		have=$(rh_tagged "$logf" "have:$t")
		t_check "$r: the kernel took the $t trigger (${have:-none})" -- \
			test "${have%% *}" = yes
	done
	t_eq "$r: no kernel table dropped an entry" \
		"$(rh_tagged "$logf" "w:W3:table" | awk '$NF != 0' | head -n 3)" ""

	p=$(wj '.totals.budget.identity_pct')
	t_check "$r: the budget's CPU states add up to elapsed x CPUs (identity ${p} %, at most $W_IDENTITY_PCT)" -- \
		awk -v p="$p" -v m="$W_IDENTITY_PCT" 'BEGIN { exit !(p ~ /^-?[0-9.e+-]+$/ && (p < 0 ? -p : p) <= m) }'

	# writers throttled on dirty pages: the sleeps, as slept and as
	# planned (the event's pause is ms: x 10^6 ns), and the events
	# that did not sleep
	w_bracket "$r: dirty-throttle sleeps against the kernel's" \
		"$(wj '.totals.dirty_throttle_ns.samples')" $(w_win "$logf" slept all hitcount) 0
	w_bracket "$r: dirty-throttle ns slept against the kernel's" \
		"$(wj '.totals.dirty_throttle_ns.total')" $(w_win "$logf" slept all slept) "$W_TIME_PCT"
	w_bracket "$r: dirty-throttle ns planned against the kernel's pauses" \
		"$(wj '.totals.dirty_throttle_ns.planned_ns')" $(w_win "$logf" dirty all pause) 0 1000000
	w_bracket "$r: dirty-throttle events that did not sleep against the kernel's" \
		"$(wj '.totals.dirty_throttle_ns.no_sleep')" $(w_win "$logf" nosleep all hitcount) 0

	# reclaim_throttle(): sleeps and their usec_delayed, by reason
	for part in writeback isolated noprogress congested; do
		w_bracket "$r: reclaim throttles for $part against the kernel's" \
			"$(wj ".totals.reclaim_throttle_by_reason.parts.$part")" \
			$(w_win "$logf" throttle "$part" hitcount) 0
		w_bracket "$r: reclaim throttle ns for $part against the kernel's usec_delayed" \
			"$(wj ".totals.reclaim_throttle_ns_by_reason.parts.$part")" \
			$(w_win "$logf" throttle "$part" usec_delayed) 0 1000
	done
	w_bracket "$r: reclaim throttle ns against the kernel's usec_delayed" \
		"$(wj '.totals.reclaim_throttle_ns.total')" $(w_win "$logf" throttle all usec_delayed) 0 1000

	# block requests by direction, at their complete (rwbs), and issue to
	# complete paired by request where the kernel can (rqlat), with the
	# size it had at issue, as pcptop takes it
	for cls in read write; do
		w_bracket "$r: blk_$cls requests against the kernel's block_rq_complete" \
			"$(wj ".totals.blk_$cls.requests")" $(w_win "$logf" blk "$cls" hitcount) 0
		w_bracket "$r: blk_$cls sectors against the kernel's block_rq_complete" \
			"$(wj ".totals.blk_$cls.sectors")" $(w_win "$logf" blk "$cls" nr_sector) 0
		case "$(rh_tagged "$logf" have:blklat)" in
		"yes request")
			w_bracket "$r: blk_${cls}_ns requests against the kernel's issue-to-complete pairs" \
				"$(wj ".totals.blk_${cls}_ns.samples")" $(w_win "$logf" rqlat "$cls" hitcount) 0
			w_bracket "$r: blk_${cls}_ns total against the kernel's issue-to-complete sum" \
				"$(wj ".totals.blk_${cls}_ns.total")" $(w_win "$logf" rqlat "$cls" lat) "$W_TIME_PCT"
			w_bracket "$r: blk_$cls sectors against the kernel's size at issue" \
				"$(wj ".totals.blk_$cls.sectors")" $(w_win "$logf" rqlat "$cls" len) 0 0.001953125
			;;
		"yes rwbs")
			w_bracket "$r: blk_${cls}_ns total against the kernel's issue-to-complete sum" \
				"$(wj ".totals.blk_${cls}_ns.total")" $(w_win "$logf" blklat "$cls" lat) "$W_TIME_PCT"
			;;
		"yes direction")
			w_bracket "$r: blk_${cls}_ns total against the kernel's issue-to-complete sum" \
				"$(wj ".totals.blk_${cls}_ns.total")" \
				$(w_win "$logf" "$([ $cls = read ] && echo blkrlat || echo blkwlat)" all lat) "$W_TIME_PCT"
			;;
		esac
	done
	# a flush has no data: the kernel's completions without data
	read -r in0 out0 < <(w_win "$logf" blk0 other hitcount)
	read -r in1 out1 < <(w_win "$logf" blk other hitcount)
	w_bracket "$r: blk_write.other_requests (flush, discard) against the kernel's" \
		"$(wj '.totals.blk_write.other_requests')" $((in0 + in1)) $((out0 + out1)) 0
	echo "$r: the kernel's second completions of flush-sequenced writes (no data, not requests of their own): $(w_win "$logf" blk0 write hitcount | cut -d' ' -f2)"

	# allocations that failed, by order, where the run counted them
	if [ "$(rh_tagged "$logf" have:allocfail)" = yes ]; then
		for part in 0 1 2 3 4+; do
			w_bracket "$r: failed order-$part allocations against the kernel's pfn -1" \
				"$(wj ".totals.alloc_fail_by_order.parts[\"$part\"]")" \
				$(w_win "$logf" allocfail "$part" hitcount) 0
		done
	fi

	# the idle split's own total, against the kernel's idle task time,
	# and beside /proc/stat's waiting time, which the test kernel
	# (CONFIG_HZ_PERIODIC, tick accounting) samples at the tick: a
	# writer woken by its pause's timer runs between two ticks, and its
	# time is booked idle (docs/ACCURACY.md "Wall time")
	w_bracket "$r: the idle split's idle ns against the kernel's idle task time" \
		"$(wj '.totals.idle_by_wait.total')" $(w_win "$logf" idle all idle) "$W_TIME_PCT"
	p=$W_SPLIT_PCT
	[ "$sd" = 1 ] && p=$W_SPLIT_SD_PCT
	w_abs_le "$r: the idle split's idle time against /proc/stat's iowait + idle, s" \
		"$(wj '.totals.budget.split_idle_s')" "$(wj '.totals.budget.waiting_s')" \
		"$p" "$W_SPLIT_ABS_S"
	# idle with no task in iowait, against /proc/stat's idle (not iowait)
	w_abs_le "$r: idle with no task in iowait against /proc/stat's idle, s" \
		"$(wj '(.totals.idle_by_wait.parts.no_io_waiter // 0) / 1e9')" \
		"$(wj '.totals.budget.states_s.idle')" "$p" "$W_SPLIT_ABS_S"

	# what bonnie++ makes happen: on a throttled disk its writer is
	# throttled, and it reads and writes through the block layer
	t_cmp "$r: block reads counted" "$(wj '.totals.blk_read.requests // 0')" -gt 0
	t_cmp "$r: block writes counted" "$(wj '.totals.blk_write.requests // 0')" -gt 0
	if [ "$sd" = 1 ]; then
		t_cmp "$r: writers throttled on dirty pages (the kernel's sleeps, W0..W3)" \
			"$(w_win "$logf" slept all hitcount | cut -d' ' -f2)" -gt 0
		t_cmp "$r: dirty-throttle sleeps counted" "$(wj '.totals.dirty_throttle_ns.samples // 0')" -gt 0
		t_cmp "$r: the idle split found a throttled writer (ns)" \
			"$(wj '.totals.idle_by_wait.parts.dirty_throttle // 0')" -gt 0
	fi
	# PSI: Debian's kernels have it on, the patched one has CONFIG_PSI
	t_eq "$r: /proc/pressure read (pressure_absent)" "$(wj '.pressure_absent')" null
	t_check "$r: the recording has psi_io_some" -- \
		test "$(wj '.totals.psi_io_some.value // null')" != null
}

if [ -n "${W_LOG:-}" ]; then
	w_checks "${W_NAME:-run}" "$W_LOG" "$W_REPORT" "${W_SD:-0}"
else
	for r in $waits_runs; do
		w_checks "$r" "$OUT/runs/$r/console.log" "$OUT/runs/$r/report.json" \
			"$(case $r in sdq-*) echo 1 ;; *) echo 0 ;; esac)"
	done
fi

# SPDX-License-Identifier: GPL-2.0-only
# make rehearsal's power cut, sourced by tests/rehearsal/run.sh after the
# boots: the recording the killed VM left on its ext4 disk, as the next
# boot read it back (runs/cut/console-cut.log, runs/cut/console.log,
# cut.data), and what --sync costs. Uses run.sh's settings and lib.sh.

cutlog=$OUT/runs/cut/console-cut.log
backlog=$OUT/runs/cut/console.log
t_check "cut: the power cut came while bonnie++ ran" -- \
	test -z "$(rh_tagged "$cutlog" record_rc)"
t_eq "cut: the disk mounted again (ext4 replayed its journal)" \
	"$(rh_tagged "$backlog" mounted)" 1
t_eq "cut: pcptop report read it in the rebooted guest" \
	"$(rh_tagged "$backlog" report_rc)" 0
rh_tagged "$backlog" report_err | sed 's/^/  cut report: /' >&2
if jq -e .totals "$OUT/runs/cut/report.json" >/dev/null 2>&1; then
	t_pass "cut: cut.data reads back on the host"
else
	t_fail "cut: cut.data does not read back: $(head -n 1 "$OUT/runs/cut/report.err" 2>/dev/null)"
fi
t_eq "cut: it has no end chunk (the run was cut)" "$(rh_rj cut .complete)" false
for f in pcp_pages allocstall pgscan_direct pgscan_kswapd; do
	t_check "cut: the recording has the sampled $f" -- \
		jq -e ".totals.$f.source != null" "$OUT/runs/cut/report.json" >/dev/null
done

# how far before the cut the recording ends (lib.sh rh_cut_lost)
read -r lost cut_at maxgap < <(rh_cut_lost cut "$TICK_S")
n_bound=$((SYNC_DEFAULT_S + REC_INTERVAL_S + TICK_S + 1))
echo "cut: after $cut_at s of bonnie++; $(rh_rj cut .intervals) intervals read back; the recording ends ${lost} s before the cut (ticks at most ${maxgap} s apart)"
t_check "cut: the recording reads back to within $n_bound s of the cut (--sync $SYNC_DEFAULT_S, -i $REC_INTERVAL_S, a tick, a second for the fsync; lost ${lost} s)" -- \
	awk -v l="$lost" -v n="$n_bound" 'BEGIN { exit !(l != "none" && l >= -1 && l <= n) }'

# --sync's cost: one fsync's CPU work (the readback boot's appends, with
# and without fsync) times the fsyncs the default makes in a run, over
# the run's CPU work (s5-1)
per_sync=$(rh_tagged "$backlog" append_cpu | awk -v hz="$USER_HZ" '
	{ split($0, h, /\|/); n = split(h[1], a, " "); split(h[2], b, " ")
	  busy = 0; for (i = 3; i <= 9; i++) if (i != 6 && i != 7) busy += b[i - 2] - a[i]
	  w[$1] = busy / hz / a[2] }
	END { if ("notrunc,fsync" in w && "notrunc" in w) printf "%.6f", w["notrunc,fsync"] - w["notrunc"] }')
run_busy=$(rh_mj s5-1 .busy_s)
run_el=$(rh_mj s5-1 .elapsed_s)
cost_bp=$(awk -v p="$per_sync" -v b="$run_busy" -v e="$run_el" -v s="$SYNC_DEFAULT_S" \
	'BEGIN { if (p == "" || b + 0 <= 0) print "none"; else printf "%.0f", (e / s) * (p > 0 ? p : 0) / b * 10000 }')
echo "cut: one fsync of a 4 KiB append costs ${per_sync:-?} s of CPU; --sync $SYNC_DEFAULT_S over s5-1's ${run_el} s: at most $(awk -v e="$run_el" -v s="$SYNC_DEFAULT_S" 'BEGIN { printf "%d", e / s }') fsyncs, ${cost_bp} parts in 10 000 of its ${run_busy} s of CPU work"
t_cmp "cut: --sync $SYNC_DEFAULT_S costs at most 0.5 % of the run's CPU work (parts in 10 000)" \
	"$cost_bp" -le "$SYNC_COST_MAX_BP"

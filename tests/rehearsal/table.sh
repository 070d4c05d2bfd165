#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What each rehearsal run measured, one Markdown row per run: guest CPU
# work (/proc/stat busy time under -icount: 1 s = 10^9 instructions),
# elapsed and iowait guest time, the boot's wall time on the host,
# bonnie++'s phases (K/s in guest time),
# and pcptop's figures of the run (pages through zone->lock, refill and
# bulk-free sizes, lock and interrupts-off time, reclaim, drains, the
# allocations --latency timed and the time spent in them).
#
# Usage: tests/rehearsal/table.sh [-s] RUN...   (runs under build/rehearsal/runs)
#   -s   then mean, standard deviation and range per group of runs, a
#        group being the name up to its last "-N" (s0-1, s0-2 -> s0)
# Environment: REHEARSAL_OUT (default build/rehearsal)

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${REHEARSAL_OUT:-$root/build/rehearsal}
stats=0
[ "${1:-}" = -s ] && { stats=1; shift; }

# one run as tab-separated numbers; "-" where a measure is missing
row() {
	local d=$OUT/runs/$1 wall
	wall=$(cat "$d/wall_s" 2>/dev/null || echo null)
	jq -r -s --arg r "$1" --argjson wall "${wall:-null}" '
		def n(x): if x == null then "-" else x end;
		def r1(x): if x == null then "-" else (x * 10 | round) / 10 end;
		def r3(x): if x == null then "-" else (x * 1000 | round) / 1000 end;
		.[0] as $m | .[1] as $p |
		[$r, ($p.kernel.release // "-"), n($p.scale.value),
		 r3($m.busy_s), r1($m.elapsed_s), r1($m.iowait_s), n($wall),
		 n($m.bonnie.putc), n($m.bonnie.put_block), n($m.bonnie.rewrite),
		 n($m.bonnie.getc), n($m.bonnie.get_block), n($m.bonnie.seeks),
		 n($m.bonnie.seq_create),
		 n($p.totals.refill.pages), n($p.totals.bulk_free.pages),
		 r1($p.totals.refill.avg), r1($p.totals.bulk_free.avg),
		 n($p.hist.lock_hold_ns.samples),
		 r1(($p.hist.lock_hold_ns.total // null) | if . == null then null else . / 1e6 end),
		 n($p.hist.irqs_off_ns.p99), n($p.hist.irqs_off_ns.max),
		 n(($p.totals.pgscan_kswapd.value // 0) + ($p.totals.pgscan_direct.value // 0)),
		 n($p.totals.allocstall.value), n($p.totals.drain.pages),
		 n($p.hist.alloc_ns.samples), r1($p.hist.alloc_ns.mean),
		 r3(if $p.hist.alloc_ns.mean == null then null
		    else $p.hist.alloc_ns.samples * $p.hist.alloc_ns.mean / 1e9 end)] | @tsv' \
		"$d/metrics.json" "$d/report.json" 2>/dev/null ||
		printf '%s\t(no measures)\n' "$1"
}

hdr="run	kernel	scale	CPU work, s	elapsed, s	iowait, s	host wall, s	putc K/s	write K/s	rewrite K/s	getc K/s	read K/s	seeks/s	creates/s	refill pages	bulk-free pages	refill avg	bulk-free avg	zone->lock holds	held, ms	irqs-off p99, ns	irqs-off max, ns	pgscan	allocstall	drained pages	allocations	alloc mean, ns	in allocations, s"
md() {
	awk -F'\t' '{ printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; printf "\n" }
		NR == 1 { printf "|"; for (i = 1; i <= NF; i++) printf "---|"; printf "\n" }'
}

rows=$(for r in "$@"; do row "$r"; done)
{
	echo "$hdr"
	echo "$rows"
} | md
[ "$stats" = 1 ] || exit 0

# per measure (a row) and group (a column): mean +/- standard deviation
# (n - 1) and, in brackets, the standard deviation in % of the mean and
# the range; "-" where a run of the group has no number there
echo "$rows" | awk -F'\t' -v hdr="$hdr" '
	BEGIN { nh = split(hdr, H, "\t") }
	{
		g = $1; sub(/-[0-9]+$/, "", g)
		if (!(g in seen)) { seen[g] = 1; order[++ng] = g }
		n[g]++
		for (i = 4; i <= nh; i++) {
			if ($i !~ /^-?[0-9.]+$/) { bad[g, i] = 1; continue }
			s[g, i] += $i; q[g, i] += $i * $i
			if (n[g] == 1 || $i < lo[g, i]) lo[g, i] = $i
			if (n[g] == 1 || $i > hi[g, i]) hi[g, i] = $i
		}
	}
	END {
		printf "| measure |"
		for (k = 1; k <= ng; k++) printf " %s (%d runs) |", order[k], n[order[k]]
		printf "\n|---|"
		for (k = 1; k <= ng; k++) printf "---|"
		printf "\n"
		for (i = 4; i <= nh; i++) {
			printf "| %s |", H[i]
			for (k = 1; k <= ng; k++) {
				g = order[k]
				if (bad[g, i]) { printf " - |"; continue }
				m = s[g, i] / n[g]
				v = 0
				if (n[g] > 1)
					v = (q[g, i] - n[g] * m * m) / (n[g] - 1)
				sd = 0
				if (v > 0)
					sd = sqrt(v)
				cv = 0
				if (m != 0)
					cv = 100 * sd / m
				printf " %.5g +/- %.2g (%.1f %%, %.5g-%.5g) |", m, sd, cv, lo[g, i], hi[g, i]
			}
			printf "\n"
		}
	}'

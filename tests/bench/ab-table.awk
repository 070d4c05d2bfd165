# SPDX-License-Identifier: GPL-2.0-only
#
# tests/bench/ab.sh's tables from one kernel's ab-guest.sh lines, BENCH:
# cut: awk -F: -v k=KERNEL -v table=time|busy|events. Apart from ab.sh so that
# the shell script stays readable. Lines read:
#   WORKLOAD:OBSERVER:REP:NS|n/a REASON   (OBSERVER none, a or b)
#   busy:WORKLOAD:OBSERVER:REP:NS, ctxt:WORKLOAD:OBSERVER:REP:N
#   runs:WORKLOAD:OBSERVER:PROGRAM:RUNS:RUN_NS

function sortn(a, n,   i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
}
# "median min max" of a space-separated list, or ""
function stats(list,   n, a) {
	n = split(list, a, " ")
	if (!n)
		return ""
	sortn(a, n)
	return a[int((n + 1) / 2)] " " a[1] " " a[n]
}
function med(list,   s) {
	split(stats(list), s, " ")
	return s[1]
}
function addw(w) {
	if (!(w in seenw)) { seenw[w] = 1; order[++nw] = w }
}
function pct(x, base) { return base ? (x - base) * 100 / base : 0 }
function oname(o) { return o == "none" ? "none" : toupper(o) }

$2 ~ /^(none|a|b)$/ && $3 ~ /^[0-9]+$/ && $1 !~ /^(busy|ctxt|runs)$/ {
	addw($1)
	if ($4 ~ /^[0-9]+$/) {
		vals[$1 ":" $2] = vals[$1 ":" $2] " " $4
		t[$1 ":" $2 ":" $3] = $4
		if ($3 > reps[$1]) reps[$1] = $3
	} else {
		na[$1 ":" $2] = substr($0, length($1 $2 $3) + 4)
	}
}
$1 == "busy" && $5 ~ /^-?[0-9]+$/ {
	busy[$2 ":" $3 ":" $4] = $5
	busyl[$2 ":" $3] = busyl[$2 ":" $3] " " $5
}
$1 == "ctxt" && $5 ~ /^[0-9]+$/ {
	ctxt[$2 ":" $3] = ctxt[$2 ":" $3] " " $5
}
$1 == "runs" && $5 ~ /^[0-9]+$/ {
	addw($2)
	runs[$2 ":" $3 ":" $4] = $5
	runns[$2 ":" $3 ":" $4] = $6
	if (!(($2 ":" $3 ":" $4) in listed)) {
		listed[$2 ":" $3 ":" $4] = 1
		progs[$2 ":" $3] = progs[$2 ":" $3] " " $4
	}
}

END {
	for (i = 1; i <= nw; i++)
		if (table == "time")
			time_rows(order[i], vals, t, 1)
		else if (table == "busy")
			time_rows(order[i], busyl, busy, 0)
		else
			event_row(order[i])
}

# none, A and B: guest s (or busy s: V a list by workload and observer, T
# a figure by round), its spread, with busy s, against none, B against A
function time_rows(w, V, T, withbusy,   j, o, s, base, ma, r, ratios, ba, rs) {
	base = med(V[w ":none"])
	ma = med(V[w ":a"])
	for (j = 1; j <= 3; j++) {
		o = j == 1 ? "none" : j == 2 ? "a" : "b"
		if (!((w ":" o) in V)) {
			printf "| %s | %s | %s | %s | | |%s | |\n", k, w, oname(o), \
				(w ":" o) in na ? na[w ":" o] : "n/a", withbusy ? " |" : ""
			continue
		}
		split(stats(V[w ":" o]), s, " ")
		ba = "| "
		if (o == "b" && ma) {
			# B against A round by round: both ran in that round
			ratios = ""
			for (r = 1; r <= reps[w]; r++)
				if ((w ":a:" r) in T && (w ":b:" r) in T)
					ratios = ratios " " pct(T[w ":b:" r], T[w ":a:" r])
			split(stats(ratios), rs, " ")
			ba = sprintf("%+.3f %% | %+.3f..%+.3f %%", pct(s[1], ma), rs[2], rs[3])
		}
		printf "| %s | %s | %s | %.4f | %.4f..%.4f |%s %s | %s |\n", \
			k, w, oname(o), s[1] / 1e9, s[2] / 1e9, s[3] / 1e9, \
			withbusy ? sprintf(" %.4f |", med(busyl[w ":" o]) / 1e9) : "", \
			o == "none" ? "" : sprintf("%+.2f %%", pct(s[1], base)), ba
	}
}

# the programs B runs that A does not have (the new figures): their runs
# and instructions a run as the statistics time them; B - A a round in
# busy instructions, over those runs
function event_row(w,   n, a, j, p, cell, sum, r, diffs, s, d) {
	n = split(progs[w ":b"], a, " ")
	cell = ""
	sum = 0
	for (j = 1; j <= n; j++) {
		p = a[j]
		if ((w ":a:" p) in runs)
			continue
		cell = cell (cell == "" ? "" : ", ") p " " runs[w ":b:" p]
		if (runs[w ":b:" p])
			cell = cell sprintf(" (%.0f)", runns[w ":b:" p] / runs[w ":b:" p])
		sum += runs[w ":b:" p]
	}
	if (cell == "")
		cell = n ? "none" : "n/a"
	diffs = ""
	for (r = 1; r <= reps[w]; r++)
		if ((w ":a:" r) in busy && (w ":b:" r) in busy)
			diffs = diffs " " (busy[w ":b:" r] - busy[w ":a:" r])
	split(stats(diffs), s, " ")
	d = s[1]
	# under a thousand events the difference is the runs' own noise
	printf "| %s | %s | %s | %s | %s | %s |\n", k, w, \
		(w ":b") in ctxt ? med(ctxt[w ":b"]) : "n/a", cell, \
		d == "" ? "n/a" : sprintf("%d (%d..%d)", d, s[2], s[3]), \
		d == "" || sum < 1000 ? "-" : sprintf("%.0f", d / sum)
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs the test suites `make test` promises and adds up their results, so
# CI reads one closing "N passed, N failed, N skipped" line for everything,
# with each suite's wall time, boots and checks in a table above it.
# Usage: tests/run-all.sh [SUITE ...]   (default: all of them; suite_cmd
#   below names them, and so does an unknown name's error)
#   A,B+C            lanes at once: A then B, beside C (make test's own
#                    order below; a suite alone in its lane keeps its
#                    output for the group's end)
# Environment: PCPTOP_BUILD (default build), FUZZ_SECONDS (per harness, 20)
set -u
cd "$(dirname "$0")/.."

suites=("$@")
# the build the host suites use: make test SAN=1 points it at build/san
B=${PCPTOP_BUILD:-build}
# make test's order (its wall time: docs/PERFORMANCE.md): three lanes at
# first: the host suites (a core, much of it sleeping), the oracle boots
# (-icount: their guests count the same whatever the host's load), and
# the reclaim boots (one vCPU, one at a time) with the host suites that
# attach nothing after them, the builds and the fuzzers (after the
# host suites, the reclaim boots cost 100 s more of make test); the VM
# matrix alone (its guests run on the host's clock, and its timing
# checks with them); the one-boot suites together; what-if alone (its predictions
# are checked against other boots' real runs, whose workload moved with
# the host's load although -icount: beside the one-boot suites its
# predictions missed by more, docs/ACCURACY.md); the rehearsal alone
# (-icount sleep=on: its iowait is the host disk's)
[ ${#suites[@]} -eq 0 ] && suites=(unit,oraclecheck,bpfindex,live,top,record,disk,trace,schema,badinput,package,prom,fleetrules,fleet,vmrules+oracle+reclaim,walkthrough,fuzz
	vm vmrecord+vmdiff+vmlive+btf+oom whatif rehearsal)

total_pass=0
total_fail=0
total_skip=0
total_known=0
failed_suites=()
# every failing check again at the end: CI shows the head and the tail of
# a long log, and a failure in the middle must reach the tail; the skips,
# the known misses and each suite's time, boots and checks above the
# closing line too
fail_lines=$(mktemp)
skip_lines=$(mktemp)
known_lines=$(mktemp)
breaches=$(mktemp)
table=$(mktemp)
run_start=$SECONDS
trap 'rm -f "$fail_lines" "$skip_lines" "$known_lines" "$breaches" "$table"' EXIT
# suite_cmd SUITE: sets cmd to the suite's command; 2 for no such suite
suite_cmd() {
	case "$1" in
	unit) cmd=("$B/unit_tests") ;;
	# the oracle's checker on a stored log, and doctored copies that must fail
	oraclecheck) cmd=(tests/oracle/selftest.sh) ;;
	# CONTRIBUTING.md's two walk-throughs applied to a copy, built, unit-tested
	walkthrough) cmd=(tests/walkthrough/run.sh) ;;
	# every program of the BPF objects has its line in its source's index
	bpfindex) cmd=(tests/bpfindex/run.sh "$B") ;;
	live) cmd=(tests/live/run.sh "$B") ;;
	top) cmd=(tests/top/run.sh "$B/pcptop") ;;
	record) cmd=(tests/record/run.sh "$B") ;;
	# --sync's fsyncs counted by strace, and a disk that fills mid-run
	disk) cmd=(tests/record/disk.sh "$B") ;;
	# record --trace against perf's and /proc/vmstat's counts
	trace) cmd=(tests/record/trace.sh "$B") ;;
	schema) cmd=(tests/schema/run.sh "$B") ;;
	package) cmd=(tests/package/run.sh) ;;
	badinput) cmd=(tests/badinput/run.sh "$B") ;;
	prom) cmd=(tests/prom/run.sh "$B") ;;
	# the rules, the dashboard and the unit, checked without a machine
	fleetrules) cmd=(tests/fleet/rules.sh "$B") ;;
	# node_exporter and Prometheus on loopback, pcptop as the unit runs it
	fleet) cmd=(tests/fleet/run.sh "$B") ;;
	fuzz) cmd=(tests/fuzz/run.sh "${FUZZ_SECONDS:-20}") ;;
	# the matrix but the rows make bench runs (tests/vm/bench-rows)
	vm) cmd=(env VMTEST_EXCEPT="$(grep -v '^#' tests/vm/bench-rows | paste -sd' ')" tests/vm/run.sh) ;;
	vmrecord) cmd=(tests/record/vm-check.sh amd64-6.12) ;;
	# the matrix's rule for rows the mirror cannot give (no boot)
	vmrules) cmd=(tests/vm/skip-rule.sh) ;;
	# zone->lock and zone->_lock relocated against 7.3's BTF (no root)
	btf) cmd=(tests/btf/zone-lock.sh "$B") ;;
	# diff of a 6.12 and a 7.3 recording: flush against flush
	vmdiff) cmd=(tests/record/vm-diff.sh amd64-6.12 amd64-7.3) ;;
	# the live checks where fentry attaches, whatever the host allows
	vmlive) cmd=(tests/live/vm-check.sh amd64-6.12) ;;
	# the oracle's boots but those make bench runs (tests/oracle/bench-boots)
	oracle) cmd=(env ORACLE_EXCEPT="$(grep -v '^#' tests/oracle/bench-boots | paste -sd' ')" tests/oracle/run.sh) ;;
	# whatif's predictions against real runs at scales 5, 0, 3, 6 (6.12)
	# and 5, 0 (7.3, with free_high under 6.16's and 6.12's rules)
	whatif) cmd=(tests/whatif/run.sh) ;;
	rehearsal) cmd=(tests/rehearsal/run.sh) ;;
	# whatif across scales 5 and 0 under reclaim: bonnie++ at twice RAM
	reclaim) cmd=(tests/whatif/reclaim.sh) ;;
	# memory running out beside bonnie++: the hog killed, not pcptop,
	# and the recording says so (one boot, beside the one-boot suites)
	oom) cmd=(tests/rehearsal/oom.sh) ;;
	*)
		echo "run-all: unknown suite '$1' ($(suite_names | paste -sd, | sed 's/,/, /g'); A,B+C runs A then B beside C)" >&2
		exit 2
		;;
	esac
}
# the suites suite_cmd knows, read from its own case: a list kept beside
# it went without the ones added later
suite_names() {
	declare -f suite_cmd | sed -n 's/^ *\([a-z][a-z0-9]*\))$/\1/p'
}

# the known misses each suite may print, and how many of each
KNOWN_MISSES=tests/known-misses

# known_breaches SUITE OUTPUT COUNT: a FAIL line for each way the suite's
# known misses (its KNOWN MISS lines, COUNT its own count) pass what
# KNOWN_MISSES declares for it; sets known_most to its kinds' mosts
known_breaches() {
	local s=$1 out=$2 count=$3 suite most re name line i
	local -a res=() mosts=() names=() got=()
	known_most=0
	while IFS=$'\t' read -r suite most re name; do
		[ "$suite" = "$s" ] || continue
		res+=("$re") mosts+=("$most") names+=("$name") got+=(0)
		known_most=$((known_most + most))
		grep -qF -- "\`$name\`" docs/ACCURACY.md ||
			echo "FAIL known miss $name ($KNOWN_MISSES): no bound for it in docs/ACCURACY.md"
	done < <(grep -v '^#' "$KNOWN_MISSES")
	while IFS= read -r line; do
		for i in "${!res[@]}"; do
			if [[ "$line" =~ ${res[i]} ]]; then
				got[i]=$((got[i] + 1))
				continue 2
			fi
		done
		echo "FAIL a known miss $KNOWN_MISSES does not declare for $s: ${line:0:240}"
	done < <(grep -E 'KNOWN MISS' "$out")
	for i in "${!res[@]}"; do
		[ "${got[i]}" -le "${mosts[i]}" ] ||
			echo "FAIL ${got[i]} known misses $s ${names[i]}, at most ${mosts[i]} declared ($KNOWN_MISSES)"
	done
	[ "$count" -le "$known_most" ] ||
		echo "FAIL $s counted $count known misses, at most $known_most declared ($KNOWN_MISSES)"
}

# account SUITE OUTPUT RC SECONDS: adds up what the suite printed: its
# closing "N passed, N failed[, N skipped][, N known misses]" line, the
# oracle's per-boot "N could not run[, N known misses]" (checks a kernel
# has no count for: skips too), each SKIP and KNOWN MISS line for the
# lists at the end, and its boots ("boot: " lines) for the table; then
# holds its known misses to KNOWN_MISSES
account() {
	local s=$1 out=$2 rc=$3 line p f k m b kb
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	grep -E '(^|[^A-Za-z_])FAIL([^A-Za-z_]|$)' "$out" | cut -c 1-400 |
		sed "s/^/  $s: /" >>"$fail_lines"
	grep -E '(^|[^A-Za-z_])SKIP([^A-Za-z_]|$)' "$out" | cut -c 1-300 |
		sed "s/^/  $s: /" >>"$skip_lines"
	grep -E 'KNOWN MISS' "$out" | cut -c 1-300 | sed "s/^/  $s: /" >>"$known_lines"
	p=$(echo "$line" | awk '{ print $1 }')
	f=$(echo "$line" | awk '{ print $3 }')
	k=$(echo "$line" | sed -n 's/.* \([0-9]\+\) skipped.*/\1/p')
	m=$(echo "$line" | sed -n 's/.* \([0-9]\+\) known miss.*/\1/p')
	read -r kb mb < <(grep -E '^oracle .*: [0-9]+ passed, [0-9]+ failed, [0-9]+ could not run(, [0-9]+ known misses)?$' "$out" |
		sed -E 's/.*: [0-9]+ passed, [0-9]+ failed, ([0-9]+) could not run(, ([0-9]+) known misses)?$/\1 \3/' |
		awk '{ k += $1; m += $2 } END { print k + 0, m + 0 }')
	k=$((${k:-0} + kb))
	[ "$mb" -gt 0 ] && m=$((${m:-0} + mb))
	# every boot path prints one "boot: NAME (...)" line a boot
	b=$(grep -c '^boot: ' "$out")
	if [ -z "$line" ]; then
		# a suite that died before its summary counts as one failure
		p=0
		f=1
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	# more known misses than declared: a failure of the suite's
	known_breaches "$s" "$out" "${m:-0}" >"$breaches"
	if [ -s "$breaches" ]; then
		cat "$breaches"
		sed "s/^/  $s: /" "$breaches" >>"$fail_lines"
		f=$((f + $(wc -l <"$breaches")))
	fi
	echo "==== suite $s: $p passed, $f failed, $k skipped${m:+, $m known misses} ($4 s)"
	printf '%-11s %6s %5s %7s %6s %7s %7s\n' "$s" "$4" "$b" "$p" "$f" "$k" "${m:-0}/$known_most" >>"$table"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + k))
	total_known=$((total_known + ${m:-0}))
	[ "$f" -ne 0 ] && failed_suites+=("$s")
}

# run_lane DIR SUITE...: the suites one after another, each one's output
# in DIR/SUITE.out and its exit status and seconds in DIR/SUITE.rc; a VM
# suite keeps its initramfs and logs in build/vmtest-SUITE (tests/vm/run.sh's
# VMTEST_OUT), so that lanes never share them
run_lane() {
	local dir=$1 s t0
	shift
	for s in "$@"; do
		suite_cmd "$s"
		t0=$SECONDS
		echo "==== suite $s: started beside the others" >&2
		VMTEST_OUT=$PWD/build/vmtest-$s "${cmd[@]}" >"$dir/$s.out" 2>&1
		echo "$? $((SECONDS - t0))" >"$dir/$s.rc"
	done
}

# A group is lanes joined by "+", run at once; a lane is suites joined by
# ",", run one after another. Each suite's output is printed whole once
# its group has ended.
for group in "${suites[@]}"; do
	IFS=+ read -r -a lanes <<<"$group"
	all=()
	for lane in "${lanes[@]}"; do
		IFS=, read -r -a members <<<"$lane"
		for s in "${members[@]}"; do
			suite_cmd "$s"
			all+=("$s")
		done
	done
	if [ ${#all[@]} -eq 1 ]; then
		s=${all[0]}
		suite_cmd "$s"
		echo "==== suite $s: ${cmd[*]}"
		start=$SECONDS
		out=$(mktemp)
		"${cmd[@]}" 2>&1 | tee "$out"
		rc=${PIPESTATUS[0]}
		account "$s" "$out" "$rc" $((SECONDS - start))
		rm -f "$out"
		continue
	fi
	# the oracle suite's kernels first, alone: cold, their builds take
	# both cores for many minutes, which the other lanes must not share
	case " ${all[*]} " in
	*" oracle "* | *" whatif "* | *" reclaim "*)
		for series in 6.12 7.3; do
			tests/vm/kernel/build.sh --series $series >/dev/null ||
				echo "run-all: the instrumented $series kernel did not build: the oracle suite will say so" >&2
		done
		;;
	esac
	echo "==== suites at once: ${group//+/ beside }"
	gdir=$(mktemp -d)
	for lane in "${lanes[@]}"; do
		IFS=, read -r -a members <<<"$lane"
		run_lane "$gdir" "${members[@]}" &
	done
	wait
	for s in "${all[@]}"; do
		suite_cmd "$s"
		echo "==== suite $s: ${cmd[*]}"
		cat "$gdir/$s.out"
		read -r rc secs <"$gdir/$s.rc" 2>/dev/null || { rc=1 secs=?; }
		account "$s" "$gdir/$s.out" "$rc" "$secs"
	done
	rm -rf "$gdir"
done

if [ -s "$skip_lines" ]; then
	echo "skipped ($(wc -l <"$skip_lines") lines):"
	cat "$skip_lines"
fi
if [ -s "$known_lines" ]; then
	echo "known misses ($total_known, each inside its bound in docs/ACCURACY.md, each kind at most as often as $KNOWN_MISSES says):"
	cat "$known_lines"
fi
# suites of a lane ran beside the others: their seconds overlap; known:
# the suite's known misses, and the most tests/known-misses allows it
printf '%-11s %6s %5s %7s %6s %7s %7s\n' suite seconds boots passed failed skipped known
cat "$table"
printf '%-11s %6s\n' "all" "$((SECONDS - run_start))"
# last but one: CI keeps a log's tail, and a failure must be in it
if [ ${#failed_suites[@]} -gt 0 ]; then
	echo "failing checks:"
	cat "$fail_lines"
	echo "failing suites: ${failed_suites[*]}"
fi
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs the test suites `make test` promises and adds up their results, so
# CI reads one closing "N passed, N failed" line for everything.
# Usage: tests/run-all.sh [unit|oraclecheck|live|top|record|trace|schema|badinput|package|prom|fuzz|vm|vmrecord|vmdiff|vmlive|oracle|whatif|rehearsal ...]   (default: all of them)
# Environment: PCPTOP_BUILD (default build), FUZZ_SECONDS (per harness, 20)
set -u
cd "$(dirname "$0")/.."

suites=("$@")
# the build the host suites use: make test SAN=1 points it at build/san
B=${PCPTOP_BUILD:-build}
[ ${#suites[@]} -eq 0 ] && suites=(unit oraclecheck live top record trace schema badinput package prom fuzz vm vmrecord vmdiff vmlive oracle whatif rehearsal)

total_pass=0
total_fail=0
failed_suites=()
# every failing check again at the end: CI shows the head and the tail of
# a long log, and a failure in the middle must reach the tail
fail_lines=$(mktemp)
trap 'rm -f "$fail_lines"' EXIT
for s in "${suites[@]}"; do
	case "$s" in
	unit) cmd=("$B/unit_tests") ;;
	# the oracle's checker on a stored log, and doctored copies that must fail
	oraclecheck) cmd=(tests/oracle/selftest.sh) ;;
	live) cmd=(tests/live/run.sh "$B") ;;
	top) cmd=(tests/top/run.sh "$B/pcptop") ;;
	record) cmd=(tests/record/run.sh "$B") ;;
	# record --trace against perf's and /proc/vmstat's counts
	trace) cmd=(tests/record/trace.sh "$B") ;;
	schema) cmd=(tests/schema/run.sh "$B") ;;
	package) cmd=(tests/package/run.sh) ;;
	badinput) cmd=(tests/badinput/run.sh "$B") ;;
	prom) cmd=(tests/prom/run.sh "$B") ;;
	fuzz) cmd=(tests/fuzz/run.sh "${FUZZ_SECONDS:-20}") ;;
	vm) cmd=(tests/vm/run.sh) ;;
	vmrecord) cmd=(tests/record/vm-check.sh amd64-6.12) ;;
	# diff of a 6.12 and a 7.3 recording: flush against flush
	vmdiff) cmd=(tests/record/vm-diff.sh amd64-6.12 amd64-7.3) ;;
	# the live checks where fentry attaches: this machine refuses it
	vmlive) cmd=(tests/live/vm-check.sh amd64-6.12) ;;
	oracle) cmd=(tests/oracle/run.sh) ;;
	# whatif's predictions against real runs at scales 5, 0, 3, 6
	whatif) cmd=(tests/whatif/run.sh) ;;
	rehearsal) cmd=(tests/rehearsal/run.sh) ;;
	*)
		echo "run-all: unknown suite '$s' (unit, oraclecheck, live, top, record, schema, badinput, package, prom, fuzz, vm, vmrecord, vmdiff, vmlive, oracle, whatif, rehearsal)" >&2
		exit 2
		;;
	esac
	echo "==== suite $s: ${cmd[*]}"
	start=$SECONDS
	out=$(mktemp)
	"${cmd[@]}" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	grep -E '(^|[^A-Za-z_])FAIL([^A-Za-z_]|$)' "$out" | cut -c 1-400 |
		sed "s/^/  $s: /" >>"$fail_lines"
	rm -f "$out"
	p=$(echo "$line" | awk '{ print $1 }')
	f=$(echo "$line" | awk '{ print $3 }')
	if [ -z "$line" ]; then
		# a suite that died before its summary counts as one failure
		p=0
		f=1
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	echo "==== suite $s: $p passed, $f failed ($((SECONDS - start)) s)"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	[ "$f" -ne 0 ] && failed_suites+=("$s")
done
if [ ${#failed_suites[@]} -gt 0 ]; then
	echo "failing checks:"
	cat "$fail_lines"
	echo "failing suites: ${failed_suites[*]}"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]

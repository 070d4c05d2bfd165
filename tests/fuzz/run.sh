#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz: each libFuzzer harness (tests/fuzz/fuzz_*.c, built with
# clang -fsanitize=fuzzer,address,undefined) for SECONDS, on a corpus
# seeded from real files (the fixture /proc files, the fixture and the
# rehearsal's recordings, argument vectors from the manual) and kept in
# $PCPTOP_CACHE/fuzz between runs, so coverage grows run after run. A
# crash is kept in build/fuzz/ as crash-HARNESS-*: turn it into a
# regression test (tests/fuzz/regressions/HARNESS/), which every run
# replays first.
# Usage: tests/fuzz/run.sh SECONDS [HARNESS...]   (default: all three)
# The harnesses run side by side. Prints one line per harness and
# "N passed, N failed".

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

secs=${1:-20}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(recread procfs cli)
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: bad SECONDS '$secs'" >&2; exit 2; }
OUT=build/fuzz
CORPUS=${PCPTOP_CACHE:-/var/cache/pcptop}/fuzz
mkdir -p "$CORPUS"

# seed FILE with a leading selector byte (procfs, cli)
seed_sel() { # HARNESS BYTE FILE
	local f=$CORPUS/$1/seed-$2-$(basename "$3")
	{ printf "\\x$2"; cat "$3"; } >"$f"
}

seed() {
	local h=$1 f a
	mkdir -p "$CORPUS/$h"
	case $h in
	recread)
		for f in tests/fixtures/rec/*.data build/rehearsal/*.data; do
			[ -s "$f" ] && cp "$f" "$CORPUS/$h/seed-$(basename "$f")"
		done ;;
	procfs)
		seed_sel procfs 00 tests/fixtures/zoneinfo-6.1
		[ -r /proc/zoneinfo ] && seed_sel procfs 00 /proc/zoneinfo
		seed_sel procfs 01 tests/fixtures/pagetypeinfo-6.18
		for f in tests/fixtures/config-6.1*; do seed_sel procfs 02 "$f"; done
		for f in tests/fixtures/cmdline-*; do seed_sel procfs 03 "$f"; done
		for f in tests/fixtures/kallsyms-*; do seed_sel procfs 04 "$f"; done ;;
	cli)
		a=0
		for v in 'info\0--json' 'stat\0-i\0001.5\0-c\0003\0--json' \
			 'top\0-b\0-n\0002\0-d\0000.5' \
			 'record\0-o\0x.data\0--latency\0--\0bonnie++\0-d\0/tmp' \
			 'report\0x.data\0--html\0-' 'diff\0a\0b\0--json' \
			 'stat\0--mode\0kprobe\0--btf\0/tmp/b\0--prom\0p'; do
			printf "\\x0$((a % 6))$v" >"$CORPUS/$h/seed-$a"
			a=$((a + 1))
		done ;;
	esac
}

# one harness for SECONDS; its exit status in $OUT/$h.rc
fuzz_one() { # HARNESS
	local h=$1 max_len=4096
	[ "$h" = recread ] && max_len=65536
	# -close_fd_mask=2: the parsers' one-line complaints are not findings
	"$OUT/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=2 -max_len="$max_len" \
		-artifact_prefix="$OUT/crash-$h-" "$CORPUS/$h" \
		>"$OUT/$h.log" 2>&1
	echo $? >"$OUT/$h.rc"
}

for h in "${harnesses[@]}"; do
	bin=$OUT/fuzz_$h
	[ -x "$bin" ] || { echo "fuzz: $bin missing: make fuzz builds it" >&2; exit 2; }
	seed "$h"
	# every crash once found replays first
	reg=tests/fuzz/regressions/$h
	if [ -d "$reg" ] && ls "$reg"/* >/dev/null 2>&1; then
		"$bin" -close_fd_mask=2 "$reg"/* >"$OUT/$h-regressions.log" 2>&1
		t_eq "$h: the regression inputs still pass" "$?" 0
	fi
	rm -f "$OUT"/crash-"$h"-* "$OUT"/leak-"$h"-* "$OUT"/timeout-"$h"-* "$OUT/$h.rc"
done
# side by side: the same fuzzing time in a third of the wall time
for h in "${harnesses[@]}"; do
	fuzz_one "$h" &
done
wait
for h in "${harnesses[@]}"; do
	rc=$(cat "$OUT/$h.rc" 2>/dev/null || echo '?')
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$OUT/$h.log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$OUT/$h.log" | tail -n 1)
	if [ "$rc" = 0 ]; then
		t_pass "$h: ${runs:-?} runs in ${secs}s, $cov, corpus $(ls "$CORPUS/$h" | wc -l) inputs, nothing found"
	else
		t_fail "$h: exit $rc after ${runs:-?} runs: $(ls "$OUT"/crash-"$h"-* 2>/dev/null | head -n 1) (log $OUT/$h.log)"
	fi
done
t_summary

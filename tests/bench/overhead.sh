#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What pcptop costs the workload it watches: the page churn timed without
# and with `pcptop stat` attached, in alternating pairs so a drifting
# machine hits both sides alike, plus the kernel's own accounting of the
# BPF programs (kernel.bpf_stats_enabled) per event. A benchmark, not a
# test: it prints a Markdown table and never fails on a number.
# Usage: tests/bench/overhead.sh [BUILD_DIR] [PAIRS]   (default build 7)
set -eu
cd "$(dirname "$0")/../.."

B=${1:-build}
PAIRS=${2:-7}
CHURN_ARGS=(-m 256 -n 4)
P=$B/pcptop
[ -x "$P" ] && [ -x "$B/churn" ] || { echo "bench: build first (make)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench: needs root" >&2; exit 2; }

ns_now() { date +%s%N; }
churn_ms() {
	local t0 t1
	t0=$(ns_now)
	"$B/churn" "${CHURN_ARGS[@]}" >/dev/null
	t1=$(ns_now)
	echo $(((t1 - t0) / 1000000))
}
wait_attached() {
	local i
	for i in $(seq 100); do
		bpftool prog show 2>/dev/null | grep -qE 'name (r?tp_drain|fe_bulk|kp_bulk)' && return 0
		sleep 0.05
	done
	return 1
}

old_stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
trap 'echo "$old_stats" >/proc/sys/kernel/bpf_stats_enabled' EXIT
echo 1 >/proc/sys/kernel/bpf_stats_enabled

base=()
with=()
prog_lines=""
for i in $(seq "$PAIRS"); do
	base+=("$(churn_ms)")
	"$P" stat -i 1 -H >/dev/null 2>&1 &
	pid=$!
	wait_attached
	with+=("$(churn_ms)")
	# this run's own programs, by the ids its fds hold
	[ "$i" = "$PAIRS" ] && prog_lines=$(
		for id in $(grep -h '^prog_id:' /proc/"$pid"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u); do
			bpftool prog show id "$id" 2>/dev/null
		done | grep -E 'name (r?tp_drain|r?tp_zone_locked|fe_bulk|fx_bulk|fe_commit|fx_commit|kp_bulk|kr_bulk)')
	kill -INT "$pid"
	wait "$pid" || true
	echo "pair $i/$PAIRS: without ${base[-1]} ms, with ${with[-1]} ms" >&2
done

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ratios=()
for i in $(seq 0 $((PAIRS - 1))); do
	ratios+=("$(awk -v a="${with[$i]}" -v b="${base[$i]}" 'BEGIN { printf "%.3f", a / b }')")
done

mode=$("$P" info --json 2>/dev/null | jq -r .mode)
echo "| figure | value |"
echo "|---|---|"
echo "| machine | $(nproc) CPUs, $(uname -r), pcptop mode $mode |"
echo "| churn ${CHURN_ARGS[*]}, without pcptop (median of $PAIRS) | $(median "${base[@]}") ms |"
echo "| the same with \`pcptop stat -i 1\` attached | $(median "${with[@]}") ms |"
echo "| with/without, median of pair ratios | $(median "${ratios[@]}") (min $(printf '%s\n' "${ratios[@]}" | sort -n | head -1), max $(printf '%s\n' "${ratios[@]}" | sort -n | tail -1)) |"
echo "$prog_lines" | awk '
	/name/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "name") n = $(i + 1)
			if ($i == "run_time_ns") t = $(i + 1)
			if ($i == "run_cnt") c = $(i + 1)
		}
		if (c > 0) printf "| BPF program %s (last pair) | %d runs, %.0f ns per run |\n", n, c, t / c
	}'

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pcptop's start to exit of `stat -i 0.05 -c 1` and its peak RSS, first
# start on a kernel (BTF cut and cached) against later ones (the cut read
# from /var/cache/pcptop/btf), with the cache off, and with --btf from
# btf-min: on this machine (dynamic and static builds, /usr/bin/time) and
# on the one-CPU arm64 board VMs under qemu -icount shift=0, where guest
# time counts instructions (tests/bench/startup-guest.sh). A benchmark:
# Markdown tables on stdout, never a failure on a number (tests/vm
# asserts the boards' targets).
#
# Usage: tests/bench/startup.sh [BUILD_DIR] [KERNEL... | -]
#   (default build, arm64-6.1 arm64-6.12; "-": this machine only; root)
# Environment: PCPTOP_CACHE (the cache root, as tests/vm/run.sh)

set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${1:-build}
shift $(($# > 0 ? 1 : 0))
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(arm64-6.1 arm64-6.12)
[ "${KERNELS[*]}" = - ] && KERNELS=()
OUT=$root/$B/bench
RUNS=5
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$root"
[ -x "$B/pcptop" ] || { echo "bench: build first (make)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench: needs root" >&2; exit 2; }
mkdir -p "$OUT"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# BIN CASE: RUNS starts, "seconds KiB" each, into $TMP/CASE
starts() {
	local bin=$1 case=$2 i
	: >"$TMP/$case"
	for i in $(seq $RUNS); do
		case $case in
		first) rm -rf "$TMP/cache" ;;
		esac
		case $case in
		cache-off) export PCPTOP_BTF_CACHE= ;;
		*) export PCPTOP_BTF_CACHE=$TMP/cache/btf ;;
		esac
		mkdir -p "$TMP/cache"
		/usr/bin/time -f "%e %M %U %S" -a -o "$TMP/$case" "$bin" stat -i 0.05 -c 1 -H \
			${BTF_ARG:+--btf "$BTF_ARG"} >/dev/null 2>&1
	done
	unset PCPTOP_BTF_CACHE
}

echo "This machine ($(nproc) CPUs, $(uname -r), $(date -u +%Y-%m-%d)), median of $RUNS:"
echo
# CASE: "wall s | CPU s (user + system) | KiB", medians
row() {
	echo "$(awk '{ print $1 }' "$TMP/$1" | median) | $(awk '{ printf "%.2f\n", $3 + $4 }' "$TMP/$1" | median) | $(awk '{ print $2 }' "$TMP/$1" | median)"
}

echo "| build | start | start to exit, s | CPU time, s | peak RSS, KiB |"
echo "|---|---|---|---|---|"
"$B/pcptop" btf-min /sys/kernel/btf/vmlinux "$TMP/min.btf" >/dev/null 2>&1
for bin in "$B/pcptop" build/vm-x86/pcptop; do
	[ -x "$bin" ] || continue
	kind=dynamic
	file -L "$bin" | grep -q 'statically linked' && kind=static
	for case in first second cache-off; do
		BTF_ARG= starts "$bin" "$case"
		echo "| $kind | $case | $(row "$case") |"
	done
	BTF_ARG=$TMP/min.btf starts "$bin" btf-min
	echo "| $kind | --btf from btf-min | $(row btf-min) |"
done

[ ${#KERNELS[@]} -gt 0 ] || exit 0
echo
echo "One-CPU arm64 board VMs, qemu -icount shift=0 (guest seconds count"
echo "instructions, 1 ns each), median of 3; first: empty cache, second: cache"
echo "hit (auto mode unless said), cache-off: cut in the process each time:"
echo
echo "| kernel | start | start to exit, guest s | peak RSS, KiB |"
echo "|---|---|---|---|"
for k in "${KERNELS[@]}"; do
	VMTEST_QEMU_EXTRA="-icount shift=0" VMTEST_TIMEOUT=1200 VMTEST_OUT="$OUT/vm-startup-$k" \
		"$root/tests/vm/run.sh" --exec "$here/startup-guest.sh" "$k" \
		>"$OUT/startup-$k.log" 2>&1
	tr -d '\r' <"$OUT/startup-$k.log" | sed -n 's/^.*BENCH://p' >"$TMP/g"
	for case in first second second-kprobe second-tracepoint cache-off; do
		s=$(sed -n "s/^start:$case:[0-9]* //p" "$TMP/g" | median)
		kb=$(sed -n "s/^rss:$case [0-9]* //p" "$TMP/g")
		echo "| $k | $case | $(awk -v n="${s:-0}" 'BEGIN { printf "%.3f", n / 1e9 }') | ${kb:-?} |"
	done
	echo "| $k | BTF | $(sed -n 's/^kernel://p' "$TMP/g"); $(sed -n 's/^source://p' "$TMP/g") | |"
done

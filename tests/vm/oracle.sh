#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: pcptop claims to report the PCP batch scale the kernel
# really runs with. On CIP 6.12.y kernels that is the static variable set by
# the boot parameter pcp_batch_scale_max= (clamped to 6), not the config.
# This test builds (or reuses) a small kernel carrying pcptop's version of
# that patch (tests/vm/kernel/), boots it under qemu with
# pcp_batch_scale_max=0, =5, =9 and without the parameter, runs pcptop
# there under one fixed workload and checks, with jq on the host:
#   - pcptop info: scale.value and scale.source (the live variable), the
#     sources it saw, the note (only the clamp of 9 deserves one);
#   - the first line of pcptop info and pcptop stat names scale and source;
#   - pcptop stat: every free_high flush, drain chunk and decay drain is
#     within batch << scale (with 0: within batch), and the scale pcptop
#     infers from them is not above the one in force;
# and prints the zone->lock hold times (p50, p99, max) of scale 0 beside
# those of scale 5.
#
# Usage: patched.sh [-j JOBS] [-b BINDIR] [SCALE...]
#   SCALE     0, 5, 9 or none (default: all four)
#   -b DIR    static pcptop, churn and tcpstream (default build/vm-x86,
#             made by `make STATIC=1 OUTPUT=build/vm-x86 all`);
#             tcpstream is optional, without it there is little free_high
#   -j JOBS   VMs at once (default 1, VMTEST_JOBS; more skews lock times)
#
# Prints "vmtest-patched scale=V: PASS|FAIL (...)" per boot and
# "N passed, N failed"; exits 0 when all passed, 1 on a failure, 2 on bad
# input or a missing tool.
#
# Environment: PCPTOP_CACHE (kernel build cache, see kernel/build.sh),
# VMTEST_OUT (default build/vmtest-patched), VMTEST_TIMEOUT (seconds per
# boot, default 300), VMTEST_RETRIES (boots per scale, default 2).

set -uo pipefail

prog=vmtest-patched
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

OUT=${VMTEST_OUT:-$root/build/vmtest-patched}
# One VM at a time: two TCG guests of 2 vCPUs on 2 host cores preempt each
# other inside zone->lock, and the lock times then measure the host
# (p99 4 ms for both scales) instead of the scale (64 us vs 512 us alone).
JOBS=${VMTEST_JOBS:-1}
TIMEOUT=${VMTEST_TIMEOUT:-300}
RETRIES=${VMTEST_RETRIES:-2}
BIN=$root/build/vm-x86
# what the kernel is built with (tests/vm/kernel/config.fragment)
CONFIG_SCALE=5
# the patch's clamp
SCALE_LIMIT=6
# PAGE_ALLOC_COSTLY_ORDER: the highest order on the pcp lists once THP is
# off (transparent_hugepage=never below). free_pcppages_bulk() frees whole
# pages until its count is <= 0, so the pages a flush frees can exceed its
# request by (1 << order) - 1 of the last page taken.
COSTLY_ORDER=3

log() { echo "$prog: $*" >&2; }
die() { echo "$prog: $1" >&2; exit "${2:-1}"; }
usage() {
	echo "usage: patched.sh [-j JOBS] [-b BINDIR] [0|5|9|none...]" >&2
	exit 2
}

scales=()
while [ $# -gt 0 ]; do
	case "$1" in
	-j)
		[ $# -ge 2 ] || usage
		JOBS=$2
		shift 2
		;;
	-j?*)
		JOBS=${1#-j}
		shift
		;;
	-b)
		[ $# -ge 2 ] || usage
		BIN=$(realpath "$2" 2>/dev/null) || die "no such directory '$2'" 2
		shift 2
		;;
	-h | --help) sed -n '4,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	0 | 5 | 9 | none)
		scales+=("$1")
		shift
		;;
	*) echo "$prog: unknown argument '$1' (scales: 0 5 9 none)" >&2; usage ;;
	esac
done
[ ${#scales[@]} -gt 0 ] || scales=(0 5 9 none)
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "bad job count '$JOBS'" 2
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "bad VMTEST_TIMEOUT '$TIMEOUT'" 2
[[ "$RETRIES" =~ ^[1-9][0-9]*$ ]] || die "bad VMTEST_RETRIES '$RETRIES'" 2

for t in qemu-system-x86_64 cpio gzip jq timeout; do
	command -v "$t" >/dev/null ||
		die "missing $t (scripts/deps.sh installs qemu-system-x86 cpio jq)" 2
done
[ -x /bin/busybox ] || die "missing /bin/busybox (apt-get install busybox-static)" 2
for f in pcptop churn; do
	[ -x "$BIN/$f" ] ||
		die "missing $BIN/$f: run make STATIC=1 OUTPUT=build/vm-x86 all, or pass -b DIR" 2
done
# the initramfs has no libraries
if command -v file >/dev/null &&
   ! file -L "$BIN/pcptop" | grep -q 'statically linked'; then
	die "$BIN/pcptop is not static: build it with make STATIC=1" 2
fi

mkdir -p "$OUT" || die "cannot create $OUT" 2
start=$SECONDS

# --- kernel ------------------------------------------------------------------
log "kernel: tests/vm/kernel/build.sh (cached after the first build)"
if ! bzimage=$("$here/kernel/build.sh"); then
	for v in "${scales[@]}"; do
		echo "vmtest-patched scale=$v: FAIL (kernel build failed, see above)"
	done
	echo "0 passed, ${#scales[@]} failed"
	exit 1
fi
kinfo=$(cat "$(dirname "$bzimage")/info" 2>/dev/null)
log "kernel: $bzimage ($kinfo) after $((SECONDS - start))s"

# --- initramfs ---------------------------------------------------------------
stage=$OUT/initrd
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp /bin/busybox "$stage/bin/busybox"
cp "$BIN/pcptop" "$BIN/churn" "$stage/bin/"
if [ -x "$BIN/tcpstream" ]; then
	cp "$BIN/tcpstream" "$stage/bin/"
else
	log "no $BIN/tcpstream: churn alone, expect few free_high flushes"
fi
cp "$here/kernel/init.sh" "$stage/init"
chmod 755 "$stage/init" "$stage/bin/"*
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$OUT/initrd.cpio.gz" || die "building the initramfs failed"

# --- one boot ----------------------------------------------------------------

# lines init.sh printed with TAG, serial \r removed
tagged() {
	tr -d '\r' <"$1" | sed -n "s/^PATCHED:$2://p"
}

boot_failure() {
	local logf=$1 rc=$2
	tr -d '\r' <"$logf" | grep -qx 'PATCHED:end:done' && return
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "timeout after ${TIMEOUT}s"
	elif grep -q 'Kernel panic' "$logf"; then
		echo "kernel panic: $(grep -m1 -o 'Kernel panic.*' "$logf" | tr -d '\r' | cut -c1-80)"
	elif grep -q 'Oops' "$logf"; then
		echo "Oops before the end marker"
	else
		echo "no end marker (qemu exit $rc)"
	fi
}

boot() {
	local v=$1 dir=$OUT/scale-$1 append attempt rc why logf t0
	mkdir -p "$dir"
	# nothing of an earlier run may pass for this one's
	rm -f "$dir"/console-*.log "$dir"/result "$dir"/boot "$dir"/lock \
		"$dir"/info.json "$dir"/stat.json
	# THP off: only orders 0..3 on the pcp lists, so the overshoot of a
	# flush stays below 1 << COSTLY_ORDER and the bound below is tight
	append="console=ttyS0 quiet panic=-1 transparent_hugepage=never"
	[ "$v" != none ] && append="$append pcp_batch_scale_max=$v"
	for attempt in $(seq 1 "$RETRIES"); do
		logf=$dir/console-$attempt.log
		t0=$SECONDS
		timeout -k 10 "$TIMEOUT" qemu-system-x86_64 -m 1024 -smp 2 \
			-nographic -no-reboot -kernel "$bzimage" \
			-initrd "$OUT/initrd.cpio.gz" -append "$append" \
			</dev/null >"$logf" 2>&1
		rc=$?
		log "scale=$v: boot $attempt ended after $((SECONDS - t0))s (qemu exit $rc)"
		why=$(boot_failure "$logf" "$rc")
		[ -z "$why" ] && break
		[[ "$why" == timeout* ]] && break
	done
	echo "$logf" >"$dir/boot"
	echo "$attempt ${why:-ok}" >"$dir/result"
}

# --- checks ------------------------------------------------------------------
# expected scale in force for a boot
expect_scale() {
	case "$1" in
	none) echo "$CONFIG_SCALE" ;;
	*) echo $(($1 > SCALE_LIMIT ? SCALE_LIMIT : $1)) ;;
	esac
}

# prints the detail of the vmtest-patched line; returns 1 on a failure
check() {
	local v=$1 dir=$OUT/scale-$1 logf info stat fails=() want got
	local batch limit slack m p over=0 figs=() txt note

	logf=$(cat "$dir/boot")
	read -r _ got <"$dir/result"
	if [ "$got" != ok ]; then
		echo "FAIL ($got; console log $logf)"
		return 1
	fi
	info=$(tagged "$logf" info)
	stat=$(tagged "$logf" stat)
	if [ -z "$info" ] || ! jq -e . >/dev/null 2>&1 <<<"$info"; then
		echo "FAIL (pcptop info: rc $(tagged "$logf" info_rc): $(tagged "$logf" info_err | head -n 1); console log $logf)"
		return 1
	fi
	if [ -z "$stat" ] || ! jq -e . >/dev/null 2>&1 <<<"$stat"; then
		echo "FAIL (pcptop stat: rc $(tagged "$logf" stat_rc): $(tagged "$logf" stat_err | head -n 1); console log $logf)"
		return 1
	fi
	echo "$info" >"$dir/info.json"
	echo "$stat" >"$dir/stat.json"
	want=$(expect_scale "$v")

	# the kernel itself: the variable is listed, the clamp was logged
	tagged "$logf" kallsyms | grep -q ' pcp_batch_scale_max$' ||
		fails+=("pcp_batch_scale_max not in the guest's /proc/kallsyms")
	if [ "$v" = 9 ]; then
		tagged "$logf" dmesg | grep -q 'pcp_batch_scale_max=9 clamped to 6' ||
			fails+=("kernel did not log the clamp of 9")
	fi

	# pcptop info: value, source, every source seen, the note
	got=$(jq -r '"\(.scale.value) \(.scale.source)"' <<<"$info")
	[ "$got" = "$want kernel-variable" ] ||
		fails+=("info scale is '$got', expected '$want kernel-variable'")
	got=$(jq -r '.scale.patch' <<<"$info")
	[ "$got" = present ] || fails+=("info: patch $got")
	got=$(jq -r '.scale.sources.config // "absent"' <<<"$info")
	[ "$got" = "$CONFIG_SCALE" ] || fails+=("info: config source $got")
	got=$(jq -r '.scale.sources.cmdline // "absent"' <<<"$info")
	if [ "$v" = none ]; then
		[ "$got" = absent ] || fails+=("info: cmdline source $got without the parameter")
	else
		[ "$got" = "$want" ] || fails+=("info: cmdline source $got, expected $want")
		got=$(jq -r '.scale.cmdline_raw // ""' <<<"$info")
		[ "$got" = "$v" ] || fails+=("info: cmdline_raw '$got'")
	fi
	note=$(jq -r '.scale.note' <<<"$info")
	if [ "$v" = 9 ]; then
		grep -q 'cmdline asks 9, kernel variable is 6 (the patch clamps to 6)' <<<"$note" ||
			fails+=("info: note '$note' does not explain the clamp")
	elif [ -n "$note" ]; then
		fails+=("info: unexpected note '$note'")
	fi

	# first lines of the text views
	for p in info_text stat_text; do
		txt=$(tagged "$logf" "$p" | head -n 1)
		[[ "$txt" == "scale $want (kernel-variable"* ]] ||
			fails+=("${p%_text} first line '$txt'")
	done

	# pcptop stat: same scale, fentry on the paths the bound is about
	got=$(jq -r '"\(.scale.value) \(.scale.source)"' <<<"$stat")
	[ "$got" = "$want kernel-variable" ] ||
		fails+=("stat scale is '$got'")
	for p in bulk_free decay drain free_high; do
		got=$(jq -r --arg p "$p" '.modes[$p]' <<<"$stat")
		[ "$got" = fentry ] || fails+=("stat: $p mode $got, expected fentry")
	done

	# every free_high flush, drain chunk and decay drain within batch <<
	# scale, plus the last page's overshoot (see COSTLY_ORDER)
	batch=$(jq '[.zones[].cpus[].batch] | max' <<<"$info")
	if ! [[ "$batch" =~ ^[1-9][0-9]*$ ]]; then
		fails+=("no batch in info zones ($batch)")
		batch=0
	fi
	limit=$((batch << want))
	slack=$(((1 << COSTLY_ORDER) - 1))
	for p in free_high drain decay; do
		m=$(jq ".$p.max" <<<"$stat")
		got=$(jq ".$p.count // .$p.calls" <<<"$stat")
		figs+=("$p $got (max $m)")
		if ! [[ "$m" =~ ^[0-9]+$ ]]; then
			fails+=("$p.max is '$m'")
		elif [ "$m" -gt $((limit + slack)) ]; then
			fails+=("$p.max $m > batch $batch << $want (+ $slack)")
		elif [ "$m" -gt "$limit" ]; then
			over=$((over + 1))
		fi
	done
	# a bound nothing came near proves little: the workload must flush
	got=$(jq '.free_high.count' <<<"$stat")
	if [ -x "$BIN/tcpstream" ] && ! [ "$got" -gt 0 ] 2>/dev/null; then
		fails+=("no free_high flush seen")
	fi
	got=$(jq '.drain.calls' <<<"$stat")
	[ "$got" -gt 0 ] 2>/dev/null || fails+=("no drain chunk seen (CPU hotplug)")

	# the inference is a lower bound: never above the scale in force
	p=$(jq -r '"\(.scale.inferred_at_least) \(.scale.inferred_evidence)"' <<<"$stat")
	read -r got m <<<"$p"
	if [[ "$got" =~ ^[0-9]+$ ]] && [ "$got" -gt "$want" ]; then
		fails+=("inferred >= $got from $m chunks, above the scale $want in force")
	fi

	jq -r '"p50 \(.lock_ns.p50) ns, p99 \(.lock_ns.p99) ns, max \(.lock_ns.max) ns over \(.bulk_free.calls) bulk frees"' \
		<<<"$stat" >"$dir/lock"
	[ "$over" -gt 0 ] && limit="$limit (+ last-page overshoot on $over)"
	local detail
	detail="scale $want kernel-variable${note:+, note: $note}; $(join "${figs[@]}"); bound $batch<<$want=$limit; inferred >= $got from $m chunks; lock p99 $(jq '.lock_ns.p99' <<<"$stat") ns"
	if [ ${#fails[@]} -gt 0 ]; then
		echo "FAIL ($(join "${fails[@]}"); $detail; console log $logf)"
		return 1
	fi
	echo "PASS ($detail)"
}

# the arguments joined with "; "
join() {
	local out=$1 x
	shift
	for x in "$@"; do
		out="$out; $x"
	done
	echo "$out"
}

# --- main --------------------------------------------------------------------
log "booting ${#scales[@]} VMs, $JOBS at a time (about 20 s each under TCG)"
running=0
for v in "${scales[@]}"; do
	boot "$v" &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

passed=0
failed=0
for v in "${scales[@]}"; do
	if line=$(check "$v"); then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
	read -r attempt _ <"$OUT/scale-$v/result"
	[ "$attempt" -gt 1 ] && line="$line [boots: $attempt]"
	echo "vmtest-patched scale=$v: $line"
done

# The latency the parameter exists for, same workload, side by side. TCG
# times are log2-slot upper bounds on an emulated CPU: compare them with
# each other only.
# (only when both booted in this run: an older run's files may be there)
if [[ " ${scales[*]} " == *" 0 "* && " ${scales[*]} " == *" 5 "* ]] &&
   [ -s "$OUT/scale-0/lock" ] && [ -s "$OUT/scale-5/lock" ]; then
	echo "vmtest-patched zone->lock hold, scale 0: $(cat "$OUT/scale-0/lock")"
	echo "vmtest-patched zone->lock hold, scale 5: $(cat "$OUT/scale-5/lock")"
fi
log "done in $((SECONDS - start))s (kernel: $kinfo)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: the machines pcptop is developed and tested on refuse
# fentry and have no kprobes, yet those are the paths users run (fentry on
# 6.7+ kernels, kprobe on arm64 before 6.4). This runner proves them inside
# qemu (TCG) booting Debian's own kernel packages: for every kernel of
# tests/vm/matrix it fetches the package (cached, see fetch-kernel.sh),
# builds an initramfs (busybox-static, the static pcptop and workloads,
# tests/vm/init.sh as /init), boots it under a hard timeout and checks what
# init.sh printed on the serial console. Every assertion is made here, with
# jq, so the in-VM part stays tiny.
#
# Usage:
#   run.sh [-j JOBS] [KERNEL...]   test the matrix, or the named kernels
#                                  (a name may be a shell pattern: '*-7.3*';
#                                  KERNELS="a b" in the environment does
#                                  the same as naming them)
#   run.sh --shell KERNEL          boot KERNEL to a busybox shell (interactive)
#   run.sh --exec FILE KERNEL      boot KERNEL, run the sh script FILE
#                                  instead of the checks, print the console
#   run.sh --list                  print the kernel names
#
# Prints "vmtest KERNEL: PASS|FAIL|SKIP (...)" per kernel and "N passed, N
# failed, N skipped"; exits 0 when nothing failed, 1 on a failure, 2 on bad
# input. A kernel whose package cannot be had (no such package on the
# mirror, a download that failed) is a SKIP with the reason, never a pass.
#
# Boots run JOBS at a time, longest first: the seconds the last boot of
# each kernel took ($OUT/NAME/boot_seconds), else the matrix's secs column.
# A boot that timed out is retried once with twice the time, and the
# vmtest line says so.
#
# Needs the static binaries: `make STATIC=1 OUTPUT=build/vm-x86 all` and
# `make ARCH=arm64 all` (make vmtest does both).
#
# Environment:
#   PCPTOP_CACHE     cache root (default /var/cache/pcptop); the kernels
#                    in its kernels/
#   VMTEST_OUT       logs and initramfs (default build/vmtest)
#   KERNELS          kernels to test when none are named (names or patterns)
#   VMTEST_EXCEPT    rows left out when none are named (make test leaves
#                    out tests/vm/bench-rows, which make bench runs)
#   VMTEST_JOBS      VMs at once (default: half the host's cores, at least
#                    2: each TCG VM keeps ~2 cores busy)
#   VMTEST_TIMEOUT   seconds per boot before it counts as hung (default 300)
#   VMTEST_BOARD_TIMEOUT  the same for a board row (VMTEST_BOARDS;
#                    default twice VMTEST_TIMEOUT)
#   VMTEST_RETRIES   boots per kernel when one dies early (default 3); a
#                    boot that timed out gets one more, once, with twice
#                    its timeout
#   VMTEST_CRASH_FIRST=1  crash each kernel's first boot on purpose: a
#                    self-test of the retry path
#   VMTEST_SMP       CPUs per VM (default: the matrix's smp column)
#   VMTEST_BOARDS    the one-CPU rows that also run the board's checks
#                    (live view on the serial console, no sysfs BTF, the
#                    BTF cache); "all" for every one. Default the
#                    board's own line, arm64-6.12: make test's budget
#                    (issue 30) keeps one; make bench runs the oldest and
#                    the newest, arm64-6.1 and arm64-7.3, as boards too
#                    (tests/bench/boards.sh). The other one-CPU rows leave
#                    out the oracle's stalls window, much of their boot,
#                    and so do the 16K page rows, where nothing compacts;
#                    every other row runs it (what each costs a boot:
#                    docs/PERFORMANCE.md).
#   VMTEST_QEMU_EXTRA  more qemu arguments ("-icount shift=0": make bench)
#   VMTEST_EXTRA_CPIO  one more cpio.gz for the initramfs; ARCH in its
#                    path becomes amd64 or arm64

set -uo pipefail

prog=vmtest
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# VMTEST_MATRIX: another matrix file (tests/vm/skip-rule.sh feeds one)
matrix_file=${VMTEST_MATRIX:-$here/matrix}
fetch=$here/fetch-kernel.sh

export PCPTOP_CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}
CACHE=$PCPTOP_CACHE/kernels
OUT=${VMTEST_OUT:-$root/build/vmtest}
half=$(($(nproc 2>/dev/null || echo 2) / 2))
JOBS=${VMTEST_JOBS:-$((half > 2 ? half : 2))}
TIMEOUT=${VMTEST_TIMEOUT:-300}
BOARD_TIMEOUT=${VMTEST_BOARD_TIMEOUT:-$((2 * TIMEOUT))}
RETRIES=${VMTEST_RETRIES:-3}

QEMU_EXTRA=${VMTEST_QEMU_EXTRA:-}
BOARDS=${VMTEST_BOARDS:-arm64-6.12}
# these guests run on the host's clock: tests/oracle/lib.sh says why
export ORACLE_INSIDE_MATCH_MIN=${ORACLE_INSIDE_MATCH_MIN:-0.90}

# is_board KERNEL: a one-CPU row that runs the board's checks
is_board() {
	[ "${K_SMP[$1]}" = 1 ] && { [ "$BOARDS" = all ] || [[ " $BOARDS " == *" $1 "* ]]; }
}

log() { echo "$prog: $*" >&2; }
# boot_marker KERNEL WHAT: the one line each boot prints, which
# tests/run-all.sh counts as the suite's boots
boot_marker() { echo "boot: $1 ($2)" >&2; }
die() { echo "$prog: $*" >&2; exit "${2:-1}"; }
usage() {
	echo "usage: run.sh [-j JOBS] [KERNEL...] | --shell KERNEL | --exec FILE KERNEL | --list" >&2
	exit 2
}

# --- the matrix ------------------------------------------------------------
declare -A K_ARCH K_CPU K_SMP K_PATTERN K_MODES K_FALLBACK K_DECAY K_BOUNDED K_BTFRSS
declare -A K_SUITES K_SECS
names=()
while read -r name arch cpu smp pattern modes fallback decay bounded btfrss suites secs extra; do
	case "$name" in '' | '#'*) continue ;; esac
	[ -n "$secs" ] && [ -z "$extra" ] ||
		die "$matrix_file: line of $name: want 12 columns (see its header)" 2
	[[ "$secs" =~ ^[0-9]+$ ]] || die "$matrix_file: secs of $name is '$secs'" 2
	names+=("$name")
	K_ARCH[$name]=$arch K_CPU[$name]=$cpu K_PATTERN[$name]=$pattern
	K_SMP[$name]=${VMTEST_SMP:-$smp}
	K_MODES[$name]=$modes K_FALLBACK[$name]=$fallback K_DECAY[$name]=$decay
	K_BOUNDED[$name]=$bounded K_BTFRSS[$name]=$btfrss
	K_SUITES[$name]=${suites//+/ } K_SECS[$name]=$secs
	[ "$suites" = - ] && K_SUITES[$name]=
done <"$matrix_file"

shell_kernel=
exec_file=
selected=()
while [ $# -gt 0 ]; do
	case "$1" in
	--shell)
		[ $# -ge 2 ] || usage
		shell_kernel=$2
		shift 2
		;;
	--exec)
		[ $# -ge 3 ] || usage
		exec_file=$(realpath "$2") || die "no such file '$2'" 2
		shell_kernel=$3
		shift 3
		;;
	--list)
		printf '%s\n' "${names[@]}"
		exit 0
		;;
	-j)
		[ $# -ge 2 ] || usage
		JOBS=$2
		shift 2
		;;
	-h | --help) usage ;;
	-*) echo "$prog: unknown option '$1'" >&2; usage ;;
	*)
		selected+=("$1")
		shift
		;;
	esac
done
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "bad job count '$JOBS'" 2
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "bad VMTEST_TIMEOUT '$TIMEOUT'" 2
[[ "$BOARD_TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "bad VMTEST_BOARD_TIMEOUT '$BOARD_TIMEOUT'" 2
[[ "$RETRIES" =~ ^[1-9][0-9]*$ ]] || die "bad VMTEST_RETRIES '$RETRIES'" 2
[ -n "$shell_kernel" ] && selected=("$shell_kernel")
[ ${#selected[@]} -gt 0 ] || read -r -a selected <<<"${KERNELS:-}"
if [ ${#selected[@]} -eq 0 ]; then
	# none named: the whole matrix, but VMTEST_EXCEPT's rows
	for n in "${names[@]}"; do
		[[ " ${VMTEST_EXCEPT:-} " == *" $n "* ]] || selected+=("$n")
	done
fi
# names, or shell patterns over them, each kernel once in matrix order
want=("${selected[@]}")
selected=()
for n in "${names[@]}"; do
	for w in "${want[@]}"; do
		# shellcheck disable=SC2053 # a pattern on purpose
		[[ "$n" == $w ]] && { selected+=("$n"); break; }
	done
done
for w in "${want[@]}"; do
	hit=
	for n in "${names[@]}"; do
		# shellcheck disable=SC2053
		[[ "$n" == $w ]] && hit=1
	done
	[ -n "$hit" ] || die "unknown kernel '$w' (known: ${names[*]})" 2
done

# --- tools and binaries ------------------------------------------------------
for t in qemu-system-x86_64 qemu-system-aarch64 cpio gzip jq timeout \
	dpkg-deb apt-get; do
	command -v "$t" >/dev/null ||
		die "missing $t (scripts/deps.sh installs qemu-system-x86 qemu-system-arm cpio jq busybox-static)" 2
done

bindir() {
	case "$1" in
	amd64) echo "$root/build/vm-x86" ;;
	arm64) echo "$root/build/arm64" ;;
	esac
}

mkdir -p "$OUT"

# busybox-static for ARCH: the host's own for amd64; arm64's is downloaded
# and only extracted (installing it would replace the host's busybox)
busybox_for() {
	local arch=$1 dir deb ver
	if [ "$arch" = "$(dpkg --print-architecture)" ]; then
		[ -x /bin/busybox ] || die "missing /bin/busybox (apt-get install busybox-static)" 2
		echo /bin/busybox
		return
	fi
	if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		log "dpkg --add-architecture $arch; apt-get update"
		dpkg --add-architecture "$arch" && apt-get update -qq >&2 ||
			die "cannot add the $arch architecture (run as root)"
	fi
	ver=$(apt-cache policy "busybox-static:$arch" 2>/dev/null |
		sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
		die "no busybox-static:$arch candidate (dpkg --add-architecture $arch; apt-get update)"
	dir="$CACHE/busybox-static_${ver//:/%3a}_$arch"
	if [ ! -x "$dir/bin/busybox" ]; then
		mkdir -p "$CACHE/debs"
		deb=$(ls "$CACHE/debs/busybox-static_${ver#*:}_$arch.deb" 2>/dev/null)
		if [ -z "$deb" ]; then
			local tmp
			tmp=$(mktemp -d "$CACHE/debs/.dl.XXXXXX")
			# apt's sandbox user must be able to write there
			if id _apt >/dev/null 2>&1; then chown _apt "$tmp" || true; fi
			log "apt-get download busybox-static:$arch=$ver"
			(cd "$tmp" && apt-get download -q \
				"busybox-static:$arch=$ver" >&2) ||
				{ rm -rf "$tmp"; die "apt-get download busybox-static:$arch failed"; }
			deb="$CACHE/debs/busybox-static_${ver#*:}_$arch.deb"
			mv "$tmp"/*.deb "$deb"
			rm -rf "$tmp"
		fi
		rm -rf "$dir.tmp"
		dpkg-deb -x "$deb" "$dir.tmp" || die "dpkg-deb -x $deb failed"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir/bin/busybox"
}

# the part of the initramfs every kernel of ARCH shares
build_base_initrd() {
	local arch=$1 bin stage busybox f
	bin=$(bindir "$arch")
	for f in pcptop churn tcpstream pipes timed floor hog; do
		[ -x "$bin/$f" ] ||
			die "missing $bin/$f: run make vmtest, or make STATIC=1 OUTPUT=build/vm-x86 all; make ARCH=arm64 all" 2
	done
	busybox=$(busybox_for "$arch") || exit 1
	stage="$OUT/initrd-$arch"
	rm -rf "$stage"
	mkdir -p "$stage/bin" "$stage/boot" "$stage/proc" "$stage/sys" \
		"$stage/dev" "$stage/tmp"
	cp "$busybox" "$stage/bin/busybox"
	cp "$bin/pcptop" "$bin/churn" "$bin/tcpstream" "$bin/pipes" \
		"$bin/timed" "$bin/floor" "$bin/hog" "$stage/bin/"
	cp "$root/tests/oracle/guest.sh" "$stage/bin/oracle-guest.sh"
	cp "$here/init.sh" "$stage/init"
	cp "$here/guest-lib.sh" "$stage/bin/vmtest-lib.sh"
	chmod 755 "$stage/init" "$stage/bin/"*
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$OUT/base-$arch.cpio.gz" ||
		die "building the $arch initramfs failed"
}

# --- one kernel ----------------------------------------------------------------
# Result files in $OUT/$k/: kernel (package line), line (the vmtest line),
# status (PASS/FAIL), free_high (count seen), console-N.log per boot.

# fetch-kernel.sh with the kernel's suites (a private apt configuration
# for those after 6.12)
fetch_for() { # KERNEL FETCH-ARGS...
	local k=$1
	shift
	"$fetch" ${K_SUITES[$k]:+--suites "${K_SUITES[$k]}"} "$@"
}

# From 7.x the image (linux-binary-VER) carries no config: it is in
# linux-base-VER's usr/lib/modules/VER/config. Prints that file.
config_7x() { # KERNEL PACKAGE-NAME VERSION
	local k=$1 base=${2/linux-binary-/linux-base-} dir
	dir=$(fetch_for "$k" "^$(sed 's/[.+]/\\&/g' <<<"$base")\$" "${K_ARCH[$k]}" \
		2>>"$OUT/$k/fetch.log") || return 1
	ls "$dir"/usr/lib/modules/*/config 2>/dev/null | head -n 1
}

btf_min_for() { # KERNEL OUT
	local k=$1 btf
	btf=$(fetch_for "$k" --btf "${K_PATTERN[$k]}" "${K_ARCH[$k]}" 2>"$OUT/$k/btf-min.log") &&
		"$root/build/pcptop" btf-min --object "$(bindir "${K_ARCH[$k]}")/pcptop.bpf.o" \
			"$btf" "$2" >>"$OUT/$k/btf-min.log" 2>&1 || return 1
	# without --object, this host's pcptop covers its own programs: an
	# arm64 kernel's BTF is refused (exit 2), not cut for x86 programs
	"$root/build/pcptop" btf-min "$btf" "$OUT/$k/own-arch.btf" >/dev/null 2>"$OUT/$k/btf-min-own.err"
	echo $? >"$OUT/$k/btf-min-own.rc"
	rm -f "$OUT/$k/own-arch.btf"
}

prepare_kernel() {
	local k=$1 dir res cfg stage img
	mkdir -p "$OUT/$k"
	rm -f "$OUT/$k/skip" "$OUT/$k/known"
	log "$k: resolving ${K_PATTERN[$k]}${K_SUITES[$k]:+ in ${K_SUITES[$k]}} (downloading if not cached)"
	# no such package, or no download: the mirror's side, a SKIP
	dir=$(fetch_for "$k" "${K_PATTERN[$k]}" "${K_ARCH[$k]}" 2>"$OUT/$k/fetch.log") ||
		{ echo "cannot fetch: $(tail -n 1 "$OUT/$k/fetch.log")" >"$OUT/$k/skip"; return 1; }
	res=$(sed -n 's/^fetch-kernel.sh: resolved \([^ ]*\) \([^ ]*\) .*/\1 \2/p' \
		"$OUT/$k/fetch.log" | tail -n 1)
	log "$k: $res"
	echo "$res" >"$OUT/$k/package"
	# boot/vmlinuz-VER up to 6.18, usr/lib/modules/VER/vmlinuz from 7.x
	img=$(ls "$dir"/boot/vmlinuz-* "$dir"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1)
	[ -n "$img" ] || { echo "no vmlinuz in $dir" >"$OUT/$k/error"; return 1; }
	echo "$img" >"$OUT/$k/vmlinuz"
	# the package's config, where a Debian system keeps it: libbpf's
	# __kconfig and pcptop's scale detection read /boot/config-$(uname -r)
	stage="$OUT/$k/initrd-extra"
	rm -rf "$stage"
	mkdir -p "$stage/boot"
	for cfg in "$dir"/boot/config-*; do
		[ -f "$cfg" ] && cp "$cfg" "$stage/boot/"
	done
	if [[ "$img" == */modules/*/vmlinuz ]]; then
		local release=${img%/vmlinuz}
		release=${release##*/}
		cfg=$(config_7x "$k" "${res%% *}") && [ -f "$cfg" ] ||
			{ echo "cannot fetch the config of $release (linux-base): $(tail -n 1 "$OUT/$k/fetch.log")" >"$OUT/$k/skip"; return 1; }
		cp "$cfg" "$stage/boot/config-$release"
	fi
	[ -n "$exec_file" ] && cp "$exec_file" "$stage/exec.sh"
	# a board's BTF as FIELD.md makes it: pcptop btf-min on this host,
	# from the kernel's BTF, for the guest's architecture's BPF object
	if is_board "$k"; then
		btf_min_for "$k" "$stage/pcptop.btf" ||
			{ echo "btf-min failed: $(tail -n 1 "$OUT/$k/btf-min.log")" >"$OUT/$k/error"; return 1; }
	fi
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$OUT/$k/extra.cpio.gz"
	# concatenated cpio archives: the kernel unpacks them in order
	cat "$OUT/base-${K_ARCH[$k]}.cpio.gz" "$OUT/$k/extra.cpio.gz" \
		${VMTEST_EXTRA_CPIO:+"${VMTEST_EXTRA_CPIO//ARCH/${K_ARCH[$k]}}"} \
		>"$OUT/$k/initrd.cpio.gz"
	rm -f "$OUT/$k/error"
}

# seconds the kernel's boots take: the last measured one, else the matrix's
boot_secs() {
	local s
	s=$(cat "$OUT/$1/boot_seconds" 2>/dev/null)
	[[ "$s" =~ ^[0-9]+$ ]] && echo "$s" || echo "${K_SECS[$1]}"
}

# fills the array qemu with the command line booting kernel $1
qemu_cmd() {
	local k=$1 append=$2 cpu vmlinuz initrd=$OUT/$1/initrd.cpio.gz
	vmlinuz=$(cat "$OUT/$k/vmlinuz")
	if [ "${K_ARCH[$k]}" = amd64 ]; then
		# With 2 CPUs the kernel finds TCG's TSCs unsynchronized and
		# switches to the HPET: bpf_ktime_get_ns() then reads an
		# emulated device while tracefs stamps with sched_clock, and a
		# call timed by both came out longer in pcptop's (amd64-6.1,
		# 2 of 154 bulk frees). The oracle suite's setting, for the
		# same reason: one steady clock for both.
		qemu=(qemu-system-x86_64 -m 1024 -smp "${K_SMP[$k]}" $QEMU_EXTRA -nographic -no-reboot
			-kernel "$vmlinuz" -initrd "$initrd"
			-append "console=ttyS0 quiet panic=-1 tsc=reliable clocksource=tsc $append")
	else
		cpu=${K_CPU[$k]}
		[ "$cpu" = - ] && cpu=cortex-a57
		# pauth-impdef: TCG's architected pointer auth is very slow
		[ "$cpu" = max ] && cpu=max,pauth-impdef=on
		qemu=(qemu-system-aarch64 -M virt -cpu "$cpu" -m 1024 -smp "${K_SMP[$k]}" $QEMU_EXTRA
			-nographic -no-reboot -kernel "$vmlinuz" -initrd "$initrd"
			-append "console=ttyAMA0 quiet panic=-1 $append")
	fi
}

# the assertions on a finished boot's console log: check_results
. "$here/checks.sh"
# free_high_verdict
. "$here/free-high.sh"

# why a boot did not get to the end marker, or nothing
boot_failure() {
	local logf=$1 rc=$2 limit=${3:-$TIMEOUT}
	if [ "$(tagged "$logf" end)" = done ]; then
		return
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "timeout after ${limit}s"
	elif grep -q 'Oops' "$logf"; then
		echo "$(grep -m1 -o 'Oops[^[]*' "$logf" | tr -d '\r' | sed 's/ *$//') before the end marker"
	elif grep -q 'Kernel panic' "$logf"; then
		echo "kernel panic: $(grep -m1 -o 'Kernel panic.*' "$logf" | tr -d '\r' | cut -c1-80)"
	else
		echo "no end marker (qemu exit $rc)"
	fi
}

run_kernel() {
	local k=$1 attempt rc why logf line qemu
	rm -f "$OUT/$k"/console-*.log "$OUT/$k/line" "$OUT/$k/status" \
		"$OUT/$k/free_high" "$OUT/$k/oracle"
	# in the job, so resolving and unpacking overlap the other VM's boot;
	# fetch-kernel.sh serialises downloads on its lock, and the timeout
	# below covers qemu only, so a slow mirror cannot fail a boot
	prepare_kernel "$k" || log "$k: $(cat "$OUT/$k/skip" "$OUT/$k/error" 2>/dev/null)"
	if [ -f "$OUT/$k/skip" ]; then
		echo "SKIP" >"$OUT/$k/status"
		echo "vmtest $k: SKIP ($(cat "$OUT/$k/skip"))" >"$OUT/$k/line"
		return
	fi
	if [ -f "$OUT/$k/error" ]; then
		line="FAIL ($(cat "$OUT/$k/error"))"
		echo "FAIL" >"$OUT/$k/status"
		echo "vmtest $k: $line" >"$OUT/$k/line"
		return
	fi
	local timeouts=0 max=$RETRIES limit=$TIMEOUT
	# a board row runs its oracle on one CPU plus the board's checks,
	# near the 300 s here (docs/PERFORMANCE.md): on a slower machine a
	# board would time out and boot again, 300 s lost a board
	is_board "$k" && limit=$BOARD_TIMEOUT
	attempt=0
	while [ "$attempt" -lt "$max" ]; do
		attempt=$((attempt + 1))
		logf="$OUT/$k/console-$attempt.log"
		local extra=
		[ "${VMTEST_CRASH_FIRST:-0}" = 1 ] && [ "$attempt" = 1 ] &&
			extra=" vmtest.crash=1"
		# the board's own checks (live view on the serial console, no
		# sysfs BTF) run on the boards of the matrix (VMTEST_BOARDS)
		is_board "$k" && extra+=" vmtest.board=1"
		# and the stalls window: on every row but the one-CPU ones
		# that are no board (much of their boot) and the 16K page
		# ones: there the pipes' pipe_buffer arrays fit an order-0
		# page, nothing compacts, and the phase ran its three rounds
		# for nothing (docs/PERFORMANCE.md)
		{ { [ "${K_SMP[$k]}" = 1 ] && ! is_board "$k"; } || [[ "$k" == *-16k ]]; } &&
			extra+=" vmtest.stalls=0"
		qemu_cmd "$k" "vmtest.mode=test$extra"
		boot_marker "$k" "$(cut -d' ' -f1 <"$OUT/$k/package"), attempt $attempt/$max"
		local t0=$SECONDS
		timeout -k 10 "$limit" "${qemu[@]}" </dev/null >"$logf" 2>&1
		rc=$?
		log "$k: boot $attempt ended after $((SECONDS - t0))s (qemu exit $rc)"
		why=$(boot_failure "$logf" "$rc" "$limit")
		if [ -z "$why" ]; then
			echo "$((SECONDS - t0))" >"$OUT/$k/boot_seconds"
			break
		fi
		# a hung VM gets one more boot, once, with twice the time: a
		# TCG VM starved by a loaded host looks hung too (the boards
		# took 140-220 s at a host load of 8-11, 75-98 s idle); an
		# early death gets RETRIES
		if [[ "$why" == timeout* ]]; then
			timeouts=$((timeouts + 1))
			[ "$timeouts" -gt 1 ] && break
			max=$((max + 1))
			echo "vmtest $k: boot $attempt timed out after ${limit}s, retrying once with $((2 * limit))s" >>"$OUT/$k/retries"
			limit=$((2 * limit))
			continue
		fi
		if [ "$attempt" -lt "$max" ]; then
			echo "vmtest $k: retry $((attempt + 1))/$max ($why)" >>"$OUT/$k/retries"
			continue
		fi
		break
	done
	# guest seconds per phase of init.sh, "boot" up to its first
	tagged "$logf" phase | awk '{ printf "%s %.1f\n", prev ? prev : "boot", $2 - t; prev = $1; t = $2 }' \
		>"$OUT/$k/phases"
	if [ -n "$why" ]; then
		line="FAIL ($why; console log $logf)"
	elif line=$(check_results "$k" "$logf"); then
		:
	else
		line="$line; console log $logf"
	fi
	[ "$attempt" -gt 1 ] && line="$line [boots: $attempt]"
	[ "$timeouts" -gt 0 ] && line="$line [timed out $timeouts time(s): retried once]"
	echo "${line%% *}" >"$OUT/$k/status"
	echo "vmtest $k: $line" >"$OUT/$k/line"
}

# --- main ------------------------------------------------------------------
archs=()
for k in "${selected[@]}"; do
	case " ${archs[*]} " in *" ${K_ARCH[$k]} "*) ;; *) archs+=("${K_ARCH[$k]}") ;; esac
done
for a in "${archs[@]}"; do
	build_base_initrd "$a"
done

if [ -n "$shell_kernel" ]; then
	prepare_kernel "$shell_kernel" ||
		die "$(cat "$OUT/$shell_kernel/skip" "$OUT/$shell_kernel/error" 2>/dev/null)"
	if [ -n "$exec_file" ]; then
		# a kernel that crashes under TCG gets RETRIES boots, as in
		# the matrix (amd64-6.12-rt's Oops, int3 in handle_softirqs,
		# 2026-12-02); a timeout or a clean end is the script's own.
		# CI at dbfe577 lost the record suite's last two lines 40 s
		# into the boot and kept no console: the log now goes out
		# whole, and the reason on stderr
		exec_log=$(mktemp)
		trap 'rm -f "$exec_log"' EXIT
		for attempt in $(seq "$RETRIES"); do
			extra=
			[ "${VMTEST_CRASH_FIRST:-0}" = 1 ] && [ "$attempt" = 1 ] &&
				extra=" vmtest.crash=1"
			qemu_cmd "$shell_kernel" "vmtest.mode=exec$extra"
			boot_marker "$shell_kernel" "--exec $(basename "$exec_file"), attempt $attempt/$RETRIES"
			timeout -k 10 "$TIMEOUT" "${qemu[@]}" </dev/null | tr -d '\r' >"$exec_log"
			rc=${PIPESTATUS[0]}
			why=$(boot_failure "$exec_log" "$rc")
			case "$why" in
			Oops* | "kernel panic"*) ;;
			*) break ;;
			esac
			[ "$attempt" -lt "$RETRIES" ] &&
				log "$shell_kernel: boot $attempt/$RETRIES crashed ($why), booting again"
		done
		[ -n "$why" ] && log "$shell_kernel: $why"
		cat "$exec_log"
		exit "$rc"
	fi
	qemu_cmd "$shell_kernel" "vmtest.mode=shell"
	boot_marker "$shell_kernel" "--shell"
	log "$shell_kernel: booting to a shell (exit the shell to power off; Ctrl-A X quits qemu)"
	exec "${qemu[@]}"
fi

start=$SECONDS
log "testing ${#selected[@]} kernel(s), $JOBS at a time"

# the longest boots first (the boards: one emulated CPU and their own
# checks, 75-98 s against 32-60 s), so the short ones fill the end of the
# run; ties keep the matrix's order
launch=()
mapfile -t launch < <(for k in "${selected[@]}"; do
	echo "$(boot_secs "$k") $k"
done | sort -s -k1,1nr | cut -d' ' -f2)
rm -f "$OUT"/*/retries
for k in "${launch[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n
	done
	run_kernel "$k" &
done
wait

passed=0 failed=0 skipped=0 known=0
for k in "${selected[@]}"; do
	[ -f "$OUT/$k/retries" ] && cat "$OUT/$k/retries"
	[ -f "$OUT/$k/oracle" ] && cat "$OUT/$k/oracle"
	if [ -f "$OUT/$k/line" ]; then
		cat "$OUT/$k/line"
	else
		echo "vmtest $k: FAIL (runner died; see $OUT/$k)"
	fi
	if [ -s "$OUT/$k/known" ]; then
		cat "$OUT/$k/known"
		known=$((known + $(wc -l <"$OUT/$k/known")))
	fi
	case "$(cat "$OUT/$k/status" 2>/dev/null)" in
	PASS) passed=$((passed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
done
free_high_verdict "$OUT" "${selected[@]}"
case $? in
0) ;;
3) skipped=$((skipped + 1)) ;;
*) failed=$((failed + 1)) ;;
esac
# a boot the stalls load did not stall could not run the stall checks:
# most boots of the run must have (tests/oracle/stalls-required.sh)
if [ $((passed + failed)) -gt 0 ]; then
	sfiles=()
	for k in "${selected[@]}"; do sfiles+=("$OUT/$k/oracle"); done
	"$root/tests/oracle/stalls-required.sh" vmtest "${sfiles[@]}"
	case $? in
	0) ;;
	3) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
fi
# A row that cannot be fetched is a SKIP, but the matrix cannot lose its
# ground: bookworm's rows (6.1, 6.12, from the machine's own suites) must
# run, and of the newer ones (trixie-backports, sid) at most one may be
# missing (the mirror mid-update); make test fails otherwise
old_skips= new_skips=0
for k in "${selected[@]}"; do
	[ "$(cat "$OUT/$k/status" 2>/dev/null)" = SKIP ] || continue
	if [ -z "${K_SUITES[$k]}" ]; then
		old_skips+="${old_skips:+ }$k"
	else
		new_skips=$((new_skips + 1))
	fi
done
if [ -n "$old_skips" ]; then
	echo "vmtest skips: FAIL (bookworm rows skipped: $old_skips)"
	failed=$((failed + 1))
elif [ "$new_skips" -gt 1 ]; then
	echo "vmtest skips: FAIL ($new_skips of the newer rows skipped, at most 1 may)"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed, $skipped skipped$([ $known -gt 0 ] && echo ", $known known misses")"
log "wall time $((SECONDS - start))s; boots (s): $(for k in "${launch[@]}"; do printf '%s=%s ' "$k" "$(cat "$OUT/$k/boot_seconds" 2>/dev/null || echo -)"; done)"
[ "$failed" -eq 0 ]

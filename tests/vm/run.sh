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
#   run.sh --shell KERNEL          boot KERNEL to a busybox shell (interactive)
#   run.sh --exec FILE KERNEL      boot KERNEL, run the sh script FILE
#                                  instead of the checks, print the console
#   run.sh --list                  print the kernel names
#
# Prints "vmtest KERNEL: PASS|FAIL (...)" per kernel and "N passed, N failed";
# exits 0 when everything passed, 1 on a failure, 2 on bad input.
#
# Needs the static binaries: `make STATIC=1 OUTPUT=build/vm-x86 all` and
# `make ARCH=arm64 all` (make vmtest does both).
#
# Environment:
#   PCPTOP_CACHE     kernel cache (default /var/cache/pcptop/kernels)
#   VMTEST_OUT       logs and initramfs (default build/vmtest)
#   VMTEST_JOBS      VMs at once (default 2: each TCG VM keeps ~2 cores busy)
#   VMTEST_TIMEOUT   seconds per boot before it counts as hung (default 300)
#   VMTEST_RETRIES   boots per kernel when one dies early (default 3)
#   VMTEST_CRASH_FIRST=1  crash each kernel's first boot on purpose: a
#                    self-test of the retry path
#   VMTEST_SMP       CPUs per VM (default: the matrix's smp column)
#   VMTEST_QEMU_EXTRA  more qemu arguments ("-icount shift=0": make bench)
#   VMTEST_EXTRA_CPIO  one more cpio.gz for the initramfs; ARCH in its
#                    path becomes amd64 or arm64

set -uo pipefail

prog=vmtest
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
matrix_file=$here/matrix
fetch=$here/fetch-kernel.sh

CACHE=${PCPTOP_CACHE:-/var/cache/pcptop/kernels}
export PCPTOP_CACHE=$CACHE
OUT=${VMTEST_OUT:-$root/build/vmtest}
JOBS=${VMTEST_JOBS:-2}
TIMEOUT=${VMTEST_TIMEOUT:-300}
RETRIES=${VMTEST_RETRIES:-3}

QEMU_EXTRA=${VMTEST_QEMU_EXTRA:-}

log() { echo "$prog: $*" >&2; }
die() { echo "$prog: $*" >&2; exit "${2:-1}"; }
usage() {
	echo "usage: run.sh [-j JOBS] [KERNEL...] | --shell KERNEL | --exec FILE KERNEL | --list" >&2
	exit 2
}

# --- the matrix ------------------------------------------------------------
declare -A K_ARCH K_CPU K_SMP K_PATTERN K_MODES K_FALLBACK K_DECAY K_BOUNDED
names=()
while read -r name arch cpu smp pattern modes fallback decay bounded; do
	case "$name" in '' | '#'*) continue ;; esac
	[ -n "$bounded" ] || die "$matrix_file: short line for $name" 2
	names+=("$name")
	K_ARCH[$name]=$arch K_CPU[$name]=$cpu K_PATTERN[$name]=$pattern
	K_SMP[$name]=${VMTEST_SMP:-$smp}
	K_MODES[$name]=$modes K_FALLBACK[$name]=$fallback K_DECAY[$name]=$decay
	K_BOUNDED[$name]=$bounded
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
[[ "$RETRIES" =~ ^[1-9][0-9]*$ ]] || die "bad VMTEST_RETRIES '$RETRIES'" 2
[ -n "$shell_kernel" ] && selected=("$shell_kernel")
[ ${#selected[@]} -gt 0 ] || selected=("${names[@]}")
for k in "${selected[@]}"; do
	[ -n "${K_ARCH[$k]:-}" ] ||
		die "unknown kernel '$k' (known: ${names[*]})" 2
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
	for f in pcptop churn tcpstream pipes timed floor; do
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
		"$bin/timed" "$bin/floor" "$stage/bin/"
	cp "$root/tests/oracle/guest.sh" "$stage/bin/oracle-guest.sh"
	cp "$here/init.sh" "$stage/init"
	chmod 755 "$stage/init" "$stage/bin/"*
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$OUT/base-$arch.cpio.gz" ||
		die "building the $arch initramfs failed"
}

# --- one kernel ----------------------------------------------------------------
# Result files in $OUT/$k/: kernel (package line), line (the vmtest line),
# status (PASS/FAIL), free_high (count seen), console-N.log per boot.

btf_min_for() { # KERNEL OUT
	local k=$1 btf
	btf=$("$fetch" --btf "${K_PATTERN[$k]}" "${K_ARCH[$k]}" 2>"$OUT/$k/btf-min.log") &&
		"$root/build/pcptop" btf-min --object "$(bindir "${K_ARCH[$k]}")/pcptop.bpf.o" \
			"$btf" "$2" >>"$OUT/$k/btf-min.log" 2>&1 || return 1
	# without --object, this host's pcptop covers its own programs: an
	# arm64 kernel's BTF is refused (exit 2), not cut for x86 programs
	"$root/build/pcptop" btf-min "$btf" "$OUT/$k/own-arch.btf" >/dev/null 2>"$OUT/$k/btf-min-own.err"
	echo $? >"$OUT/$k/btf-min-own.rc"
	rm -f "$OUT/$k/own-arch.btf"
}

prepare_kernel() {
	local k=$1 dir res cfg stage
	mkdir -p "$OUT/$k"
	log "$k: resolving ${K_PATTERN[$k]} (downloading if not cached)"
	dir=$("$fetch" "${K_PATTERN[$k]}" "${K_ARCH[$k]}" 2>"$OUT/$k/fetch.log") ||
		{ echo "fetch failed: $(tail -n 1 "$OUT/$k/fetch.log")" >"$OUT/$k/error"; return 1; }
	res=$(sed -n 's/^fetch-kernel.sh: resolved \([^ ]*\) \([^ ]*\) .*/\1 \2/p' \
		"$OUT/$k/fetch.log" | tail -n 1)
	log "$k: $res"
	echo "$res" >"$OUT/$k/package"
	ls "$dir"/boot/vmlinuz-* >"$OUT/$k/vmlinuz" 2>/dev/null ||
		{ echo "no vmlinuz in $dir" >"$OUT/$k/error"; return 1; }
	# the package's config, where a Debian system keeps it: libbpf's
	# __kconfig and pcptop's scale detection read /boot/config-$(uname -r)
	stage="$OUT/$k/initrd-extra"
	rm -rf "$stage"
	mkdir -p "$stage/boot"
	for cfg in "$dir"/boot/config-*; do
		[ -f "$cfg" ] && cp "$cfg" "$stage/boot/"
	done
	[ -n "$exec_file" ] && cp "$exec_file" "$stage/exec.sh"
	# a board's BTF as FIELD.md makes it: pcptop btf-min on this host,
	# from the kernel's BTF, for the guest's architecture's BPF object
	if [ "${K_SMP[$k]}" = 1 ]; then
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

# lines init.sh printed with TAG, serial \r removed; not anchored: the
# first line can follow the firmware's terminal escapes
tagged() {
	tr -d '\r' <"$1" | sed -n "s/^.*VMTEST:$2://p"
}

# The live view on the serial console, with no terminfo in the initramfs:
# each TERM drew its frames with escape sequences through the built-in
# entry, dumb printed text frames; adds to the caller's fails.
check_top() {
	local logf=$1 t screen
	for t in linux vt100 xterm-256color dumb; do
		[ "$(tagged "$logf" top_rc | sed -n "s/^$t //p")" = 0 ] ||
			{ fails+=("top TERM=$t: exit $(tagged "$logf" top_rc | sed -n "s/^$t //p"), $(tagged "$logf" top_err | sed -n "s/^$t //p" | head -n 1)"); continue; }
		screen=$(tr -d '\r' <"$logf" |
			sed -n "/VMTEST:top_begin:$t\$/,/VMTEST:top_rc:$t /p")
		# the sort mark's attribute splits "*CPU ZONE": the rest is whole
		grep -q 'ZONE  *COUNT  *HIGH  *BATCH' <<<"$screen" ||
			fails+=("top TERM=$t: no table on the console")
		if [ "$t" = dumb ]; then
			grep -q 'TERM is dumb' <<<"$(tagged "$logf" top_err)" ||
				fails+=("top TERM=dumb: no note on stderr")
		else
			grep -q $'\033\[' <<<"$screen" ||
				fails+=("top TERM=$t: no escape sequences")
			grep -q "built-in" <<<"$screen" ||
				fails+=("top TERM=$t: the built-in entry was not said")
		fi
	done
}

# Without sysfs BTF: the error names --btf; with --btf the function
# probes are kprobes and tracepoints raw, and pages are counted; fentry is
# refused with the reason. Adds to the caller's fails.
check_btf() {
	local logf=$1 js rc_v
	[ "$(tagged "$logf" nobtf_rc)" = 2 ] && grep -q -- '--btf FILE' <<<"$(tagged "$logf" nobtf_err)" ||
		fails+=("no sysfs BTF: info exit $(tagged "$logf" nobtf_rc), '$(tagged "$logf" nobtf_err | head -n 1)'")
	# the whole BTF's stat of the RSS pair: "EXIT PEAK_KIB" and its JSON
	rc_v=$(tagged "$logf" btfrss_rc | sed -n 's/^vmlinux //p')
	js=$(tagged "$logf" btfrss_json:vmlinux)
	if [ "${rc_v%% *}" != 0 ] || ! jq -e . >/dev/null 2>&1 <<<"$js"; then
		fails+=("--btf: stat exit '${rc_v%% *}', $(tagged "$logf" btfrss_err:vmlinux | head -n 1)")
	else
		[ "$(jq -r .modes.bulk_free <<<"$js")" = kprobe ] ||
			fails+=("--btf: bulk_free is $(jq -r .modes.bulk_free <<<"$js"), expected kprobe")
		[ "$(jq '[.bulk_free.pages // 0, .refill.pages // 0] | max' <<<"$js")" -gt 0 ] ||
			fails+=("--btf: no pages counted")
	fi
	[ "$(tagged "$logf" btf_fentry_rc)" = 2 ] &&
		grep -q 'no BTF of its own' <<<"$(tagged "$logf" btf_fentry_err)" ||
		fails+=("--btf --mode fentry: exit $(tagged "$logf" btf_fentry_rc), '$(tagged "$logf" btf_fentry_err | head -n 1)'")
	check_btf_min "$logf" "$rc_v" "$js"
}

# pcptop btf-min's BTF: the modes the whole BTF gives, pages counted, and
# the peak RSS within issue 13's 8 MiB (the whole BTF is read twice by
# libbpf 1.1: about 2 x its size, reported beside it)
BTF_MIN_RSS_KB=8192
check_btf_min() { # LOGF WHOLE_RC_LINE WHOLE_JSON
	local logf=$1 rc_v=$2 js_v=$3 rc_m js_m
	rc_m=$(tagged "$logf" btfrss_rc | sed -n 's/^min //p')
	js_m=$(tagged "$logf" btfrss_json:min)
	if [ "${rc_m%% *}" != 0 ] || ! jq -e . >/dev/null 2>&1 <<<"$js_m"; then
		fails+=("btf-min: stat exit '${rc_m%% *}', $(tagged "$logf" btfrss_err:min | head -n 1)")
		return
	fi
	[ "$(jq -c .modes <<<"$js_m")" = "$(jq -c .modes <<<"$js_v")" ] ||
		fails+=("btf-min: modes $(jq -c .modes <<<"$js_m") differ from the whole BTF's $(jq -c .modes <<<"$js_v")")
	[ "$(jq '.bulk_free.pages // 0' <<<"$js_m")" -gt 0 ] ||
		fails+=("btf-min: no pages counted")
	[ "${rc_m#* }" -gt 0 ] && [ "${rc_m#* }" -le $BTF_MIN_RSS_KB ] ||
		fails+=("btf-min: peak RSS ${rc_m#* } KiB, over $BTF_MIN_RSS_KB")
	btf_rss="; peak RSS --btf: btf-min ${rc_m#* } KiB, whole BTF ${rc_v#* } KiB"
	if [ "${K_ARCH[$k]}" = arm64 ] && [ "$(uname -m)" = x86_64 ]; then
		[ "$(cat "$OUT/$k/btf-min-own.rc")" = 2 ] &&
			grep -q "is an arm64 kernel's BTF" "$OUT/$k/btf-min-own.err" ||
			fails+=("btf-min without --object on an arm64 BTF: exit $(cat "$OUT/$k/btf-min-own.rc"), '$(head -n 1 "$OUT/$k/btf-min-own.err")'")
	fi
}

# why a boot did not get to the end marker, or nothing
boot_failure() {
	local logf=$1 rc=$2
	if [ "$(tagged "$logf" end)" = done ]; then
		return
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "timeout after ${TIMEOUT}s"
	elif grep -q 'Oops' "$logf"; then
		echo "$(grep -m1 -o 'Oops[^[]*' "$logf" | tr -d '\r' | sed 's/ *$//') before the end marker"
	elif grep -q 'Kernel panic' "$logf"; then
		echo "kernel panic: $(grep -m1 -o 'Kernel panic.*' "$logf" | tr -d '\r' | cut -c1-80)"
	else
		echo "no end marker (qemu exit $rc)"
	fi
}

# assertions on one finished boot; prints the vmtest line's detail and
# returns 1 on a failure. The oracle lines go to $OUT/$k/oracle.
check_results() {
	local k=$1 logf=$2 info stat rep fails=() modes got want i probe
	local exp_modes limit batch scale pbo bulk xpages fh_count fh_max dmax
	local cmax decay_calls refill hold fallback btf_rss=

	[ "$(tagged "$logf" btf)" = yes ] || fails+=("no /sys/kernel/btf/vmlinux")
	if [ "${K_SMP[$k]}" = 1 ]; then
		check_top "$logf"
		check_btf "$logf"
	fi
	info=$(tagged "$logf" info)
	stat=$(tagged "$logf" stat)
	rep=$(tr -d '\r' <"$logf" | sed -n 's/^.*ORACLE:report://p')
	if ! jq -e . >/dev/null 2>&1 <<<"$info" || [ -z "$info" ]; then
		echo "FAIL (pcptop info: rc $(tagged "$logf" info_rc): $(tagged "$logf" info_err | head -n 1))"
		return 1
	fi
	if ! jq -e . >/dev/null 2>&1 <<<"$stat" || [ -z "$stat" ]; then
		echo "FAIL (pcptop stat: rc $(tagged "$logf" stat_rc): $(tagged "$logf" stat_err | head -n 1))"
		return 1
	fi
	if ! jq -e .totals >/dev/null 2>&1 <<<"$rep"; then
		echo "FAIL (pcptop record/report of the oracle run: $(tr -d '\r' <"$logf" | sed -n 's/^.*ORACLE:\(record\|report\)_err://p' | head -n 1))"
		return 1
	fi
	echo "$info" >"$OUT/$k/info.json"
	echo "$stat" >"$OUT/$k/stat.json"
	echo "$rep" >"$OUT/$k/report.json"

	# modes, in info, in stat and in the recording
	IFS=, read -r -a exp_modes <<<"${K_MODES[$k]}"
	i=0
	modes=
	for probe in bulk_free refill decay drain free_high; do
		want=${exp_modes[$i]}
		got=$(jq -r --arg p "$probe" '.probes[] | select(.name == $p) | .mode' <<<"$info")
		modes+="${modes:+ }$probe=$got"
		[ "$got" = "$want" ] ||
			fails+=("info: $probe is $got, expected $want")
		got=$(jq -r --arg p "$probe" '.modes[$p]' <<<"$stat")
		[ "$got" = "$want" ] ||
			fails+=("stat: $probe is $got, expected $want")
		got=$(jq -r --arg p "$probe" '.probes[] | select(.name == $p) | .mode' <<<"$rep")
		[ "$got" = "$want" ] ||
			fails+=("recording: $probe is $got, expected $want")
		i=$((i + 1))
	done
	# Hooks that run per page: a program whose runs reach a quarter of
	# the pages counted (a per-batch one runs once per 30-2016 pages).
	# They must be exactly the ones info says run per page, which the
	# modes above fix: the stand-in tracepoints, and the commit function
	# with --exact-free-high.
	local pages per_page want_pp=
	pages=$(jq '[.bulk_free.pages // 0, .refill.pages // 0] | max' <<<"$stat")
	# the interrupt and lock tracepoints run per interrupt, not per page:
	# on a 16k-page kernel a short run frees fewer pages than the timer
	# ticks it lasts
	per_page=$(jq -r --argjson p "$pages" '[.self.programs[] | select($p > 0 and .runs * 4 >= $p) | .name | select(test("^tp_(irq|softirq|lock)_") | not)] | sort | join(",")' <<<"$stat")
	for probe in $(jq -r '.probes[] | select(.per_page) | .name' <<<"$info"); do
		case $probe in
		bulk_free) want_pp+="${want_pp:+,}tp_drain" ;;
		refill) want_pp+="${want_pp:+,}tp_zone_locked" ;;
		free_high) want_pp+="${want_pp:+,}fe_commit,fx_commit" ;;
		esac
	done
	want_pp=$(tr ',' '\n' <<<"$want_pp" | sed '/^$/d' | sort | paste -sd,)
	if [ "$(jq '.self.bpf_stats' <<<"$stat")" != true ]; then
		fails+=("no BPF run counts in stat's self (bpf_stats_enabled)")
	elif [ "$per_page" != "$want_pp" ]; then
		fails+=("programs running per page: '$per_page', expected '$want_pp' ($pages pages)")
	fi
	modes+="; per page: ${per_page:-none}"
	fallback=$(jq -r '.fallback // ""' <<<"$info")
	if [ "${K_FALLBACK[$k]}" = yes ]; then
		grep -q 'fentry refused' <<<"$fallback" ||
			fails+=("no fentry refusal in fallback: '$fallback'")
		grep -Eq '524|ENOTSUPP' <<<"$fallback" ||
			fails+=("fallback does not name -524/ENOTSUPP: '$fallback'")
	elif [ -n "$fallback" ]; then
		fails+=("unexpected fallback: $fallback")
	fi

	# figures of the oracle run's recording
	local t=.totals
	bulk=$(jq "$t.bulk_free.pages" <<<"$rep")
	refill=$(jq "$t.refill.pages" <<<"$rep")
	hold=$(jq "$t.lock_hold_ns.total" <<<"$rep")
	xpages=$(jq "$t.cross_check.drain_tracepoint_pages // \"absent\"" <<<"$rep")
	fh_count=$(jq "$t.free_high.count" <<<"$rep")
	fh_max=$(jq "$t.free_high.max" <<<"$rep")
	dmax=$(jq "$t.drain.max" <<<"$rep")
	cmax=$(jq "$t.decay.max // \"-\"" <<<"$rep")
	decay_calls=$(jq "$t.decay.calls // \"-\"" <<<"$rep")
	[ "$bulk" -gt 0 ] 2>/dev/null || fails+=("bulk_free.pages is $bulk")
	[ "$refill" -gt 0 ] 2>/dev/null || fails+=("refill.pages is $refill")
	[ "$hold" -gt 0 ] 2>/dev/null || fails+=("lock_hold_ns.total is $hold")
	if [ "${K_DECAY[$k]}" = yes ]; then
		[ "$decay_calls" -gt 0 ] 2>/dev/null ||
			fails+=("decay.calls is $decay_calls")
	fi

	# No free_high flush or drain chunk asks for more than batch <<
	# scale (where the kernel caps it: the matrix's bounded column). The
	# max fields count pages freed, and free_pcppages_bulk()
	# frees whole pages: it stops once its count is <= 0, so when it runs
	# out on a high-order list the last page overshoots the request by up
	# to (1 << order) - 1; the THP lists hold order pageblock_order pages.
	# Seen on amd64 6.12: one free_high flush of 2136 pages = a 2016-page
	# request whose last page was a 512-page THP taken with 392 left.
	batch=$(jq '[.zones[].cpus[].batch] | max' <<<"$info")
	scale=$(jq '.scale.value' <<<"$info")
	pbo=$(jq '.pageblock_order' <<<"$info")
	if [ "${K_BOUNDED[$k]}" = - ]; then
		limit="none (no cap on this kernel)"
	elif [[ "$batch" =~ ^[0-9]+$ ]] && [[ "$scale" =~ ^[0-9]+$ ]] &&
	   [[ "$pbo" =~ ^[0-9]+$ ]]; then
		limit=$((batch << scale))
		local slack=$(((1 << pbo) - 1)) over=0
		local bounded
		IFS=, read -r -a bounded <<<"${K_BOUNDED[$k]}"
		for probe in "${bounded[@]}"; do
			local m
			m=$(jq "$t.$probe.max" <<<"$rep")
			if [ "$m" -gt $((limit + slack)) ]; then
				fails+=("$probe.max $m > batch $batch << scale $scale (+ $slack for the last page's order)")
			elif [ "$m" -gt "$limit" ]; then
				over=$((over + 1))
			fi
		done
		[ "$over" -eq 0 ] || limit="$limit (+ last-page overshoot on $over)"
	else
		limit=?
		fails+=("no batch ($batch), scale ($scale) or pageblock_order ($pbo) in info")
	fi

	# every figure against the kernel's own count of the same window
	local true_scale=none ocheck
	[[ "$scale" =~ ^[0-9]+$ ]] && [ "$(jq -r .scale.source <<<"$info")" != none ] &&
		true_scale=$scale
	ocheck=$("$root/tests/oracle/check.sh" "$logf" "$k smp=${K_SMP[$k]} scale=$true_scale" "$true_scale")
	local orc=$?
	echo "$ocheck" >"$OUT/$k/oracle"
	[ $orc -eq 0 ] || fails+=("oracle: $(grep -c ' FAIL' <<<"$ocheck") checks failed (see the oracle lines)")

	echo "$fh_count" >"$OUT/$k/free_high"
	local release
	release=$(tagged "$logf" begin | cut -d' ' -f1)
	[ -n "$fallback" ] && modes+="; fallback: ${fallback%%:*}"
	local figures="$release; $modes; bulk_free $bulk pages = tracepoint $xpages, refill $refill, free_high $fh_count (max $fh_max), decay $decay_calls (max $cmax), drain max $dmax, limit $batch<<$scale=$limit$btf_rss; $(tail -n 1 <<<"$ocheck" | sed 's/^oracle [^:]*: //')"
	if [ ${#fails[@]} -gt 0 ]; then
		local IFS=';'
		echo "FAIL (${fails[*]}; $figures)"
		return 1
	fi
	echo "PASS ($figures)"
}

run_kernel() {
	local k=$1 attempt rc why logf line qemu
	rm -f "$OUT/$k"/console-*.log "$OUT/$k/line" "$OUT/$k/status" \
		"$OUT/$k/free_high" "$OUT/$k/oracle"
	# in the job, so resolving and unpacking overlap the other VM's boot;
	# fetch-kernel.sh serialises downloads on its lock, and the timeout
	# below covers qemu only, so a slow mirror cannot fail a boot
	prepare_kernel "$k" || log "$k: $(cat "$OUT/$k/error")"
	if [ -f "$OUT/$k/error" ]; then
		line="FAIL ($(cat "$OUT/$k/error"))"
		echo "FAIL" >"$OUT/$k/status"
		echo "vmtest $k: $line" >"$OUT/$k/line"
		return
	fi
	for attempt in $(seq 1 "$RETRIES"); do
		logf="$OUT/$k/console-$attempt.log"
		local extra=
		[ "${VMTEST_CRASH_FIRST:-0}" = 1 ] && [ "$attempt" = 1 ] &&
			extra=" vmtest.crash=1"
		# the board's own checks (live view on the serial console, no
		# sysfs BTF) run on the boards of the matrix: smp 1
		[ "${K_SMP[$k]}" = 1 ] && extra+=" vmtest.board=1"
		qemu_cmd "$k" "vmtest.mode=test$extra"
		log "$k: booting ($(cut -d' ' -f1 <"$OUT/$k/package"), attempt $attempt/$RETRIES)"
		local t0=$SECONDS
		timeout -k 10 "$TIMEOUT" "${qemu[@]}" </dev/null >"$logf" 2>&1
		rc=$?
		log "$k: boot $attempt ended after $((SECONDS - t0))s (qemu exit $rc)"
		why=$(boot_failure "$logf" "$rc")
		[ -z "$why" ] && break
		# a hung VM is not one of the early deaths worth another boot
		if [ "$attempt" -lt "$RETRIES" ] && [[ "$why" != timeout* ]]; then
			echo "vmtest $k: retry $((attempt + 1))/$RETRIES ($why)"
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
	prepare_kernel "$shell_kernel" || die "$(cat "$OUT/$shell_kernel/error")"
	if [ -n "$exec_file" ]; then
		qemu_cmd "$shell_kernel" "vmtest.mode=exec"
		timeout -k 10 "$TIMEOUT" "${qemu[@]}" </dev/null | tr -d '\r'
		exit "${PIPESTATUS[0]}"
	fi
	qemu_cmd "$shell_kernel" "vmtest.mode=shell"
	log "$shell_kernel: booting to a shell (exit the shell to power off; Ctrl-A X quits qemu)"
	exec "${qemu[@]}"
fi

start=$SECONDS
log "testing ${#selected[@]} kernel(s), $JOBS at a time"

# the boards first: one emulated CPU and their own checks make them the
# longest boots (83-98 s against 32-38 s), and two at a time the short
# ones then fill the end of the run
launch=()
for k in "${selected[@]}"; do
	[ "${K_SMP[$k]}" = 1 ] && launch+=("$k")
done
for k in "${selected[@]}"; do
	[ "${K_SMP[$k]}" = 1 ] || launch+=("$k")
done
for k in "${launch[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n
	done
	run_kernel "$k" &
done
wait

passed=0 failed=0 fh_seen=
for k in "${selected[@]}"; do
	[ -f "$OUT/$k/oracle" ] && cat "$OUT/$k/oracle"
	if [ -f "$OUT/$k/line" ]; then
		cat "$OUT/$k/line"
	else
		echo "vmtest $k: FAIL (runner died; see $OUT/$k)"
	fi
	if [ "$(cat "$OUT/$k/status" 2>/dev/null)" = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
	n=$(cat "$OUT/$k/free_high" 2>/dev/null || echo 0)
	[ "$n" -gt 0 ] 2>/dev/null && fh_seen+="${fh_seen:+, }$k ($n)"
done
# free_high depends on timing: one kernel of the run showing it is enough
if [ -n "$fh_seen" ]; then
	echo "vmtest free_high: PASS (seen on $fh_seen)"
else
	echo "vmtest free_high: FAIL (free_high.count is 0 on every kernel of the run)"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
log "wall time $((SECONDS - start))s"
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Two builds of pcptop in its default mode, side by side in the same
# boots, in guest instructions: REV's (A) against this checkout's (B), on
# Debian kernels under qemu -icount shift=0 with one CPU (icount.sh's
# conventions). One boot holds both because the bounds this measures
# (issue 29: +0.2 % on bonnie++) are below what moves between boots.
# REV is built in a temporary git worktree (static x86, arm64), packed as
# /bin/pcptop-a into an extra cpio per architecture beside bonnie++ and
# the kernels' loop, virtio_blk and ext4 modules, and
# tests/bench/ab-guest.sh runs the workloads. bonnie-ext4, the rehearsal's
# bonnie++ on ext4 on a virtio disk, runs in a boot of its own: with less
# RAM (bonnie++'s file is twice it, and a second -m overrides run.sh's,
# qemu taking the last) and a fresh image made here, while the other
# workloads keep their 1 GiB boot. A benchmark, not a test: it prints
# Markdown tables and never fails on a number.
#
# Usage: tests/bench/ab.sh REV [KERNEL...]   (default amd64-6.12 arm64-6.12)
# Environment: REPS (rounds, default 3), WORKLOADS (ab-guest.sh's, default
# all six), DISK_MEM (bonnie-ext4's guest RAM in MiB, default 256), JOBS
# (make's, default 2), PCPTOP_CACHE.
# Needs B's binaries: make vm-builds. Output: the tables on stdout, logs
# and REV's binaries (kept by commit, reused) in build/ab/.

set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=$root/build/ab
CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}
REPS=${REPS:-3}
JOBS=${JOBS:-2}
WORKLOADS=${WORKLOADS:-bonnie churn pingpong sleep loop bonnie-ext4}
DISK_MEM=${DISK_MEM:-256}
log() { echo "ab: $*" >&2; }
die() { log "$*"; exit 2; }
# rh_modules_stage and rh_disk
. "$root/tests/rehearsal/lib.sh"

[ $# -ge 1 ] || die "usage: tests/bench/ab.sh REV [KERNEL...]"
rev=$1
shift
sha=$(git -C "$root" rev-parse --verify -q "$rev^{commit}") || die "no such revision '$rev'"
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(amd64-6.12 arm64-6.12)
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "bad REPS '$REPS'"
[[ "$DISK_MEM" =~ ^[1-9][0-9]*$ ]] || die "bad DISK_MEM '$DISK_MEM'"
# the boots of each kernel: mem for the workloads in RAM, disk for bonnie-ext4
mem_w= disk_w=
for w in $WORKLOADS; do
	case $w in
	bonnie-ext4) disk_w="$disk_w $w" ;;
	*) mem_w="$mem_w $w" ;;
	esac
done
parts=()
[ -n "$mem_w" ] && parts+=(mem)
[ -n "$disk_w" ] && parts+=(disk)
for f in "$root/build/vm-x86/pcptop" "$root/build/arm64/pcptop"; do
	[ -x "$f" ] || die "missing $f (B): run make vm-builds"
done
mkdir -p "$OUT" "$CACHE/bench"

# the matrix's arch, pattern and suites of each kernel
declare -A K_ARCH K_PATTERN K_SUITES
while read -r name arch _ _ pattern _ _ _ _ _ suites _; do
	case "$name" in '' | '#'*) continue ;; esac
	K_ARCH[$name]=$arch K_PATTERN[$name]=$pattern K_SUITES[$name]=${suites//+/ }
	[ "$suites" = - ] && K_SUITES[$name]=
done <"$root/tests/vm/matrix"
archs=()
for k in "${KERNELS[@]}"; do
	[ -n "${K_ARCH[$k]:-}" ] || die "unknown kernel '$k' (tests/vm/run.sh --list)"
	case " ${archs[*]} " in *" ${K_ARCH[$k]} "*) ;; *) archs+=("${K_ARCH[$k]}") ;; esac
done

# --- A: REV's static binaries, built once a commit -----------------------
revdir=$OUT/rev-$sha
for a in "${archs[@]}"; do
	[ -x "$revdir/$a/pcptop" ] && continue
	src=$(mktemp -d "$OUT/src.XXXXXX")
	log "building $rev ($sha) for $a in $src"
	git -C "$root" worktree add -q --detach "$src" "$sha" ||
		die "git worktree add $src failed"
	case $a in
	amd64) args=(ARCH=x86 STATIC=1 OUTPUT=build/vm-x86) bin=build/vm-x86/pcptop ;;
	arm64) args=(ARCH=arm64 OUTPUT=build/arm64) bin=build/arm64/pcptop ;;
	esac
	if make -C "$src" -j"$JOBS" --no-print-directory "${args[@]}" all \
		>"$OUT/build-$a.log" 2>&1; then
		mkdir -p "$revdir/$a"
		cp "$src/$bin" "$revdir/$a/pcptop"
	fi
	git -C "$root" worktree remove --force "$src"
	[ -x "$revdir/$a/pcptop" ] || die "building $rev for $a failed: $OUT/build-$a.log"
done

# --- the extra cpio of each arch: pcptop-a, modules, bonnie++ -------------
for a in "${archs[@]}"; do
	stage=$OUT/stage-$a
	rm -rf "$stage"
	mkdir -p "$stage/bin"
	cp "$revdir/$a/pcptop" "$stage/bin/pcptop-a"
	# each kernel's modules by its release: loop.ko for loop, disk/ (and
	# its order) for bonnie-ext4
	for k in "${KERNELS[@]}"; do
		[ "${K_ARCH[$k]}" = "$a" ] || continue
		kdir=$("$root/tests/vm/fetch-kernel.sh" ${K_SUITES[$k]:+--suites "${K_SUITES[$k]}"} \
			"${K_PATTERN[$k]}" "$a" 2>>"$OUT/fetch.log") || { log "$k: no kernel package"; continue; }
		mdir=$(ls -d "$kdir"/usr/lib/modules/*/ "$kdir"/lib/modules/*/ 2>/dev/null | head -n 1)
		mdir=${mdir%/}
		[ -n "$mdir" ] || { log "$k: no modules: loop and bonnie-ext4 are n/a"; continue; }
		rel=$stage/lib/modules/${mdir##*/}
		rh_modules_stage "$mdir" "$rel" loop ||
			log "$k: no loop.ko: the loop workload is n/a"
		# ext4 asks the crypto API for crc32c at mount, not through a
		# symbol, so depends= does not name it (the rehearsal's 6.17
		# has it built in)
		rh_modules_stage "$mdir" "$rel/disk" virtio_blk crc32c_generic ext4 ||
			log "$k: no virtio_blk and ext4 modules: bonnie-ext4 is n/a"
	done
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$OUT/ab-$a.cpio.gz"
	# concatenated cpio archives: the kernel unpacks them in order
	bonnie=$("$root/tests/vm/bonnie-cpio.sh" "$a") || { log "no bonnie++ for $a"; bonnie=; }
	cat ${bonnie:+"$bonnie"} "$OUT/ab-$a.cpio.gz" >"$OUT/extra-$a.cpio.gz"
done

# each boot's guest script with this run's rounds and workloads (the
# guest has no environment); bonnie-ext4 as the rehearsal's bonnie++
# scaled to the RAM: its file twice the RAM, its small files (-n 16 in
# 1 GiB) in proportion
for p in "${parts[@]}"; do
	{
		echo "REPS=$REPS"
		[ "$p" = mem ] && echo "WORKLOADS=\"${mem_w# }\""
		[ "$p" = disk ] && echo "WORKLOADS=\"${disk_w# }\"
DISK_MEM=$DISK_MEM
DISK_FILES=$(((DISK_MEM * 16 + 1023) / 1024))"
		cat "$here/ab-guest.sh"
	} >"$OUT/ab-guest-$p.sh"
done

# one VM a boot, two at a time: each -icount guest is one host thread.
# No board checks: they need the host build's btf-min and --exec skips them.
run_one() {
	local k=$1 p=$2 extra="-icount shift=0" img=$OUT/disk-$1.img
	local limit=$((1200 * REPS))
	if [ "$p" = disk ]; then
		# its two statistics runs as one round more: arm64 runs bonnie++
		# for minutes (docs/PERFORMANCE.md)
		limit=$((1200 * (REPS + 1)))
		# twice the file, for the small files and ext4's own
		RH_DISK_SIZE=$((4 * DISK_MEM))M rh_disk "$img" ||
			{ log "$k: mkfs.ext4 on $img failed"; return; }
		# cache=unsafe: the host's page cache takes the writes, as in
		# tests/rehearsal/lib.sh's rh_boot
		extra="$extra -m $DISK_MEM -drive file=$img,format=raw,if=none,id=d0,cache=unsafe"
		extra="$extra -device virtio-blk-pci,drive=d0"
	fi
	VMTEST_SMP=1 VMTEST_QEMU_EXTRA="$extra" VMTEST_BOARDS=none \
	VMTEST_EXTRA_CPIO="$OUT/extra-ARCH.cpio.gz" \
	VMTEST_TIMEOUT=$limit VMTEST_OUT="$OUT/vm-$k-$p" \
		"$root/tests/vm/run.sh" --exec "$OUT/ab-guest-$p.sh" "$k" \
		>"$OUT/$k-$p.log" 2>&1
	rm -f "$img"
	log "$k $p: done ($(grep -c '^BENCH:' "$OUT/$k-$p.log") lines)"
}

start=$SECONDS
log "A $rev ($sha), B $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo '+changes'); ${KERNELS[*]}; $REPS rounds"
for k in "${KERNELS[@]}"; do
	for p in "${parts[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
		run_one "$k" "$p" &
	done
done
wait

# the BENCH lines of kernel $1's boots
bench_lines() {
	local p
	for p in "${parts[@]}"; do
		sed -n 's/^.*BENCH://p' "$OUT/$1-$p.log" 2>/dev/null
	done
}

# table NAME CAPTION HEADER: ab-table.awk's table NAME over the kernels
table() {
	local k
	printf '\n%s\n\n%s\n%s\n' "$2" "$3" "$(sed 's/[^|]\+/---/g' <<<"$3")"
	for k in "${KERNELS[@]}"; do
		bench_lines "$k" | awk -F: -v k="$k" -v table="$1" -f "$here/ab-table.awk"
	done
}

echo "A: $rev ($(git -C "$root" log -1 --format='%h %s' "$sha")); B: $(git -C "$root" log -1 --format='%h %s' HEAD)"
table time "Guest seconds (instructions / 1e9), median of $REPS rounds and min..max; busy s: the median of the time less idle (sleep's guest s is mostly idle, which runs at the host's pace under -icount's sleep=on); B vs A: of the medians, and min..max of each round's B/A." \
	"| kernel | workload | observer | guest s | min..max | busy s | vs none | B vs A | B/A min..max |"
table busy "Busy seconds (the guest's instructions less idle and iowait / 1e9), as above: the figure of a workload that waits (bonnie-ext4 on its disk, sleep), whose idle time runs at the host's pace." \
	"| kernel | workload | observer | busy s | min..max | vs none | B vs A | B/A min..max |"
table events "Events a run: context switches (/proc/stat, median of B's runs) and the runs of the programs B has and A has not, each with its instructions a run as the BPF statistics time it (kernel.bpf_stats_enabled=1, in a run of its own); B - A: the median (min..max) of each round's difference in busy instructions, and that over those runs (- under 1000 runs: noise)." \
	"| kernel | workload | context switches | B's new programs: runs (instructions a run) | B - A busy instructions | an event |"
log "wall time $((SECONDS - start)) s; logs in $OUT"

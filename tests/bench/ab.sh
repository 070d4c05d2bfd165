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
# loop.ko, and tests/bench/ab-guest.sh runs the workloads. A benchmark,
# not a test: it prints Markdown tables and never fails on a number.
#
# Usage: tests/bench/ab.sh REV [KERNEL...]   (default amd64-6.12 arm64-6.12)
# Environment: REPS (rounds, default 3), WORKLOADS (ab-guest.sh's, default
# all five), JOBS (make's, default 2), PCPTOP_CACHE.
# Needs B's binaries: make vm-builds. Output: the tables on stdout, logs
# and REV's binaries (kept by commit, reused) in build/ab/.

set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=$root/build/ab
CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}
REPS=${REPS:-3}
JOBS=${JOBS:-2}
log() { echo "ab: $*" >&2; }
die() { log "$*"; exit 2; }

[ $# -ge 1 ] || die "usage: tests/bench/ab.sh REV [KERNEL...]"
rev=$1
shift
sha=$(git -C "$root" rev-parse --verify -q "$rev^{commit}") || die "no such revision '$rev'"
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(amd64-6.12 arm64-6.12)
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "bad REPS '$REPS'"
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

# --- the extra cpio of each arch: pcptop-a, loop.ko, bonnie++ -------------
for a in "${archs[@]}"; do
	stage=$OUT/stage-$a
	rm -rf "$stage"
	mkdir -p "$stage/bin"
	cp "$revdir/$a/pcptop" "$stage/bin/pcptop-a"
	# loop.ko of each kernel of the arch, uncompressed for busybox insmod
	for k in "${KERNELS[@]}"; do
		[ "${K_ARCH[$k]}" = "$a" ] || continue
		kdir=$("$root/tests/vm/fetch-kernel.sh" ${K_SUITES[$k]:+--suites "${K_SUITES[$k]}"} \
			"${K_PATTERN[$k]}" "$a" 2>>"$OUT/fetch.log") || { log "$k: no kernel package"; continue; }
		ko=$(find "$kdir"/lib/modules "$kdir"/usr/lib/modules -name 'loop.ko*' 2>/dev/null | head -n 1)
		[ -n "$ko" ] || { log "$k: no loop.ko: the loop workload is n/a"; continue; }
		rel=${ko%%/kernel/*}
		rel=${rel##*/}
		mkdir -p "$stage/lib/modules/$rel"
		case $ko in
		*.xz) xz -dc "$ko" ;;
		*.zst) zstd -dc "$ko" ;;
		*.gz) gzip -dc "$ko" ;;
		*) cat "$ko" ;;
		esac >"$stage/lib/modules/$rel/loop.ko"
	done
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$OUT/ab-$a.cpio.gz"
	# concatenated cpio archives: the kernel unpacks them in order
	bonnie=$("$root/tests/vm/bonnie-cpio.sh" "$a") || { log "no bonnie++ for $a"; bonnie=; }
	cat ${bonnie:+"$bonnie"} "$OUT/ab-$a.cpio.gz" >"$OUT/extra-$a.cpio.gz"
done

# the guest script with this run's rounds (the guest has no environment)
{
	echo "REPS=$REPS"
	[ -n "${WORKLOADS:-}" ] && echo "WORKLOADS=\"$WORKLOADS\""
	cat "$here/ab-guest.sh"
} >"$OUT/ab-guest.sh"

# one VM a kernel, two at a time: each -icount guest is one host thread.
# No board checks: they need the host build's btf-min and --exec skips them.
run_one() {
	local k=$1
	VMTEST_SMP=1 VMTEST_QEMU_EXTRA="-icount shift=0" VMTEST_BOARDS=none \
	VMTEST_EXTRA_CPIO="$OUT/extra-ARCH.cpio.gz" \
	VMTEST_TIMEOUT=$((1200 * REPS)) VMTEST_OUT="$OUT/vm-$k" \
		"$root/tests/vm/run.sh" --exec "$OUT/ab-guest.sh" "$k" \
		>"$OUT/$k.log" 2>&1
	log "$k: done ($(grep -c '^BENCH:' "$OUT/$k.log") lines)"
}

start=$SECONDS
log "A $rev ($sha), B $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo '+changes'); ${KERNELS[*]}; $REPS rounds"
for k in "${KERNELS[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
	run_one "$k" &
done
wait

echo "A: $rev ($(git -C "$root" log -1 --format='%h %s' "$sha")); B: $(git -C "$root" log -1 --format='%h %s' HEAD)"
echo
echo "Guest seconds (instructions / 1e9), median of $REPS rounds and min..max; busy s: the median of the time less idle (sleep's guest s is mostly idle, which runs at the host's pace under -icount's sleep=on); B vs A: of the medians, and min..max of each round's B/A."
echo
echo "| kernel | workload | observer | guest s | min..max | busy s | vs none | B vs A | B/A min..max |"
echo "|---|---|---|---|---|---|---|---|---|"
for k in "${KERNELS[@]}"; do
	sed -n 's/^.*BENCH://p' "$OUT/$k.log" | awk -F: -v k="$k" -v table=time -f "$here/ab-table.awk"
done
echo
echo "Events a run: context switches (/proc/stat, median of B's runs) and the runs of the programs B has and A has not, each with its instructions a run as the BPF statistics time it (kernel.bpf_stats_enabled=1, in a run of its own); B - A: the median (min..max) of each round's difference in busy instructions, and that over those runs (- under 1000 runs: noise)."
echo
echo "| kernel | workload | context switches | B's new programs: runs (instructions a run) | B - A busy instructions | an event |"
echo "|---|---|---|---|---|---|"
for k in "${KERNELS[@]}"; do
	sed -n 's/^.*BENCH://p' "$OUT/$k.log" | awk -F: -v k="$k" -v table=events -f "$here/ab-table.awk"
done
log "wall time $((SECONDS - start)) s; logs in $OUT"

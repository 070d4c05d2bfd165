#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What pcptop adds to the kernel's work, in guest instructions: Debian's
# 6.1, 6.12, 6.17 and 7.3 kernels, amd64 and arm64, one CPU, booted under
# qemu with -icount shift=0 so guest time counts instructions and a run
# repeats to the percent (TCG wall time scattered 1.3x to 2.3x). Each
# kernel runs an allocator-heavy churn and a small bonnie++ alone, under
# pcptop in its
# default mode and in each forced mode, and under floor, count-only
# programs on the default mode's hooks (tests/bench/icount-guest.sh). A
# benchmark, not a test: it prints a Markdown table and never fails on a
# number.
#
# Usage: tests/bench/icount.sh [KERNEL...]   (default: the eight below;
# alone, 6.17 and 7.3 took 383-704 s each at a host load of 3-6)
# Environment: PCPTOP_CACHE. Each pair runs 3 times (icount-guest.sh).
# Output: the table on stdout, logs in build/bench/.

set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=$root/build/bench
CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] ||
	KERNELS=(amd64-6.1 amd64-6.12 amd64-6.17 amd64-7.3 arm64-6.1 arm64-6.12 arm64-6.17 arm64-7.3)
REPS=3 # icount-guest.sh's default
log() { echo "bench: $*" >&2; }
mkdir -p "$OUT" "$CACHE/bench"

for a in amd64 arm64; do
	"$root/tests/vm/bonnie-cpio.sh" "$a" >/dev/null ||
		log "no bonnie++ for $a: churn only"
done

# one VM a kernel, two at a time: each -icount guest is one host thread;
# each its own staging folder, as run.sh rebuilds the per-arch initramfs
run_one() {
	local k=$1
	VMTEST_SMP=1 VMTEST_QEMU_EXTRA="-icount shift=0" \
	VMTEST_EXTRA_CPIO="$CACHE/bench/bonnie-ARCH.cpio.gz" \
	VMTEST_TIMEOUT=3000 VMTEST_OUT="$OUT/vm-$k" \
		"$root/tests/vm/run.sh" --exec "$here/icount-guest.sh" "$k" \
		>"$OUT/$k.log" 2>&1
	log "$k: done ($(grep -c '^BENCH:' "$OUT/$k.log") lines)"
}

start=$SECONDS
log "${#KERNELS[@]} kernels, $REPS runs of each workload and observer"
for k in "${KERNELS[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
	run_one "$k" &
done
wait

# median guest seconds per workload and observer, and the ratios
echo "| kernel | workload | observer | guest s (median of $REPS) | added | vs floor's |"
echo "|---|---|---|---|---|---|"
for k in "${KERNELS[@]}"; do
	tr -d '\r' <"$OUT/$k.log" | sed -n 's/^.*BENCH:\(churn\|bonnie\):/\1:/p' |
		awk -F: -v k="$k" '
		function median(key,   n, i, j, t, a) {
			n = split(vals[key], a, " ")
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n ? a[int((n + 1) / 2)] : 0
		}
		$4 ~ /^[0-9]+$/ { vals[$1 ":" $2] = vals[$1 ":" $2] " " $4; seen[$1] = 1 }
		$4 !~ /^[0-9]+$/ { na[$1 ":" $2] = $4 }
		END {
			split("none default tracepoint kprobe fentry exact latency orders floor", obs, " ")
			for (w in seen) {
				base = median(w ":none"); fl = median(w ":floor")
				for (i = 1; i <= 9; i++) {
					key = w ":" obs[i]
					if (!(key in vals)) {
						printf "| %s | %s | %s | %s | | |\n", k, w, obs[i], na[key]
						continue
					}
					m = median(key)
					add = base ? (m - base) * 100 / base : 0
					vs = (fl > base && obs[i] != "none" && obs[i] != "floor" && obs[i] != "exact" && obs[i] != "latency" && obs[i] != "orders") ? \
						sprintf("%.2fx", (m - base) / (fl - base)) : ""
					printf "| %s | %s | %s | %.3f | %+.2f %% | %s |\n", k, w, obs[i], m / 1e9, add, vs
				}
			}
		}'
done
# the maps' locked memory grows with the CPUs: measured in a 4-CPU guest
cat >"$OUT/maps4.sh" <<'EOS'
echo "MAPS:$(grep -c ^processor /proc/cpuinfo) $(pcptop stat -i 0.5 -c 1 --json 2>/dev/null | grep -o '"map_bytes":[0-9]*' | cut -d: -f2)"
EOS
VMTEST_SMP=4 VMTEST_OUT="$OUT/vm" "$root/tests/vm/run.sh" --exec "$OUT/maps4.sh" amd64-6.12 2>/dev/null |
	tr -d '\r' | sed -n 's/^.*MAPS:\([0-9]*\) \([0-9]*\)$/\1 \2/p' |
	while read -r n b; do
		echo
		echo "Maps locked by pcptop stat at $n CPUs (Debian 6.12, default mode): $((b / 1024)) KiB"
	done
log "wall time $((SECONDS - start)) s; logs in $OUT"

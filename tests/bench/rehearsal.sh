#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench's rehearsal: reference 000's run (tests/rehearsal/lib.sh:
# bonnie++ -d /mnt -u root, twice RAM, ext4 on virtio, one CPU, 1 GiB,
# recorded by pcptop --latency to that disk) repeated, to measure the
# spread between runs. Sets, each N rounds, the two runs of a round side
# by side (this machine has two cores), scale 0 and 5 alternating first:
#   cpu    s0-i, s5-i        the patched 6.12, disk as fast as the host's
#   sd     sd-s0-i, sd-s5-i  the same, the disk throttled to a class-10
#                            SD card's rates (lib.sh RH_SD_THROTTLE)
#   other  nosync-i, k617-i  scale 5 with --sync 0 (what the default
#                            --sync costs, against s5-i), and Debian's
#                            6.17 at its config scale
# All under -icount shift=0,sleep=on: guest time counts instructions while
# the CPU runs and follows the host's clock while it idles, so waiting on
# the throttled disk takes guest time as on the board.
# Leaves build/rehearsal/s0-1.data ... s5-N.data (the repeats pcptop diff
# reads), sd-*.data, nosync-*.data, k617-*.data and runs/*/, and prints
# Markdown: every run, then mean +/- standard deviation (range) per group.
#
# Usage: tests/bench/rehearsal.sh [-n N] [SET...]   (default: -n 5 cpu sd other)
# 2026-12-01 here, other engineers' VMs beside: 2.5-3.5 minutes a round
# of cpu or other, 7 of sd; 57 minutes for the three sets.

set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${REHEARSAL_OUT:-$root/build/rehearsal}
BIN=$root/build/vm-x86
N=5
die() { echo "bench rehearsal: $1" >&2; exit "${2:-1}"; }
log() { echo "bench rehearsal: $*" >&2; }
. "$root/tests/rehearsal/lib.sh"

rh_bench_n "$@"
shift "$RH_SHIFT"
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(cpu sd other)
for s in "${sets[@]}"; do
	case "$s" in cpu | sd | other) ;; *) die "unknown set '$s' (cpu, sd, other)" 2 ;; esac
done
[ -x "$BIN/pcptop" ] || die "missing $BIN/pcptop: make vm-builds" 2
mkdir -p "$OUT/runs"
rh_setup
A="$RH_APPEND pcptest.rmode=run"
I=$OUT/initrd.cpio.gz
start=$SECONDS
names=()

# two runs side by side; which starts first alternates with the round
pair() {
	local i=$1
	shift 1
	if [ $((i % 2)) = 1 ]; then
		rh_run "$1" "${@:3:5}" &
		sleep 1
		rh_run "$2" "${@:8:5}" &
	else
		rh_run "$2" "${@:8:5}" &
		sleep 1
		rh_run "$1" "${@:3:5}" &
	fi
	wait
	names+=("$1" "$2")
}

for s in "${sets[@]}"; do
	for i in $(seq 1 "$N"); do
		log "set $s, round $i of $N ($((SECONDS - start)) s so far)"
		case $s in
		cpu)
			pair "$i" "s0-$i" "s5-$i" \
				"$bzimage" "$I" "$A pcp_batch_scale_max=0" 0 on \
				"$bzimage" "$I" "$A pcp_batch_scale_max=5" 0 on
			;;
		sd)
			pair "$i" "sd-s0-$i" "sd-s5-$i" \
				"$bzimage" "$I" "$A pcp_batch_scale_max=0" 1 on \
				"$bzimage" "$I" "$A pcp_batch_scale_max=5" 1 on
			;;
		other)
			if [ -n "$k617_skip" ]; then
				echo "SKIP k617-$i: $k617_skip"
				rh_run "nosync-$i" "$bzimage" "$I" \
					"$A pcp_batch_scale_max=5 pcptest.sync=0" 0 on
				names+=("nosync-$i")
				continue
			fi
			pair "$i" "nosync-$i" "k617-$i" \
				"$bzimage" "$I" "$A pcp_batch_scale_max=5 pcptest.sync=0" 0 on \
				"$k617" "$OUT/initrd-k617.cpio.gz" "$A" 0 on
			;;
		esac
	done
done

echo "## Reference 000's run, repeated (tests/bench/rehearsal.sh, $(date -u +%Y-%m-%d), $((SECONDS - start)) s)"
echo
"$root/tests/rehearsal/table.sh" -s "${names[@]}"

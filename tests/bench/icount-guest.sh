#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest half of make bench's instruction count (tests/bench/icount.sh
# boots it with qemu -icount shift=0 through tests/vm/run.sh --exec): guest
# time counts instructions, so each workload's time with an observer
# attached, against its time alone, is what the observer adds to the
# kernel's work. Observers: none, pcptop in its default mode, pcptop in
# each forced mode, pcptop with --exact-free-high (a probe on the commit
# function, which runs per page freed), pcptop with --latency (the
# allocator's entry points, every allocation and free), pcptop with
# --page-orders (a tracepoint on every bulk-freed page), and floor
# (count-only programs on the default mode's hooks). Prints
# "BENCH:WORKLOAD:OBSERVER:REP:NS" or "BENCH:WORKLOAD:OBSERVER:REP:n/a REASON".
#
REPS=3
OBSERVERS="none default tracepoint kprobe fentry exact latency orders floor"

# wait_links: /bin/vmtest-lib.sh (tests/vm/guest-lib.sh)
. /bin/vmtest-lib.sh

workload() {
	case $1 in
	churn) timed churn -m 128 -n 4 >/dev/null ;;
	bonnie)
		rm -rf /tmp/bonnie
		mkdir -p /tmp/bonnie
		timed bonnie++ -d /tmp/bonnie -s 64 -r 32 -n 1 -f -b -x 1 \
			-u root -q >/dev/null
		;;
	esac
}

# the default mode's hooks, for the floor: pcptop info --json names them
hooks=$(pcptop info --json 2>/dev/null |
	grep -oE '"(fentry|fexit|kprobe|kretprobe|tp):[A-Za-z0-9_.]+"' |
	tr -d '"' | tr '\n' ' ')
echo "BENCH:hooks:$hooks"
echo "BENCH:kernel:$(uname -r) $(uname -m) cpus $(grep -c ^processor /proc/cpuinfo)"

for w in churn bonnie; do
	if [ $w = bonnie ] && ! command -v bonnie++ >/dev/null; then
		echo "BENCH:$w:none:1:n/a no bonnie++ in the initramfs"
		continue
	fi
	r=1
	while [ $r -le "$REPS" ]; do
		for o in $OBSERVERS; do
			pid=
			case $o in
			none) ;;
			floor) floor $hooks >/tmp/obs.out 2>&1 & pid=$! ;;
			default) pcptop stat -i 3600 -c 1 -H >/tmp/obs.out 2>&1 & pid=$! ;;
			exact) pcptop stat --exact-free-high -i 3600 -c 1 -H >/tmp/obs.out 2>&1 & pid=$! ;;
			latency) pcptop stat --latency -i 3600 -c 1 -H >/tmp/obs.out 2>&1 & pid=$! ;;
			orders) pcptop stat --page-orders -i 3600 -c 1 -H >/tmp/obs.out 2>&1 & pid=$! ;;
			*) pcptop stat --mode $o -i 3600 -c 1 -H >/tmp/obs.out 2>&1 & pid=$! ;;
			esac
			if [ -n "$pid" ] && ! wait_links "$pid"; then
				kill -INT "$pid" 2>/dev/null
				wait "$pid" 2>/dev/null
				why=$(grep -m1 -E 'pcptop:|floor:' /tmp/obs.out)
				echo "BENCH:$w:$o:$r:n/a ${why:-did not attach}"
				continue
			fi
			workload $w >/tmp/w.out 2>&1
			rc=$?
			ns=$(sed -n 's/^timed: \([0-9]*\) ns$/\1/p' /tmp/w.out)
			# a failed run is no figure (timed passes its status on)
			[ $rc -eq 0 ] || ns="n/a $w exited $rc: $(grep -v '^timed:' /tmp/w.out | head -n 1)"
			if [ -n "$pid" ]; then
				kill -INT "$pid" 2>/dev/null
				wait "$pid" 2>/dev/null
			fi
			echo "BENCH:$w:$o:$r:${ns:-n/a workload failed}"
		done
		r=$((r + 1))
	done
done
echo "BENCH:done"

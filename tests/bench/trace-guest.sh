#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What record --trace adds to the kernel's work, in guest instructions
# (tests/bench/trace-icount.sh boots it under qemu -icount shift=0 through
# tests/vm/run.sh --exec): each workload alone, under pcptop record in its
# default mode, and under pcptop record --trace. Prints
# "BENCH:WORKLOAD:OBSERVER:REP:NS" as icount-guest.sh does, the trace's
# closing line, and two splits of that time: "BENCH:busy:..." the CPU's
# busy ns (the time less idle and iowait, which an I/O workload's time
# has: what pcptop does there can fill them instead of adding to the
# time, as it cannot on a busy machine) and "BENCH:cpu:..." pcptop's own
# (user space and its system calls) over the workload.
#
REPS=${REPS:-3}
OBSERVERS="none record trace"

# now, and idle plus iowait sleep so far, from tick-sched: ns
idle_ns() {
	awk '/^now at/ {n = $3}
	/idle_sleeptime|iowait_sleeptime/ {
		for (i = 2; i <= NF; i++) if ($i == "nsecs") s += $(i - 1)
	}
	END {printf "%.0f %.0f\n", n, s}' /proc/timer_list
}

# the task's run time, ns (schedstat's first field)
task_ns() {
	[ -n "$1" ] && cut -d' ' -f1 /proc/"$1"/schedstat 2>/dev/null
}

# wait_links: /bin/vmtest-lib.sh (tests/vm/guest-lib.sh)
. /bin/vmtest-lib.sh

workload() {
	case $1 in
	churn) timed churn -m 128 -n 4 >/dev/null ;;
	# four times as long: the 1 s interval's chunk (its zlib) falls
	# inside the timed run three times out of four, not by its phase
	churn16) timed churn -m 128 -n 16 >/dev/null ;;
	bonnie)
		rm -rf /tmp/bonnie
		mkdir -p /tmp/bonnie
		timed bonnie++ -d /tmp/bonnie -s 64 -r 32 -n 1 -f -b -x 1 \
			-u root -q >/dev/null
		;;
	esac
}

echo "BENCH:kernel:$(uname -r) $(uname -m) cpus $(grep -c ^processor /proc/cpuinfo)"
for w in churn churn16 bonnie; do
	if [ $w = bonnie ] && ! command -v bonnie++ >/dev/null; then
		echo "BENCH:$w:none:1:n/a no bonnie++ in the initramfs"
		continue
	fi
	r=1
	while [ $r -le "$REPS" ]; do
		for o in $OBSERVERS; do
			pid=
			rm -f /tmp/obs.data
			case $o in
			none) ;;
			record) pcptop record -o /tmp/obs.data >/tmp/obs.out 2>&1 & pid=$! ;;
			trace) pcptop record --trace -o /tmp/obs.data >/tmp/obs.out 2>&1 & pid=$! ;;
			esac
			if [ -n "$pid" ] && ! wait_links "$pid"; then
				kill -INT "$pid" 2>/dev/null
				wait "$pid" 2>/dev/null
				echo "BENCH:$w:$o:$r:n/a $(grep -m1 pcptop: /tmp/obs.out)"
				continue
			fi
			c0=$(task_ns "$pid")
			idle_ns >/tmp/idle.0
			workload $w >/tmp/w.out 2>&1
			rc=$?
			idle_ns >/tmp/idle.1
			read -r n0 i0 </tmp/idle.0
			read -r n1 i1 </tmp/idle.1
			echo "BENCH:busy:$w:$o:$r:$((n1 - n0 - (i1 - i0)))"
			c1=$(task_ns "$pid")
			[ -n "$pid" ] && echo "BENCH:cpu:$w:$o:$r:$((c1 - c0))"
			ns=$(sed -n 's/^timed: \([0-9]*\) ns$/\1/p' /tmp/w.out)
			[ $rc -eq 0 ] || ns="n/a $w exited $rc"
			if [ -n "$pid" ]; then
				kill -INT "$pid" 2>/dev/null
				wait "$pid" 2>/dev/null
				grep -- '--trace:' /tmp/obs.out | sed "s/^/BENCH:note:$w:$r: /"
			fi
			echo "BENCH:$w:$o:$r:${ns:-n/a workload failed}"
		done
		r=$((r + 1))
	done
done
echo "BENCH:done"

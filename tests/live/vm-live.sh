#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside a test VM as /exec.sh: tests/live/vm-check.sh builds it from
# this file and boots it with tests/vm/run.sh --exec. The parts of
# tests/live/run.sh that make sense in a busybox initramfs, on a kernel
# where fentry attaches (where the host refuses it, there only the other
# branch runs): info, floor's fentry witness, info --mode fentry, and
# stat over a churn twice, in the mode info chose and with --mode
# tracepoint. Beside each stat, the kernel's own count of the pages leaving
# the pcp lists (a hist trigger on kmem:mm_page_pcpu_drain; no perf in an
# initramfs), snapshotted before pcptop starts (A0), once it is attached
# (A1), after the churn (A2) and after it exits (A3).
# Prints "VMLIVE:<tag>:<line>"; vm-check.sh makes every assertion.

T=/sys/kernel/tracing
H=$T/events/kmem/mm_page_pcpu_drain

say() {
	sed "s/^/VMLIVE:$1:/"
}

snap() { # TAG SNAP: the hist's entries, "{ order: N } hitcount: M"
	grep '^{' $H/hist | say "$1:$2"
}

links() { # PID: its bpf_link fds
	ls -l /proc/$1/fd 2>/dev/null | grep -c bpf_link
}

# stat_window TAG [STAT OPTIONS]: one interval of stat around a churn
stat_window() {
	tag=$1
	shift
	snap $tag A0
	pcptop stat -i 600 -c 1 --json "$@" >/tmp/$tag.json 2>/tmp/$tag.err &
	sp=$!
	# attached once its links stop growing: a page freed between the
	# first link and the last would be in A1..A2 and not in pcptop's
	n=0
	i=0
	while [ $i -lt 240 ] && kill -0 $sp 2>/dev/null; do
		sleep 0.5
		m=$(links $sp)
		[ "$m" -gt 0 ] && [ "$m" = "$n" ] && break
		n=$m
		i=$((i + 1))
	done
	snap $tag A1
	# 128 MiB: 32 MiB rounds fitted in the pcp lists' room (high) and
	# left no bulk free to count, seen once on 6.12
	churn -m 128 -n 2 2>&1 | say ${tag}_churn
	snap $tag A2
	kill -INT $sp 2>/dev/null
	wait $sp
	echo "VMLIVE:${tag}_rc:$?"
	snap $tag A3
	say ${tag}_json </tmp/$tag.json
	say ${tag}_err </tmp/$tag.err
}

# to a file first, to the console at the end: a kernel message printed
# mid-line would cut a line
{
	pcptop info --json >/tmp/info.json 2>/tmp/info.err
	echo "VMLIVE:info_rc:$?"
	say info </tmp/info.json
	say info_err </tmp/info.err

	# the witness pcptop's mode is checked against: a count-only fentry
	# program (it exits 1 at once where fentry is refused)
	floor fentry:free_pcppages_bulk >/tmp/floor.out 2>&1 &
	fp=$!
	i=0
	while [ $i -lt 300 ] && ! grep -q attached /tmp/floor.out &&
		kill -0 $fp 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $fp 2>/dev/null
	wait $fp
	echo "VMLIVE:floor_rc:$?"
	say floor </tmp/floor.out

	pcptop info --mode fentry >/dev/null 2>/tmp/fentry.err
	echo "VMLIVE:mode_fentry_rc:$?"
	say mode_fentry_err </tmp/fentry.err

	# the largest pcp batch of any zone: a 1 GiB guest has no Normal zone
	awk '$1 == "batch:" && $2 > m { m = $2 } END { print "VMLIVE:batch:" m }' /proc/zoneinfo
	echo "VMLIVE:cpus:$(grep -c ^processor /proc/cpuinfo)"
	if echo 'hist:keys=order:vals=hitcount' >>$H/trigger; then
		echo "VMLIVE:hist:yes"
	else
		echo "VMLIVE:hist:no"
	fi
	stat_window default
	stat_window tp --mode tracepoint
	echo "VMLIVE:done:1"
} >/tmp/vmlive.out 2>&1
cat /tmp/vmlive.out

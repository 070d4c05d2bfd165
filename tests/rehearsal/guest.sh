#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the rehearsal VM (tests/rehearsal/run.sh), started by
# tests/vm/kernel/init.sh when the kernel command line has
# pcptest.rehearsal=1: reference 000's run, `bonnie++ -d /mnt -u root`
# with its default file of twice RAM, on ext4 on a virtio disk, recorded
# by pcptop to that same disk. Prints "REHEARSAL:<tag>:<line>" on the
# console; the host reads the recording from the disk image afterwards
# and makes every check.
#
# Kernel command line (set by the host):
#   pcptest.rmode=run        bonnie++ recorded, then the disk unmounted
#   pcptest.rmode=cut        the same, with a tick of the guest's clock
#                            each second: the host kills qemu mid-run
#   pcptest.rmode=readback   after a cut: mount (ext4 replays its
#                            journal), report the recording, then time
#                            fsyncs of a growing file (what --sync costs)
#   pcptest.sync=SECS        pcptop record --sync (absent: its default)
#   pcptest.bonnie=ARGS      more bonnie++ options, commas for spaces
#   pcptest.trace=1          record --trace too (tests/whatif/bonnie.sh)
#   pcptest.trace=noruns     the same, a record an event (the trace's runs
#                            off: PCPTOP_TRACE_NO_RUNS), to measure them

say() {
	sed "s/^/REHEARSAL:$1:/"
}
arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}
# user nice system idle iowait irq softirq of the one CPU, in USER_HZ
cpu() {
	sed -n 's/^cpu  //p' /proc/stat
}

rmode=$(arg pcptest.rmode)
sync_opt=$(arg pcptest.sync)
trace_opt=
case "$(arg pcptest.trace)" in
1) trace_opt=--trace ;;
noruns) trace_opt=--trace && export PCPTOP_TRACE_NO_RUNS=1 ;;
esac
bonnie_opts=$(arg pcptest.bonnie | tr ',' ' ')
echo "REHEARSAL:scale:$(arg pcp_batch_scale_max)"
echo "REHEARSAL:kernel:$(uname -r)"
echo "REHEARSAL:mem_kb:$(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"

# Debian's kernels have virtio_blk and ext4 as modules: the host put them,
# with what they depend on, in /lib/modules/rehearsal in load order
if [ -s /lib/modules/rehearsal/order ]; then
	while read -r m; do
		insmod "/lib/modules/rehearsal/$m" 2>&1 | say insmod
	done </lib/modules/rehearsal/order
fi
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do
	sleep 0.2
	i=$((i + 1))
done
mkdir -p /mnt
# noinit_itable: no lazy inode table zeroing beside the measured run
if ! mount -t ext4 -o noinit_itable /dev/vda /mnt 2>/tmp/mount.err; then
	say mount_err </tmp/mount.err
	echo "REHEARSAL:mounted:0"
	exit 0
fi
echo "REHEARSAL:mounted:1"

if [ "$rmode" = readback ]; then
	ls -l /mnt/rec.data 2>&1 | say size
	pcptop report --json /mnt/rec.data >/tmp/rep.json 2>/tmp/rep.err
	echo "REHEARSAL:report_rc:$?"
	say report_err </tmp/rep.err
	# what one fsync of a recording's chunk costs the CPU: 500 appends of
	# 4 KiB each synced, then 500 not; the host divides the difference in
	# busy time by the count (time waiting on the disk is idle, not work)
	for conv in notrunc,fsync notrunc; do
		c0=$(cpu)
		n=0
		while [ $n -lt 500 ]; do
			dd if=/dev/zero of=/mnt/synctest bs=4096 count=1 \
				oflag=append conv=$conv 2>/dev/null
			n=$((n + 1))
		done
		echo "REHEARSAL:append_cpu:$conv 500 $c0 | $(cpu)"
	done
	umount /mnt
	echo "REHEARSAL:umount_rc:$?"
	exit 0
fi

if [ "$rmode" = cut ]; then
	# realtime (the recording's clock) against uptime (the ticks'),
	# read as date's second turns over: busybox's date has no %N
	d0=$(date +%s)
	while [ "$(date +%s)" = "$d0" ]; do :; done
	echo "REHEARSAL:clock:$((d0 + 1)) $(cut -d' ' -f1 /proc/uptime)"
fi
echo 3 >/proc/sys/vm/drop_caches
c0=$(cpu)
u0=$(cut -d' ' -f1 /proc/uptime)
echo "REHEARSAL:bonnie_start:$u0"
# --page-orders: the bulk frees by page order beside the function probe
# (opt-in, a program run a page); both scales pay it alike
pcptop record -i 1 --latency --page-orders $trace_opt ${sync_opt:+--sync $sync_opt} -o /mnt/rec.data -- \
	bonnie++ -d /mnt -u root $bonnie_opts >/tmp/work.out 2>/tmp/rec.err &
rec=$!
if [ "$rmode" = cut ]; then
	# the guest's clock, for the host to place the cut: at most a
	# second of guest time after the last tick it saw
	while kill -0 $rec 2>/dev/null; do
		echo "REHEARSAL:tick:$(cut -d' ' -f1 /proc/uptime)"
		sleep 1
	done &
fi
# the OOM killer's view of both, once bonnie++ has its file open
sleep 20
b=$(pidof bonnie++ | cut -d' ' -f1)
if [ -n "$b" ]; then
	echo "REHEARSAL:oom:pcptop $(cat /proc/$rec/oom_score_adj) $(cat /proc/$rec/oom_score)"
	echo "REHEARSAL:oom:bonnie++ $(cat /proc/$b/oom_score_adj) $(cat /proc/$b/oom_score)"
fi
wait $rec
rc=$?
c1=$(cpu)
u1=$(cut -d' ' -f1 /proc/uptime)
echo "REHEARSAL:record_rc:$rc"
echo "REHEARSAL:cpu:$c0 | $c1"
echo "REHEARSAL:uptime:$u0 $u1"
say record_err </tmp/rec.err
# bonnie++'s CSV line: the last line of its standard output
grep ',' /tmp/work.out | tail -n 1 | say csv
tail -n 30 /tmp/work.out | say work
dmesg | grep -iE 'killed process|out of memory' | say oom_kill
ls -l /mnt/rec.data | say size
umount /mnt
echo "REHEARSAL:umount_rc:$?"

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
#   pcptest.hits=1           under --trace, the kernel's own count of the
#                            pages allocated and freed, around bonnie++
#                            and around the recording (tests/whatif/hits.sh)
#   pcptest.waits=1          the kernel's own counts of what pcptop's
#                            wall-time figures count (tests/rehearsal/
#                            waits-checks.sh), hist triggers snapshotted
#                            before record (W0), as its command starts
#                            (W1), as bonnie++ ends (W2), after record
#                            (W3): "REHEARSAL:w:Wn:SOURCE:LINE"
#   pcptest.hog=1            once bonnie++ runs, a neighbour (hog -g) that
#                            keeps all it touches until the OOM
#                            killer must take it, not pcptop, while pcptop
#                            writes (tests/rehearsal/oom.sh)
#   pcptest.waits=allocfail  the same, and failed page allocations
#                            (kmem:mm_page_alloc fires on every
#                            allocation: only for short runs)
#
# Usage (inside the VM): guest.sh                the run, as init.sh starts it
#                        guest.sh inner CMD...   what pcptop record runs: W1,
#                                                CMD, W2
#                        guest.sh tinner CMD...  the same under --trace: the
#                                                kernel's page counts around CMD

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

T=/sys/kernel/tracing
# the counting triggers, SOURCE=EVENT=TRIGGER: SNAP prints the entries
# of the trigger whose description starts TRIGGER, as the host sums them
# (a hist file holds every trigger of its event, one table each)
W_HISTS="dirty=writeback/balance_dirty_pages=hist:keys=common_pid:vals=hitcount,pause
nosleep=writeback/balance_dirty_pages=hist:keys=common_cpu:vals=hitcount
slept=synthetic/pcpw_dirtyslept=hist:keys=common_cpu:vals=hitcount,slept
throttle=vmscan/mm_vmscan_throttled=hist:keys=reason:vals=hitcount,usec_delayed
blk=block/block_rq_complete=hist:keys=rwbs:vals=hitcount,nr_sector
blk0=block/block_rq_complete=hist:keys=rwbs:vals=hitcount:
blklat=synthetic/pcpw_blklat=hist:keys=rwbs:vals=hitcount,lat
blkrlat=synthetic/pcpw_blkrlat=hist:keys=common_cpu:vals=hitcount,lat
blkwlat=synthetic/pcpw_blkwlat=hist:keys=common_cpu:vals=hitcount,lat
rqlat=synthetic/pcpw_rqlat=hist:keys=op:vals=hitcount,lat,len
allocfail=kmem/mm_page_alloc=hist:keys=order:vals=hitcount
idle=synthetic/pcpw_idle=hist:keys=common_cpu:vals=hitcount,idle"
# every event a trigger was set on, for W3's entries and drops
W_EVENTS="writeback/balance_dirty_pages sched/sched_switch vmscan/mm_vmscan_throttled
block/block_rq_issue block/block_rq_complete pcpw/rqi pcpw/rqc kmem/mm_page_alloc
synthetic/pcpw_dirtyslept synthetic/pcpw_rqlat synthetic/pcpw_blklat
synthetic/pcpw_blkrlat synthetic/pcpw_blkwlat synthetic/pcpw_idle"
# Keyed by dev,sector (where the kernel has no tracepoint probe events),
# a table holds an entry for every sector a request ever started at: the
# 256 MiB runs' 15 000 requests took 47-50 MiB at 65536 entries (250-570
# bytes an entry), so it is sized to the run and its drops are printed
W_BLK_SECTORS=16384

whave() {
	echo "REHEARSAL:have:$1:$2"
}
trig() {
	echo "$2" >>"$T/events/$1/trigger" 2>/dev/null
}
# vmscan_ev CMD ARGS...: vmtest-lib.sh's hist_on or hist_hits on a vmscan
# event (its HIST_EV is kmem's)
vmscan_ev() {
	ve_kmem=$HIST_EV
	HIST_EV=$T/events/vmscan
	"$@"
	HIST_EV=$ve_kmem
}

# Each trigger counts what one of pcptop's wall-time figures counts, in
# the kernel and without BPF, so that the host can hold the figure to it
wsetup() {
	if [ ! -e $T/events/writeback/balance_dirty_pages/trigger ]; then
		whave tracefs "no (no $T/events: CONFIG_FTRACE?)"
		return 1
	fi
	m0=$(sed -n 's/^MemFree: *\([0-9]*\).*/\1/p' /proc/meminfo)
	# a writer's sleep: the pause it was given (> 0: it then sleeps),
	# and from the tracepoint to its next switch in (the kernel's
	# common_timestamp, as pcptop's programs time it)
	if trig writeback/balance_dirty_pages 'hist:keys=common_pid:vals=hitcount,pause:dts0=common_timestamp if pause > 0'; then
		whave dirty yes
	else
		whave dirty "no (trigger refused)"
	fi
	trig writeback/balance_dirty_pages 'hist:keys=common_cpu:vals=hitcount if pause <= 0' &&
		whave nosleep yes || whave nosleep "no (trigger refused)"
	if echo 'pcpw_dirtyslept u64 slept' >>$T/synthetic_events 2>/dev/null &&
	   trig sched/sched_switch 'hist:keys=next_pid:slept=common_timestamp-$dts0:onmatch(writeback.balance_dirty_pages).trace(pcpw_dirtyslept,$slept)' &&
	   trig synthetic/pcpw_dirtyslept 'hist:keys=common_cpu:vals=hitcount,slept'; then
		whave slept yes
	else
		whave slept "no (synthetic event from sched_switch refused)"
	fi
	# the idle task's time, switch to switch, as the idle split books it
	# (at the switch out of idle): its own total, apart from /proc/stat's
	# tick-sampled idle and iowait
	if echo 'pcpw_idle u64 idle' >>$T/synthetic_events 2>/dev/null &&
	   trig sched/sched_switch 'hist:keys=common_cpu:its0=common_timestamp if next_pid == 0' &&
	   trig sched/sched_switch 'hist:keys=common_cpu:idl=common_timestamp-$its0:onmatch(sched.sched_switch).trace(pcpw_idle,$idl) if prev_pid == 0' &&
	   trig synthetic/pcpw_idle 'hist:keys=common_cpu:vals=hitcount,idle'; then
		whave idle yes
	else
		whave idle "no (synthetic event from sched_switch refused)"
	fi
	# reason is the enum's bit (1 << VMSCAN_THROTTLE_*)
	trig vmscan/mm_vmscan_throttled 'hist:keys=reason:vals=hitcount,usec_delayed' &&
		whave throttle yes || whave throttle "no (trigger refused)"
	# Completions with data apart from those without: a write with
	# PREFLUSH or FUA completes twice, its data, then (0 sectors) at the
	# end of its flush sequence; a flush has no data. 6.17 hashes rwbs's
	# bytes past its NUL too: one string, hundreds of entries (385 in 64
	# MiB of bonnie++), hence the size
	if trig block/block_rq_complete 'hist:keys=rwbs:vals=hitcount,nr_sector:size=16384 if nr_sector > 0' &&
	   trig block/block_rq_complete 'hist:keys=rwbs:vals=hitcount:size=16384 if nr_sector == 0'; then
		whave blk yes
	else
		whave blk "no (trigger refused)"
	fi
	wblklat "$(arg pcptest.blklat)"
	# a failed allocation is the tracepoint with pfn -1
	if [ "$1" = allocfail ]; then
		trig kmem/mm_page_alloc 'hist:keys=order:vals=hitcount if pfn == 18446744073709551615' &&
			whave allocfail yes || whave allocfail "no (trigger refused)"
	fi
	m1=$(sed -n 's/^MemFree: *\([0-9]*\).*/\1/p' /proc/meminfo)
	echo "REHEARSAL:w_mem_kb:$((m0 - m1))"
	return 0
}

# Block requests from issue to first complete, as pcptop times them:
# keyed by the struct request (tracepoint probe events, 6.5+, with BTF
# argument names), whose entries are as few as the request tags. Else
# keyed by dev,sector, where a request starts, with rwbs passed on as a
# string, else one event a direction. $1 = sector: the dev,sector forms
# even where the first is taken (to check them)
wblklat() {
	if [ "$1" != sector ] &&
	   echo 't:pcpw/rqi block_rq_issue rq=rq:x64 op=rq->cmd_flags:u32 len=rq->__data_len:u32' >>$T/dynamic_events 2>/dev/null &&
	   echo 't:pcpw/rqc block_rq_complete rq=rq:x64' >>$T/dynamic_events 2>/dev/null &&
	   echo 'pcpw_rqlat u64 lat; u32 op; u32 len' >>$T/synthetic_events 2>/dev/null &&
	   trig pcpw/rqi 'hist:keys=rq:rts0=common_timestamp,rop=op,rlen=len' &&
	   trig pcpw/rqc 'hist:keys=rq:rlat=common_timestamp-$rts0:onmatch(pcpw.rqi).trace(pcpw_rqlat,$rlat,$rop,$rlen)' &&
	   trig synthetic/pcpw_rqlat 'hist:keys=op:vals=hitcount,lat,len'; then
		whave blklat "yes request"
		return 0
	fi
	if ! trig block/block_rq_issue "hist:keys=dev,sector:bts0=common_timestamp:size=$W_BLK_SECTORS"; then
		whave blklat "no (trigger on block_rq_issue refused)"
		return 1
	fi
	if echo 'pcpw_blklat u64 lat; char rwbs[8]' >>$T/synthetic_events 2>/dev/null &&
	   trig block/block_rq_complete "hist:keys=dev,sector:blat=common_timestamp-\$bts0:onmatch(block.block_rq_issue).trace(pcpw_blklat,\$blat,rwbs):size=$W_BLK_SECTORS" &&
	   trig synthetic/pcpw_blklat 'hist:keys=rwbs:vals=hitcount,lat'; then
		whave blklat "yes rwbs"
	elif echo 'pcpw_blkrlat u64 lat' >>$T/synthetic_events 2>/dev/null &&
	     echo 'pcpw_blkwlat u64 lat' >>$T/synthetic_events 2>/dev/null &&
	     trig block/block_rq_complete "hist:keys=dev,sector:rlat=common_timestamp-\$bts0:onmatch(block.block_rq_issue).trace(pcpw_blkrlat,\$rlat):size=$W_BLK_SECTORS if rwbs ~ \"*R*\"" &&
	     trig block/block_rq_complete "hist:keys=dev,sector:wlat=common_timestamp-\$bts0:onmatch(block.block_rq_issue).trace(pcpw_blkwlat,\$wlat):size=$W_BLK_SECTORS if rwbs ~ \"*W*\"" &&
	     trig synthetic/pcpw_blkrlat 'hist:keys=common_cpu:vals=hitcount,lat' &&
	     trig synthetic/pcpw_blkwlat 'hist:keys=common_cpu:vals=hitcount,lat'; then
		whave blklat "yes direction"
	else
		whave blklat "no (synthetic event from block_rq_issue refused)"
		return 1
	fi
}

# wsnap Wn [all]: the counting triggers' entries; with "all", every
# table's drops too (the request tables only then: they are large)
wsnap() {
	echo "$W_HISTS" | while IFS='=' read -r src ev info; do
		f=$T/events/$ev/hist
		[ -r "$f" ] || continue
		# 6.17 prints a common_cpu key twice ("keys=common_cpucommon_cpu")
		awk -v p="REHEARSAL:w:$1:$src:" -v info="$info" '
			/^# trigger info:/ {
				gsub(/common_cpucommon_cpu/, "common_cpu")
				on = index($0, "# trigger info: " info) == 1
			}
			on && /^\{/ { print p $0 }
			on && /^ *Dropped:/ { print p "dropped " $2 }' "$f"
	done
	[ "${2:-}" = all ] || return 0
	for ev in $W_EVENTS; do
		f=$T/events/$ev/hist
		[ -r "$f" ] || continue
		awk -v p="REHEARSAL:w:$1:table:$ev " '
			/^# trigger info:/ { t = $4 }
			/^ *Entries:/ { e = $2 }
			/^ *Dropped:/ { print p t " entries " e " dropped " $2 }' "$f"
	done
}

# tinner CMD...: what pcptop record runs under --trace: kmem:mm_page_alloc
# and mm_page_free counted by the kernel around CMD alone (pcptop is
# attached by now), into /tmp/inner.hits; tests/whatif/hits.sh holds the
# trace's events between these and the counts around the recording
if [ "${1:-}" = tinner ]; then
	shift
	. /bin/vmtest-lib.sh
	hist_on mm_page_alloc order "$HIST_NOFAIL"
	hist_on mm_page_free order
	"$@"
	rc=$?
	echo "$(hist_hits mm_page_alloc order "$HIST_NOFAIL") $(hist_hits mm_page_free order)" \
		>/tmp/inner.hits
	exit $rc
fi

if [ "${1:-}" = inner ]; then
	# record's command: pcptop is attached by now
	shift
	wsnap W1 >/tmp/w1.snap
	"$@"
	rc=$?
	wsnap W2 >/tmp/w2.snap
	exit $rc
fi

rmode=$(arg pcptest.rmode)
sync_opt=$(arg pcptest.sync)
trace_opt=
case "$(arg pcptest.trace)" in
1) trace_opt=--trace ;;
noruns) trace_opt=--trace && export PCPTOP_TRACE_NO_RUNS=1 ;;
esac
bonnie_opts=$(arg pcptest.bonnie | tr ',' ' ')
waits=$(arg pcptest.waits)
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
inner= tinner=
if [ -n "$waits" ] && [ "$rmode" = run ] && wsetup "$waits"; then
	inner="sh $0 inner"
fi
if [ -n "$trace_opt" ] && [ "$(arg pcptest.hits)" = 1 ]; then
	. /bin/vmtest-lib.sh
	hist_on mm_page_alloc cpu "$HIST_NOFAIL"
	hist_on mm_page_free cpu
	# the buddy's fallbacks to another migratetype, and those that
	# claimed the block: watermark_boost rises with each try to claim
	# one (the tries that fail are not traced), and the trace carries
	# neither (docs/ACCURACY.md, "What moves the reclaims")
	hist_on mm_page_alloc_extfrag alloc_migratetype
	hist_on mm_page_alloc_extfrag fallback_migratetype "change_ownership == 1"
	# and kswapd: the wakeups asked (a boost asks one, rmqueue()) and
	# the balancing passes it began
	vmscan_ev hist_on mm_vmscan_wakeup_kswapd nid
	vmscan_ev hist_on mm_vmscan_kswapd_wake nid
	tinner="sh $0 tinner"
fi
echo 3 >/proc/sys/vm/drop_caches
[ -n "$inner" ] && wsnap W0
c0=$(cpu)
u0=$(cut -d' ' -f1 /proc/uptime)
echo "REHEARSAL:bonnie_start:$u0"
# --page-orders: the bulk frees by page order beside the function probe
# (opt-in, a program run a page); both scales pay it alike
pcptop record -i 1 --latency --page-orders $trace_opt ${sync_opt:+--sync $sync_opt} -o /mnt/rec.data -- \
	$inner $tinner bonnie++ -d /mnt -u root $bonnie_opts >/tmp/work.out 2>/tmp/rec.err &
rec=$!
if [ "$rmode" = cut ]; then
	# the guest's clock, for the host to place the cut: at most a
	# second of guest time after the last tick it saw
	while kill -0 $rec 2>/dev/null; do
		echo "REHEARSAL:tick:$(cut -d' ' -f1 /proc/uptime)"
		sleep 1
	done &
fi
if [ "$(arg pcptest.hog)" = 1 ]; then
	# early in bonnie++'s run, so that pcptop records on after the kill
	sleep 5
	echo "REHEARSAL:hog_start:$(cut -d' ' -f1 /proc/uptime)"
	hog -g 16 >/tmp/hog.out 2>&1 &
	hp=$!
	# never a hung boot: a hog still alive after a minute ends by
	# SIGTERM (143), which the host's check tells from the killer's 137
	(sleep 60 && kill $hp) 2>/dev/null &
	wait $hp
	echo "REHEARSAL:hog_end:$? $(cut -d' ' -f1 /proc/uptime)"
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
if [ -n "$trace_opt" ] && [ "$(arg pcptest.hits)" = 1 ]; then
	echo "REHEARSAL:hits:$(cat /tmp/inner.hits 2>/dev/null || echo - -)" \
		"$(hist_hits mm_page_alloc cpu "$HIST_NOFAIL") $(hist_hits mm_page_free cpu)"
	xf=$(hist_hits mm_page_alloc_extfrag alloc_migratetype)
	xc=$(hist_hits mm_page_alloc_extfrag fallback_migratetype "change_ownership == 1")
	echo "REHEARSAL:extfrag:${xf:--} ${xc:--}"
	xf=$(vmscan_ev hist_hits mm_vmscan_wakeup_kswapd nid)
	xc=$(vmscan_ev hist_hits mm_vmscan_kswapd_wake nid)
	echo "REHEARSAL:kswapd:${xf:--} ${xc:--}"
fi
if [ -n "$inner" ]; then
	cat /tmp/w1.snap /tmp/w2.snap 2>/dev/null
	wsnap W3 all
fi
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

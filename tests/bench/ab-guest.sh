#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest half of tests/bench/ab.sh: two builds of pcptop side by side
# in one boot (qemu -icount shift=0, so guest time counts instructions),
# each in its default mode, `stat -i 3600 -c 1 -H`. A is /bin/pcptop-a
# (ab.sh's REV, from its extra cpio), B is /bin/pcptop (the build of this
# checkout). One boot for both because a figure of 0.2 % is smaller than
# what moves between boots; the rounds alternate their order (none a b,
# then b a none) so that a drift of the guest's state over the run (its
# page cache, its slabs) falls on A and B alike.
#
# Workloads (WORKLOADS): icount-guest.sh's tmpfs bonnie++ and churn, and,
# because bonnie++ on tmpfs neither sleeps nor does block I/O, three that
# run the new wall-time programs often, each as its own figure,
# and the rehearsal's bonnie++ on a disk:
#   pingpong  two shells pass a line back and forth through two FIFOs:
#          task-to-task context switches, two a round trip, and
#          sched_switch's early return (no CPU goes idle). Two dd a byte
#          at a time through one pipe switched only 68 times in 20000
#          bytes: the writer fills the pipe before the reader runs.
#   sleep  1 ms poll timeouts from the shell (no fork): the CPU goes idle
#          and comes back at each, sched_switch's idle split
#   loop   O_DIRECT 4 KiB reads and writes of a loop device on tmpfs:
#          block_rq_issue and block_rq_complete once a request, and the
#          switches to and from loop's worker; in the guest, so its
#          timing is the guest's own (a virtio disk would complete at
#          the host's pace). Needs /lib/modules/$(uname -r)/loop.ko,
#          which ab.sh packs; without it the figure is n/a.
#   bonnie-ext4  the rehearsal's bonnie++ (tests/rehearsal/guest.sh: its
#          phases, per-char ones too, ext4 on virtio-blk) with its file
#          twice DISK_MEM, the guest's RAM, and DISK_FILES thousand small
#          files: writeback, its block requests and the switches of
#          waiting on them, where the figures' programs run in the
#          field. Its boot is one of its own (ab.sh: the RAM, the
#          disk /dev/vda); it needs the virtio_blk and ext4 modules in
#          /lib/modules/$(uname -r)/disk (ab.sh packs them, with order).
# Each timed run prints "BENCH:WORKLOAD:OBSERVER:REP:NS" (as
# icount-guest.sh: NS or "n/a REASON"), "BENCH:busy:WORKLOAD:OBSERVER:REP:NS"
# (the time less idle: sleep's time is mostly idle, which -icount's
# default sleep=on lets run at the host's pace) and
# "BENCH:ctxt:WORKLOAD:OBSERVER:REP:N" (/proc/stat's context switches).
# Then one more run of each workload under A and under B with
# kernel.bpf_stats_enabled=1 for the workload alone (the statistics read
# the clock twice a run, so they stay off in the timed runs):
# "BENCH:runs:WORKLOAD:OBSERVER:PROGRAM:RUNS:RUN_NS" from stat --json's
# self.programs.
#
REPS=${REPS:-3}
WORKLOADS=${WORKLOADS:-bonnie churn pingpong sleep loop bonnie-ext4}
# sized for about a second of guest time each on amd64 6.12
ROUNDTRIPS=${ROUNDTRIPS:-5000}
SLEEPS=${SLEEPS:-2000}
LOOP_BLOCKS=${LOOP_BLOCKS:-4096}
DISK_MEM=${DISK_MEM:-256}
DISK_FILES=${DISK_FILES:-4}
STATS=/proc/sys/kernel/bpf_stats_enabled

# wait_links: /bin/vmtest-lib.sh (tests/vm/guest-lib.sh)
. /bin/vmtest-lib.sh

# now, and idle plus iowait sleep so far, from tick-sched: ns
idle_ns() {
	awk '/^now at/ {n = $3}
	/idle_sleeptime|iowait_sleeptime/ {
		for (i = 2; i <= NF; i++) if ($i == "nsecs") s += $(i - 1)
	}
	END {printf "%.0f %.0f\n", n, s}' /proc/timer_list
}

ctxt() {
	while read -r k v; do
		[ "$k" = ctxt ] && echo "$v" && return
	done </proc/stat
}

# a loop device on a tmpfs file, once: the loop workload's disk
loop_dev=
setup_loop() {
	ko=/lib/modules/$(uname -r)/loop.ko
	[ -f "$ko" ] || { echo "no $ko"; return 1; }
	insmod "$ko" 2>&1 || return 1
	dd if=/dev/zero of=/tmp/loop.img bs=1M count=$((LOOP_BLOCKS / 256 + 1)) \
		2>/dev/null || return 1
	losetup /dev/loop0 /tmp/loop.img 2>&1 || return 1
	loop_dev=/dev/loop0
}

# /dev/vda's ext4 on /mnt, once: bonnie-ext4's disk
disk=
setup_disk() {
	d=/lib/modules/$(uname -r)/disk
	[ -f $d/order ] || { echo "no $d/order"; return 1; }
	while read -r m; do
		[ -z "$m" ] || insmod "$d/$m" 2>&1 || return 1
	done <$d/order
	i=0
	while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	[ -b /dev/vda ] || { echo "no /dev/vda"; return 1; }
	mkdir -p /mnt
	# noinit_itable: no lazy inode table zeroing beside the runs
	mount -t ext4 -o noinit_itable /dev/vda /mnt 2>&1 || return 1
	disk=/mnt
}

# what a run starts from, outside its measured window: the last run's
# frees written back and its page cache gone, as the rehearsal drops it
prepare() {
	case $1 in
	bonnie-ext4)
		rm -rf /mnt/bonnie
		mkdir -p /mnt/bonnie
		sync
		echo 3 >/proc/sys/vm/drop_caches
		;;
	esac
}

workload() {
	case $1 in
	churn) timed churn -m 128 -n 4 >/dev/null ;;
	bonnie)
		rm -rf /tmp/bonnie
		mkdir -p /tmp/bonnie
		timed bonnie++ -d /tmp/bonnie -s 64 -r 32 -n 1 -f -b -x 1 \
			-u root -q >/dev/null
		;;
	pingpong)
		# a line there and back through two FIFOs: each way a write
		# wakes the other shell and a read puts this one to sleep
		timed sh -c "(exec 3</tmp/ping 4>/tmp/pong
			while read -r x <&3; do echo \$x >&4; done) &
			exec 5>/tmp/ping 6</tmp/pong; i=0
			while [ \$i -lt $ROUNDTRIPS ]; do
				echo \$i >&5; read -r y <&6; i=\$((i + 1))
			done
			exec 5>&- 6<&-; wait"
		;;
	sleep)
		# a FIFO open both ways never has data: each read waits out
		# its timeout in poll()
		timed sh -c "exec 3<>/tmp/fifo; i=0
			while [ \$i -lt $SLEEPS ]; do
				read -t 0.001 x <&3; i=\$((i + 1))
			done"
		;;
	bonnie-ext4)
		# -z: the seeks' and the small files' random numbers the same
		# in every run
		timed bonnie++ -d /mnt/bonnie -s $((2 * DISK_MEM)) -r "$DISK_MEM" \
			-n "$DISK_FILES" -z 1 -u root -q >/dev/null
		;;
	loop)
		timed sh -c "dd if=/dev/zero of=$loop_dev bs=4096 \
			count=$LOOP_BLOCKS oflag=direct 2>/dev/null &&
			dd if=$loop_dev of=/dev/null bs=4096 count=$LOOP_BLOCKS \
			iflag=direct 2>/dev/null"
		;;
	esac
}

# why a workload cannot run here, or nothing
cannot() {
	case $1 in
	bonnie) command -v bonnie++ >/dev/null || echo "no bonnie++ in the initramfs" ;;
	loop) [ -n "$loop_dev" ] || echo "no loop device: $loop_why" ;;
	bonnie-ext4)
		if ! command -v bonnie++ >/dev/null; then
			echo "no bonnie++ in the initramfs"
		elif [ -z "$disk" ]; then
			echo "no disk: $disk_why"
		fi
		;;
	esac
}

# start_obs OBSERVER [ARGS]: sets pid (empty for none)
start_obs() {
	o=$1
	shift
	pid=
	case $o in
	none) return 0 ;;
	a) /bin/pcptop-a stat -i 3600 -c 1 -H "$@" >/tmp/obs.out 2>&1 & pid=$! ;;
	b) /bin/pcptop stat -i 3600 -c 1 -H "$@" >/tmp/obs.out 2>&1 & pid=$! ;;
	esac
	wait_links "$pid" && return 0
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 1
}

stop_obs() {
	[ -n "$pid" ] || return 0
	kill -INT "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

echo "BENCH:kernel:$(uname -r) $(uname -m) cpus $(grep -c ^processor /proc/cpuinfo)"
for o in a b; do
	bin=/bin/pcptop
	[ $o = a ] && bin=/bin/pcptop-a
	[ -x $bin ] || { echo "BENCH:error:no $bin"; echo "BENCH:done"; exit 0; }
	echo "BENCH:hooks:$o:$($bin info --json 2>/dev/null |
		grep -oE '"(fentry|fexit|kprobe|kretprobe|tp):[A-Za-z0-9_.]+"' |
		tr -d '"' | sort -u | tr '\n' ' ')"
done
mkfifo /tmp/fifo /tmp/ping /tmp/pong
case " $WORKLOADS " in
*" loop "*)
	# not in $(...): loop_dev is set here, not in a subshell
	setup_loop >/tmp/loop.err 2>&1 || loop_dev=
	loop_why=$(head -n 1 /tmp/loop.err)
	;;
esac
case " $WORKLOADS " in
*" bonnie-ext4 "*)
	setup_disk >/tmp/disk.err 2>&1 || disk=
	disk_why=$(head -n 1 /tmp/disk.err)
	;;
esac

for w in $WORKLOADS; do
	why=$(cannot "$w")
	if [ -n "$why" ]; then
		echo "BENCH:$w:none:1:n/a $why"
		continue
	fi
	r=1
	while [ $r -le "$REPS" ]; do
		order="none a b"
		[ $((r % 2)) = 0 ] && order="b a none"
		for o in $order; do
			prepare "$w"
			if ! start_obs "$o"; then
				echo "BENCH:$w:$o:$r:n/a $(grep -m1 pcptop: /tmp/obs.out)"
				continue
			fi
			x0=$(ctxt)
			idle_ns >/tmp/idle.0
			workload "$w" >/tmp/w.out 2>&1
			rc=$?
			idle_ns >/tmp/idle.1
			x1=$(ctxt)
			stop_obs
			read -r n0 i0 </tmp/idle.0
			read -r n1 i1 </tmp/idle.1
			ns=$(sed -n 's/^timed: \([0-9]*\) ns$/\1/p' /tmp/w.out)
			# a failed run is no figure (timed passes its status on)
			[ $rc -eq 0 ] || ns="n/a $w exited $rc: $(grep -v '^timed:' /tmp/w.out | head -n 1)"
			echo "BENCH:busy:$w:$o:$r:$((n1 - n0 - (i1 - i0)))"
			echo "BENCH:ctxt:$w:$o:$r:$((x1 - x0))"
			echo "BENCH:$w:$o:$r:${ns:-n/a workload failed}"
		done
		r=$((r + 1))
	done
	# the events: each program's runs over the workload alone
	for o in a b; do
		[ -w $STATS ] || { echo "BENCH:runs:$w:$o:n/a no $STATS"; break; }
		prepare "$w"
		start_obs $o --json || continue
		echo 1 >$STATS
		workload "$w" >/dev/null 2>&1
		echo 0 >$STATS
		stop_obs
		tr '{' '\n' </tmp/obs.out |
			sed -n 's/^ *"name": *"\([^"]*\)", *"runs": *\([0-9]*\), *"run_ns": *\([0-9]*\).*/\1:\2:\3/p' |
			sed "s/^/BENCH:runs:$w:$o:/"
	done
done
echo "BENCH:done"

#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the test VMs built by tests/vm/run.sh. Why it exists: fentry and
# kprobes are refused on the development machines, so pcptop's function
# probes are proven inside qemu booting Debian's own kernels. This script
# stays small on purpose: it runs pcptop and the workloads and prints the
# results to the serial console, one "VMTEST:<tag>:<line>" per line; the
# host runner does every assertion (with jq).
#
# Kernel command line switches (read from /proc/cmdline):
#   vmtest.mode=test|shell|exec
#                            test (default) runs the checks, shell drops to
#                            a busybox shell on the console, exec runs the
#                            script run.sh --exec put at /exec.sh
#   vmtest.crash=1           crash at once (tests the runner's retries)

/bin/busybox mkdir -p /proc /sys /dev /tmp /run /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# tcpstream needs 127.0.0.1; nothing else configures lo in an initramfs
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

# hwm_until_exit, shared with the --exec scripts of make bench
. /bin/vmtest-lib.sh

arg() {
	# value of vmtest.$1= on the kernel command line, else $2
	v=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^vmtest\.$1=//p" | tail -n 1)
	echo "${v:-$2}"
}

# vm.percpu_pagelist_high_fraction for a small fixed high: each CPU's
# high is the zone's pages over this, and never below 4 batches (252
# pages here), which is what it comes to in these VMs' 1 GiB
PCP_SMALL_HIGH_FRACTION=100000

# a board's view and a board's kernel: the live view on the serial
# console with no terminfo, and no sysfs BTF (the host checks both)
board_checks() {
	# the live view on this serial console: the initramfs has no terminfo,
	# so linux, vt100 and xterm-256color come from pcptop's built-in entries
	# and dumb falls back to text frames (the host checks the console log)
	phase top
	for t in linux vt100 xterm-256color dumb; do
		echo "VMTEST:top_begin:$t"
		TERM=$t LINES=30 COLUMNS=100 pcptop top -d 0.5 -n 2 2>/tmp/top.err
		echo "VMTEST:top_rc:$t $?"
		sed "s/^/VMTEST:top_err:$t /" /tmp/top.err
	done

	btf_cache_checks

	# a board's kernel without /sys/kernel/btf/vmlinux: the BTF copied to a
	# file, the sysfs one hidden under an empty tmpfs; pcptop must say to use
	# --btf, run kprobes and raw tracepoints with it, and refuse fentry
	phase btf
	cp /sys/kernel/btf/vmlinux /tmp/vmlinux.btf
	mount -t tmpfs none /sys/kernel/btf
	pcptop info >/dev/null 2>/tmp/nobtf.err
	echo "VMTEST:nobtf_rc:$?"
	say nobtf_err </tmp/nobtf.err
	pcptop info --mode fentry --btf /tmp/vmlinux.btf >/dev/null 2>/tmp/btffe.err
	echo "VMTEST:btf_fentry_rc:$?"
	say btf_fentry_err </tmp/btffe.err
	# stat with the whole BTF (its modes and pages checked) and with
	# pcptop btf-min's (made on the host from this kernel's BTF), each
	# with its peak RSS
	phase btf-rss
	# a small high that auto-tuning cannot grow (a fraction fixes high
	# and high_max, 5.14+), so that the churn's frees overflow it: these
	# runs check what --btf loads, not the pagesets' policy. Grown, high
	# kept whole 236 MiB churns on arm64 7.3 without a bulk free in 3 s.
	frac=$(cat /proc/sys/vm/percpu_pagelist_high_fraction 2>/dev/null)
	echo $PCP_SMALL_HIGH_FRACTION >/proc/sys/vm/percpu_pagelist_high_fraction 2>/dev/null
	for b in vmlinux:/tmp/vmlinux.btf min:/pcptop.btf; do
		pcptop stat -i 3 -c 1 --json --btf "${b#*:}" >/tmp/b.json 2>/tmp/b.err &
		spid=$!
		churn_while $spid &
		# not in $(...): a subshell cannot wait for its parent's child
		peak_rss $spid >/tmp/rss
		echo "VMTEST:btfrss_rc:${b%%:*} $(cat /tmp/rss)"
		wait
		say "btfrss_json:${b%%:*}" </tmp/b.json
		say "btfrss_err:${b%%:*}" </tmp/b.err
	done
	[ -n "$frac" ] && echo "$frac" >/proc/sys/vm/percpu_pagelist_high_fraction
	umount /sys/kernel/btf
}

# The BTF cache (src/kernel/btf_cache.h) on a board's kernel: a first
# start of `stat -i 0.05 -c 1` from an empty cache cuts and keeps the BTF,
# a second one reads it, each timed from /proc/uptime; then in runs of
# their own (the poll takes the one CPU) their peak RSS, which the host
# holds to the matrix. One timed pair, printed, not held: TCG's wall clock
# runs with the host's load (checks.sh's check_btf_cache says why; the
# three pairs there were before took 20-30 s of a board's boot)
BTF_CACHE_DIR=/var/cache/pcptop/btf
btf_cache_checks() {
	local run t0 rc
	phase btf-cache
	for run in first-1 second-1 rss-first rss-second; do
		case $run in first-* | rss-first) rm -rf $BTF_CACHE_DIR ;; esac
		echo "VMTEST:btfcache_entries:$run $(ls $BTF_CACHE_DIR 2>/dev/null | wc -l)"
		case $run in
		rss-*)
			pcptop stat -i 0.05 -c 1 -H >/dev/null 2>/tmp/bc.err &
			# not in $(...): a subshell cannot wait for its parent's child
			hwm_until_exit $! >/tmp/hwm
			echo "VMTEST:btfcache_rss:${run#rss-} $(cat /tmp/hwm)"
			;;
		*)
			t0=$(cut -d' ' -f1 /proc/uptime)
			pcptop stat -i 0.05 -c 1 -H >/dev/null 2>/tmp/bc.err
			rc=$?
			echo "VMTEST:btfcache_time:$run $rc $t0 $(cut -d' ' -f1 /proc/uptime)"
			;;
		esac
		say "btfcache_err:$run" </tmp/bc.err
	done
	pcptop info --json >/tmp/bc.json 2>/dev/null
	say btfcache_info </tmp/bc.json
	# what each program cost the verifier, its own count (-v)
	pcptop stat -v -i 0.05 -c 1 -H 2>&1 >/dev/null |
		grep '^pcptop: verifier: ' | say btfcache_verifier
}

# churn_while PID: churn until PID ends, so that its interval sees whole
# churns however long it takes to attach (about 2 s with a whole BTF
# under TCG here, longer on a loaded host: a fixed sleep missed them).
# 16 MiB a churn is 16 times the high the caller pins
# (PCP_SMALL_HIGH_FRACTION): every unmap overflows it. Sized from an
# auto-tuned high instead, twice high and even twice high_max left
# arm64 7.3 without a bulk free in 3 s.
CHURN_WHILE_MIB=16
churn_while() {
	while kill -0 "$1" 2>/dev/null; do
		churn -m $CHURN_WHILE_MIB -n 1 >/dev/null 2>&1
	done
}

# peak_rss PID: waits for it; prints its exit status and VmHWM in KiB, the
# last read before it ended (busybox has no time -v)
peak_rss() {
	local pid=$1 hwm=0 v
	while [ -d /proc/$pid ]; do
		v=$(awk '/^VmHWM:/ { print $2 }' /proc/$pid/status 2>/dev/null)
		[ -n "$v" ] && hwm=$v
		sleep 0.1
	done
	wait "$pid"
	echo "$? $hwm"
}

# phase NAME: the guest's uptime as NAME starts; the host writes how long
# each phase took to $OUT/KERNEL/phases (where a boot's time goes)
phase() {
	echo "VMTEST:phase:$1 $(cut -d' ' -f1 /proc/uptime)"
}

say() {
	# prefix every line so the host can pick it out of kernel noise
	sed "s/^/VMTEST:$1:/"
}

finish() {
	phase end
	echo "VMTEST:end:done"
	sync
	poweroff -f
	# a kernel without ACPI/PSCI only halts: qemu's -no-reboot ends it
	reboot -f
}

if [ "$(arg crash 0)" = 1 ]; then
	# VMTEST_CRASH_FIRST=1 run.sh: proves the runner's early-death retry
	echo "VMTEST:crash:injected"
	echo c >/proc/sysrq-trigger
fi

mode=$(arg mode test)
if [ "$mode" = exec ]; then
	# run.sh --exec FILE: a one-off script, output on the console
	sh /exec.sh 2>&1
	finish
fi
if [ "$mode" = shell ]; then
	echo "vmtest shell: pcptop, churn and tcpstream are in /bin; exit to power off"
	if [ -t 0 ]; then
		setsid cttyhack sh -l
	else
		sh
	fi
	finish
fi

echo "VMTEST:begin:$(uname -r) $(uname -m)"
if [ -e /sys/kernel/btf/vmlinux ]; then
	echo "VMTEST:btf:yes"
else
	echo "VMTEST:btf:no"
fi
echo "VMTEST:pagesize:$(sed -n 's/^KernelPageSize: *//p' /proc/self/smaps | head -n 1)"

phase info
pcptop info --json >/tmp/info.json 2>/tmp/info.err
echo "VMTEST:info_rc:$?"
say info </tmp/info.json
say info_err </tmp/info.err

# stat's own JSON in the probe modes this kernel gets, with BPF statistics
# on: its self.programs say how often each hook ran against the pages
# counted, which is how the host tells a per-page hook from a per-batch one
phase stat
stats_old=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 0)
echo 1 >/proc/sys/kernel/bpf_stats_enabled 2>/dev/null
pcptop stat -i 600 -c 1 --json >/tmp/stat.json 2>/tmp/stat.err &
stat_pid=$!
i=0
while [ $i -lt 240 ] && kill -0 $stat_pid 2>/dev/null &&
	[ "$(ls -l /proc/$stat_pid/fd 2>/dev/null | grep -c bpf_link)" -eq 0 ]; do
	sleep 0.5
	i=$((i + 1))
done
sleep 1
churn -m 32 -n 2 >/dev/null 2>&1
pipes -p 32 -n 4 >/dev/null 2>&1
kill -INT $stat_pid 2>/dev/null
wait $stat_pid
echo "VMTEST:stat_rc:$?"
echo "$stats_old" >/proc/sys/kernel/bpf_stats_enabled 2>/dev/null
say stat </tmp/stat.json
say stat_err </tmp/stat.err

# the figures over a workload that drives every PCP path, beside the
# kernel's own counts of the same window (tests/oracle/guest.sh; the
# host compares them in tests/oracle/check.sh)
phase oracle
ORACLE_STALLS=$(arg stalls 1) sh /bin/oracle-guest.sh run --cross-check --latency

# record --trace on this kernel, beside the kernel's own count of the same
# allocations and frees: hist triggers around the churn alone (inner,
# keyed by order) and around the whole recording (outer, by CPU). Every
# allocation and free of the churn must be in the trace, whichever hook
# gave it, and the trace holds no more than the recording saw (the host
# checks both, and which hooks this kernel's trace attached). The same
# for decay_pcp_high()'s returns (6.7+), an fprobe event's, else a
# kretprobe event's: the trace's DECAY_END events between the two. Its
# inner trigger is made paused before the recording and only continued
# inside it: making a trigger allocates its map through vmalloc's
# alloc_pages_bulk(), which the trace does not see, and on the one-CPU
# arm64 6.12 row that took a refill of 2016 pages the replay never made.
phase trace
TR=/sys/kernel/tracing
DECAY_EV=
if grep -q '^decay_pcp_high\( \|$\)' $TR/available_filter_functions 2>/dev/null &&
   { echo 'f:pcptest/decay_ret decay_pcp_high%return' >>$TR/dynamic_events ||
     echo 'r:pcptest/decay_ret decay_pcp_high' >>$TR/dynamic_events; } 2>/dev/null; then
	DECAY_EV=$TR/events/pcptest
fi
export DECAY_EV
cat >/tmp/trace-load.sh <<'EOT'
. /bin/vmtest-lib.sh
hist_on mm_page_alloc order "$HIST_NOFAIL"
hist_on mm_page_free order
if [ -n "$DECAY_EV" ]; then
	echo 'hist:keys=common_pid:continue' >>"$DECAY_EV/decay_ret/trigger"
fi
churn -m 32 -n 2 >/dev/null 2>&1
echo "$(hist_hits mm_page_alloc order "$HIST_NOFAIL") $(hist_hits mm_page_free order)" >/tmp/trace-inner
if [ -n "$DECAY_EV" ]; then
	HIST_EV=$DECAY_EV hist_hits decay_ret common_pid >/tmp/trace-decay-inner
fi
EOT
hist_on mm_page_alloc cpu "$HIST_NOFAIL"
hist_on mm_page_free cpu
if [ -n "$DECAY_EV" ]; then
	HIST_EV=$DECAY_EV hist_on decay_ret cpu
	echo 'hist:keys=common_pid:pause' >>"$DECAY_EV/decay_ret/trigger"
fi
pcptop record -q --trace -o /tmp/trace.data -- sh /tmp/trace-load.sh 2>/tmp/trace.err
echo "VMTEST:trace_rc:$?"
echo "VMTEST:trace_hits:$(cat /tmp/trace-inner 2>/dev/null) $(hist_hits mm_page_alloc cpu "$HIST_NOFAIL") $(hist_hits mm_page_free cpu)"
if [ -n "$DECAY_EV" ]; then
	echo "VMTEST:trace_decays:$(cat /tmp/trace-decay-inner 2>/dev/null) $(HIST_EV=$DECAY_EV hist_hits decay_ret cpu)"
	echo '-:pcptest/decay_ret' >>$TR/dynamic_events 2>/dev/null
fi
say trace_err </tmp/trace.err
pcptop report --json /tmp/trace.data 2>/dev/null | say trace_report
pcptop whatif /tmp/trace.data --check >/tmp/whatif.out 2>/tmp/whatif.err
echo "VMTEST:trace_whatif_rc:$?"
say trace_whatif </tmp/whatif.out
say trace_whatif_err </tmp/whatif.err
rm -f /tmp/trace.data

# the boards of the matrix (smp 1, VMTEST_BOARDS in run.sh) also check what a board needs
if [ "$(arg board 0)" = 1 ]; then
	board_checks
fi
finish

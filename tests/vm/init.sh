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
#   vmtest.churn=MIB         churn size per round (default 64)
#   vmtest.tcp=SECS          loopback TCP stream duration (default 3)
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

arg() {
	# value of vmtest.$1= on the kernel command line, else $2
	v=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^vmtest\.$1=//p" | tail -n 1)
	echo "${v:-$2}"
}

say() {
	# prefix every line so the host can pick it out of kernel noise
	sed "s/^/VMTEST:$1:/"
}

finish() {
	echo "VMTEST:end:done"
	sync
	poweroff -f
	# a kernel without ACPI/PSCI only halts: qemu's -no-reboot ends it
	reboot -f
}

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
if [ "$(arg crash 0)" = 1 ]; then
	# VMTEST_CRASH_FIRST=1 run.sh: proves the runner's early-death retry
	echo "VMTEST:crash:injected"
	echo c >/proc/sysrq-trigger
fi
if [ -e /sys/kernel/btf/vmlinux ]; then
	echo "VMTEST:btf:yes"
else
	echo "VMTEST:btf:no"
fi
echo "VMTEST:pagesize:$(sed -n 's/^KernelPageSize: *//p' /proc/self/smaps | head -n 1)"

pcptop info --json >/tmp/info.json 2>/tmp/info.err
echo "VMTEST:info_rc:$?"
say info </tmp/info.json
say info_err </tmp/info.err

# one long interval ended by SIGINT once the workload is done: stat prints
# its report after the load and the quiet tail, whatever TCG's speed
pcptop stat -i 600 -c 1 --json --cross-check >/tmp/stat.json 2>/tmp/stat.err &
stat_pid=$!

# Wait until all its BPF links exist: a bulk free already running when
# the cross-check tracepoint (attached last) arrives is counted by fexit
# but only partly by the tracepoint, which breaks the page identity. Under
# TCG, on a busy host, one fentry attach can take over a second, so wait
# for the link count to hold still for 2 s, not just to appear.
i=0
last=-1
still=0
while [ $i -lt 240 ]; do
	links=$(ls -l /proc/$stat_pid/fd 2>/dev/null | grep -c bpf_link)
	if [ "$links" -gt 0 ] && [ "$links" = "$last" ]; then
		still=$((still + 1))
		[ $still -ge 4 ] && break
	else
		still=0
	fi
	last=$links
	kill -0 $stat_pid 2>/dev/null || break
	sleep 0.5
	i=$((i + 1))
done
echo "VMTEST:links:$links"

churn -m "$(arg churn 64)" -n 3 2>&1 | say churn &
churn_pid=$!
tcpstream -s "$(arg tcp 3)" -j 2 2>&1 | say tcpstream
wait $churn_pid
echo 1 >/proc/sys/vm/compact_memory
# CPU hotplug drains the departing CPU's lists (drain_pages_zone)
if [ -e /sys/devices/system/cpu/cpu1/online ]; then
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	echo "VMTEST:hotplug:cpu1 $(cat /sys/devices/system/cpu/cpu1/online)"
fi
# vmstat's decay_pcp_high runs about once a second
sleep 3

# BPF programs skipped by the kernel's per-program recursion guard: on
# PREEMPT_RT they run preemptible, and an event arriving on a CPU whose
# copy of the program is preempted mid-run is dropped (recursion_misses)
misses=0
for f in /proc/$stat_pid/fdinfo/*; do
	m=$(sed -n 's/^recursion_misses:[[:space:]]*//p' "$f" 2>/dev/null)
	[ -n "$m" ] && misses=$((misses + m))
done
echo "VMTEST:misses:$misses"
# A bulk free in flight when stat flips its epoch has its tracepoint pages
# in the interval read and its fexit pages in the next one (seen once: a
# 2016-page call). Let the frees of the processes above finish first.
sleep 2

kill -INT $stat_pid 2>/dev/null
wait $stat_pid
echo "VMTEST:stat_rc:$?"
say stat </tmp/stat.json
say stat_err </tmp/stat.err
finish

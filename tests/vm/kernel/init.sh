#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the patched-kernel VMs booted by tests/vm/patched.sh. Why it
# exists: the scale pcptop reports must be proven against a kernel that
# really runs with pcp_batch_scale_max=N, and only a kernel built with
# tests/vm/kernel/pcp-batch-scale-max.patch does. It stays small: it runs
# pcptop and the same workload in every boot and prints the results on the
# serial console as "PATCHED:<tag>:<line>"; the host makes every assertion.

/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# tcpstream needs 127.0.0.1; nothing else brings lo up in an initramfs
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

say() {
	sed "s/^/PATCHED:$1:/"
}

finish() {
	echo "PATCHED:end:done"
	sync
	# no ACPI in this kernel: poweroff would only halt; qemu -no-reboot
	# turns the reboot into an exit
	reboot -f
}

echo "PATCHED:begin:$(uname -r)"
echo "PATCHED:cmdline:$(cat /proc/cmdline)"
grep -w pcp_batch_scale_max /proc/kallsyms | say kallsyms
# the patch logs a clamp; "quiet" keeps it off the console, dmesg has it
dmesg | grep pcp_batch_scale_max | say dmesg

pcptop info --json >/tmp/info.json 2>/tmp/info.err
echo "PATCHED:info_rc:$?"
say info </tmp/info.json
say info_err </tmp/info.err

# One stat interval covering the whole workload, ended by SIGINT: the
# report then holds every flush, drain and decay of the run.
pcptop stat -i 600 -c 1 --json >/tmp/stat.json 2>/tmp/stat.err &
stat_pid=$!
# the text view, for its first line, while the JSON one attaches
pcptop stat -i 0.2 -c 1 -H >/tmp/stat.txt 2>&1
echo "PATCHED:stat_text_rc:$?"
head -n 1 /tmp/stat.txt | say stat_text
i=0
while [ $i -lt 240 ]; do
	[ "$(ls -l /proc/$stat_pid/fd 2>/dev/null | grep -c bpf_link)" -gt 0 ] &&
		break
	kill -0 $stat_pid 2>/dev/null || break
	sleep 0.5
	i=$((i + 1))
done
sleep 1
echo "PATCHED:links:$(ls -l /proc/$stat_pid/fd 2>/dev/null | grep -c bpf_link)"

# the same load in every boot, so the lock times compare
churn -m 64 -n 3 2>&1 | say churn &
churn_pid=$!
if [ -x /bin/tcpstream ]; then
	# order-3 page fragments freed in bursts: free_high flushes
	tcpstream -s 3 -j 2 2>&1 | say tcpstream
fi
wait $churn_pid
echo 1 >/proc/sys/vm/compact_memory
# taking a CPU down drains its pagesets in chunks (drain_pages_zone)
if [ -e /sys/devices/system/cpu/cpu1/online ]; then
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online
	echo "PATCHED:hotplug:cpu1 $(cat /sys/devices/system/cpu/cpu1/online)"
fi
# vmstat's decay_pcp_high runs about once a second
sleep 3

kill -INT $stat_pid 2>/dev/null
wait $stat_pid
echo "PATCHED:stat_rc:$?"
say stat </tmp/stat.json
say stat_err </tmp/stat.err
# pcptop info text last: its first line is checked too
pcptop info >/tmp/info.txt 2>&1
echo "PATCHED:info_text_rc:$?"
head -n 1 /tmp/info.txt | say info_text
finish

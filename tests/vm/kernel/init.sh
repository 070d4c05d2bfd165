#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the patched-kernel VMs booted by tests/oracle/run.sh. Why it
# exists: the scale pcptop reports must be proven against a kernel that
# really runs with pcp_batch_scale_max=N, and only a kernel built with
# tests/vm/kernel/pcp-batch-scale-max.patch does; the same kernel carries
# pcp-oracle.patch, the exact count every figure is checked against. It
# stays small: it runs pcptop and the same workload in every boot and
# prints the results on the serial console as "PATCHED:<tag>:<line>" and
# "ORACLE:<tag>:<line>"; the host makes every assertion.

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

# make rehearsal: bonnie++ recorded at this boot's scale, nothing else
if grep -qw 'pcptest.rehearsal=1' /proc/cmdline; then
	sh /bin/rehearsal-guest.sh
	finish
fi

pcptop info --json >/tmp/info.json 2>/tmp/info.err
echo "PATCHED:info_rc:$?"
say info </tmp/info.json
say info_err </tmp/info.err

# pcptop's options for this boot: pcptest.opts=--mode,kprobe on the
# kernel command line (commas for spaces)
opts=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^pcptest\.opts=//p' | tr ',' ' ')
echo "PATCHED:opts:$opts"

# stat's JSON and the first line of its text view, in this boot's modes
pcptop stat -i 1 -c 1 --json $opts >/tmp/stat.json 2>/tmp/stat.err
echo "PATCHED:stat_rc:$?"
say stat </tmp/stat.json
say stat_err </tmp/stat.err
pcptop stat -i 0.2 -c 1 -H $opts >/tmp/stat.txt 2>&1
echo "PATCHED:stat_text_rc:$?"
head -n 1 /tmp/stat.txt | say stat_text

# every figure over a workload that drives every PCP path, beside the
# kernel's own counts (/proc/pcp_oracle, tracefs): tests/oracle/guest.sh
# pcptest.oracle=no: a boot that only proves where the scale comes from
# pcptest.stalls=0: without the stalls window (tests/oracle/run.sh's
# NO_STALLS)
if ! grep -qw 'pcptest.oracle=no' /proc/cmdline; then
	stalls=1
	grep -qw 'pcptest.stalls=0' /proc/cmdline && stalls=0
	ORACLE_STALLS=$stalls sh /bin/oracle-guest.sh run $opts
fi

# pcptop info text last: its first line is checked too
pcptop info >/tmp/info.txt 2>&1
echo "PATCHED:info_text_rc:$?"
head -n 1 /tmp/info.txt | say info_text
finish

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

# stat's own JSON in the probe modes this kernel gets
pcptop stat -i 1 -c 1 --json >/tmp/stat.json 2>/tmp/stat.err
echo "VMTEST:stat_rc:$?"
say stat </tmp/stat.json
say stat_err </tmp/stat.err

# the figures over a workload that drives every PCP path, beside the
# kernel's own counts of the same window (tests/vm/oracle-guest.sh; the
# host compares them in tests/vm/oracle-check.sh)
sh /bin/oracle-guest.sh run --cross-check
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside a test VM as /exec.sh: tests/record/vm-check.sh builds it
# from this file and boots it with tests/vm/run.sh --exec. pcptop record
# runs around bonnie++ (when vm-check.sh appended it, with its shared
# libraries, below the __PAYLOAD__ line) or else around churn, in the mode
# the kernel offers (fentry on Debian's 6.x amd64 kernels), then report
# --json. Prints "VMREC:<tag>:<line>"; vm-check.sh makes every assertion.

say() {
	sed "s/^/VMREC:$1:/"
}

line=$(grep -n '^__PAYLOAD__$' "$0" | cut -d: -f1)
if [ -n "$line" ]; then
	tail -n +$((line + 1)) "$0" | base64 -d | tar xzf - -C /
	echo "VMREC:payload:$?"
fi
# bonnie++ -u root looks root up: an initramfs has no passwd or group
if [ ! -e /etc/passwd ]; then
	mkdir -p /etc
	echo 'root:x:0:0:root:/root:/bin/sh' >/etc/passwd
	echo 'root:x:0:' >/etc/group
fi

if [ -x /usr/sbin/bonnie++ ]; then
	mkdir -p /tmp/bonnie
	echo "VMREC:workload:bonnie++"
	set -- /usr/sbin/bonnie++ -d /tmp/bonnie -s 256 -r 128 -n 0 -u root -f
else
	echo "VMREC:workload:churn"
	set -- churn -m 64 -n 3
fi
start=$(date +%s)
pcptop record -q -o /tmp/rec.data -- "$@" >/tmp/work.out 2>/tmp/rec.err
echo "VMREC:record_rc:$?"
echo "VMREC:record_s:$(($(date +%s) - start))"
say record_err </tmp/rec.err
tail -n 3 /tmp/work.out | say work
pcptop report /tmp/rec.data --json >/tmp/rep.json 2>/tmp/rep.err
echo "VMREC:report_rc:$?"
say report </tmp/rep.json
say report_err </tmp/rep.err
pcptop report /tmp/rec.data -T -H | say text
# the JSON of fentry mode, for docs/schema/ on the host
pcptop info --json 2>/dev/null | say info
pcptop stat -i 0.3 -c 1 --json 2>/dev/null | say stat
pcptop diff /tmp/rec.data /tmp/rec.data --json 2>/dev/null | say diff
pcptop record -q -o /tmp/exit7.data -- sh -c 'exit 7' 2>/dev/null
echo "VMREC:exit7:$?"
echo "VMREC:done:1"
# the payload below is data, never run
exit 0

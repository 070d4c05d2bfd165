#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside a test VM as /exec.sh (tests/record/vm-diff.sh boots it with
# tests/vm/run.sh --exec): pcptop record around a workload that flushes
# at the scale's size, then the recording itself, base64 on the console,
# so the host can diff two kernels' recordings. The workload is
# tests/vm/flush-proof.sh's: order-0 frees past high (commit flushes),
# order 1-3 frees in a streak (free_high), a drain of every pageset.
# Prints "VMDIFF:<tag>:<line>".

pcptop record -q -o /tmp/f.data -- sh -c \
	'churn -m 256 -n 2 && pipes -p 64 -n 8 && echo 1 >/proc/sys/vm/compact_memory' \
	>/dev/null 2>/tmp/f.err
echo "VMDIFF:record_rc:$?"
sed 's/^/VMDIFF:record_err:/' /tmp/f.err
echo "VMDIFF:release:$(uname -r)"
base64 /tmp/f.data | sed 's/^/VMDIFF:data:/'
echo "VMDIFF:done:1"

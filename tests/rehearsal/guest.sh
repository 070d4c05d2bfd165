#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the rehearsal VM (tests/rehearsal/run.sh), as
# tests/vm/kernel/init.sh's stand-in for the oracle: bonnie++ on tmpfs,
# recorded by pcptop with --latency at the scale the kernel was booted
# with, then the recording on the console in base64, so the host gets the
# very file. Prints "REHEARSAL:<tag>:<line>"; the host makes every check.

say() {
	sed "s/^/REHEARSAL:$1:/"
}

# bonnie++ -u root looks root up: the bonnie cpio brings passwd and group
mkdir -p /tmp/bonnie
echo "REHEARSAL:scale:$(tr ' ' '\n' </proc/cmdline | sed -n 's/^pcp_batch_scale_max=//p')"
# sized to finish in a few minutes under TCG -icount: 256 MiB of block
# writes, rewrites and reads, and 4 x 1024 small files
pcptop record -q --latency -i 0.5 -o /tmp/rec.data -- \
	bonnie++ -d /tmp/bonnie -s 256 -r 128 -n 4 -u root -f -b \
	>/tmp/work.out 2>/tmp/rec.err
echo "REHEARSAL:record_rc:$?"
say record_err </tmp/rec.err
tail -n 2 /tmp/work.out | say work
ls -l /tmp/rec.data | say size
base64 /tmp/rec.data | say data
echo "REHEARSAL:data_end:1"

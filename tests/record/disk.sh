#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What record does to the disk it writes, for real on this host (issue
# 30): how often --sync makes it fsync its recording, counted by strace
# (nothing pcptop writes itself; its BTF cache is fsynced too, so the
# count is of the recording's descriptor alone), and a file system that
# fills mid-run (a small tmpfs: ENOSPC from write()): one line on stderr
# naming the path, the command run to its end, exit 1, and the recording
# up to its last whole interval read back by report.
# Usage: tests/record/disk.sh [BUILD_DIR]   (root; about 40 s)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

BUILD=${1:-build}
P=$(realpath "$BUILD/pcptop")
t_need disk "$P" /usr/bin/strace
TMP=$(mktemp -d)
mnt=$TMP/small
cleanup() {
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	rm -rf "$TMP"
}
trap cleanup EXIT
# the command's length, and --sync's interval against it
RUN_S=12
SYNC_S=5

# fsyncs RUN_SYNC: fsync or fdatasync calls on the recording's own file
# descriptor over a record of RUN_S seconds with --sync RUN_SYNC
fsyncs() {
	local out=$TMP/sync-$1.data
	strace -f -qq -y -e trace=fsync,fdatasync -o "$TMP/strace-$1" \
		"$P" record -q -i 1 --sync "$1" -o "$out" -- sleep "$RUN_S" \
		>/dev/null 2>&1
	echo "$?" >"$TMP/rc-$1"
	grep -cE "^[0-9]+ +f(data)?sync\([0-9]+<$(realpath "$out")>\) += 0" "$TMP/strace-$1"
}

echo "== --sync, counted by strace"
n5=$(fsyncs "$SYNC_S")
t_eq "record --sync $SYNC_S under strace exits 0" "$(cat "$TMP/rc-$SYNC_S")" 0
# a sync is due SYNC_S after the last; the close syncs once more
t_cmp "--sync $SYNC_S over $RUN_S s: at least $RUN_S / $SYNC_S - 1 fsyncs of the recording" \
	"$n5" -ge $((RUN_S / SYNC_S - 1))
t_cmp "  and not one an interval" "$n5" -le $((RUN_S / SYNC_S + 2))
n0=$(fsyncs 0)
t_eq "record --sync 0 under strace exits 0" "$(cat "$TMP/rc-0")" 0
t_eq "--sync 0: exactly one fsync of the recording, at its close" "$n0" 1
# the count follows --sync: the check above is not one that holds anyway
n1=$(fsyncs 1)
t_cmp "--sync 1 syncs more often than --sync $SYNC_S" "$n1" -gt "$n5"

echo "== the disk fills mid-run"
mkdir -p "$mnt"
# 16 KiB: the header and some 20 intervals of 0.2 s, then ENOSPC
mount -t tmpfs -o size=16k tmpfs "$mnt" || {
	t_fail "mounting a 16 KiB tmpfs at $mnt"
	t_summary
	exit
}
"$P" record -q -i 0.2 -o "$mnt/r.data" -- sh -c "sleep 6; echo ran >$TMP/ran" \
	>/dev/null 2>"$TMP/enospc.err"
t_eq "record exits 1 when its disk is full" "$?" 1
t_eq "  the command ran to its end" "$(cat "$TMP/ran" 2>/dev/null)" ran
t_eq "  one line on stderr, naming the path and ENOSPC" \
	"$(grep -c "writing $mnt/r.data: No space left on device" "$TMP/enospc.err") $(wc -l <"$TMP/enospc.err")" "1 1"
"$P" report --json "$mnt/r.data" >"$TMP/enospc.json" 2>"$TMP/enospc-report.err"
t_eq "  report reads the recording" "$?" 0
t_cmp "  up to its last whole interval" "$(jq -r '.intervals // 0' "$TMP/enospc.json")" -ge 5
t_check "  and says where it was cut" -- grep -q 'cut short' "$TMP/enospc-report.err"
t_summary

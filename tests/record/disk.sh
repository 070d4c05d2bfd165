#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What record does to the disk it writes, for real on this host (issue
# 30): how often --sync makes it fsync its recording, counted by strace
# (nothing pcptop writes itself; its BTF cache is fsynced too, so the
# count is of the recording's descriptor alone, and of the fsyncs before
# the one at its close: that one comes whatever --sync says), and a file
# system that fills mid-run, a small tmpfs and ext4 on a loop device
# (ENOSPC from write()): one line on stderr naming the path, the command
# run to its end, exit 1, and the recording up to its last whole
# interval read back by report.
# Usage: tests/record/disk.sh [BUILD_DIR]   (root; about 45 s)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

BUILD=${1:-build}
P=$(realpath "$BUILD/pcptop")
t_need disk "$P" /usr/bin/strace
TMP=$(mktemp -d)
mnt=$TMP/small
blk=$TMP/blk
loopdev=
cleanup() {
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	mountpoint -q "$blk" 2>/dev/null && umount "$blk"
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	rm -rf "$TMP"
}
trap cleanup EXIT
# --sync's interval, and the command's length against it: long enough
# that the mid-run fsyncs alone must reach elapsed / SYNC_S - 1 >= 2, so
# that a record ignoring --sync (the fsync at its close alone) fails
SYNC_S=5
RUN_S=16

# fsyncs SYNC SECONDS: record -i 1 --sync SYNC around sleep SECONDS under
# strace; prints "MID CLOSE ELAPSED": the fsync or fdatasync calls on the
# recording's own descriptor (-y names its path) before the one its
# close follows, that one (0 or 1), and the command's whole seconds
fsyncs() {
	local out=$TMP/sync-$1.data
	strace -f -qq -y -e trace=fsync,fdatasync,close -o "$TMP/strace-$1" \
		"$P" record -q -i 1 --sync "$1" -o "$out" -- sleep "$2" \
		>/dev/null 2>&1
	echo "$?" >"$TMP/rc-$1"
	# a successful sync is mid-run unless the recording's next call
	# is its close; a call another process's line cut in two comes back
	# as "PID <... NAME resumed>"
	awk -v fd="<$(realpath "$out")>" '
		{ call = "" }
		index($0, fd) && / <unfinished \.\.\.>$/ { unf[$1] = $2; next }
		$2 == "<..." && ($1 in unf) { call = unf[$1]; delete unf[$1] }
		index($0, fd) { call = $2 }
		call ~ /^f(data)?sync\(/ { mid += pending; pending = $NF == "0"; next }
		call ~ /^close\(/ { at_close += pending; pending = 0 }
		END { print mid + pending, at_close + 0 }' "$TMP/strace-$1" | tr '\n' ' '
	"$P" report --json "$out" 2>/dev/null | jq '.command.wall_s // 0 | floor'
}

echo "== --sync, counted by strace"
read -r n5 c5 e5 <<<"$(fsyncs "$SYNC_S" "$RUN_S")"
t_eq "record --sync $SYNC_S under strace exits 0" "$(cat "$TMP/rc-$SYNC_S")" 0
# a sync is due SYNC_S after the last: elapsed / SYNC_S of them, the
# first interval's start and the last's end rounding one away
t_cmp "the command ran long enough that --sync $SYNC_S owes 2 mid-run fsyncs" \
	$((${e5:-0} / SYNC_S - 1)) -ge 2
t_cmp "--sync $SYNC_S over $e5 s: at least $e5 / $SYNC_S - 1 fsyncs of the recording before its close" \
	"$n5" -ge $((${e5:-0} / SYNC_S - 1))
t_cmp "  and not one an interval" "$n5" -le $((${e5:-0} / SYNC_S + 1))
t_eq "  and one at its close" "$c5" 1
read -r n0 c0 _ <<<"$(fsyncs 0 4)"
t_eq "record --sync 0 under strace exits 0" "$(cat "$TMP/rc-0")" 0
t_eq "--sync 0: no fsync of the recording before its close, one at it" "$n0 $c0" "0 1"
# the count follows --sync: the check above is not one that holds anyway.
# Over SHORT_S, fewer seconds than RUN_S (make check's 3 minutes), --sync
# 1 still owes more syncs than --sync SYNC_S did over RUN_S
SHORT_S=8
read -r n1 _ <<<"$(fsyncs 1 "$SHORT_S")"
t_cmp "--sync 1 over $SHORT_S s syncs more than --sync $SYNC_S over $RUN_S s" "$n1" -gt "$n5"

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

echo "== a block device fills mid-run"
# ext4 on a loop device: the write goes through a file system's block
# allocation (delayed: ENOSPC from its reservation at write()) and the
# block layer, where tmpfs has neither. 2 MiB, a filler taking all but
# FREE_KIB of it: the header and some intervals fit, then ENOSPC
FREE_KIB=16
truncate -s 2M "$TMP/blk.img" && mkfs.ext4 -q -m 0 -F "$TMP/blk.img" &&
	loopdev=$(losetup -f --show "$TMP/blk.img") && mkdir -p "$blk" &&
	mount "$loopdev" "$blk" || {
	t_fail "a 2 MiB ext4 on a loop device at $blk"
	t_summary
	exit
}
t_check "$blk is a block device's ext4 ($loopdev)" -- \
	test -b "$loopdev" -a "$(findmnt -no FSTYPE "$blk")" = ext4
avail=$(df -B1 --output=avail "$blk" | tail -n 1)
fallocate -l $((avail - FREE_KIB * 1024)) "$blk/filler" && sync -f "$blk"
rm -f "$TMP/ran"
"$P" record -q -i 0.2 -o "$blk/r.data" -- sh -c "sleep 6; echo ran >$TMP/ran" \
	>/dev/null 2>"$TMP/blk.err"
t_eq "record exits 1 when the device is full" "$?" 1
t_eq "  the command ran to its end" "$(cat "$TMP/ran" 2>/dev/null)" ran
t_eq "  one line on stderr, naming the path and ENOSPC" \
	"$(grep -c "$blk/r.data: No space left on device" "$TMP/blk.err") $(wc -l <"$TMP/blk.err")" "1 1"
"$P" report --json "$blk/r.data" >"$TMP/blk.json" 2>"$TMP/blk-report.err"
t_eq "  report reads the recording" "$?" 0
t_cmp "  up to its last whole interval" "$(jq -r '.intervals // 0' "$TMP/blk.json")" -ge 5
t_check "  and says where it was cut" -- grep -q 'cut short' "$TMP/blk-report.err"
t_summary

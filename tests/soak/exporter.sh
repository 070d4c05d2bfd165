#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The exporter's long run, at a short interval (make bench, make soak; not
# make test): the command packaging/systemd/pcptop.service runs, for
# INTERVALS intervals (default 10 000) of SECS seconds (default 0.01)
# under a churn that never stops, then SIGTERM. Its resident memory, open fds and the
# textfile's size are read after the first 2 % of the intervals and at
# the end; it passes when none grew: RSS by at most RSS_SLACK_KB (the
# allocator's arenas settle in pages), fds and the file's line count
# not at all (the file's bytes move with its digits).
# Usage: tests/soak/exporter.sh [INTERVALS [SECS]]   (root)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

N=${1:-10000}
SECS=${2:-0.01}
RSS_SLACK_KB=64
P=$(realpath build/pcptop)
CHURN=$(realpath build/churn)
t_need soak-exporter "$P" "$CHURN"
TMP=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

( while :; do "$CHURN" -m 64 -n 4 >/dev/null 2>&1; done ) &
pids+=($!)
F=$TMP/pcptop.prom
"$P" stat --interval "$SECS" --prom "$F" --json >"$TMP/stat.json" 2>"$TMP/stat.err" &
spid=$!
pids+=($spid)
lines() { wc -l <"$TMP/stat.json"; }
sample() { # the pcptop's RSS KiB, fds, the file's lines and bytes, intervals done
	echo "$(awk '/^VmRSS:/ { print $2 }' "/proc/$spid/status") $(ls "/proc/$spid/fd" | wc -l)" \
		"$(wc -l <"$F") $(stat -c %s "$F") $(lines)"
}
t0=$SECONDS
until [ "$(lines)" -ge $((N / 50)) ]; do
	kill -0 "$spid" 2>/dev/null || break
	sleep 0.5
done
first=$(sample)
until [ "$(lines)" -ge "$N" ]; do
	kill -0 "$spid" 2>/dev/null || break
	sleep 0.5
done
last=$(sample)
kill -TERM "$spid"
wait "$spid"
rc=$?
secs=$((SECONDS - t0))
read -r r0 f0 l0 b0 n0 <<<"$first"
read -r r1 f1 l1 b1 n1 <<<"$last"
echo "| | RSS, KiB | fds | textfile lines | textfile bytes | intervals done |"
echo "|---|---|---|---|---|---|"
echo "| after $n0 | $r0 | $f0 | $l0 | $b0 | $n0 |"
echo "| after $n1 | $r1 | $f1 | $l1 | $b1 | $n1 |"
echo "($N intervals of $SECS s asked; $secs s of wall time)"
t_cmp "it ran $N intervals" "$n1" -ge "$N"
t_eq "SIGTERM ended it with exit 0 and no textfile" "$rc:$(test -e "$F"; echo $?)" "0:1"
t_cmp "RSS grew by at most $RSS_SLACK_KB KiB ($r0 -> $r1)" "$((r1 - r0))" -le "$RSS_SLACK_KB"
t_eq "open fds did not change" "$f1" "$f0"
t_eq "the textfile's lines did not change" "$l1" "$l0"
t_cmp "its size grew by under 1 % ($b0 -> $b1 bytes)" "$(((b1 - b0) * 100))" -lt "$b0"
t_summary

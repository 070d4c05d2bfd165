#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make soak (not part of make test): pcptop stat and pcptop record side by
# side for SECONDS (default 1800) under a churn that never stops, sampled
# every SAMPLE seconds (default 60): resident memory and open files of
# both, the maps' locked memory (stat's own JSON) and the recording's size.
# Passes when neither grows more than 1 MiB after the first sample, the
# fd counts never change, the maps stay the same size and the recording
# grows by the same amount each sample (within 10 %).
# Usage: tests/soak/run.sh [SECONDS [SAMPLE]]   (root; writes build/soak/)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

DUR=${1:-1800}
SAMPLE=${2:-60}
P=$(realpath build/pcptop)
CHURN=$(realpath build/churn)
t_need soak "$P" "$CHURN"
OUT=build/soak
rm -rf "$OUT" && mkdir -p "$OUT"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

( while :; do "$CHURN" -m 128 -n 4 >/dev/null 2>&1; done ) &
pids+=($!)
"$P" stat -i 1 --json >"$OUT/stat.json" 2>"$OUT/stat.err" &
spid=$!
pids+=($spid)
"$P" record -q -i 1 -o "$OUT/soak.data" 2>"$OUT/record.err" &
rpid=$!
pids+=($rpid)
sleep 5

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
echo "t_s stat_rss_kb stat_fds record_rss_kb record_fds map_bytes rec_bytes" >"$OUT/samples"
t0=$SECONDS
while :; do
	kill -0 "$spid" 2>/dev/null && kill -0 "$rpid" 2>/dev/null || break
	echo "$((SECONDS - t0)) $(rss $spid) $(fds $spid) $(rss $rpid) $(fds $rpid)" \
		"$(tail -n 1 "$OUT/stat.json" | jq '.self.map_bytes // 0')" \
		"$(stat -c %s "$OUT/soak.data")" >>"$OUT/samples"
	echo "soak: $(tail -n 1 "$OUT/samples")" >&2
	[ $((SECONDS - t0)) -ge "$DUR" ] && break
	sleep "$SAMPLE"
done
cat "$OUT/samples"
n=$(($(wc -l <"$OUT/samples") - 1))
t_cmp "both ran the whole time ($n samples)" "$n" -ge $((DUR / SAMPLE))
col() { awk -v c="$1" 'NR > 1 { print $c }' "$OUT/samples"; }
grow() { col "$1" | awk 'NR == 1 { f = $1 } { l = $1 } END { print l - f }'; }
t_cmp "stat: resident memory grew under 1 MiB (KiB)" "$(grow 2)" -lt 1024
t_cmp "record: resident memory grew under 1 MiB (KiB)" "$(grow 4)" -lt 1024
t_eq "stat: no fd growth" "$(col 3 | sort -u | wc -l)" 1
t_eq "record: no fd growth" "$(col 5 | sort -u | wc -l)" 1
t_eq "the maps stay the same size" "$(col 6 | sort -u | wc -l)" 1
# the recording's growth per sample: the same each time, within 10 %
t_check "the recording grows linearly" -- awk 'NR > 2 { d = $7 - p; if (n++) { r = d / d0; if (r < 0.9 || r > 1.1) bad = 1 } else d0 = d } { p = $7 } END { exit bad || n < 2 }' "$OUT/samples"
t_summary

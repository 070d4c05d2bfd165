#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record --trace on this machine's kernel in tracepoint mode (--mode
# tracepoint: the function probes' hooks stay off, so mm_page_free is what
# the trace hooks for frees even where fentry attaches), against the
# kernel's own counts: perf's count of kmem:mm_page_alloc and
# kmem:mm_page_free (the tracepoints the trace hooks) over a window
# inside the recording, and /proc/vmstat's pgalloc_<zone> for the zone
# each event was put in. monocat stamps each read with CLOCK_MONOTONIC,
# the events' clock, so the trace is counted over windows that bracket
# the kernel's. Then a 4 KiB ring buffer, a record an event (runs off),
# must lose records, and report must say so; the events and losses
# together must cover perf's count. whatif --html of the first recording
# goes through headless Chromium: no chart's text over another (issue 33).
# Needs root, perf, jq, chromium. Usage: tests/record/trace.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

B=${1:-build}
P=$B/pcptop
TC=$B/tracecount
MC=$B/monocat
CHURN=$B/churn
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# 128 MiB four times: about 150 000 allocations and frees
CHURN_ARGS="-m 128 -n 4"
# zone pages: vmstat counts alloc_pages_bulk()'s pages too, which
# mm_page_alloc does not see (vmalloc, a few per second)
ZONE_SLACK_PCT=1
MIN_PNG_BYTES=20000

t_need trace "$P" "$TC" "$MC" "$CHURN"
command -v perf >/dev/null || { echo "trace: perf missing" >&2; exit 2; }

# the workload, inside perf's count, inside the recording; perf stat
# enables its counters only after starting its command: a second later
# the first read is inside them
cat >"$TMP/w.sh" <<W
#!/bin/sh
perf stat -a -x, -o $TMP/perf.csv -e kmem:mm_page_alloc,kmem:mm_page_free -- \
	sh -c "sleep 1; $MC /proc/vmstat >$TMP/v1; $CHURN $CHURN_ARGS >/dev/null; $MC /proc/vmstat >$TMP/v2"
W
chmod +x "$TMP/w.sh"
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
perfc() { awk -F, -v e="$1" '$3 == e { print $1 }' "$TMP/perf.csv"; }
tc() { "$TC" "$TMP/t.data" "$@" >"$TMP/tc.out" && cat "$TMP/tc.out"; }

echo "== a modest rate, the default ring buffer"
"$P" record -q --trace --mode tracepoint -o "$TMP/t.data" -- "$TMP/w.sh"
t_eq "record --trace exits with the command's status" "$?" 0
in_a=$(val mono_after "$TMP/v1")
in_b=$(val mono_before "$TMP/v2")
out_a=$(val mono_before "$TMP/v1")
out_b=$(val mono_after "$TMP/v2")
tc "$in_a" "$in_b" >"$TMP/inner"
tc "$out_a" "$out_b" >"$TMP/outer"
tc >"$TMP/all"
t_eq "nothing lost" "$(val lost "$TMP/all")" 0
# 0x80: vmscan's direct reclaim tracepoints (format 1.7), in every mode
t_eq "hooks: tracepoints (page events, direct reclaim) and /proc/zoneinfo, no function probe (--mode tracepoint)" \
	"$(val hooks "$TMP/all")" 0x91
for ev in alloc free; do
	p=$(perfc "kmem:mm_page_$ev")
	t_cmp "$ev: trace inside perf's window <= perf's count" \
		"$(val "$ev" "$TMP/inner")" -le "$p"
	t_cmp "$ev: perf's count <= the whole trace" \
		"$p" -le "$(val "$ev" "$TMP/all")"
	t_cmp "$ev: the workload's events were traced (> 100000)" \
		"$(val "$ev" "$TMP/inner")" -gt 100000
done
# the zone of every event: vmstat's pages per zone, read between
for z in DMA32 Normal; do
	lz=$(echo "$z" | tr A-Z a-z)
	d=$(($(val "pgalloc_$lz" "$TMP/v2") - $(val "pgalloc_$lz" "$TMP/v1")))
	ti=$(val "alloc_pages_$z" "$TMP/inner")
	to=$(val "alloc_pages_$z" "$TMP/outer")
	t_cmp "$z: traced pages inside the reads <= pgalloc_$lz's increase" \
		"$ti" -le "$((d + d * ZONE_SLACK_PCT / 100))"
	t_cmp "$z: pgalloc_$lz's increase <= traced pages around the reads (+$ZONE_SLACK_PCT%)" \
		"$d" -le "$((to + to * ZONE_SLACK_PCT / 100 + 64))"
done
t_eq "no event of an unknown zone" "$(val alloc_events_unknown "$TMP/all")" 0
t_cmp "pageset snapshots from /proc/zoneinfo" "$(val snapshot "$TMP/all")" -gt 0
IFS=. read -r kv kp _ <<<"$(uname -r)"
kver=$((kv * 1000 + kp))
if [ "$kver" -ge 6019 ]; then want=7.x
elif [ "$kver" -ge 6016 ]; then want=6.16
elif [ "$kver" -ge 6007 ]; then want=6.12
else want=6.1cap; fi
t_eq "the rule set of this kernel ($(uname -r))" "$(val rules "$TMP/all")" "$want"
"$P" report --json "$TMP/t.data" >"$TMP/r.json"
t_eq "report --json: trace.lost" "$(jq .trace.lost "$TMP/r.json")" 0
t_eq "report --json: trace.events.alloc is the reader's" \
	"$(jq .trace.events.alloc "$TMP/r.json")" "$(val alloc "$TMP/all")"
# runs: a CPU's allocations or frees alike go out as one record; the
# churn's come in runs of hundreds (docs/PERFORMANCE.md)
t_cmp "runs: at least 5 events a record" \
	"$(jq '.trace.total_events / .trace.records | floor' "$TMP/r.json")" -ge 5
"$P" report "$TMP/t.data" >"$TMP/r.txt"
t_check "report says nothing was lost" -- grep -q "nothing lost" "$TMP/r.txt"

echo "== whatif --html of this recording in headless Chromium"
# issue 33: a chart's text over its title or other text, or past its edge
"$P" whatif "$TMP/t.data" --html "$TMP/whatif.html" 2>/dev/null
t_eq "whatif --html exits 0" "$?" 0
if command -v chromium >/dev/null; then
	t_render "$TMP/chrome" "$TMP/whatif.html" "$TMP/whatif.png" "$MIN_PNG_BYTES"
	# tracepoint mode times no zone->lock: acquisitions and parked pages
	t_text_boxes "$TMP/chrome" "$TMP/whatif.html" whatif.html 2
else
	t_fail "chromium is not installed (apt-get install chromium)"
fi

echo "== a 4 KiB ring buffer, a record an event: losses, counted and reported"
# a record an event (PCPTOP_TRACE_NO_RUNS): runs fit this buffer
PCPTOP_TRACE_NO_RUNS=1 PCPTOP_TRACE_RINGBUF=4096 "$P" record -q --trace --mode tracepoint -o "$TMP/t.data" -- "$TMP/w.sh"
t_eq "record --trace exits 0" "$?" 0
tc >"$TMP/all"
lost=$(val lost "$TMP/all")
t_eq "the ring buffer was 4 KiB" "$(val ringbuf "$TMP/all")" 4096
t_cmp "records were lost" "$lost" -gt 0
t_cmp "in windows" "$(val loss_windows "$TMP/all")" -gt 0
kernel=$(($(perfc kmem:mm_page_alloc) + $(perfc kmem:mm_page_free)))
traced=$(($(val alloc "$TMP/all") + $(val free "$TMP/all")))
t_cmp "traced + lost covers perf's count: no drop uncounted" \
	"$((traced + lost))" -ge "$kernel"
"$P" report --json "$TMP/t.data" >"$TMP/r.json"
t_eq "report --json: trace.lost" "$(jq .trace.lost "$TMP/r.json")" "$lost"
"$P" report "$TMP/t.data" >"$TMP/r.txt"
t_check "report says LOST" -- grep -q "LOST $lost events" "$TMP/r.txt"

echo "== without --trace: no trace chunk"
"$P" record -q -o "$TMP/n.data" -- true
"$TC" "$TMP/n.data" >/dev/null 2>"$TMP/n.err"
t_eq "tracecount refuses it" "$?" 1
t_check "saying it was recorded without --trace" -- grep -q "without --trace" "$TMP/n.err"
t_eq "report --json: trace is null" "$("$P" report --json "$TMP/n.data" | jq -c .trace)" null

t_summary

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Live tests on this machine's own kernel: info reports the mode the kernel
# allows (fentry, or a fallback that says why where fentry is refused, as on
# the machines this is developed on), stat counts a known page churn in that
# mode, tracepoint mode (forced with --mode tracepoint) counts the pages
# perf counts of the same tracepoint, the scale matches the config, bad
# input exits 2 and nothing stays attached afterwards. The checks on
# pcptop's output are tests/live/checks.sh, shared with the guest run of
# tests/live/vm-check.sh, where fentry attaches.
# Usage: tests/live/run.sh [BUILD_DIR | BUILD_DIR/pcptop]   (default build)
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/live/checks.sh

B=${1:-build}
# make live hands over the binary, run-all.sh the build directory
[ -f "$B" ] && B=$(dirname "$B")
P=$B/pcptop
CHURN=$B/churn
FLOOR=$B/floor
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

t_need live "$P" "$CHURN" "$FLOOR"
# perf reads tracepoint ids from tracefs, which may not be mounted
if [ ! -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi

# a churn past every pageset's high (a 64 MiB one once fitted in the
# lists and stat counted no bulk free)
CHURN_MIB=$(t_churn_past_high_mib)

# stat_around_churn OUT [STAT OPTIONS]: one interval of stat holding one
# whole CHURN_MIB churn, its allocation and its frees: started once stat
# is attached (its bpf_link count stops growing), stat stopped by SIGINT
# after it. A churn that size takes seconds under load, most of them
# touching pages: a fixed interval beside repeated churns could close
# before any of them freed (seen: 0 pages in 2 s). Returns stat's status.
stat_around_churn() {
	local out=$1 pid
	shift
	"$P" stat -i 600 -c 1 --json "$@" >"$out" 2>"$out.err" &
	pid=$!
	wait_attached "$pid"
	"$CHURN" -m "$CHURN_MIB" -n 1 >/dev/null 2>&1
	kill -INT "$pid"
	wait "$pid"
}

# wait_attached PID: until PID's bpf_link count stops growing (or 30 s)
wait_attached() {
	local n=0 m i
	for i in $(seq 60); do
		sleep 0.5
		m=$(find /proc/$1/fd -lname 'anon_inode:bpf_link' 2>/dev/null | wc -l)
		[ "$m" -gt 0 ] && [ "$m" = "$n" ] && return 0
		n=$m
	done
	return 1
}

echo "== info"
"$P" info --json >"$TMP/info.json" 2>"$TMP/info.err"
t_eq "info exits 0" "$?" 0
t_eq "info names this kernel" "$(jq -r .kernel.release "$TMP/info.json")" "$(uname -r)"
want_scale=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) |
	sed -n 's/^CONFIG_PCP_BATCH_SCALE_MAX=//p')
if grep -q ' pcp_batch_scale_max$' /proc/kallsyms; then
	t_eq "scale source on a patched kernel" "$(jq -r .scale.source "$TMP/info.json")" kernel-variable
else
	t_eq "scale value is the config's" "$(jq -r .scale.value "$TMP/info.json")" "$want_scale"
	t_eq "scale source" "$(jq -r .scale.source "$TMP/info.json")" config
	t_eq "scale.sources.config" "$(jq -r .scale.sources.config "$TMP/info.json")" "$want_scale"
fi
# the witness: a count-only fentry program on free_pcppages_bulk
"$FLOOR" fentry:free_pcppages_bulk >"$TMP/floor.out" 2>&1 &
floor_pid=$!
# until it says it attached, or has exited (refused), or 10 s
for i in $(seq 100); do
	grep -q attached "$TMP/floor.out" && break
	kill -0 "$floor_pid" 2>/dev/null || break
	sleep 0.1
done
kill -INT "$floor_pid" 2>/dev/null
wait "$floor_pid"
FENTRY=$(live_fentry_state "$?" "$TMP/floor.out")
echo "   fentry on free_pcppages_bulk: $FENTRY ($(grep -m 1 "^floor:" "$TMP/floor.out"))"
live_check_info "$TMP/info.json" "$TMP/info.err" "$FENTRY"
t_eq "pageblock order matches /proc/pagetypeinfo" "$(jq -r .pageblock_order "$TMP/info.json")" \
	"$(sed -n 's/^Page block order: *//p' /proc/pagetypeinfo)"
zi_batch=$(awk '/^Node 0, zone +Normal/ { z = 1 } z && /batch:/ { print $2; exit }' /proc/zoneinfo)
t_eq "Normal zone batch matches /proc/zoneinfo" \
	"$(jq -r '[.zones[] | select(.node==0 and .zone=="Normal") | .cpus[0].batch][0]' "$TMP/info.json")" "$zi_batch"
t_cmp "a pageset per CPU in Normal" \
	"$(jq '[.zones[] | select(.node==0 and .zone=="Normal") | .cpus[]] | length' "$TMP/info.json")" -eq "$(nproc)"

echo "== stat --mode tracepoint around a $CHURN_MIB MiB churn, beside perf"
# One interval of pcptop holds the whole churn, and perf counts the same
# tracepoint twice: around the churn alone (inside the interval) and from
# before stat attaches until after it has printed. Then
# inner <= pcptop <= outer, however much else the machine frees: an
# identity within 5 % of one perf window opened just after an interval
# started failed under a load of 7, the frees of other processes before
# that perf counted making up 10-13 %.
# The interval is ended by SIGINT after the churn, not by the clock: a
# 16 s interval beside the oracle's two VMs on CI did not hold a whole
# 2395 MiB churn (CI, 2026-12-02: it ended in the next interval, and the
# interval checked held none of its frees).
# The churn is CHURN_MIB: a 256 MiB one fitted in the pcp lists, and perf
# counted no page of it.
perf_pages() { # CSV: the pages of perf's per-order counts
	awk -F, -v orders="0 1 2 3 $(jq -r .pageblock_order "$TMP/info.json")" '
		BEGIN { split(orders, o, " ") }
		$3 ~ /mm_page_pcpu_drain/ { n++; sum += $1 * 2 ^ o[n] }
		END { printf "%d\n", sum }' "$1"
}
# Normal's managed pages (and so its high_min) can change while stat
# runs: this machine's memory grew and shrank under a test once
zi_normal() { # FIELD [FILE]: its sum over Normal's lines
	awk -v f="$1" '/^Node/ { z = $4 } z == "Normal" && $1 == f { s += $2 } END { print s + 0 }' "${2:-/proc/zoneinfo}"
}
zi_hmin0=$(zi_normal high_min:)
zi_managed0=$(zi_normal managed)
cp /proc/vmstat "$TMP/vmstat.before"
cp /proc/zoneinfo "$TMP/zoneinfo.before"
perf_events=()
for o in 0 1 2 3 "$(jq -r .pageblock_order "$TMP/info.json")"; do
	perf_events+=(-e kmem:mm_page_pcpu_drain --filter "order==$o")
done
# perf stat enables its counters only after it has started the command:
# the command waits a second before it says the window is open (once, at
# a load of 11, a 63-page bulk free fell between the two and the outer
# count came out below pcptop's)
perf stat -a -x, "${perf_events[@]}" -o "$TMP/outer.csv" -- sh -c \
	"sleep 1; touch $TMP/outer.ready; while [ ! -e $TMP/stat.done ]; do sleep 0.02; done" &
perf_pid=$!
for i in $(seq 200); do [ -e "$TMP/outer.ready" ] && break; sleep 0.05; done
t_check "perf's outer window opened before stat started" -- test -e "$TMP/outer.ready"
"$P" stat --mode tracepoint -i 600 -c 1 --json >"$TMP/stat.all" 2>"$TMP/stat.err" &
stat_pid=$!
t_check "stat --mode tracepoint attached" -- wait_attached "$stat_pid"
perf stat -a -x, "${perf_events[@]}" -o "$TMP/inner.csv" -- "$CHURN" -m "$CHURN_MIB" -n 1 >"$TMP/churn.out"
t_cmp "no interval closed before the churn ended" "$(wc -l <"$TMP/stat.all")" -eq 0
kill -INT "$stat_pid"
wait "$stat_pid"
t_eq "stat --mode tracepoint exits 0 on SIGINT" "$?" 0
touch "$TMP/stat.done"
wait "$perf_pid"
t_cmp "one JSON line for the interval SIGINT ended" "$(wc -l <"$TMP/stat.all")" -eq 1
cp "$TMP/stat.all" "$TMP/stat.json"
S=$TMP/stat.json
live_check_stat_tp "$S" "$zi_batch" "$(nproc)" "$(jq -r .pageblock_order "$TMP/info.json")"
inner=$(perf_pages "$TMP/inner.csv")
outer=$(perf_pages "$TMP/outer.csv")
got=$(jq .bulk_free.pages "$S")
t_cmp "perf counted bulk-freed pages of the churn" "$inner" -gt 0
t_check "pcptop's pages within perf's mm_page_pcpu_drain: churn $inner <= $got <= $outer around the interval" -- \
	test "$inner" -le "$got" -a "$got" -le "$outer"
# the sampled pcp figures: the zones with pagesets, each summed as
# /proc/zoneinfo says (high_min and managed hold still while stat runs,
# unless memory is onlined meanwhile: a new machine's grew its managed
# pages by 32768 and its watermarks twice in one run, 2026-12-05)
zi_zones=$(awk '/^Node/ { z = $4 } /^  pagesets/ { print z }' /proc/zoneinfo | sort -u | paste -sd, -)
t_eq "pcp_pages.zones are zoneinfo's zones with pagesets" \
	"$(jq -r '[.pcp_pages.zones[].zone] | sort | join(",")' "$S")" "$zi_zones"
# VALUE A B: VALUE is A or B (zoneinfo's before stat and after it);
# where they differ, pcptop may have read a step between them: memory
# onlined only grows a zone, so the steps lie between the two
in_zoneinfo_span() {
	[ "$1" = "$2" ] || [ "$1" = "$3" ] ||
		{ [ "$2" -lt "$1" ] && [ "$1" -lt "$3" ]; } ||
		{ [ "$3" -lt "$1" ] && [ "$1" -lt "$2" ]; }
}
zi_hmin=$(zi_normal high_min:)
got=$(jq '.pcp_high_min.zones[] | select(.zone == "Normal") | .value' "$S")
t_check "pcp_high_min of Normal is zoneinfo's high_min over its CPUs ($got; zoneinfo $zi_hmin0 before, $zi_hmin after)" -- \
	in_zoneinfo_span "$got" "$zi_hmin0" "$zi_hmin"
zi_managed=$(zi_normal managed)
got=$(jq '.zone_managed.zones[] | select(.zone == "Normal") | .value' "$S")
t_check "zone_managed of Normal matches /proc/zoneinfo ($got; $zi_managed0 before, $zi_managed after)" -- \
	in_zoneinfo_span "$got" "$zi_managed0" "$zi_managed"
for w in min low high; do
	got=$(jq ".zone_$w.zones[] | select(.zone == \"Normal\") | .value" "$S")
	zi_w0=$(zi_normal "$w" "$TMP/zoneinfo.before")
	zi_w=$(zi_normal "$w")
	t_check "zone_$w of Normal is zoneinfo's $w watermark ($got; $zi_w0 before, $zi_w after)" -- \
		in_zoneinfo_span "$got" "$zi_w0" "$zi_w"
done
# buddyinfo's blocks and zoneinfo's free pages, read one after the other
# at the interval's end, count the same pages (the pcp lists' are in neither)
buddy=$(jq '.buddy_free.zones[] | select(.zone == "Normal") | [.orders | to_entries[] | .value * pow(2; .key)] | add' "$S")
free=$(jq '.zone_free.zones[] | select(.zone == "Normal") | .value' "$S")
t_within_pct "Normal's buddy_free blocks, in pages, are its zone_free pages" "$buddy" "$free" 2
# each /proc/vmstat counter's interval value within the run's growth
cp /proc/vmstat "$TMP/vmstat.after"
vm_grew() { # FIELD (a trailing * sums a prefix): its growth over the run
	awk -v f="$1" 'BEGIN { p = sub(/\*$/, "", f) }
		p ? index($1, f) == 1 : $1 == f { s[FILENAME] += $2 }
		END { print s[ARGV[2]] - s[ARGV[1]] }' "$TMP/vmstat.before" "$TMP/vmstat.after"
}
n=0
while read -r key field value; do
	grew=$(vm_grew "$field")
	t_check "$key ($field): 0 <= $value <= its growth over the run, $grew" -- \
		test "$value" -ge 0 -a "$value" -le "$grew"
	n=$((n + 1))
done < <(jq -r 'to_entries[] | select(.value | type == "object" and .source == "/proc/vmstat") | "\(.key) \(.value.field) \(.value.value)"' "$S")
t_cmp "every /proc/vmstat figure checked" "$n" -ge 14
t_cmp "pcp_pages is its zones summed" \
	"$(jq '([.pcp_pages.zones[].value] | add) - .pcp_pages.value' "$S")" -eq 0
t_eq "recursion_misses is sampled from the programs' statistics" \
	"$(jq -r '.recursion_misses.source' "$S")" "program statistics"

# after perf's identity: the lists this churn fills stay above high for
# seconds, and decay_pcp_high's frees then would land in the tracepoint
# interval, after perf's inner window
echo "== stat in the mode info chose, around a $CHURN_MIB MiB churn"
stat_around_churn "$TMP/default.json"
t_eq "stat exits 0" "$?" 0
live_check_stat_default "$TMP/default.json" "$TMP/info.json"

# The kernel's count of what loading cost its verifier (bpf_prog_info's
# verified_insns, printed by -v): 23 708 in tracepoint mode before
# bpf/log2.bpf.h took the branches out of the histograms' slot, 2 509 after
echo "== the verifier's cost, tracepoint mode"
"$P" stat -v --mode tracepoint -i 0.05 -c 1 -H 2>&1 >/dev/null |
	grep '^pcptop: verifier: ' >"$TMP/verified"
all=$(sed -n 's/^pcptop: verifier: \([0-9]*\) insns verified in all$/\1/p' "$TMP/verified")
t_eq "stat -v: the programs' verified instructions add up to the total" \
	"$(awk '$3 ~ /:$/ && $7 == "verified" { s += $6 } END { print s + 0 }' "$TMP/verified")" "${all:-none}"
t_cmp "stat -v: a line per loaded program" "$(grep -c ' verified$' "$TMP/verified")" -ge 2
t_cmp "stat -v: tracepoint mode's programs verify in at most 5000 instructions" "${all:-0}" -le 5000
t_cmp "stat -v: verified instructions counted" "${all:-0}" -gt 0

echo "== errors and clean exit"
"$P" stat -i 0 >/dev/null 2>"$TMP/err"
t_eq "bad interval exits 2" "$?" 2
t_cmp "bad interval: one line" "$(wc -l <"$TMP/err")" -eq 1
"$P" stat --mode bogus >/dev/null 2>&1
t_eq "bad mode exits 2" "$?" 2
"$P" frobnicate >/dev/null 2>&1
t_eq "unknown command exits 2" "$?" 2
"$P" info --mode fentry >/dev/null 2>"$TMP/err"
live_check_mode_fentry "$?" "$TMP/err" "$FENTRY"
"$P" stat -i 1 >/dev/null 2>&1 &
pid=$!
wait_attached "$pid"
# this run's own programs, by id: other pcptop runs may share the machine
prog_ids=$(for fd in /proc/$pid/fdinfo/*; do sed -n 's/^prog_id:[[:space:]]*//p' "$fd"; done 2>/dev/null | sort -u)
t_cmp "programs attached while stat runs" "$(echo "$prog_ids" | grep -c .)" -ge 2
kill -INT "$pid"
wait "$pid"
t_eq "SIGINT ends stat with status 0" "$?" 0
# the kernel frees a program after an RCU grace period: give it 3 s
for i in $(seq 30); do
	left=0
	for id in $prog_ids; do
		bpftool prog show id "$id" >/dev/null 2>&1 && left=$((left + 1))
	done
	[ "$left" -eq 0 ] && break
	sleep 0.1
done
t_cmp "nothing left attached after exit" "$left" -eq 0
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$P" info >/dev/null 2>"$TMP/err"
t_eq "without privileges: exit 2" "$?" 2
t_check "without privileges: says to run as root" -- grep -q 'run as root' "$TMP/err"
"$P" --help >"$TMP/help"
t_eq "--help exits 0" "$?" 0
t_check "--help prints the usage" -- grep -q 'Usage: pcptop' "$TMP/help"

echo "== limits: a low RLIMIT_MEMLOCK, two instances at once"
# 5.11+ charges BPF memory to the memory cgroup, not to RLIMIT_MEMLOCK;
# libbpf raises the limit on older kernels, and pcptop says which to raise
bash -c 'ulimit -l 64 && "$0" stat -i 0.2 -c 1 --json' "$P" >"$TMP/memlock.json" 2>"$TMP/memlock.err"
t_eq "stat runs with RLIMIT_MEMLOCK at 64 KiB" "$?" 0
# two at once, each with its own maps: both recording the whole of one
# churn, attached before it starts and stopped after it ends. Each is
# held to its intervals that overlap the churn: the host's other work
# (make test's VMs) lands in one window and not the other where they
# start apart (clean clone of 2026-12-05 12:50: bulk-freed pages 453736
# against 380008 with the refilled pages equal, frees with no
# allocation in one window only, as a process's exit makes)
"$P" record -q -i 0.2 -o "$TMP/one.data" 2>/dev/null &
p1=$!
"$P" record -q -i 0.2 -o "$TMP/two.data" 2>/dev/null &
p2=$!
for _ in $(seq 1 50); do
	[ -s "$TMP/one.data" ] && [ -s "$TMP/two.data" ] && break
	sleep 0.2
done
sleep 1
c0=$(date +%s.%N)
"$CHURN" -m "$CHURN_MIB" -n 1 >/dev/null 2>&1
c1=$(date +%s.%N)
sleep 1
kill -INT "$p1" "$p2"
wait "$p1"; r1=$?
wait "$p2"; r2=$?
t_eq "two instances both finish" "$r1 $r2" "0 0"
# churn_pages FILE FIELD: FIELD summed over the intervals that overlap
# the churn
churn_pages() {
	"$P" report --json "$1" | jq --argjson c0 "$c0" --argjson c1 "$c1" --arg f "$2" '
		.start_unix as $s | [.timeline[] |
		select($s + .t >= $c0 and $s + .t - .interval_s <= $c1) | .[$f]] | add'
}
for f in refill bulk_free; do
	t_within_pct "they count the same $f pages over the churn" \
		"$(churn_pages "$TMP/one.data" "${f}_pages")" \
		"$(churn_pages "$TMP/two.data" "${f}_pages")" 5
done

echo "== btf-min: this kernel's BTF cut down, used with sysfs BTF hidden"
"$P" btf-min /sys/kernel/btf/vmlinux "$TMP/min.btf" >"$TMP/btfmin.out" 2>&1
t_eq "btf-min exits 0" "$?" 0
t_cmp "  and writes a few KB (bytes)" "$(stat -c %s "$TMP/min.btf")" -lt 16384
bpftool btf dump file "$TMP/min.btf" >"$TMP/min.dump" 2>&1
t_check "  bpftool reads it: free_pcppages_bulk, btf_trace_mm_page_pcpu_drain, per_cpu_pages" -- \
	bash -c "grep -q \"FUNC 'free_pcppages_bulk'\" $TMP/min.dump &&
		grep -q \"TYPEDEF 'btf_trace_mm_page_pcpu_drain'\" $TMP/min.dump &&
		grep -q \"STRUCT 'per_cpu_pages'\" $TMP/min.dump"
# a board's view: the same stat with the whole BTF and with the minimal
# one, in a mount namespace where /sys/kernel/btf is an empty tmpfs
cp /sys/kernel/btf/vmlinux "$TMP/whole.btf"
# One interval around one churn past high, ended by SIGINT: a 1 s
# interval beside 64 MiB churns could hold no bulk free on a loaded host.
for b in whole min; do
	unshare -m bash -c 'mount -t tmpfs none /sys/kernel/btf &&
		exec /usr/bin/time -f "%M" -o "$1.rss" "$0" stat -i 600 -c 1 --json --btf "$1"' \
		"$P" "$TMP/$b.btf" >"$TMP/$b.json" 2>"$TMP/$b.err" &
	spid=$!
	# pcptop is time's child (bash forks mount first, under the same pid)
	ppid=
	for i in $(seq 100); do
		ppid=$(pgrep -P "$spid" -x pcptop | head -n 1)
		[ -n "$ppid" ] && break
		sleep 0.1
	done
	wait_attached "$ppid"
	"$CHURN" -m "$CHURN_MIB" -n 1 >/dev/null 2>&1
	kill -INT "$ppid" 2>/dev/null
	wait "$spid"
	t_eq "stat --btf $b.btf with no sysfs BTF exits 0" "$?" 0
done
t_eq "  the minimal BTF gives the whole one's modes" "$(jq -c .modes "$TMP/min.json")" "$(jq -c .modes "$TMP/whole.json")"
t_cmp "  and counts pages" "$(jq '.bulk_free.pages // 0' "$TMP/min.json")" -gt 0
t_cmp "  its peak RSS is within 8 MiB (KiB)" "$(cat "$TMP/min.btf.rss")" -le 8192
echo "  peak RSS: whole BTF $(cat "$TMP/whole.btf.rss") KiB, btf-min's $(cat "$TMP/min.btf.rss") KiB"

. tests/live/btfcache.sh

t_summary

#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest half of pcptop's oracle suite, in every test VM's initramfs as
# /bin/oracle-guest.sh. Why it exists: a figure is only as good as the
# count it is checked against, and that count must come from the kernel
# itself with no BPF involved. This script sets up tracefs hist triggers
# (kmem tracepoints, fprobe or kprobe events on the PCP functions, a
# synthetic latency event), runs the workload that drives every PCP path
# under `pcptop record`, and prints snapshots of every kernel count before
# pcptop starts (A0), when its command starts (A1, pcptop attached), when
# its command ends (A2) and after pcptop is gone (A3); then the same
# around a second recording of the stalls phase alone (S0..S3: what an
# allocation waits for, in direct reclaim and compaction). The patched test
# kernel adds /proc/pcp_oracle (tests/vm/kernel/pcp-oracle.patch). The host
# (tests/oracle/check.sh) does every comparison.
#
# Output lines, on the console:
#   ORACLE:have:NAME:yes|no REASON     which kernel counts this kernel has
#   ORACLE:SNAP:SOURCE:LINE            a hist line or a /proc/pcp_oracle line
#   ORACLE:misses:SNAP:N               recursion_misses of pcptop's programs
#   ORACLE:lat_misses:SNAP:N           ... of its --latency programs alone
#   ORACLE:report:JSON                 pcptop report --json of the window
#   ORACLE:sreport:JSON                ... of the stalls' window
#   ORACLE:load:PHASE:...              what the workload did
#   ORACLE:at:PHASE UPTIME             when a phase started (where time goes)
#
# ORACLE_TCP_S (environment, or on the kernel command line, which hands
# it to init): seconds of loopback TCP (default 3).
#
# Usage (inside the VM):
#   guest.sh run [PCPTOP RECORD OPTIONS]   everything above
#   guest.sh inner                         the command pcptop records
#   guest.sh stalls-inner                  ... the second time

T=/sys/kernel/tracing
G=pcpo
TMPD=/tmp/oracle
# the hist files snapshotted, as SOURCE=path below $T/events
HISTS="drain_order=kmem/mm_page_pcpu_drain refill_order=kmem/mm_page_alloc_zone_locked bulk=$G/pfb bulk_lat=synthetic/pcpo_bulklat drain=$G/dpz decay=$G/dph refill=synthetic/pcpo_refill refill_calls=$G/rmb alloc=$G/pal free=$G/pfr alloc_lat=synthetic/pcpo_alloclat free_lat=synthetic/pcpo_freelat reclaim_lat=synthetic/pcpo_reclaimlat compact_lat=synthetic/pcpo_compactlat"

have() {
	echo "ORACLE:have:$1:$2"
}

# a function the kernel can probe: in available_filter_functions
probeable() {
	grep -q "^$1\( \|$\)" $T/available_filter_functions 2>/dev/null
}

# fprobe event FN with BTF-named ARGS, else a kprobe event with $argN;
# prints the flavour
fn_event() {
	name=$1 fn=$2 fprobe_args=$3 kprobe_args=$4
	if echo "f:$G/$name $fn $fprobe_args" >>$T/dynamic_events 2>/dev/null; then
		echo fprobe
	elif echo "p:$G/$name $fn $kprobe_args" >>$T/dynamic_events 2>/dev/null; then
		echo kprobe
	else
		echo none
	fi
}

# ret_event NAME FN FLAVOUR ARGS [MAXACTIVE]: MAXACTIVE calls in flight
# at once are seen returning (the default is 2 a CPU for an fprobe, 10
# for a kretprobe: tasks sleeping in a compaction take more), where the
# kernel takes the number (fprobe events before 6.14)
ret_event() {
	name=$1 fn=$2 flavour=$3 args=$4 max=${5:-}
	if [ "$flavour" = fprobe ]; then
		{ [ -n "$max" ] &&
			echo "f$max:$G/$name $fn%return $args" >>$T/dynamic_events 2>/dev/null; } ||
			echo "f:$G/$name $fn%return $args" >>$T/dynamic_events 2>/dev/null
	else
		{ [ -n "$max" ] &&
			echo "r$max:$G/$name $fn $args" >>$T/dynamic_events 2>/dev/null; } ||
			echo "r:$G/$name $fn $args" >>$T/dynamic_events 2>/dev/null
	fi
}

trig() {
	echo "$2" >>"$T/events/$1/trigger" 2>/dev/null
}

# What an allocating task waits for, a stall each, paired by task (a
# stall sleeps and migrates): direct reclaim between its two tracepoints,
# direct compaction from compaction:mm_compaction_try_to_compact_pages
# (at try_to_compact_pages()'s start) to its return, when that is not
# COMPACT_SKIPPED (1 on 6.1-7.3) and, from 7.3 on, not COMPACT_DEFERRED
# (2), as the kernel counts compact_stall (bpf/compat.bpf.h,
# compat_compact_stalled()).
STALLS_IN_FLIGHT=64
no_stall_results() {
	rel=$(uname -r)
	maj=${rel%%.*} min=${rel#*.}
	min=${min%%[!0-9]*}
	if [ "$maj" -gt 7 ] || { [ "$maj" -eq 7 ] && [ "$min" -ge 3 ]; }; then
		echo 'ret != 1 && ret != 2'
	else
		echo 'ret != 1'
	fi
}
stall_events() {
	if echo 'pcpo_reclaimlat u64 lat' >>$T/synthetic_events 2>/dev/null &&
	   trig vmscan/mm_vmscan_direct_reclaim_begin 'hist:keys=common_pid:ts0=common_timestamp' &&
	   trig vmscan/mm_vmscan_direct_reclaim_end 'hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(vmscan.mm_vmscan_direct_reclaim_begin).trace(pcpo_reclaimlat,$lat)' &&
	   trig synthetic/pcpo_reclaimlat 'hist:keys=lat.log2:vals=hitcount'; then
		have reclaim_lat yes
	else
		have reclaim_lat "no (synthetic event on the direct reclaim tracepoints refused)"
	fi
	if ! probeable try_to_compact_pages; then
		have compact_lat "no (try_to_compact_pages is not probeable)"
		return
	fi
	f=fprobe
	ret_event tcpx try_to_compact_pages $f 'ret=$retval:s32' $STALLS_IN_FLIGHT || f=kprobe
	if { [ $f = fprobe ] || ret_event tcpx try_to_compact_pages $f 'ret=$retval:s32' $STALLS_IN_FLIGHT; } &&
	   echo 'pcpo_compactlat u64 lat; s32 ret' >>$T/synthetic_events 2>/dev/null &&
	   trig compaction/mm_compaction_try_to_compact_pages 'hist:keys=common_pid:ts0=common_timestamp' &&
	   trig $G/tcpx 'hist:keys=common_pid:lat=common_timestamp-$ts0,r=ret:onmatch(compaction.mm_compaction_try_to_compact_pages).trace(pcpo_compactlat,$lat,$r)' &&
	   trig synthetic/pcpo_compactlat "hist:keys=lat.log2:vals=hitcount if $(no_stall_results)"; then
		have compact_lat "yes $f"
	else
		have compact_lat "no (synthetic latency event on try_to_compact_pages refused)"
	fi
}

setup() {
	mount -t tracefs tracefs $T 2>/dev/null
	if [ ! -e $T/events/kmem/mm_page_pcpu_drain/trigger ]; then
		have tracefs "no (no $T/events: CONFIG_FTRACE?)"
		return 1
	fi
	if ! trig kmem/mm_page_pcpu_drain 'hist:keys=order:vals=hitcount'; then
		have tracefs "no (hist triggers refused: CONFIG_HIST_TRIGGERS?)"
		return 1
	fi
	have tracefs yes
	# every page leaving the pcp lists for the buddy allocator
	have drain_order yes
	# pages the tracepoint calls a percpu refill (rmqueue_buddy's too)
	trig kmem/mm_page_alloc_zone_locked \
		'hist:keys=order:vals=hitcount if percpu_refill == 1' &&
		have refill_order yes || have refill_order "no (trigger refused)"

	# free_pcppages_bulk: calls, count asked for, entry-to-return time
	f=$(fn_event pfb free_pcppages_bulk count 'count=$arg2:s32')
	if [ "$f" = none ]; then
		have bulk "no (neither fprobe nor kprobe events on free_pcppages_bulk)"
	else
		trig $G/pfb 'hist:keys=common_cpu:vals=hitcount,count' &&
			have bulk "yes $f" || have bulk "no (trigger refused)"
		# keyed by CPU: the call holds the pcp lock, it cannot migrate
		if ret_event pfbx free_pcppages_bulk "$f" &&
		   echo 'pcpo_bulklat u64 lat' >>$T/synthetic_events 2>/dev/null &&
		   trig $G/pfb 'hist:keys=common_cpu:ts0=common_timestamp' &&
		   trig $G/pfbx 'hist:keys=common_cpu:lat=common_timestamp-$ts0:onmatch('$G'.pfb).trace(pcpo_bulklat,$lat)' &&
		   trig synthetic/pcpo_bulklat 'hist:keys=lat.log2:vals=hitcount'; then
			have bulk_lat "yes $f"
		else
			have bulk_lat "no (synthetic latency event refused)"
		fi
	fi

	# drain_pages_zone: calls by the CPU owning the pageset (its argument)
	if probeable drain_pages_zone; then
		f=$(fn_event dpz drain_pages_zone cpu 'cpu=$arg1:u32')
		trig $G/dpz 'hist:keys=cpu:vals=hitcount' &&
			have drain "yes $f" || have drain "no ($f event refused)"
	else
		have drain "no (drain_pages_zone is not probeable: inlined)"
	fi

	# decay_pcp_high, 6.7+
	if probeable decay_pcp_high; then
		f=$(fn_event dph decay_pcp_high '' '')
		trig $G/dph 'hist:keys=common_cpu:vals=hitcount' &&
			have decay "yes $f" || have decay "no ($f event refused)"
	else
		have decay "no (no decay_pcp_high in this kernel, or inlined)"
	fi

	# rmqueue_bulk where it is a function (6.1): calls, and pages as
	# blocks returned << order, paired through a synthetic event
	if probeable rmqueue_bulk; then
		f=$(fn_event rmb rmqueue_bulk order 'order=$arg2:u32')
		trig $G/rmb 'hist:keys=common_cpu:vals=hitcount' &&
			have refill_calls "yes $f" || have refill_calls "no ($f event refused)"
		if ret_event rmbx rmqueue_bulk "$f" 'ret=$retval:s32' &&
		   echo 'pcpo_refill u32 order; s32 n' >>$T/synthetic_events 2>/dev/null &&
		   trig $G/rmb 'hist:keys=common_cpu:o=order' &&
		   trig $G/rmbx 'hist:keys=common_cpu:onmatch('$G'.rmb).trace(pcpo_refill,$o,ret)' &&
		   trig synthetic/pcpo_refill 'hist:keys=order:vals=hitcount,n'; then
			have refill "yes $f"
		else
			have refill "no (synthetic refill event refused)"
		fi
	else
		have refill_calls "no (rmqueue_bulk is inlined in this kernel)"
		have refill "no (rmqueue_bulk is inlined in this kernel)"
	fi

	# the allocator's entry points, when pcptop times them (--latency):
	# every call, counted by the kernel, newest name first
	if [ -n "${ORACLE_LATENCY:-}" ]; then
		for pair in "alloc pal __alloc_frozen_pages_noprof __alloc_pages_noprof __alloc_pages" \
			    "free pfr free_frozen_pages free_unref_page"; do
			set -- $pair
			what=$1 ev=$2
			shift 2
			fn=
			for c in "$@"; do
				probeable "$c" && { fn=$c; break; }
			done
			if [ -z "$fn" ]; then
				have "$what" "no (none of $* is probeable)"
				continue
			fi
			f=$(fn_event "$ev" "$fn" '' '')
			trig $G/$ev 'hist:keys=common_cpu:vals=hitcount' &&
				have "$what" "yes $f $fn" || have "$what" "no ($f event on $fn refused)"
			# entry to return, paired by task: an allocation sleeps
			# in reclaim and may come back on another CPU
			if ret_event ${ev}x "$fn" "$f" &&
			   echo "pcpo_${what}lat u64 lat" >>$T/synthetic_events 2>/dev/null &&
			   trig $G/$ev 'hist:keys=common_pid:ts0=common_timestamp' &&
			   trig $G/${ev}x 'hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch('$G'.'$ev').trace(pcpo_'$what'lat,$lat)' &&
			   trig synthetic/pcpo_${what}lat 'hist:keys=lat.log2:vals=hitcount' &&
			   echo 1 >$T/events/synthetic/pcpo_${what}lat/enable; then
				have ${what}_lat "yes $f"
			else
				have ${what}_lat "no (synthetic latency event refused)"
			fi
		done
	fi

	stall_events

	for e in pfb pfbx dpz dph rmb rmbx pal palx pfr pfrx tcpx; do
		[ -e $T/events/$G/$e/enable ] && echo 1 >$T/events/$G/$e/enable
	done
	[ -e $T/events/synthetic/pcpo_bulklat/enable ] &&
		echo 1 >$T/events/synthetic/pcpo_bulklat/enable
	for e in pcpo_refill pcpo_reclaimlat pcpo_compactlat; do
		[ -e $T/events/synthetic/$e/enable ] &&
			echo 1 >$T/events/synthetic/$e/enable
	done
	if [ -r /proc/pcp_oracle ]; then
		have proc yes
	else
		have proc "no (no /proc/pcp_oracle: not the instrumented kernel)"
	fi
	# the tracer's max is an upper bound of every interrupts-off section
	if grep -qw irqsoff $T/available_tracers 2>/dev/null &&
	   [ "$(grep -c ^processor /proc/cpuinfo)" = 1 ]; then
		echo 0 >$T/tracing_max_latency
		echo irqsoff >$T/current_tracer && have irqsoff yes
	else
		have irqsoff "no (IRQSOFF_TRACER absent, or more than 1 CPU)"
	fi
	return 0
}

# the entries of every hist file (the counting triggers, not the ones
# that only save a timestamp) and /proc/pcp_oracle, tagged with SNAP
snap() {
	for h in $HISTS; do
		src=${h%%=*}
		f=$T/events/${h#*=}/hist
		[ -r "$f" ] || continue
		awk -v p="ORACLE:$1:$src:" '
			/^# trigger info:/ { skip = ($0 ~ /ts0=|onmatch|:o=order/) }
			/^\{/ && !skip { print p $0 }' "$f"
	done
	[ -r /proc/pcp_oracle ] && sed "s/^/ORACLE:$1:proc:/" /proc/pcp_oracle
	if [ "$(cat $T/current_tracer 2>/dev/null)" = irqsoff ]; then
		echo "ORACLE:$1:irqsoff:max_us $(cat $T/tracing_max_latency)"
		# where the longest section began and ended
		grep -m 4 -E '(started|ended) at:|<-' $T/trace 2>/dev/null |
			sed "s/^/ORACLE:$1:irqsoff:/"
	fi
}

# "ALL LATENCY": recursion_misses of process $1's BPF programs, summed,
# and of those that time the allocator's entry points alone (--latency:
# fe_, fx_, kp_, kr_ alloc and free, lat_tags). On Debian's 6.16 to 7.3
# they skip tens to thousands of runs a boot where the others skip none
# (amd64 7.3, 2026-12-05: fx_alloc 97 and fe_alloc 8 of 105 in a short
# run), each hiding one timed call at most: the host allows them to
# those figures alone. A program with no name there counts as another's.
# One grep over the fds, and kallsyms read only where a program skipped:
# a sed per file and a pattern over kallsyms cost 9 s of a 7.3 guest's A2
misses() {
	grep -H '^recursion_misses:' "/proc/$1/fdinfo/"* 2>/dev/null | {
		m=0
		l=0
		tags=
		while IFS=: read -r f _ v; do
			v=$((v))
			[ "$v" -gt 0 ] || continue
			m=$((m + v))
			[ -n "$tags" ] || tags=" $(lat_tags) "
			tag=$(sed -n 's/^prog_tag:[[:space:]]*//p' "$f")
			case "$tags" in *" ${tag:-none} "*) l=$((l + v)) ;; esac
		done
		echo "$m $l"
	}
}

# misses_at SNAP: misses' two lines for pcptop, the command's parent
misses_at() {
	misses "$PPID" | {
		read -r all lat
		echo "ORACLE:misses:$1:$all"
		echo "ORACLE:lat_misses:$1:$lat"
	}
}

# the tags of the --latency programs loaded now, from /proc/kallsyms'
# bpf_prog_TAG_NAME symbols (bpf_jit_kallsyms, on by default where the
# JIT is always on). One fixed-string pass first: a pattern's pass over
# it took 2.8 s of an amd64 7.3 guest under TCG, a plain one 0.6 s
lat_tags() {
	grep -F bpf_prog_ /proc/kallsyms |
		sed -nE 's/.*bpf_prog_([0-9a-f]+)_(fe|fx|kp|kr)_(alloc|free)([[:space:]].*)?$/\1/p' |
		tr '\n' ' '
}

# at NAME: the guest's uptime as phase NAME starts (where a
# boot's time goes, read off the console)
at() {
	echo "ORACLE:at:$1 $(cut -d' ' -f1 /proc/uptime)"
}

# kcount FILE NAME: a "name value" count of /proc/vmstat or
# /proc/pcp_oracle, 0 where there is none
kcount() {
	[ -r "$1" ] || { echo 0; return; }
	awk -v n="$2" '$1 == n { v = $2 } END { print v + 0 }' "$1"
}

# what the stalls phase had to work with, and what reclaim and
# compaction did with it, on one ORACLE:load line
memnote() {
	echo "ORACLE:load:$1:negative dentries $(cut -f5 /proc/sys/fs/dentry-state)," \
		"slabs_scanned $(kcount /proc/vmstat slabs_scanned)," \
		"pgsteal_direct $(kcount /proc/vmstat pgsteal_direct)," \
		"allocstall $(allocstalls)," \
		"compact_stall $(kcount /proc/vmstat compact_stall)," \
		"drains by reclaim $(kcount /proc/pcp_oracle drain_calls_reclaim)"
}

# pcp_pages CPU: the pages in CPU's pagesets, every zone's
pcp_pages() {
	awk -v c="$1" '$1 == "cpu:" { on = ($2 == c) } on && $1 == "count:" { n += $2 }
		END { print n + 0 }' /proc/zoneinfo
}

# direct reclaim stalls, every zone's
allocstalls() {
	awk '/^allocstall_/ { n += $2 } END { print n + 0 }' /proc/vmstat
}

# free_above_min: KiB free above the zones' min watermarks. A hog of 97 %
# of MemFree met the OOM killer before it had cut its holes where THP is
# on (Debian's kernels in the vm suite: every round on arm64 6.1,
# 2026-12-01), khugepaged having raised min_free_kbytes.
# The watermarks are in pages: KernelPageSize where smaps has it, else 4.
free_above_min() {
	kb=$(awk '/^KernelPageSize:/ { print $2; exit }' /proc/self/smaps 2>/dev/null)
	awk -v kb="${kb:-4}" '/^MemFree:/ { free = $2 }
	     FILENAME ~ /zoneinfo/ && $1 == "min" { min += $2 }
	     END { v = free - min * kb; print (v > 0 ? int(v) : 0) }' \
		/proc/meminfo /proc/zoneinfo
}

# rounds of a stalls phase at most (each 5-15 s under TCG)
# min_free_kbytes during the stalls phase at most (stalls() says why)
MIN_FREE_KB=4096
STALL_TRIES=3

# the stalls phase (load's), a function of its own so load can leave it out.
# Compaction: nearly all free memory cut into order-0 holes,
# then more order-2 pipe_buffer arrays (kmalloc_large, unmovable, with
# direct reclaim allowed) than the rest of it holds: they compact
# directly, THP or not (THP is off in these boots). Whether a round
# stalls depends on what kswapd and kcompactd got to first, so the
# phase is repeated, a few times at most, until the kernel's own
# count says it did; the checks compare pcptop with the kernel either
# way
stalls() {
	at stalls
	ulimit -n 4096
	# proactive compaction (kcompactd every 500 ms while fragmentation is
	# past its score) closed the holes before the pipes came in half the
	# boots (no allocstall, no compact_stall in three rounds): off for
	# the phase
	pro=$(cat /proc/sys/vm/compaction_proactiveness 2>/dev/null)
	[ -n "$pro" ] && echo 0 >/proc/sys/vm/compaction_proactiveness
	# Where THP is on, khugepaged raised min_free_kbytes (and the low and
	# high watermarks with it) to tens of MiB: kswapd and kcompactd then
	# kept order-2 blocks ready between the watermarks and nothing stalled
	# (Debian's amd64 6.12, three rounds). The oracle kernel's own value
	# at 1 GiB, 4 MiB, for the phase
	mfk=$(cat /proc/sys/vm/min_free_kbytes 2>/dev/null)
	[ "${mfk:-0}" -gt $MIN_FREE_KB ] && echo $MIN_FREE_KB >/proc/sys/vm/min_free_kbytes
	try=1
	c0=$(kcount /proc/vmstat compact_stall)
	r0=$(allocstalls)
	while [ $try -le $STALL_TRIES ]; do
		hog -f $((($(free_above_min) * 97 / 100) >> 10)) -s 6 >$TMPD/hog.out 2>&1 &
		hp=$!
		# the holes are there once the hog says so (it then holds them)
		while kill -0 $hp 2>/dev/null && ! grep -q '^hog:' $TMPD/hog.out; do
			sleep 0.2
		done
		for i in 1 2 3; do
			pipes -p 1000 -n 2 -k 4 -w 1 2>&1 | sed "s/^/ORACLE:load:pipes in holes $try:/" &
		done
		wait
		sed "s/^/ORACLE:load:holes $try:/" $TMPD/hog.out
		memnote "after holes $try"
		# both kinds: a round that compacted without reclaiming left
		# the reclaim checks nothing (amd64 6.16 and 7.2, s0)
		[ "$(kcount /proc/vmstat compact_stall)" -gt "$c0" ] &&
			[ "$(allocstalls)" -gt "$r0" ] && break
		try=$((try + 1))
	done
	[ -n "$pro" ] && echo "$pro" >/proc/sys/vm/compaction_proactiveness
	[ "${mfk:-0}" -gt $MIN_FREE_KB ] && echo "$mfk" >/proc/sys/vm/min_free_kbytes
	# Reclaim: the holes leave 3 % of memory whole and the pipes want
	# more, so they reclaim directly too (allocstall, in memnote's line).
	# No hog runs into the OOM killer: where one did, percpu_refill
	# events outside rmqueue_bulk() came by the hundred thousand
	# (1025323 events, rmqueue_bulk's pages 566738, kprobe-s5), each a
	# run of its own, and tracepoint mode's refill runs were 8 times the
	# kernel's refills, which breaks that estimate's check. A
	# drain by direct reclaim needs a reclaim pass that freed pages, an
	# allocation that still failed and a pcp list with pages: no load here
	# forces it (200000 negative dentries in sysfs, which reclaim frees,
	# went to kswapd before a hog's direct reclaim got to them, in three
	# rounds of s5 and kprobe-s5), so drain_by_caller.reclaim is checked
	# against the kernel's count, whatever that is
}

# the workload: every PCP path, phase by phase
load() {
	cpus=$(grep -c ^processor /proc/cpuinfo)
	at churn+tcp
	# order-0 churn with loopback TCP beside it: softirq and interrupt
	# load during the churn, order-3 skb fragments freed in bursts
	churn -m 64 -n 3 2>&1 | sed 's/^/ORACLE:load:churn:/' &
	cp=$!
	tcpstream -s "${ORACLE_TCP_S:-3}" -j 2 2>&1 | sed 's/^/ORACLE:load:tcpstream:/'
	wait $cp
	at pipes
	# order-2 pipe_buffer arrays, freed a round at a time
	pipes -p 64 -n 20 2>&1 | sed 's/^/ORACLE:load:pipes:/'
	at tmpfs
	# the report that started it all: a 100 MiB tmpfs write and delete
	dd if=/dev/zero of=/tmp/oracle.fill bs=1M count=100 2>/dev/null
	rm -f /tmp/oracle.fill
	echo "ORACLE:load:tmpfs:100 MiB written and deleted"
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
	at hotplug
	# a CPU going away has its pagesets drained by another CPU
	c=1
	while [ $c -lt "$cpus" ]; do
		if [ -e /sys/devices/system/cpu/cpu$c/online ]; then
			# pages freed on CPU c fill its pcp lists, so going
			# offline has something to drain however the rest went;
			# once a 4 MiB churn left them empty by the offline
			# (kprobe-s5, 2026-12-01: a drain call, no chunk), so
			# until /proc/zoneinfo shows pages there, 3 tries
			t=0
			while [ $t -lt 3 ]; do
				taskset -c "$c" churn -m 4 -n 1 >/dev/null 2>&1
				[ "$(pcp_pages "$c")" -gt 0 ] && break
				t=$((t + 1))
			done
			echo "ORACLE:load:hotplug:cpu$c pcp pages $(pcp_pages "$c")"
			echo 0 >/sys/devices/system/cpu/cpu$c/online
			echo 1 >/sys/devices/system/cpu/cpu$c/online
			echo "ORACLE:load:hotplug:cpu$c $(cat /sys/devices/system/cpu/cpu$c/online)"
		fi
		c=$((c + 1))
	done
	# memory pressure: most of what is free, so kswapd and direct
	# reclaim run (drain_all_pages on a failed attempt)
	avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
	mib=$((avail * 85 / 100 / 1024))
	at pressure
	churn -m "$mib" -n 1 2>&1 | sed "s/^/ORACLE:load:pressure $mib MiB:/"
	# idle: vmstat's decay_pcp_high runs about once a second
	at idle
	sleep 3
	at end
	echo "ORACLE:load:done:cpus $cpus"
}

case "$1" in
inner)
	# pcptop record's command: pcptop is attached when this starts
	snap A1 >$TMPD/A1.out
	misses_at A1 >>$TMPD/A1.out
	load >$TMPD/load.out
	misses_at A2 >$TMPD/A2.out
	snap A2 >>$TMPD/A2.out
	;;
stalls-inner)
	# the second recording's command: the stalls phase, S1 to S2
	snap S1 >$TMPD/S1.out
	misses_at S1 >>$TMPD/S1.out
	stalls >$TMPD/stalls.out
	dmesg | grep -c 'Killed process' | sed 's/^/ORACLE:load:oom kills /' >>$TMPD/stalls.out
	misses_at S2 >$TMPD/S2.out
	snap S2 >>$TMPD/S2.out
	;;
run)
	shift
	mkdir -p $TMPD
	case " $* " in *" --latency "*) export ORACLE_LATENCY=1 ;; esac
	# Everything goes to files first and to the console at the end: a
	# kernel message printed mid-line would cut a snapshot line.
	at setup >$TMPD/at.out
	setup >$TMPD/setup.out || { cat $TMPD/setup.out; exit 0; }
	at attach >>$TMPD/at.out
	snap A0 >$TMPD/A0.out
	pcptop record -q -i 600 -o $TMPD/o.data "$@" -- \
		sh /bin/oracle-guest.sh inner 2>$TMPD/record.err
	rc=$?
	at report >>$TMPD/at.out
	snap A3 >$TMPD/A3.out
	[ "$(cat $T/current_tracer 2>/dev/null)" = irqsoff ] &&
		echo nop >$T/current_tracer
	pcptop report --json $TMPD/o.data 2>$TMPD/report.err |
		sed 's/^/ORACLE:report:/' >$TMPD/report.out
	# The stalls in a recording of their own (S0..S3, ORACLE:sreport):
	# in the first one their refills, long in fragmented memory, were
	# split into runs by the vCPUs' turns under -icount, and tracepoint
	# mode's refill runs went past their 5 % (+5.4 % s6, +6.4 % smp4-s5,
	# against +2 to +4 % without them)
	# ORACLE_STALLS=0 leaves them out (tests/vm/run.sh, the one-CPU
	# arm64 rows but the boards: 30 s of their 75 s)
	if [ "${ORACLE_STALLS:-1}" != 0 ]; then
		snap S0 >$TMPD/S0.out
		pcptop record -q -i 600 -o $TMPD/s.data "$@" -- \
			sh /bin/oracle-guest.sh stalls-inner 2>>$TMPD/record.err
		snap S3 >$TMPD/S3.out
		pcptop report --json $TMPD/s.data 2>>$TMPD/report.err |
			sed 's/^/ORACLE:sreport:/' >$TMPD/sreport.out
	fi
	at end >>$TMPD/at.out
	cat $TMPD/at.out $TMPD/setup.out $TMPD/load.out $TMPD/A0.out $TMPD/A1.out \
		$TMPD/A2.out $TMPD/A3.out $TMPD/report.out $TMPD/stalls.out \
		$TMPD/S0.out $TMPD/S1.out $TMPD/S2.out $TMPD/S3.out \
		$TMPD/sreport.out 2>/dev/null
	echo "ORACLE:record_rc:$rc"
	sed 's/^/ORACLE:record_err:/' $TMPD/record.err
	sed 's/^/ORACLE:report_err:/' $TMPD/report.err
	echo "ORACLE:end:done"
	;;
*)
	echo "usage: oracle-guest.sh run [RECORD OPTIONS] | inner | stalls-inner" >&2
	exit 2
	;;
esac

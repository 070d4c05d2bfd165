#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel's own count of flushes against pcptop's flush figure, in a
# VM: `tests/vm/run.sh --exec tests/vm/flush-proof.sh KERNEL`. Why it
# exists: on 7.x a flush is several free_pcppages_bulk calls, and only the
# kernel's own events say which calls belong to which flush. With no BPF,
# the trace buffer holds each bulk call (fprobe), each bulk-freed page
# (kmem:mm_page_pcpu_drain), decay_pcp_high's and drain_pages_zone's entry
# and return, and the commit function's return after a bulk call (a
# trigger on the bulk call arms it, the next commit entry disarms it). A
# flush is the bulk calls of one task between its commit function's entry
# and return, or inside one decay or drain call. awk groups them here and
# prints FLUSHPROOF lines; pcptop records the same window (-i 600: one
# interval) and its report's figures follow.
#
# FLUSHPROOF:kernel:flushes N pages N calls N max_pages N max_calls N
# FLUSHPROOF:khist:SLOT:N      flushes of [2^SLOT, 2^(SLOT+1)) pages
# FLUSHPROOF:pcptop:JSON       report --json of the window (jq on the host)

T=/sys/kernel/tracing
E=$T/events/k7
[ -d $T/events ] || mount -t tracefs nodev $T
inner() {
	echo 1 >$T/tracing_on
	# order-0 frees past high (commit flushes), then order 1-3 frees in
	# a streak (free_high: min(count, batch << scale) at a time)
	churn -m ${FLUSH_CHURN_MB:-256} -n 2 >/dev/null 2>&1
	pipes -p 64 -n ${FLUSH_PIPES:-8} >/dev/null 2>&1
	# a drain of every pageset: drain_all_pages() through compaction
	echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
	echo 0 >$T/tracing_on
}
[ "$1" = inner ] && { inner; exit 0; }

commit=free_frozen_page_commit
grep -q "^$commit\( \|$\)" $T/available_filter_functions || commit=free_unref_page_commit
echo 0 >$T/tracing_on
echo 65536 >$T/buffer_size_kb
echo >$T/trace
{
	echo "f:k7/pfb free_pcppages_bulk count=count"
	echo "f:k7/ce $commit"
	echo "f:k7/cx $commit%return"
	echo "f:k7/dph decay_pcp_high"
	echo "f:k7/dphx decay_pcp_high%return"
	echo "f:k7/dpz drain_pages_zone"
	echo "f:k7/dpzx drain_pages_zone%return"
} >>$T/dynamic_events || echo "FLUSHPROOF:error: fprobe events refused"
echo "FLUSHPROOF:events:$(grep -c k7/ $T/dynamic_events)"
for e in pfb dph dphx dpz dpzx; do echo 1 >$E/$e/enable; done
echo 1 >$T/events/kmem/mm_page_pcpu_drain/enable
echo "enable_event:k7:cx" >$E/pfb/trigger
echo "disable_event:k7:cx" >$E/ce/trigger
uname -r | sed 's/^/FLUSHPROOF:kernel-release:/'
pcptop info 2>&1 | grep -E '^(flush|free_high|zone lock|  (bulk_free|free_high)) ' | sed 's/^/FLUSHPROOF:info:/'
pcptop record -q -i 600 -o /tmp/f.data ${FLUSH_OPTS:-} -- sh /exec.sh inner 2>/tmp/rec.err ||
	{ echo "FLUSHPROOF:error: record failed"; cat /tmp/rec.err; }
cat $T/trace | awk '
# busybox awk has no ^: powers of two from a table
BEGIN { pw[0] = 1; for (i = 1; i < 16; i++) pw[i] = pw[i - 1] * 2 }
function slot(v,  s) { s = 0; while (v >= 2) { v = int(v / 2); s++ } return s }
function book(p) {
	if (calls[p] > 0) {
		nf++; np += pages[p]; nc += calls[p]
		if (pages[p] > maxp) maxp = pages[p]
		if (calls[p] > maxc) maxc = calls[p]
		h[slot(pages[p])]++
	}
	calls[p] = 0; pages[p] = 0
}
/^#/ { next }
{
	p = $1; sub(/.*-/, "", p)
	if ($0 ~ / pfb: /) { calls[p]++ }
	else if ($0 ~ / mm_page_pcpu_drain: /) {
		o = $0; sub(/.*order=/, "", o); o = int(o); pages[p] += pw[o]; allp += pw[o]
	}
	else if ($0 ~ / (cx|dphx|dpzx): /) book(p)
	else if ($0 ~ / (dph|dpz): /) book(p)
}
END {
	for (p in calls) book(p)
	printf "FLUSHPROOF:kernel:flushes %d pages %d calls %d max_pages %d max_calls %d all_pages %d\n", nf, np, nc, maxp, maxc, allp
	for (s = 0; s < 32; s++) if (h[s]) printf "FLUSHPROOF:khist:%d:%d\n", s, h[s]
}'
pcptop report --json /tmp/f.data 2>/dev/null | tr -d '\n' | sed 's/^/FLUSHPROOF:pcptop:/'
echo
pcptop report /tmp/f.data 2>/dev/null | grep -A14 -i 'flush size\|bulk calls per flush' | sed 's/^/FLUSHPROOF:text:/'

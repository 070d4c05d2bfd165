#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make rehearsal: reference 000's question asked of a VM built like the
# RZ/G3S board (one CPU, 1 GiB, the patched 6.12 kernel of
# tests/vm/kernel, so pcp_batch_scale_max= is the scale in force).
# bonnie++ is recorded with --latency at pcp_batch_scale_max=0 and at =5,
# one boot each, under qemu -icount (guest time counts instructions, so
# the two runs compare what the code did, not what the host did). It
# leaves build/rehearsal/scale0.data, scale5.data and diff.html, and
# checks that
#   - the scale in force is the one booted with, in both recordings;
#   - scale 5 moves larger batches (refill and bulk-free sizes);
#   - scale 5 holds zone->lock longer, with interrupts off longer, at
#     the tail (p99 and max);
#   - every allocation and free was timed (--latency) and the pcp lists'
#     memory was sampled each interval;
#   - pcptop diff's summary names the batch sizes and the lock or
#     interrupts-off tails among what changed most, in text, JSON and
#     HTML, and headless Chromium renders the HTML.
# The last line is "rehearsal: PASS" or "rehearsal: FAIL".
#
# Usage: tests/rehearsal/run.sh [-b BINDIR]   (default build/vm-x86)
# Environment: PCPTOP_CACHE, REHEARSAL_TIMEOUT (seconds per boot, 900).

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/lib.sh"

OUT=$root/build/rehearsal
BIN=$root/build/vm-x86
TIMEOUT=${REHEARSAL_TIMEOUT:-900}
SCALES="0 5"
# the board: one Cortex-A55 core and 1 GiB
SMP=1
MEM_MB=1024
# as tests/oracle/run.sh: a steady clock and instructions for time
APPEND_BASE="console=ttyS0 quiet panic=-1 tsc=reliable clocksource=tsc pcptest.rehearsal=1"
ICOUNT="-icount shift=0"
# a PNG of a rendered page is tens of KiB; an empty one a few hundred bytes
MIN_PNG_BYTES=20000

die() { echo "rehearsal: $1" >&2; echo "rehearsal: FAIL"; exit "${2:-1}"; }
log() { echo "rehearsal: $*" >&2; }

case "${1:-}" in
-b) BIN=$(realpath "$2") || die "no such directory '$2'" 2 ;;
-h | --help) sed -n '4,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) die "unknown argument '$1' (usage: tests/rehearsal/run.sh [-b BINDIR])" 2 ;;
esac
for t in qemu-system-x86_64 cpio gzip jq base64 timeout; do
	command -v "$t" >/dev/null || die "missing $t (scripts/deps.sh installs it)" 2
done
[ -x "$BIN/pcptop" ] || die "missing $BIN/pcptop: make STATIC=1 OUTPUT=build/vm-x86 all" 2
[ -x "$root/build/pcptop" ] || die "missing build/pcptop: make" 2
[ -x /bin/busybox ] || die "missing /bin/busybox (apt-get install busybox-static)" 2
start=$SECONDS
mkdir -p "$OUT"
rm -f "$OUT"/*.data "$OUT"/*.json "$OUT"/*.html "$OUT"/*.png "$OUT"/console-*.log

log "kernel: tests/vm/kernel/build.sh (cached after the first build)"
bzimage=$("$root/tests/vm/kernel/build.sh") || die "kernel build failed"
bonnie=$("$root/tests/vm/bonnie-cpio.sh" amd64) || die "no bonnie++ for amd64"

stage=$OUT/initrd
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp /bin/busybox "$stage/bin/busybox"
cp "$BIN/pcptop" "$stage/bin/"
cp "$here/guest.sh" "$stage/bin/rehearsal-guest.sh"
cp "$root/tests/vm/kernel/init.sh" "$stage/init"
chmod 755 "$stage/init" "$stage/bin/"*
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$OUT/base.cpio.gz" || die "building the initramfs failed"
cat "$OUT/base.cpio.gz" "$bonnie" >"$OUT/initrd.cpio.gz"

# one boot: bonnie++ recorded at scale $1
boot() {
	local s=$1 logf=$OUT/console-$1.log t0=$SECONDS
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 -m "$MEM_MB" -smp "$SMP" \
		$ICOUNT -nographic -no-reboot -kernel "$bzimage" \
		-initrd "$OUT/initrd.cpio.gz" \
		-append "$APPEND_BASE pcp_batch_scale_max=$s" \
		</dev/null >"$logf" 2>&1
	log "scale $s: boot ended after $((SECONDS - t0)) s (qemu exit $?)"
}

tagged() {
	tr -d '\r' <"$OUT/console-$1.log" | sed -n "s/^REHEARSAL:$2://p"
}

log "booting scale ${SCALES// / and } (one CPU, ${MEM_MB} MiB, -icount), side by side"
for s in $SCALES; do
	boot "$s" &
done
wait

for s in $SCALES; do
	t_eq "scale $s: pcptop record exited 0" "$(tagged "$s" record_rc)" 0
	tagged "$s" record_err | sed "s/^/  scale $s record: /" >&2
	t_eq "scale $s: the recording reached the console whole" \
		"$(tagged "$s" data_end)" 1
	tagged "$s" data | base64 -d >"$OUT/scale$s.data" 2>/dev/null
	if "$root/build/pcptop" report --json "$OUT/scale$s.data" >"$OUT/scale$s.json" 2>"$OUT/scale$s.err"; then
		t_pass "scale $s: build/rehearsal/scale$s.data reads back"
	else
		t_fail "scale $s: report failed: $(head -n 1 "$OUT/scale$s.err")"
	fi
done

# jq over one recording's report
rj() { jq -r "$2" "$OUT/scale$1.json" 2>/dev/null; }
# integer part, for t_cmp
int() { printf '%.0f' "${1:-0}" 2>/dev/null || echo 0; }

for s in $SCALES; do
	t_eq "scale $s: the scale in force is the booted one" "$(rj "$s" .scale.value)" "$s"
	t_eq "scale $s: read from the kernel variable" "$(rj "$s" .scale.source)" kernel-variable
	t_cmp "scale $s: allocations timed (--latency)" "$(rj "$s" '.hist.alloc_ns.samples // 0')" -gt 1000
	t_cmp "scale $s: frees timed (--latency)" "$(rj "$s" '.hist.free_ns.samples // 0')" -gt 1000
	t_cmp "scale $s: refills inside allocations timed" \
		"$(rj "$s" '[.hist.alloc_ns_by_order[].refill.samples] | add // 0')" -gt 0
	t_cmp "scale $s: pcp memory in every interval of the timeline" \
		"$(rj "$s" '[.timeline[] | select(.pcp_pages == null)] | length')" -eq 0
	t_cmp "scale $s: pcp pages seen" "$(rj "$s" '.totals.pcp_pages.peak // 0')" -gt 0
done

# batch sizes: refills may take batch << scale at 5, batch at 0
for f in refill.avg refill.max bulk_free.max; do
	a=$(int "$(rj 0 ".totals.${f%.*}.${f#*.}")")
	b=$(int "$(rj 5 ".totals.${f%.*}.${f#*.}")")
	t_cmp "$f: larger at scale 5 than at 0 ($a -> $b pages)" "$b" -gt "$a"
done
# the tails the batches make: zone->lock hold and interrupts off
for f in lock_hold_ns irqs_off_ns; do
	for p in p99 max; do
		a=$(int "$(rj 0 ".hist.$f.$p")")
		b=$(int "$(rj 5 ".hist.$f.$p")")
		t_cmp "$f $p: longer at scale 5 than at 0 ($a -> $b ns)" "$b" -gt "$a"
	done
done

# the diff, as a user would run it
cd "$OUT" || die "cannot enter $OUT"
"$root/build/pcptop" diff scale0.data scale5.data >diff.txt 2>diff.err
t_eq "pcptop diff exits 0" "$?" 0
"$root/build/pcptop" diff --json scale0.data scale5.data >diff.json 2>>diff.err
"$root/build/pcptop" diff --html diff.html scale0.data scale5.data >/dev/null 2>>diff.err
t_eq "pcptop diff --html exits 0" "$?" 0
sed -n '/^What moved/,/^$/p' diff.txt
summary=$(jq -r '.summary[].figure' diff.json 2>/dev/null)
t_check "the JSON summary names a batch size" -- \
	grep -qE '^(refill|bulk_free|free_high|drain|decay)\.(avg|pages|calls)$' <<<"$summary"
t_check "every summary entry moved beyond twice its spread" -- \
	jq -e '.summary | length > 0 and all(.moved and (.delta | fabs) > 2 * .spread)' diff.json
t_check "every figure beyond twice its spread is in the summary" -- \
	jq -e '([.delta[] | select(.spread != null and (.delta | fabs) > 2 * .spread)] | length) == (.summary | length)' diff.json
t_check "the text diff opens with the paragraph over one run a side" -- \
	grep -q '^  Over 1 run of A and 1 of B' diff.txt
t_check "diff.html opens with the summary" -- grep -q 'id="summary"' diff.html
t_check "diff.html's summary names a batch size" -- \
	grep -qE '<td[^>]*>(refill|bulk_free|free_high|drain|decay)\.(avg|pages|calls)</td>' diff.html
t_check "diff.html plots the pcp lists' memory" -- \
	grep -q 'Memory parked in pcp lists' diff.html
if command -v chromium >/dev/null; then
	t_render "$OUT/chrome" "$OUT/diff.html" "$OUT/diff.png" "$MIN_PNG_BYTES"
	t_check "the rendered page holds the summary table" -- grep -q 'class="summary"' diff.png.dom
	t_cmp "the rendered page holds the plots" "$(grep -o '<svg' diff.png.dom | wc -l)" -ge 3
	rm -rf "$OUT/chrome"
else
	t_fail "chromium is not installed (apt-get install chromium)"
fi
for s in $SCALES; do
	echo "scale $s: bonnie++ $(tagged "$s" work | tail -n 1 | cut -c1-60)..., wall $(rj "$s" .command.wall_s) s (guest instructions)"
done
log "done in $((SECONDS - start)) s"
t_summary
rc=$?
[ $rc -eq 0 ] && echo "rehearsal: PASS" || echo "rehearsal: FAIL"
exit $rc

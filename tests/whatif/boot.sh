#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One boot of the whatif suite: an instrumented kernel
# (tests/vm/kernel/build.sh: 6.12, or 7.3 with WHATIF_SERIES=7.3) at
# pcp_batch_scale_max=SCALE under qemu TCG,
# tests/whatif/guest.sh as /init, and what the guest wrote on its virtio
# disk unpacked into OUTDIR (t.data, report.json, check.txt, whatif.json,
# console.log). Why a script of its own: run.sh boots one per scale, and
# a failing check is rerun on one scale by hand.
#
# Usage: tests/whatif/boot.sh SCALE OUTDIR [PCPTOP OPTIONS, commas for spaces]
# Environment: WHATIF_BIN (static build, default build/vm-x86), WHATIF_SMP
# (2), WHATIF_TIMEOUT (seconds, 900), WHATIF_SERIES (the instrumented
# kernel's series, build.sh --series: 6.12, the default, or 7.3),
# WHATIF_STREAM (the stream: one, loopback TCP on one CPU, the default;
# or unix, a unix socket pair with senders and receivers on CPUs apart:
# guest.sh says why).
# Exit: 0 when the guest got to its end marker, 1 otherwise.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
scale=${1:?usage: boot.sh SCALE OUTDIR [OPTS]}
out=${2:?usage: boot.sh SCALE OUTDIR [OPTS]}
opts=${3:--}
BIN=${WHATIF_BIN:-$root/build/vm-x86}
SMP=${WHATIF_SMP:-2}
TIMEOUT=${WHATIF_TIMEOUT:-900}
SERIES=${WHATIF_SERIES:-6.12}
case "$SERIES" in
6.12 | 7.3) ;;
*) echo "whatif: bad WHATIF_SERIES '$SERIES' (6.12 or 7.3)" >&2; exit 1 ;;
esac
STREAM=${WHATIF_STREAM:-one}
case "$STREAM" in
one | unix) ;;
*) echo "whatif: bad WHATIF_STREAM '$STREAM' (one or unix)" >&2; exit 1 ;;
esac

mkdir -p "$out" || exit 1
rm -f "$out"/{t.data,report.json,check.txt,whatif.json,record.err,console.log,disk.img,inner.hits,outer.hits}
bzimage=$("$root/tests/vm/kernel/build.sh" --series "$SERIES") || {
	echo "whatif: the instrumented $SERIES kernel did not build" >&2
	exit 1
}
stage=$out/initrd
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
cp /bin/busybox "$stage/bin/busybox"
for f in pcptop churn tcpstream pipes; do
	[ -x "$BIN/$f" ] || {
		echo "whatif: missing $BIN/$f: make STATIC=1 OUTPUT=build/vm-x86 all" >&2
		exit 1
	}
	cp "$BIN/$f" "$stage/bin/"
done
cp "$here/guest.sh" "$stage/init"
cp "$root/tests/vm/guest-lib.sh" "$stage/bin/vmtest-lib.sh"
chmod 755 "$stage/init" "$stage/bin/"*
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$out/initrd.cpio.gz" || exit 1
rm -rf "$stage"
# the guest's tar goes here: sparse, larger than any trace of the workload
truncate -s 512M "$out/disk.img"

# as tests/oracle/run.sh boots it: THP off (orders 0..3 on the lists),
# the TSC as clocksource, guest time counted in instructions
append="console=ttyS0 quiet panic=-1 transparent_hugepage=never tsc=reliable clocksource=tsc pcp_batch_scale_max=$scale"
[ "$opts" != - ] && append="$append pcptest.opts=$opts"
[ "$STREAM" != one ] && append="$append pcptest.stream=$STREAM"
t0=$SECONDS
# the line tests/run-all.sh counts as a boot (run.sh passes it on)
echo "boot: whatif-$(basename "$out") (instrumented $SERIES, scale $scale)" >&2
timeout -k 10 "$TIMEOUT" qemu-system-x86_64 -m 1024 -smp "$SMP" \
	-icount shift=0,sleep=off -nographic -no-reboot \
	-kernel "$bzimage" -initrd "$out/initrd.cpio.gz" \
	-drive "file=$out/disk.img,format=raw,if=virtio" \
	-append "$append" </dev/null 2>&1 | tr -d '\r' >"$out/console.log"
echo "whatif: $SERIES scale $scale booted in $((SECONDS - t0)) s" >&2
(cd "$out" && tar -xf disk.img 2>/dev/null)
rm -f "$out/disk.img" "$out/initrd.cpio.gz"
grep -qx 'WHATIF:end:done' "$out/console.log"

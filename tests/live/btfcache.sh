#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The BTF cache on this machine's kernel (src/kernel/btf_cache.h): the
# first start cuts the kernel's BTF and keeps it, the second reads it and
# stays small; a damaged, stale or planted entry is never used but cut
# again; a directory pcptop may not trust or cannot write leaves it
# running without one; the cut relocates every program as the whole BTF
# does. Sourced by tests/live/run.sh (its counters and $P), or run alone:
# Usage: tests/live/btfcache.sh [BUILD_DIR]   (default build; root)

bc_alone=0
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	cd "$(dirname "$0")/../.."
	. tests/lib.sh
	B=${1:-build}
	P=$B/pcptop
	t_need live "$P"
	bc_alone=1
fi
bc_tmp=$(mktemp -d)
bc_dir=$bc_tmp/cache/btf
# a second start's peak RSS, the issue's target for the one-CPU boards
BC_RSS_MAX_KB=4096
BC_RUNS=5

# the BTF source info reports, with the cache in $bc_dir
bc_source() {
	PCPTOP_BTF_CACHE=$bc_dir "$P" info --json 2>/dev/null | jq -r .kernel.btf
}
bc_entry() { ls "$bc_dir"/vmlinux-*.btf 2>/dev/null | head -n 1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "== BTF cache"
mkdir -p "$bc_tmp/cache"
t_check "first start cuts and keeps the BTF" -- \
	grep -q '(cut, cached now)' <<<"$(bc_source)"
entry=$(bc_entry)
t_check "  one entry, named by build ID and BTF CRC" -- \
	test "$(ls "$bc_dir" | grep -c '^vmlinux-[0-9a-f]*-[0-9a-f]\{8\}\.btf$')" = 1
t_eq "  entry mode" "$(stat -c %a "$entry" 2>/dev/null)" 600
t_eq "  directory mode" "$(stat -c %a "$bc_dir")" 700
t_cmp "  the cut is small (bytes)" "$(stat -c %s "$entry" 2>/dev/null)" -lt 65536
ino=$(stat -c %i.%Y "$entry")
t_check "second start reads it" -- grep -q '(cut, cache hit)' <<<"$(bc_source)"
t_eq "  and leaves it as it was" "$(stat -c %i.%Y "$entry")" "$ino"

# start to exit and peak RSS of the second start against the whole BTF
# (interleaved: a busy host slows both alike)
: >"$bc_tmp/hit"
: >"$bc_tmp/off"
for i in $(seq $BC_RUNS); do
	for c in hit off; do
		[ $c = hit ] && dir=$bc_dir || dir=
		PCPTOP_BTF_CACHE=$dir /usr/bin/time -f "%e %M %U %S" -a -o "$bc_tmp/$c" \
			"$P" stat -i 0.05 -c 1 -H >/dev/null 2>&1
	done
done
# FILE WHAT: the median of wall (ms), rss (KiB) or cpu (user + system, ms)
med() {
	awk -v w="$2" '{ print w == "wall" ? int($1 * 1000 + 0.5) : w == "rss" ? $2 : int(($3 + $4) * 1000 + 0.5) }' \
		"$bc_tmp/$1" | median
}
echo "  stat -i 0.05 -c 1, median of $BC_RUNS: cache hit $(med hit wall) ms, $(med hit cpu) ms CPU, $(med hit rss) KiB; cache off $(med off wall) ms, $(med off cpu) ms CPU, $(med off rss) KiB"
t_cmp "  a cache hit's peak RSS is under half the whole BTF's (KiB)" \
	$(($(med hit rss) * 2)) -lt "$(med off rss)"
if file -L "$P" | grep -q 'statically linked'; then
	t_cmp "  and within the boards' target, static build (KiB)" \
		"$(med hit rss)" -le $BC_RSS_MAX_KB
fi
# CPU time, all runs summed (time(1) counts in 10 ms ticks): a loaded
# host stretches the wall time of both alike, and more
cpu_sum() { awk '{ t += $3 + $4 } END { print int(t * 1000 + 0.5) }' "$bc_tmp/$1"; }
t_cmp "  a cache hit takes less CPU time, $BC_RUNS starts (ms)" "$(cpu_sum hit)" -lt "$(cpu_sum off)"

# damaged: a payload byte flipped, then cut short
printf '\xff' | dd of="$entry" bs=1 seek=$(($(stat -c %s "$entry") - 9)) conv=notrunc status=none
t_check "a flipped payload byte is found and the entry cut again" -- \
	grep -q '(cut, damaged entry rebuilt)' <<<"$(bc_source)"
t_check "  the new entry is used" -- grep -q '(cut, cache hit)' <<<"$(bc_source)"
truncate -s 100 "$entry"
t_check "a truncated entry is cut again" -- \
	grep -q '(cut, damaged entry rebuilt)' <<<"$(bc_source)"

# temporary files a killed pcptop left: those of dead processes go when
# an entry is next written, a live process's stays
dead=$(sh -c 'echo $$')
: >"$bc_dir/.$(basename "$entry").$dead.tmp"
: >"$bc_dir/.$(basename "$entry").$$.tmp"
truncate -s 100 "$entry"
bc_source >/dev/null
t_check "a dead pcptop's temporary file is swept when an entry is written" -- \
	test ! -e "$bc_dir/.$(basename "$entry").$dead.tmp"
t_check "  a live process's is left" -- test -e "$bc_dir/.$(basename "$entry").$$.tmp"
rm -f "$bc_dir/.$(basename "$entry").$$.tmp"

# stale: whole, but for another pcptop (its key's object CRC changed)
python3 - "$entry" <<'EOF'
import struct, sys, zlib
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
KEY, PROG = 16, 16 + 48   # header: magic, version, hdr_len, key{...prog_crc}
# hdr_crc ends the header's fields (btf_cache_key.h), whose length is
# at byte 12: the ids of the probes' functions before it grow with the
# probe table, and the struct's 8-byte alignment may pad after it. It is
# where the CRC of every byte before it is stored.
hdr_len = struct.unpack_from('<I', b, 12)[0]
HDR_CRC = next(o for o in (hdr_len - 4, hdr_len - 8)
               if zlib.crc32(bytes(b[:o])) == struct.unpack_from('<I', b, o)[0])
struct.pack_into('<I', b, PROG, struct.unpack_from('<I', b, PROG)[0] ^ 1)
struct.pack_into('<I', b, HDR_CRC, zlib.crc32(bytes(b[:HDR_CRC])))
open(p, 'wb').write(b)
EOF
t_check "a whole entry for another pcptop is stale and cut again" -- \
	grep -q '(cut, stale entry rebuilt)' <<<"$(bc_source)"

# a symlink planted in the entry's place is neither read nor written through
echo "not BTF" >"$bc_tmp/victim"
rm -f "$entry"
ln -s "$bc_tmp/victim" "$entry"
t_check "a symlink in the entry's place is not followed" -- \
	grep -q '(cut, rebuilt: ELOOP)' <<<"$(bc_source)"
t_eq "  its target is untouched" "$(cat "$bc_tmp/victim")" "not BTF"
t_check "  the entry is a file again" -- test -f "$entry" -a ! -L "$entry"

# directories pcptop must not trust, or cannot write: run on without
chmod 0777 "$bc_dir"
t_check "a directory others may write is not used" -- \
	grep -q '(cut, no cache: EPERM)' <<<"$(bc_source)"
chmod 0700 "$bc_dir"
mkdir -p "$bc_tmp/ro"
unshare -m bash -c 'mount -t tmpfs -o ro,mode=0755 none "$1" &&
	PCPTOP_BTF_CACHE=$1/btf exec "$0" info --json' "$P" "$bc_tmp/ro" \
	>"$bc_tmp/ro.json" 2>/dev/null
t_eq "a read-only cache directory: info exits 0" "$?" 0
t_check "  and says there is no cache" -- \
	grep -q '(cut, no cache: EROFS)' <<<"$(jq -r .kernel.btf "$bc_tmp/ro.json")"
t_eq "  its plan is the cached one's" \
	"$(jq -c '[.probes[] | .mode]' "$bc_tmp/ro.json")" \
	"$(PCPTOP_BTF_CACHE=$bc_dir "$P" info --json 2>/dev/null | jq -c '[.probes[] | .mode]')"
t_check "PCPTOP_BTF_CACHE= turns it off" -- \
	grep -q '(cut, cache off)' <<<"$(PCPTOP_BTF_CACHE= "$P" info --json 2>/dev/null | jq -r .kernel.btf)"
# the default directory, made if missing
(unset PCPTOP_BTF_CACHE; "$P" info >/dev/null 2>&1)
t_check "the default directory /var/cache/pcptop/btf holds this kernel's entry" -- \
	test -f "/var/cache/pcptop/btf/$(basename "$entry")"

# every CO-RE relocation against the cut gives the whole BTF's result; the
# fentry programs are relocated before the kernel refuses or loads them
relos() { # ARGS...: libbpf's CO-RE results, type ids left out
	PCPTOP_BTF_CACHE=$bc_dir "$P" info -v --latency --exact-free-high "$@" 2>&1 >/dev/null |
		grep -E 'relo #[0-9]+: (matching|patched)' | sed -E 's/\[[0-9]+\]/[id]/g'
}
for m in fentry tracepoint; do
	relos --mode "$m" >"$bc_tmp/relo-cut"
	relos --mode "$m" --btf /sys/kernel/btf/vmlinux >"$bc_tmp/relo-whole"
	t_cmp "--mode $m: CO-RE relocations resolved against the cut" \
		"$(grep -c patched "$bc_tmp/relo-cut")" -gt 0
	t_check "  each as against the whole BTF" -- cmp -s "$bc_tmp/relo-cut" "$bc_tmp/relo-whole"
done

rm -rf "$bc_tmp"
if [ "$bc_alone" = 1 ]; then
	t_summary
fi

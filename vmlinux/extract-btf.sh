#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: pcptop's vmlinux.h headers (and the VM tests' checks of
# function/tracepoint signatures) come from the BTF of Debian's kernels, but
# Debian ships that BTF only inside the kernel image itself (the .BTF section
# of vmlinux, which is compressed inside vmlinuz).  We cannot boot or
# install those kernels here, so this script digs the raw BTF blob out of a
# vmlinuz file directly.
#
# Usage: extract-btf.sh VMLINUZ OUT.btf
#
# How: try the image as-is, then as a wholly compressed file (e.g. arm64
# vmlinuz = gzip'd Image), then like the kernel's scripts/extract-vmlinux:
# scan for zstd/xz/gzip/bzip2/lzma magic bytes and decompress from each hit,
# ignoring trailing garbage (amd64 bzImage: zstd for 6.12, xz for 6.1).  In
# each candidate, look for a BTF header (magic 9f eb 01 00, hdr_len 24)
# whose type section is larger than 1 MiB, and cut out
# hdr_len + max(type_off + type_len, str_off + str_len) bytes.  The result
# is what `bpftool btf dump file OUT.btf` reads.

set -euo pipefail

prog=extract-btf.sh
log() { echo "$prog: $*" >&2; }
die() { echo "$prog: $*" >&2; exit 1; }

if [ $# -ne 2 ]; then
	echo "usage: $prog VMLINUZ OUT.btf" >&2
	exit 2
fi
img=$1
out=$2
[ -f "$img" ] || die "no such file: $img"
PY=${PYTHON:-python3}
command -v "$PY" >/dev/null || die "python3 not found (set PYTHON=)"

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/extract-btf.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT

# cut_btf IN OUT: write the vmlinux BTF blob found in IN to OUT; status 1
# if IN holds none.
cut_btf() {
	"$PY" - "$1" "$2" <<'EOF'
import struct, sys

src, dst = sys.argv[1], sys.argv[2]
with open(src, "rb") as f:
    data = f.read()

MAGIC = b"\x9f\xeb\x01\x00"      # 0xeb9f little endian, version 1, flags 0
HDR_LEN = 24
MIN_TYPES = 1 << 20              # vmlinux BTF, not some module/test blob

pos = data.find(MAGIC)
while pos >= 0:
    if pos + HDR_LEN <= len(data):
        hdr_len, type_off, type_len, str_off, str_len = \
            struct.unpack_from("<5I", data, pos + 4)
        if hdr_len == HDR_LEN and type_len > MIN_TYPES and str_len > 0:
            size = hdr_len + max(type_off + type_len, str_off + str_len)
            s0 = pos + hdr_len + str_off
            if pos + size <= len(data) and data[s0] == 0 \
                    and data[s0 + str_len - 1] == 0:
                with open(dst, "wb") as f:
                    f.write(data[pos:pos + size])
                sys.stderr.write(
                    "extract-btf.sh: BTF at offset %d: %d bytes "
                    "(types %d, strings %d)\n"
                    % (pos, size, type_len, str_len))
                sys.exit(0)
    pos = data.find(MAGIC, pos + 1)
sys.exit(1)
EOF
}

# offsets FILE HEXMAGIC: print (up to 32) byte offsets of HEXMAGIC in FILE.
offsets() {
	"$PY" - "$1" "$2" <<'EOF'
import sys
with open(sys.argv[1], "rb") as f:
    data = f.read()
magic = bytes.fromhex(sys.argv[2])
pos, n = data.find(magic), 0
while pos >= 0 and n < 32:
    print(pos)
    n += 1
    pos = data.find(magic, pos + 1)
EOF
}

found() {
	mv "$tmpdir/btf" "$out"
	log "wrote $out ($1)"
	exit 0
}

if command -v file >/dev/null; then
	log "$(basename "$img"): $(file -b "$img")"
fi

# 1. Uncompressed vmlinux / arm64 Image.
cut_btf "$img" "$tmpdir/btf" && found "uncompressed image"

# codec table: name, decompress command, magic (hex)
codecs=(
	"zstd|zstd -dcq|28b52ffd"
	"xz|xz -dcq --single-stream|fd377a585a00"
	"gzip|gzip -dcq|1f8b08"
	"bzip2|bzip2 -dcq|425a68"
	"lzma|xz -dcq --format=lzma|5d000000"
)

# 2. Whole file compressed (Debian arm64 vmlinuz is a gzip'd Image).
for c in "${codecs[@]}"; do
	IFS='|' read -r name cmd magic <<<"$c"
	command -v "${cmd%% *}" >/dev/null || continue
	head -c "$(( ${#magic} / 2 ))" "$img" | od -An -tx1 | tr -d ' \n' |
		grep -qx "$magic" || continue
	log "decompressing whole file as $name"
	$cmd <"$img" >"$tmpdir/payload" 2>/dev/null || true
	[ -s "$tmpdir/payload" ] &&
		cut_btf "$tmpdir/payload" "$tmpdir/btf" && found "whole-file $name"
done

# 3. Compressed payload embedded in a bzImage / EFI zboot image.
for c in "${codecs[@]}"; do
	IFS='|' read -r name cmd magic <<<"$c"
	command -v "${cmd%% *}" >/dev/null || {
		log "skipping $name: ${cmd%% *} not installed"
		continue
	}
	for off in $(offsets "$img" "$magic"); do
		log "trying $name payload at offset $off"
		tail -c "+$((off + 1))" "$img" | $cmd >"$tmpdir/payload" \
			2>/dev/null || true
		[ -s "$tmpdir/payload" ] || continue
		cut_btf "$tmpdir/payload" "$tmpdir/btf" &&
			found "$name payload at offset $off"
	done
done

die "no vmlinux BTF (>1 MiB type section) found in $img"

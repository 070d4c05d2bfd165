#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian 12's bonnie++ for ARCH and the libraries it links, packed as a
# cpio a test VM's initramfs can append: the benchmark of reference 000,
# without a disk image or a compiler. Downloaded with apt once and cached.
#
# Usage: tests/vm/bonnie-cpio.sh ARCH   (amd64 or arm64)
# Prints the path of $PCPTOP_CACHE/bench/bonnie-ARCH.cpio.gz; exits 1 when
# apt cannot fetch a package, 2 on bad input.

set -uo pipefail
CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}
BONNIE_DEBS="bonnie++ libstdc++6 libgcc-s1 libc6"

log() { echo "bonnie-cpio: $*" >&2; }
[ $# -eq 1 ] && [[ "$1" =~ ^(amd64|arm64)$ ]] ||
	{ log "usage: tests/vm/bonnie-cpio.sh amd64|arm64"; exit 2; }
arch=$1
dir=$CACHE/bench/bonnie-$arch
out=$CACHE/bench/bonnie-$arch.cpio.gz
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi
log "packing bonnie++ for $arch (apt-get download, once)"
mkdir -p "$CACHE/bench" || exit 1
rm -rf "$dir" && mkdir -p "$dir/debs" "$dir/root" || exit 1
# apt drops privileges to _apt for downloads
if id _apt >/dev/null 2>&1; then chown _apt "$dir/debs"; fi
for p in $BONNIE_DEBS; do
	(cd "$dir/debs" && apt-get download -q "$p:$arch" >/dev/null) ||
		{ log "apt-get download $p:$arch failed"; exit 1; }
done
for p in "$dir"/debs/*.deb; do
	dpkg-deb -x "$p" "$dir/root" || exit 1
done
rm -rf "$dir/root/usr/share"
# bonnie++ -u root looks the user up
mkdir -p "$dir/root/etc"
echo 'root:x:0:0:root:/root:/bin/sh' >"$dir/root/etc/passwd"
echo 'root:x:0:' >"$dir/root/etc/group"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$out.tmp" && mv "$out.tmp" "$out" || exit 1
rm -rf "$dir"
echo "$out"

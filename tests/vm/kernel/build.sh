#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: the boot parameter pcp_batch_scale_max= only exists in
# CIP's 6.12.y kernels, and pcptop must be shown to report the scale such a
# kernel really runs with. This script builds a small amd64 bzImage from
# Debian's linux-source-6.12 with pcptop's own version of that change
# (pcp-batch-scale-max.patch), the test-only instrumentation the oracle
# suite reads (pcp-oracle.patch: /proc/pcp_oracle) and config.fragment
# merged over tinyconfig, and prints the bzImage path on stdout. Progress
# goes to stderr. One kernel serves every patched-kernel test.
#
# Usage: build.sh            build (or reuse) and print the bzImage path
#        build.sh --key      print the cache key only
#
# Environment:
#   PCPTOP_CACHE          cache root (default /var/cache/pcptop)
#   PCPTOP_KSRC_VERSION   Debian version of linux-source-6.12 to use
#                         (default: apt's candidate, else the newest cached)
#   PCPTOP_KERNEL_JOBS    make -j (default 3)
#   PCPTOP_KEEP_TREE=1    keep the built source tree (about 2 GB)
#
# Cache:
#   $PCPTOP_CACHE/linux-source/linux-source-6.12_<ver>_all.deb
#   $PCPTOP_CACHE/linux-source/<ver>/linux-source-6.12.tar.xz
#   $PCPTOP_CACHE/patched-kernel/<key>/{bzImage,config,System.map,build.log}
# <key> hashes the recipe version, the source version, the patch and the
# fragment, so editing either rebuilds and an unchanged pair never does.
# Cold: 10-30 minutes of make -j3 on 2 cores (see README.md); warm: ~2 s.

set -euo pipefail

prog=build.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
patch_files=("$here/pcp-batch-scale-max.patch" "$here/pcp-oracle.patch")
fragment=$here/config.fragment
# Bump when the steps below change what gets built from the same inputs.
RECIPE=2

log() { echo "$prog: $*" >&2; }
die() { echo "$prog: $*" >&2; exit 1; }

mode=build
case "${1:-}" in
"") ;;
--key) mode=key ;;
-h|--help) sed -n '4,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) echo "$prog: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

jobs=${PCPTOP_KERNEL_JOBS:-3}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] ||
	{ echo "$prog: PCPTOP_KERNEL_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
for p in "${patch_files[@]}"; do
	[ -r "$p" ] || die "missing $p"
done
[ -r "$fragment" ] || die "missing $fragment"

CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}
srcroot=$CACHE/linux-source
outroot=$CACHE/patched-kernel
mkdir -p "$srcroot" "$outroot" || die "cannot create cache under $CACHE"

# --- which linux-source-6.12 -------------------------------------------
# The patch is checked against one Debian version; a newer one is tried
# too (the key changes), and patch --fuzz=0 says clearly if it moved.
resolve_version() {
	local v
	if [ -n "${PCPTOP_KSRC_VERSION:-}" ]; then
		echo "$PCPTOP_KSRC_VERSION"
		return
	fi
	v=$(apt-cache policy linux-source-6.12 2>/dev/null |
		awk '$1 == "Candidate:" { print $2 }')
	if [ -n "$v" ] && [ "$v" != "(none)" ]; then
		echo "$v"
		return
	fi
	# No apt lists (offline CI cache): the newest .deb already fetched.
	v=$(ls "$srcroot" 2>/dev/null |
		sed -n 's/^linux-source-6\.12_\(.*\)_all\.deb$/\1/p' |
		sed 's/%3a/:/g' | sort -V | tail -n 1)
	[ -n "$v" ] || die "linux-source-6.12 unknown to apt and not cached (run apt-get update)"
	echo "$v"
}

ver=$(resolve_version)
key=$({
	echo "recipe=$RECIPE"
	echo "linux-source-6.12=$ver"
	cat "${patch_files[@]}" "$fragment"
} | sha256sum | cut -c1-16)
if [ "$mode" = key ]; then
	echo "$key"
	exit 0
fi

out=$outroot/$key
if [ -f "$out/.done" ] && [ -f "$out/bzImage" ]; then
	log "cached: $out/bzImage (linux-source-6.12 $ver)"
	echo "$out/bzImage"
	exit 0
fi

# --- tools ---------------------------------------------------------------
missing=
for t in make gcc flex bison bc pahole patch xz tar dpkg-deb apt-get flock; do
	command -v "$t" >/dev/null || missing="$missing $t"
done
[ -z "$missing" ] ||
	die "missing tools:$missing (apt-get install build-essential flex bison bc libssl-dev libelf-dev dwarves xz-utils)"

# One build at a time: two would fight over the same cores and tree.
exec 9>"$outroot/.lock"
if ! flock -n 9; then
	log "another build holds $outroot/.lock, waiting"
	flock 9
fi
# The other build may have produced ours.
if [ -f "$out/.done" ] && [ -f "$out/bzImage" ]; then
	log "cached: $out/bzImage"
	echo "$out/bzImage"
	exit 0
fi

start=$(date +%s)
elapsed() { local s=$(($(date +%s) - start)); printf '%d:%02d' $((s / 60)) $((s % 60)); }

# --- source ----------------------------------------------------------------
deb=$srcroot/linux-source-6.12_${ver//:/%3a}_all.deb
if [ ! -s "$deb" ]; then
	log "downloading linux-source-6.12 $ver"
	tmpd=$(mktemp -d "$srcroot/.dl.XXXXXX")
	# apt-get download writes into the current directory.
	(cd "$tmpd" && apt-get download -q "linux-source-6.12=$ver" >&2) ||
		{ rm -rf "$tmpd"; die "apt-get download linux-source-6.12=$ver failed"; }
	mv "$tmpd"/linux-source-6.12_*_all.deb "$deb"
	rm -rf "$tmpd"
fi
tarball=$srcroot/$ver/linux-source-6.12.tar.xz
if [ ! -s "$tarball" ]; then
	log "extracting the source tarball from $(basename "$deb")"
	mkdir -p "$srcroot/$ver"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO ./usr/src/linux-source-6.12.tar.xz > "$tarball.tmp" ||
		die "no usr/src/linux-source-6.12.tar.xz in $deb"
	mv "$tarball.tmp" "$tarball"
fi

# Trees of failed or interrupted builds of any recipe are 2 GB each: a
# cache on a CI disk keeps only finished kernels (those have no tree).
for stale in "$outroot"/*/tree; do
	[ -d "$stale" ] || continue
	[ -n "${PCPTOP_KEEP_TREE:-}" ] && [ -f "${stale%/tree}/.done" ] && continue
	log "removing the unfinished build tree $stale"
	rm -rf "$stale"
done
rm -rf "$out"
mkdir -p "$out"
tree=$out/tree
log "[$(elapsed)] unpacking linux-source-6.12 $ver into $out"
mkdir -p "$tree"
tar -xJf "$tarball" -C "$tree" --strip-components=1 ||
	die "cannot unpack $tarball"

for p in "${patch_files[@]}"; do
	log "[$(elapsed)] applying $(basename "$p")"
	# --fuzz=0: a patch that only applies loosely is a patch nobody reviewed.
	patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s < "$p" >&2 ||
		die "$(basename "$p") does not apply to linux-source-6.12 $ver"
done

# --- config ----------------------------------------------------------------
log "[$(elapsed)] tinyconfig + $(basename "$fragment")"
{
	make -C "$tree" tinyconfig
	(cd "$tree" && scripts/kconfig/merge_config.sh -m .config "$fragment")
	make -C "$tree" olddefconfig
} > "$out/config.log" 2>&1 || die "configuring failed, see $out/config.log"

# merge_config only warns when a dependency drops an option: fail instead,
# a kernel without BTF or KALLSYMS_ALL would make every VM check fail later.
bad=
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qxF "$line" "$tree/.config" || bad="$bad ${line}" ;;
	esac
done < "$fragment"
[ -z "$bad" ] || die "olddefconfig dropped:$bad (see $out/config.log)"

# --- build -----------------------------------------------------------------
log "[$(elapsed)] make -j$jobs bzImage (about 10 minutes cold on 2 cores; log: $out/build.log)"
make -C "$tree" -j"$jobs" bzImage > "$out/build.log" 2>&1 &
mpid=$!
# A heartbeat so CI does not think the job hung.
tick=0
while kill -0 "$mpid" 2>/dev/null; do
	sleep 1
	tick=$((tick + 1))
	if [ $((tick % 30)) = 0 ]; then
		n=$(grep -c '^  CC ' "$out/build.log" || true)
		log "[$(elapsed)] building: $n files compiled"
	fi
done
wait "$mpid" || { tail -n 20 "$out/build.log" >&2; die "kernel build failed, see $out/build.log"; }

# The variable must be a data symbol, or pcptop has nothing to read.
grep -q ' pcp_batch_scale_max$' "$tree/System.map" ||
	die "pcp_batch_scale_max missing from System.map: patch not in the image?"

cp "$tree/arch/x86/boot/bzImage" "$out/bzImage"
cp "$tree/.config" "$out/config"
cp "$tree/System.map" "$out/System.map"
echo "linux-source-6.12 $ver, recipe $RECIPE, built in $(elapsed)" > "$out/info"
if [ "${PCPTOP_KEEP_TREE:-0}" != 1 ]; then
	rm -rf "$tree"
fi
touch "$out/.done"
log "[$(elapsed)] done: $out/bzImage ($(du -h "$out/bzImage" | cut -f1))"
echo "$out/bzImage"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: the boot parameter pcp_batch_scale_max= only exists in
# CIP's 6.12.y kernels, and pcptop must be shown to report the scale such a
# kernel really runs with, and every figure must meet a count the kernel
# takes at the exact lines. This script builds a small amd64 bzImage from
# Debian's linux-source-6.12 or linux-source-7.3 with pcptop's own version
# of that change (pcp-batch-scale-max*.patch), the test-only
# instrumentation the oracle suite reads (pcp-oracle*.patch:
# /proc/pcp_oracle) and config.fragment merged over tinyconfig, and prints
# the bzImage path on stdout. Progress goes to stderr. One kernel per
# series serves every patched-kernel test.
#
# Usage: build.sh [--series 6.12|7.3]          build (or reuse), print the bzImage path
#        build.sh [--series 6.12|7.3] --key    print the cache key only
#
#   6.12 (the default): linux-source-6.12 from the machine's own apt
#        sources, pcp-batch-scale-max.patch + pcp-oracle.patch.
#   7.3: linux-source-7.3 from trixie-backports through fetch-kernel.sh's
#        private apt configuration (the machine's sources untouched),
#        pcp-batch-scale-max-7.3.patch + pcp-oracle-7.3.patch; the fragment's
#        CONFIG_PROC_SYSCTL=y becomes CONFIG_SYSCTL=y (7.3 has no
#        PROC_SYSCTL: "Sysctl support (/proc/sys)" is SYSCTL there).
#
# Environment:
#   PCPTOP_CACHE          cache root (default /var/cache/pcptop)
#   PCPTOP_KSRC_VERSION   Debian version of the linux-source package to use
#                         (default: apt's candidate, else the newest cached)
#   PCPTOP_KERNEL_JOBS    make -j (default 3)
#   PCPTOP_KEEP_TREE=1    keep the built source tree (about 2 GB)
#
# Cache:
#   $PCPTOP_CACHE/linux-source/linux-source-S_<ver>_all.deb
#   $PCPTOP_CACHE/linux-source/<ver>/linux-source-S.tar.xz
#   $PCPTOP_CACHE/patched-kernel/<key>/{bzImage,config,System.map,build.log,info}
# <key> hashes the recipe version, the source package and version, the
# patches and the fragment as merged, so editing any of them rebuilds and
# an unchanged set never does (the 6.12 key is what it was before 7.3).
# Cold: 7-30 minutes of make -j3 on 2 cores each (see README.md); warm: ~2 s.

set -euo pipefail

prog=build.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fetch=$here/../fetch-kernel.sh
fragment=$here/config.fragment
# the suites fetch-kernel.sh's private apt configuration reads for 7.x
# (one configuration, shared with tests/vm/matrix's rows after 6.12)
K7_SUITES=${PCPTOP_APT_SUITES:-sid trixie trixie-backports}
# Bump when the steps below change what gets built from the same inputs.
RECIPE=2

log() { echo "$prog: $*" >&2; }
die() { echo "$prog: $*" >&2; exit 1; }

mode=build
series=6.12
while [ $# -gt 0 ]; do
	case "$1" in
	--key) mode=key; shift ;;
	--series)
		[ $# -ge 2 ] || { echo "$prog: --series needs 6.12 or 7.3" >&2; exit 2; }
		series=$2
		shift 2
		;;
	-h|--help) sed -n '4,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "$prog: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
done
case "$series" in
6.12) patch_files=("$here/pcp-batch-scale-max.patch" "$here/pcp-oracle.patch") ;;
7.3) patch_files=("$here/pcp-batch-scale-max-7.3.patch" "$here/pcp-oracle-7.3.patch") ;;
*) echo "$prog: unknown series '$series' (6.12 or 7.3)" >&2; exit 2 ;;
esac
srcpkg=linux-source-$series

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

# --- which linux-source-SERIES ------------------------------------------
# The patch is checked against one Debian version; a newer one is tried
# too (the key changes), and patch --fuzz=0 says clearly if it moved.
resolve_version() {
	local v
	if [ -n "${PCPTOP_KSRC_VERSION:-}" ]; then
		echo "$PCPTOP_KSRC_VERSION"
		return
	fi
	if [ "$series" = 6.12 ]; then
		v=$(apt-cache policy "$srcpkg" 2>/dev/null |
			awk '$1 == "Candidate:" { print $2 }')
	else
		v=$(PCPTOP_CACHE=$CACHE "$fetch" --suites "$K7_SUITES" \
			--resolve "^${srcpkg//./\\.}\$" all 2>/dev/null | cut -d' ' -f2)
	fi
	if [ -n "$v" ] && [ "$v" != "(none)" ]; then
		echo "$v"
		return
	fi
	# No apt lists (offline CI cache): the newest .deb already fetched.
	v=$(ls "$srcroot" 2>/dev/null |
		sed -n "s/^${srcpkg//./\\.}_\\(.*\\)_all\\.deb\$/\\1/p" |
		sed 's/%3a/:/g' | sort -V | tail -n 1)
	[ -n "$v" ] || die "$srcpkg unknown to apt and not cached (run apt-get update)"
	echo "$v"
}

# the fragment as this series merges it. PSI (the fragment's last
# block, from its "wall-time budget" comment on) is the 6.12 rehearsal's:
# the 7.3 oracle kernel built with it oopsed in both oracle boots as
# pcptop's fentry trampoline on free_pcppages_bulk was released
# (docs/KERNELS.md), and no 7.3 boot reads /proc/pressure
merged_fragment() {
	if [ "$series" = 6.12 ]; then
		cat "$fragment"
	else
		sed -e 's/^CONFIG_PROC_SYSCTL=y$/CONFIG_SYSCTL=y/' \
			-e "/^# pcptop's wall-time budget reads/,\$d" "$fragment"
	fi
}

ver=$(resolve_version)
key=$({
	echo "recipe=$RECIPE"
	echo "$srcpkg=$ver"
	cat "${patch_files[@]}"
	merged_fragment
} | sha256sum | cut -c1-16)
if [ "$mode" = key ]; then
	echo "$key"
	exit 0
fi

out=$outroot/$key
if [ -f "$out/.done" ] && [ -f "$out/bzImage" ]; then
	log "cached: $out/bzImage ($srcpkg $ver)"
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
deb=$srcroot/${srcpkg}_${ver//:/%3a}_all.deb
if [ ! -s "$deb" ] && [ "$series" != 6.12 ]; then
	log "downloading $srcpkg $ver (private apt: $K7_SUITES)"
	d=$(PCPTOP_CACHE=$CACHE "$fetch" --suites "$K7_SUITES" \
		--deb "^${srcpkg//./\\.}\$" all) ||
		die "fetch-kernel.sh could not download $srcpkg (see above)"
	ln "$d" "$deb" 2>/dev/null || cp "$d" "$deb"
elif [ ! -s "$deb" ]; then
	log "downloading $srcpkg $ver"
	tmpd=$(mktemp -d "$srcroot/.dl.XXXXXX")
	# apt-get download writes into the current directory.
	(cd "$tmpd" && apt-get download -q "$srcpkg=$ver" >&2) ||
		{ rm -rf "$tmpd"; die "apt-get download $srcpkg=$ver failed"; }
	mv "$tmpd"/"$srcpkg"_*_all.deb "$deb"
	rm -rf "$tmpd"
fi
tarball=$srcroot/$ver/$srcpkg.tar.xz
if [ ! -s "$tarball" ]; then
	log "extracting the source tarball from $(basename "$deb")"
	mkdir -p "$srcroot/$ver"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$srcpkg.tar.xz" > "$tarball.tmp" ||
		die "no usr/src/$srcpkg.tar.xz in $deb"
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
log "[$(elapsed)] unpacking $srcpkg $ver into $out"
mkdir -p "$tree"
tar -xJf "$tarball" -C "$tree" --strip-components=1 ||
	die "cannot unpack $tarball"

for p in "${patch_files[@]}"; do
	log "[$(elapsed)] applying $(basename "$p")"
	# --fuzz=0: a patch that only applies loosely is a patch nobody reviewed.
	patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s < "$p" >&2 ||
		die "$(basename "$p") does not apply to $srcpkg $ver"
done

# --- config ----------------------------------------------------------------
log "[$(elapsed)] tinyconfig + $(basename "$fragment") (as $series merges it)"
merged_fragment >"$out/fragment"
{
	make -C "$tree" tinyconfig
	(cd "$tree" && scripts/kconfig/merge_config.sh -m .config "$out/fragment")
	make -C "$tree" olddefconfig
} > "$out/config.log" 2>&1 || die "configuring failed, see $out/config.log"

# merge_config only warns when a dependency drops an option: fail instead,
# a kernel without BTF or KALLSYMS_ALL would make every VM check fail later.
bad=
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qxF "$line" "$tree/.config" || bad="$bad ${line}" ;;
	esac
done < "$out/fragment"
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
echo "$srcpkg $ver, recipe $RECIPE, built in $(elapsed)" > "$out/info"
if [ "${PCPTOP_KEEP_TREE:-0}" != 1 ]; then
	rm -rf "$tree"
fi
touch "$out/.done"
log "[$(elapsed)] done: $out/bzImage ($(du -h "$out/bzImage" | cut -f1))"
echo "$out/bzImage"

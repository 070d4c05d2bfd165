#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: pcptop's BPF code is checked against real Debian kernels
# (vmlinux.h generation, and later the VM test matrix that boots them).
# Those kernels come from Debian's archive as linux-image-* packages.  This
# script resolves the newest package matching a name pattern for a given
# Debian architecture, downloads it once into a cache, unpacks it once, and
# prints the unpacked directory, so every caller shares one copy.
#
# Usage:
#   fetch-kernel.sh PKGNAME_PATTERN ARCH         -> prints unpacked dir
#   fetch-kernel.sh --btf PKGNAME_PATTERN ARCH   -> prints extracted .btf path
#   fetch-kernel.sh --resolve PKGNAME_PATTERN ARCH
#                                                -> prints "PKG VERSION" only
#
#   PKGNAME_PATTERN is an apt-cache (POSIX extended) regex on package names,
#   e.g. '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' or
#   'linux-image-6.1.0-.*-amd64$'.  ARCH is a Debian architecture (amd64,
#   arm64); x86/x86_64 and aarch64 are accepted as aliases.
#
# Cache: $PCPTOP_CACHE (default /var/cache/pcptop/kernels)
#   debs/<pkg>_<ver>_<arch>.deb    downloaded package
#   <pkg>_<ver>_<arch>/            unpacked package (boot/vmlinuz-*, boot/config-*)
#   btf/<pkg>_<ver>_<arch>.btf     raw BTF blob cut out of the kernel image
#   resolved/<hash>                newest package for a pattern, per state of the apt lists
#
# Only stdout carries the result; progress goes to stderr.  Needs root for
# dpkg --add-architecture / apt-get update when a foreign arch is requested.

set -euo pipefail

prog=fetch-kernel.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
extract_btf="$here/../../vmlinux/extract-btf.sh"

log() { echo "$prog: $*" >&2; }
die() { echo "$prog: $*" >&2; exit 1; }
usage() {
	echo "usage: $prog [--btf|--resolve] PKGNAME_PATTERN ARCH" >&2
	exit 2
}

mode=dir
case "${1:-}" in
--btf) mode=btf; shift ;;
--resolve) mode=resolve; shift ;;
-h|--help) usage ;;
esac
[ $# -eq 2 ] || usage
pattern=$1
arch=$2
case "$arch" in
amd64|x86|x86_64) arch=amd64 ;;
arm64|aarch64) arch=arm64 ;;
*) echo "$prog: unsupported arch '$arch' (want amd64 or arm64)" >&2; exit 2 ;;
esac

CACHE=${PCPTOP_CACHE:-/var/cache/pcptop/kernels}
mkdir -p "$CACHE/debs" "$CACHE/btf"

# Serialise concurrent callers (the VM matrix may run several at once).
exec 9>"$CACHE/.lock"
flock 9

# --- make apt know about ARCH -------------------------------------------
updated=0
apt_update() {
	[ "$updated" = 1 ] && return 0
	log "apt-get update"
	apt-get update -qq >&2 || die "apt-get update failed"
	updated=1
}

native=$(dpkg --print-architecture)
if [ "$arch" != "$native" ] &&
   ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	log "dpkg --add-architecture $arch"
	dpkg --add-architecture "$arch"
	updated=0
	apt_update
fi

# --- resolve the newest matching package available for ARCH ------------
# Newest = highest Debian version (dpkg --compare-versions, so '~' sorts
# right).  Several names can share that version (e.g. linux-image-6.1.0-57-
# amd64, -cloud-amd64, -rt-amd64 all match 'linux-image-6.1.0-.*-amd64$'):
# then the shortest name (the plain flavour) wins and the others are logged.
# Anchor the pattern to avoid relying on that.
resolve() {
	local names=() p v best="" bestv="" ties=""
	mapfile -t names < <(apt-cache search --names-only "$pattern" \
		2>/dev/null | cut -d' ' -f1 | sort -u)
	[ "${#names[@]}" -gt 0 ] || return 1
	while read -r p v; do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$bestv"; then
			best=$p bestv=$v ties=""
		elif dpkg --compare-versions "$v" eq "$bestv"; then
			if [ "${#p}" -lt "${#best}" ]; then
				ties="$ties $best"
				best=$p
			else
				ties="$ties $p"
			fi
		fi
	done < <(apt-cache show --no-all-versions "${names[@]/%/:$arch}" \
			2>/dev/null |
		awk -v a="$arch" '
			/^Package:/ { p = $2 }
			/^Version:/ { v = $2 }
			/^Architecture:/ { if ($2 == a) print p, v }')
	[ -n "$best" ] || return 1
	[ -z "$ties" ] || log "note: same version also in:$ties (chose $best)"
	echo "$best $bestv"
}

# Resolving reads every matching package's record (3.5 s, under the lock
# above); the answer changes only when the package lists do, so it is kept
# per state of the lists.
memo_file() {
	local lists
	lists=$(stat -c '%n %Y %s' /var/lib/apt/lists/*_Packages* 2>/dev/null)
	echo "$CACHE/resolved/$(printf '%s\n' "$pattern" "$arch" "$lists" |
		md5sum | cut -c1-32)"
}
memo=$(memo_file)
if [ -s "$memo" ]; then
	res=$(cat "$memo")
else
	if ! res=$(resolve); then
		apt_update
		res=$(resolve) || die "no package matching '$pattern' for $arch"
		memo=$(memo_file)
	fi
	mkdir -p "$CACHE/resolved"
	echo "$res" >"$memo"
fi
pkg=${res%% *}
ver=${res#* }
log "resolved $pkg $ver ($arch)"
if [ "$mode" = resolve ]; then
	echo "$pkg $ver"
	exit 0
fi

# --- download once ------------------------------------------------------
key="${pkg}_${ver}_${arch}"
deb="$CACHE/debs/$key.deb"
if [ -s "$deb" ]; then
	log "using cached $deb"
else
	tmp=$(mktemp -d "$CACHE/debs/.dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# let apt's sandbox user write here (else apt warns and runs as root)
	if id _apt >/dev/null 2>&1; then chown _apt "$tmp" || true; fi
	log "apt-get download $pkg:$arch=$ver"
	if ! (cd "$tmp" && apt-get download -q "$pkg:$arch=$ver" >&2); then
		apt_update
		(cd "$tmp" && apt-get download -q "$pkg:$arch=$ver" >&2) ||
			die "apt-get download $pkg:$arch=$ver failed"
	fi
	debs=("$tmp"/*.deb)
	f=${debs[0]}
	[ -s "$f" ] || die "download produced no .deb"
	mv "$f" "$deb"
	rm -rf "$tmp"
	trap - EXIT
	log "downloaded $deb ($(stat -c %s "$deb") bytes)"
fi

# --- unpack once --------------------------------------------------------
dir="$CACHE/$key"
if [ -e "$dir/.unpacked" ]; then
	log "using unpacked $dir"
else
	rm -rf "$dir" "$dir.tmp"
	log "dpkg-deb -x $deb"
	dpkg-deb -x "$deb" "$dir.tmp" || die "dpkg-deb -x failed"
	touch "$dir.tmp/.unpacked"
	mv "$dir.tmp" "$dir"
fi
images=("$dir"/boot/vmlinuz-*)
vmlinuz=${images[0]}
[ -f "$vmlinuz" ] || die "no boot/vmlinuz-* in $dir"

if [ "$mode" = dir ]; then
	echo "$dir"
	exit 0
fi

# --- extract the BTF blob once (mode btf) -------------------------------
btf="$CACHE/btf/$key.btf"
if [ -s "$btf" ]; then
	log "using cached $btf"
else
	[ -x "$extract_btf" ] || die "missing $extract_btf"
	"$extract_btf" "$vmlinuz" "$btf.tmp" >&2 || {
		rm -f "$btf.tmp"
		die "BTF extraction from $vmlinuz failed"
	}
	mv "$btf.tmp" "$btf"
fi
echo "$btf"

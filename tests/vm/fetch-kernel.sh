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
#   fetch-kernel.sh [--suites S] PKGNAME_PATTERN ARCH       -> prints unpacked dir
#                                                (any package: 7.x's linux-base too)
#   fetch-kernel.sh [--suites S] --btf PKGNAME_PATTERN ARCH -> prints extracted .btf path
#   fetch-kernel.sh [--suites S] --image PKGNAME_PATTERN ARCH
#                                                -> prints the kernel image's path
#   fetch-kernel.sh [--suites S] --resolve PKGNAME_PATTERN ARCH
#                                                -> prints "PKG VERSION" only
#   fetch-kernel.sh [--suites S] --deb PKGNAME_PATTERN ARCH
#                                                -> prints the cached .deb only
#   ARCH "all" is for architecture-independent packages (linux-source-7.3:
#   tests/vm/kernel/build.sh --series 7.3); with --resolve or --deb only.
#
#   --suites "sid trixie trixie-backports": resolve and download from those
#   suites through a private apt configuration (kernels after 6.12, see
#   ../shared/docs/vm-testbed.md), never touching the machine's own sources.
#   Its one .sources file copies the URIs: of the main stanza of
#   /etc/apt/sources.list.d/debian.sources, read at run time; its lists
#   and package cache live under $PCPTOP_CACHE/kernels/apt/. Also PCPTOP_APT_SUITES.
#
#   Layouts: up to 6.18 a linux-image-VER package holds boot/vmlinuz-VER,
#   boot/config-VER and lib/modules/VER (usr/lib/modules on trixie); from
#   7.x linux-image-VER is a metapackage and linux-binary-VER holds
#   usr/lib/modules/VER/vmlinuz. --image finds the image in either; the
#   modules are DIR/{,usr/}lib/modules/VER/ (modules.dep beside them).
#
#   PKGNAME_PATTERN is an apt-cache (POSIX extended) regex on package names,
#   e.g. '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' or
#   'linux-image-6.1.0-.*-amd64$'.  ARCH is a Debian architecture (amd64,
#   arm64); x86/x86_64 and aarch64 are accepted as aliases.
#
# Cache: $PCPTOP_CACHE/kernels ($PCPTOP_CACHE: the cache root of every
#   script, default /var/cache/pcptop)
#   debs/<pkg>_<ver>_<arch>.deb    downloaded package
#   <pkg>_<ver>_<arch>/            unpacked package (boot/vmlinuz-*, boot/config-*)
#   btf/<pkg>_<ver>_<arch>.btf     raw BTF blob cut out of the kernel image
#   resolved/<hash>                newest package for a pattern, per state of the apt lists
#   apt/<suites>/                  the private apt configuration, lists and cache (--suites)
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
	echo "usage: $prog [--suites SUITES] [--btf|--image|--resolve|--deb] PKGNAME_PATTERN ARCH" >&2
	exit 2
}

mode=dir
suites=${PCPTOP_APT_SUITES:-}
while [ $# -gt 0 ]; do
	case "$1" in
	--btf) mode=btf; shift ;;
	--image) mode=image; shift ;;
	--resolve) mode=resolve; shift ;;
	--deb) mode=deb; shift ;;
	--suites)
		[ $# -ge 2 ] || usage
		suites=$2
		shift 2
		;;
	-h|--help) usage ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage
pattern=$1
arch=$2
case "$arch" in
amd64|x86|x86_64) arch=amd64 ;;
arm64|aarch64) arch=arm64 ;;
all)
	case "$mode" in resolve | deb) ;; *) echo "$prog: ARCH all only with --resolve or --deb" >&2; exit 2 ;; esac
	;;
*) echo "$prog: unsupported arch '$arch' (want amd64, arm64, or all)" >&2; exit 2 ;;
esac

CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}/kernels
mkdir -p "$CACHE/debs" "$CACHE/btf"

# Serialise concurrent callers (the VM matrix may run several at once).
exec 9>"$CACHE/.lock"
flock 9

# --- the machine's apt, or a private one for other suites ---------------
# APT holds the options every apt-get and apt-cache call below takes.
APT=()
lists_dir=/var/lib/apt/lists
if [ -n "$suites" ]; then
	[[ "$suites" =~ ^[a-z0-9.\ -]+$ ]] ||
		{ echo "$prog: bad suite list '$suites'" >&2; exit 2; }
	src=/etc/apt/sources.list.d/debian.sources
	# the main stanza's mirror, whatever this machine uses: never written
	# into the repository
	uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$src" 2>/dev/null)
	[ -n "$uri" ] || die "no URIs: line of the main stanza in $src"
	adir=$CACHE/apt/$(echo "$suites" | tr ' ' '+')
	mkdir -p "$adir/etc" "$adir/lists/partial" "$adir/cache/archives/partial"
	{
		echo "Types: deb"
		echo "URIs: $uri"
		echo "Suites: $suites"
		echo "Components: main"
		echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
	} >"$adir/etc/private.sources"
	if id _apt >/dev/null 2>&1; then chown -R _apt "$adir/lists" "$adir/cache"; fi
	APT=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$adir/etc"
		-o "Dir::State::Lists=$adir/lists" -o "Dir::Cache=$adir/cache")
	lists_dir=$adir/lists
fi

updated=0
apt_update() {
	[ "$updated" = 1 ] && return 0
	log "apt-get update${suites:+ (private: $suites)}"
	apt-get "${APT[@]}" update -qq >&2 || die "apt-get update${suites:+ of $suites} failed"
	updated=1
}
# a private configuration starts with no lists
if [ -n "$suites" ] && ! ls "$lists_dir"/*_Packages* >/dev/null 2>&1; then
	apt_update
fi

native=$(dpkg --print-architecture)
# apt names an Architecture: all package with the native architecture
qarch=$arch
[ "$arch" = all ] && qarch=$native
if [ "$arch" != "$native" ] && [ "$arch" != all ] &&
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
	mapfile -t names < <(apt-cache "${APT[@]}" search --names-only "$pattern" \
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
	done < <(apt-cache "${APT[@]}" show --no-all-versions "${names[@]/%/:$qarch}" \
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
	lists=$(stat -c '%n %Y %s' "$lists_dir"/*_Packages* 2>/dev/null)
	echo "$CACHE/resolved/$(printf '%s\n' "$pattern" "$arch" "$suites" "$lists" |
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
	log "apt-get download $pkg:$qarch=$ver"
	if ! (cd "$tmp" && apt-get "${APT[@]}" download -q "$pkg:$qarch=$ver" >&2); then
		apt_update
		(cd "$tmp" && apt-get "${APT[@]}" download -q "$pkg:$qarch=$ver" >&2) ||
			die "apt-get download $pkg:$qarch=$ver failed"
	fi
	debs=("$tmp"/*.deb)
	f=${debs[0]}
	[ -s "$f" ] || die "download produced no .deb"
	mv "$f" "$deb"
	rm -rf "$tmp"
	trap - EXIT
	log "downloaded $deb ($(stat -c %s "$deb") bytes)"
fi
if [ "$mode" = deb ]; then
	echo "$deb"
	exit 0
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
# the directory of any package (7.x's linux-base-VER holds the config,
# no image)
if [ "$mode" = dir ]; then
	echo "$dir"
	exit 0
fi
# boot/vmlinuz-VER up to 6.18; usr/lib/modules/VER/vmlinuz in 7.x's
# linux-binary-VER
images=("$dir"/boot/vmlinuz-* "$dir"/usr/lib/modules/*/vmlinuz "$dir"/lib/modules/*/vmlinuz)
vmlinuz=
for f in "${images[@]}"; do
	[ -f "$f" ] && { vmlinuz=$f; break; }
done
[ -n "$vmlinuz" ] || die "no boot/vmlinuz-* nor usr/lib/modules/*/vmlinuz in $dir (a metapackage? 7.x kernels are in linux-binary-VER)"

if [ "$mode" = image ]; then
	echo "$vmlinuz"
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

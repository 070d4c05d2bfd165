#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: pcptop's BPF programs are CO-RE and include a vmlinux.h
# per target architecture (vmlinux/x86/vmlinux.h, vmlinux/arm64/vmlinux.h).
# The headers are committed so builds need no kernel BTF; this script
# regenerates them reproducibly from the BTF of Debian bookworm's 6.12
# kernel packages (linux-image-6.12.*+deb12-<arch>-unsigned from
# bookworm-security), newest version available, and records which package
# each header came from in vmlinux/<arch>/SOURCE.  bpftool's output cannot
# carry a comment, hence the separate SOURCE file.
#
# Usage: vmlinux/gen-vmlinux.sh [x86|arm64|all]     (default: all)
#
# Needs root (apt-get, dpkg --add-architecture), python3, bpftool, zstd, xz.
# Downloads are cached in $PCPTOP_CACHE/kernels (default /var/cache/pcptop)
# by tests/vm/fetch-kernel.sh.

set -euo pipefail

prog=gen-vmlinux.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fetch="$here/../tests/vm/fetch-kernel.sh"

case "${1:-all}" in
x86) arches="x86" ;;
arm64) arches="arm64" ;;
all) arches="x86 arm64" ;;
*) echo "$prog: bad argument '${1}' (want x86, arm64 or all)" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "$prog: too many arguments (want [x86|arm64|all])" >&2; exit 2; }

for tool in bpftool python3 apt-get dpkg-deb; do
	command -v "$tool" >/dev/null || {
		echo "$prog: $tool not found (apt-get install -y bpftool python3 zstd xz-utils)" >&2
		exit 1
	}
done

for arch in $arches; do
	case "$arch" in
	x86) debarch=amd64 ;;
	arm64) debarch=arm64 ;;
	esac
	pattern="^linux-image-6\\.12\\.[0-9]+\\+deb12-${debarch}-unsigned\$"

	echo "$prog: [$arch] resolving newest package matching $pattern"
	btf=$("$fetch" --btf "$pattern" "$debarch")
	key=$(basename "$btf" .btf)          # <pkg>_<version>_<debarch>
	pkg=${key%%_*}
	rest=${key#*_}
	ver=${rest%_*}
	echo "$prog: [$arch] BTF $btf"

	outdir="$here/$arch"
	mkdir -p "$outdir"
	echo "$prog: [$arch] bpftool btf dump file ... format c > $outdir/vmlinux.h"
	bpftool btf dump file "$btf" format c >"$outdir/vmlinux.h.tmp"
	mv "$outdir/vmlinux.h.tmp" "$outdir/vmlinux.h"

	{
		echo "package: $pkg"
		echo "version: $ver"
		echo "architecture: $debarch"
		echo "archive: Debian bookworm-security"
		echo "btf-sha256: $(sha256sum <"$btf" | cut -d' ' -f1)"
		echo "generator: vmlinux/gen-vmlinux.sh ($(bpftool version | head -n1))"
	} >"$outdir/SOURCE"

	echo "$prog: [$arch] wrote $outdir/vmlinux.h ($(wc -l <"$outdir/vmlinux.h") lines, $(stat -c %s "$outdir/vmlinux.h") bytes) from $pkg $ver"
done

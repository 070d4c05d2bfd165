#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the Debian packages pcptop builds and tests with. Quiet and quick
# when everything is there, so `make run` and `make test` can always call it.
# Usage: scripts/deps.sh [arm64|bench]   (arm64 adds the cross toolchain
# and libs; bench adds bpftrace, the reference make bench sets pcptop
# against)
set -eu

# libraries are qualified with the host arch: once arm64 is added, a bare
# name would match either architecture's package
native=$(dpkg --print-architecture)
host_pkgs=(make gcc clang llvm bpftool libbpf-dev:$native libelf-dev:$native
	zlib1g-dev:$native libncurses-dev:$native pkg-config linux-perf jq tmux strace
	qemu-system-x86 qemu-system-arm busybox-static cpio zstd xz-utils
	bonnie++ chromium flex bison bc libssl-dev dwarves patch man-db file curl
	clang-format
	python3-jsonschema
	ncurses-base)
cross_pkgs=(gcc-aarch64-linux-gnu libbpf-dev:arm64 libelf-dev:arm64
	zlib1g-dev:arm64 libncurses-dev:arm64)

want=("${host_pkgs[@]}")
if [ "${1:-}" = bench ]; then
	want+=(bpftrace)
elif [ "${1:-}" = arm64 ] || [ "${PCPTOP_CROSS:-}" = 1 ]; then
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "deps: adding the arm64 architecture for cross libraries" >&2
		dpkg --add-architecture arm64
		rm -f /var/lib/apt/lists/.pcptop-updated
	fi
	want+=("${cross_pkgs[@]}")
elif [ -n "${1:-}" ]; then
	echo "deps: unknown argument '$1' (expected: arm64 or bench)" >&2
	exit 2
fi

missing=()
for p in "${want[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing ${missing[*]}; run as root (or: apt-get install ${missing[*]})" >&2
	exit 2
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# prom_fetch PACKAGE PATH-IN-PACKAGE: one binary out of a Debian package
# (apt-get download, dpkg-deb -x), cached in $PCPTOP_CACHE/prom, its path
# printed. Nothing is installed: installing prometheus or its exporter
# would start their services for every user of make deps.
PROM_CACHE=${PCPTOP_CACHE:-/var/cache/pcptop}/prom
prom_fetch() {
	local out=$PROM_CACHE/$(basename "$2") dir=$PROM_CACHE/$1.d
	[ -x "$out" ] && { echo "$out"; return 0; }
	mkdir -p "$dir" && chown _apt "$dir" 2>/dev/null
	(cd "$dir" && apt-get download -q "$1" >/dev/null 2>&1) || return 1
	dpkg-deb -x "$dir"/*.deb "$dir/root" && cp "$dir/root$2" "$out" &&
		rm -rf "$dir" && echo "$out"
}

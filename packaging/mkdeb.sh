#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A Debian package of one pcptop build, with dpkg-deb alone: the binary is
# static, so the package depends on nothing. It carries the exporter's
# unit, its user (sysusers.d), rules and dashboard (docs/FLEET.md).
# Usage: packaging/mkdeb.sh BINARY DEB_ARCH OUT_DIR
# Prints the .deb's path.
set -eu
bin=$1
arch=$2
out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^#define PCPTOP_VERSION "\(.*\)"$/\1/p' "$root/src/cli.h")
stage=$out/deb-$arch
rm -rf "$stage"
make -s -C "$root" install PREFIX=/usr DESTDIR="$stage" INSTALL_BIN="$bin" >/dev/null
# the symbols are for the developers' builds
case $arch in
arm64) strip=aarch64-linux-gnu-strip ;;
*) strip=strip ;;
esac
$strip --strip-all "$stage/usr/sbin/pcptop"
mkdir -p "$stage/DEBIAN" "$stage/usr/share/doc/pcptop"
install -m 0755 "$root/packaging/debian/postinst" "$root/packaging/debian/prerm" \
	"$root/packaging/debian/postrm" "$stage/DEBIAN/"
{
	echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
	echo "Upstream-Name: pcptop"
	echo
	echo "Files: *"
	echo "Copyright: pcptop developers"
	echo "License: GPL-2.0-only"
	echo " On Debian systems the full text is in /usr/share/common-licenses/GPL-2."
} >"$stage/usr/share/doc/pcptop/copyright"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
	"$root/packaging/control.in" >"$stage/DEBIAN/control"
deb=$out/pcptop_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One file as a C array: static const unsigned char NAME[] = { ... };
# (od, not xxd: od is in coreutils on every build machine).
# Usage: scripts/c-array.sh NAME FILE
set -eu
echo "static const unsigned char $1[] = {"
od -An -v -tx1 "$2" | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1, /g; s/^/\t/; s/, $/,/'
echo "};"

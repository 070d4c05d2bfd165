#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# zone->lock and zone->_lock: pcptop's BPF object relocated against a
# kernel BTF with each name (bpf/compat.bpf.h's flavours). No released
# kernel has _lock (the rename is in linux-next, not in 7.3.4), so the
# second BTF is 7.3's with that one member renamed (rename-member.py):
# same types, same offset. Both libbpf (bpftool gen min_core_btf) and
# pcptop's own cut (pcptop btf-min) must keep zone's lock word at the
# same offset under the kernel's name, and the relocation that reads it
# must not be left unresolved. Needs no root and no VM.
# Usage: tests/btf/zone-lock.sh [BUILD_DIR]

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

BUILD=${1:-build}
OBJ=$BUILD/pcptop.bpf.o
[ -f "$OBJ" ] && command -v bpftool >/dev/null ||
	{ echo "zone-lock: needs $OBJ and bpftool (make; make deps)" >&2; exit 2; }
# 7.3's BTF, cut out of the package the matrix boots (fetched and cached
# once); where the mirror cannot give it, a counted SKIP, never a pass
SRC=$(tests/vm/fetch-kernel.sh --suites "sid trixie trixie-backports" --btf \
	'^linux-binary-7\.3\.[0-9]+\+deb13-amd64$' amd64 2>"${TMPDIR:-/tmp}/zone-lock-fetch.$$")
if [ -z "$SRC" ] || [ ! -s "$SRC" ]; then
	t_skip "zone->lock and zone->_lock relocations" \
		"no 7.3 BTF: $(tail -n 1 "${TMPDIR:-/tmp}/zone-lock-fetch.$$")"
	rm -f "${TMPDIR:-/tmp}/zone-lock-fetch.$$"
	t_summary
	exit
fi
rm -f "${TMPDIR:-/tmp}/zone-lock-fetch.$$"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the zone members a BTF keeps named lock or _lock: "NAME BITOFFSET"
zone_lock() {
	bpftool btf dump file "$1" | awk '
		/^\[[0-9]+\] STRUCT / { inz = ($3 == "'"'"'zone'"'"'") ; next }
		/^\[/ { inz = 0 }
		inz && /'"'"'_?lock'"'"'/ { gsub(/'"'"'/, "", $1); sub(/bits_offset=/, "", $3); print $1, $3 }'
}

tests/btf/rename-member.py "$SRC" zone lock _lock "$TMP/ulock.btf" >/dev/null
want=$(zone_lock "$SRC")
t_check "the 7.3 BTF names zone->lock ($want)" -- test "${want%% *}" = lock
t_eq "the renamed BTF names zone->_lock at the same offset" \
	"$(zone_lock "$TMP/ulock.btf")" "_lock ${want#* }"
for b in "$SRC" "$TMP/ulock.btf"; do
	n=$(zone_lock "$b" | cut -d' ' -f1)
	bpftool gen min_core_btf "$b" "$TMP/min.btf" "$OBJ" 2>"$TMP/err"
	t_check "libbpf relocates against the BTF with $n" -- test $? -eq 0
	t_eq "libbpf's minimal BTF keeps zone's $n" "$(zone_lock "$TMP/min.btf")" "$n ${want#* }"
	"$BUILD/pcptop" btf-min --object "$OBJ" "$b" "$TMP/cut.btf" >"$TMP/cut.log" 2>&1
	t_check "pcptop btf-min cuts the BTF with $n" -- test $? -eq 0
	t_eq "pcptop's cut keeps zone's $n" "$(zone_lock "$TMP/cut.btf")" "$n ${want#* }"
done
t_summary

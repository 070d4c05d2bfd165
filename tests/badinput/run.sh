#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad input, one table: every command against unknown flags, zero,
# negative and non-numeric numbers, missing and directory paths, a file
# that is no recording, and a recording from a newer format version. Each
# must exit 2 with one line on stderr that names what was wrong, load no
# BPF program, and leave nothing behind. And one thing that must work: a
# diff of recordings from different kernels and architectures.
# Usage: tests/badinput/run.sh [BUILD_DIR]   (root: some rows would attach)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

B=${1:-build}
P=$(realpath "$B/pcptop")
t_need badinput "$P"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 2

# a recording to point at, a newer one, and files that are none
"$P" record -q -i 0.2 -o ok.data -- sleep 0.5 2>/dev/null
python3 - <<'PY'
d = open("ok.data", "rb").read()
open("v2.data", "wb").write(d[:12] + bytes([2, 0]) + d[14:])
PY
printf 'not a recording\n' >text.data
: >empty.data
mkdir adir

# expected exit | stderr must match (ERE) | command line (eval'd)
TABLE='
2|unknown option|info --bogus
2|unknown option|stat --bogus
2|unknown option|top --bogus
2|unknown option|record --bogus -- true
2|unknown option|report --bogus ok.data
2|unknown option|diff --bogus ok.data ok.data
2|unknown command|frobnicate
2|bad interval .0.|stat -i 0
2|bad interval .-1.|stat -i -1
2|bad interval .abc.|stat -i abc
2|bad count .0.|stat -c 0
2|bad count .-3.|stat -c -3
2|bad count .x.|stat -c x
2|bad count .0.|top -n 0
2|bad delay|top -d 0
2|bad delay|top -d abc
2|bad interval|record -i 0 -- true
2|bad duration .-5.|record -d -5 -- true
2|bad duration .x.|record -d x -- true
2|bad --sync .-1.|record --sync -1 -- true
2|bad --run-gap .0.|stat --run-gap 0
2|bad --run-gap .-1.|stat --run-gap -1
2|bad mode .fast.|stat --mode fast
2|bad --btf|stat --btf ""
2|cannot read BTF from /nonexistent|info --btf /nonexistent
2|No such file|report /nonexistent.data
2|No such file|diff ok.data /nonexistent.data
2|adir|report adir
2|text.data|report text.data
2|empty.data|report empty.data
2|format version 2\.[0-9]+; this pcptop reads 1\.x|report v2.data
2|format version 2\.[0-9]+|diff ok.data v2.data
2|diff needs two recordings|diff ok.data
2|diff needs two recordings|diff ok.data ok.data ok.data
2|on both sides of|diff ok.data --
2|on both sides of|diff -- ok.data
2|takes one .--.|diff ok.data -- ok.data -- ok.data
2|no --csv|diff ok.data -- ok.data --csv
2|format version 2\.[0-9]+|diff ok.data -- ok.data v2.data
2|cannot write in /nonexistent|record -o /nonexistent/dir/x.data -- true
2|adir is a directory|record -o adir -- true
2|adir is a directory|report ok.data --html adir
2|unexpected argument|info extra
2|unknown option|btf-min --bogus a b
2|two files|btf-min onlyone
2|empty file name|btf-min "" out.btf
2|cannot read BTF from /nonexistent|btf-min /nonexistent.btf out.btf
2|cannot read BTF from text.data|btf-min text.data out.btf
2|cannot read BTF from adir|btf-min adir out.btf
2|adir is a directory|btf-min /sys/kernel/btf/vmlinux adir
2|cannot write in /nonexistent|btf-min /sys/kernel/btf/vmlinux /nonexistent/dir/x.btf
2|unexpected argument|stat extra
2|unknown option|whatif --bogus ok.data
2|bad --scale .7.|whatif --scale 7 ok.data
2|bad --scale .3-1.|whatif --scale 3-1 ok.data
2|bad --scale .a.|whatif -s a ok.data
2|bad --rules .5\.4.|whatif --rules 5.4 ok.data
2|takes one recording|whatif ok.data ok.data
2|--check .* takes no --scale|whatif --check --scale 3 ok.data
2|--save writes one scale|whatif --save p.data ok.data
2|bad --save|whatif --save - --scale 0 ok.data
2|cannot both go to stdout|whatif --json --html - ok.data
2|No such file|whatif /nonexistent.data
2|text.data|whatif text.data
2|format version 2\.[0-9]+|whatif v2.data
2|no pcp trace to replay|whatif ok.data
2|adir is a directory|whatif ok.data --html adir
'
progs() { bpftool prog show 2>/dev/null | grep -cE ' name (tp_drain|tp_zone_locked|fe_bulk|kp_bulk|rtp_drain) '; }
before=$(progs)
while IFS='|' read -r want re cmd; do
	[ -n "$cmd" ] || continue
	eval "\"\$P\" $cmd" >out 2>err </dev/null
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <err)" = 1 ] && grep -Eq -- "$re" err; then
		t_pass "pcptop $cmd: exit $rc, '$(head -c 90 err)'"
	else
		t_fail "pcptop $cmd: exit $rc (want $want), $(wc -l <err) lines: '$(head -c 120 err)' (want /$re/)"
	fi
done <<<"$TABLE"
t_eq "no program loaded by any of them" "$(progs)" "$before"
t_eq "no file left behind by them" "$(ls | sort | paste -sd' ')" \
	"adir empty.data err ok.data out text.data v2.data"

# must work: two recordings of different kernels and architectures, this
# machine's made just now and a 6.1 aarch64 one from the real writer
"$(dirname "$P")/mkrec" arm.data 5 config 1 bonnie++ -d /mnt/t >/dev/null 2>&1
"$P" diff ok.data arm.data >diff.txt 2>diff.err
t_eq "diff of two kernels' and architectures' recordings works" "$?" 0
"$P" diff --json ok.data arm.data >diff.json 2>>diff.err
t_eq "  its JSON names both kernels and both architectures" \
	"$(jq '.a.kernel.release != .b.kernel.release and .a.kernel.arch != .b.kernel.arch' diff.json)" true
t_eq "  and it still opens with a summary" "$(jq '.summary | type' diff.json)" '"array"'

t_summary

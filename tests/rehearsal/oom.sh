#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Memory running out while pcptop records (issue 30): the rehearsal's
# one-CPU guest, smaller, records bonnie++ on ext4 as the board would, and
# once bonnie++ runs a neighbour (tests/workload/hog.c) asks for twice the
# guest's memory. Held here:
#   - the OOM killer took the hog (its status 137, its name in dmesg's
#     "Killed process" line) and nothing else: not pcptop, not bonnie++;
#   - pcptop's record exited with bonnie++'s status, and its recording
#     reads back whole (report --json, every interval);
#   - the recording says its command's neighbour was killed: the
#     oom_kill figure (/proc/vmstat) counts as many kills as dmesg has,
#     in an interval with more recorded after it (pcptop kept writing).
# Usage: tests/rehearsal/oom.sh [-r]   (one boot, about a minute; make
# test; -r: the checks on the last boot's output, no boot)
# Environment: REHEARSAL_OUT (build/rehearsal-oom), OOM_MEM_MB (256)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/lib.sh"
OUT=${REHEARSAL_OUT:-$root/build/rehearsal-oom}
BIN=$root/build/vm-x86
log() { echo "oom: $*" >&2; }
die() { echo "oom: $1" >&2; echo "0 passed, 1 failed"; exit "${2:-1}"; }
. "$here/lib.sh"
MEM_MB=${OOM_MEM_MB:-256}
# bonnie++ sizes its file at twice the guest's RAM; no small-file phase: the
# hog comes while it writes, and the run stays short
BONNIE="-n,0"

for t in qemu-system-x86_64 cpio gzip jq debugfs mkfs.ext4 timeout; do
	command -v "$t" >/dev/null || die "missing $t (scripts/deps.sh)" 2
done
[ -x "$BIN/hog" ] || die "missing $BIN/hog: make vm-builds" 2
mkdir -p "$OUT" || die "cannot create $OUT" 2
[ "${1:-}" = -r ] || [ $# -eq 0 ] || die "usage: tests/rehearsal/oom.sh [-r]" 2
bzimage=$("$root/tests/vm/kernel/build.sh") || die "kernel build failed"
RH_BONNIE=$("$root/tests/vm/bonnie-cpio.sh" amd64) || die "no bonnie++ for amd64"
rh_initrd "$OUT/initrd.cpio.gz" || die "building the initramfs failed"
if [ "${1:-}" != -r ]; then
	t0=$SECONDS
	rh_run oom "$bzimage" "$OUT/initrd.cpio.gz" \
		"$RH_APPEND pcptest.rmode=run pcptest.hog=1 pcptest.bonnie=$BONNIE pcp_batch_scale_max=5" \
		0 on "$MEM_MB"
	log "the boot took $((SECONDS - t0)) s"
fi
logf=$OUT/runs/oom/console.log
rj() { jq -r "$1" "$OUT/runs/oom/report.json" 2>/dev/null; }

t_eq "the disk mounted" "$(rh_tagged "$logf" mounted)" 1
read -r hog_rc _ < <(rh_tagged "$logf" hog_end)
t_eq "the hog ended by SIGKILL (status 137)" "${hog_rc:-none}" 137
kills=$(rh_tagged "$logf" oom_kill | grep -c 'Killed process')
t_cmp "the OOM killer killed" "$kills" -ge 1
t_eq "every process it killed was the hog" \
	"$(rh_tagged "$logf" oom_kill | grep 'Killed process' | grep -vc '(hog)')" 0
t_eq "pcptop record exited with bonnie++'s status" "$(rh_tagged "$logf" record_rc)" 0
t_check "bonnie++ wrote its CSV line: it ran to its end" -- \
	test -n "$(rh_tagged "$logf" csv)"
t_eq "the recording reads back (report --json)" \
	"$(jq -e .totals "$OUT/runs/oom/report.json" >/dev/null 2>&1 && echo yes)" yes
t_eq "its command ran to the end: the recording is complete" "$(rj .complete)" true
n=$(rj '.timeline | length')
t_cmp "its intervals" "${n:-0}" -gt 5
t_eq "the oom_kill figure counts dmesg's kills" "$(rj .totals.oom_kill.value)" "$kills"
first=$(rj '[.timeline[] | .oom_kill] | to_entries | map(select(.value > 0)) | .[0].key // -1')
t_check "the kill falls inside the recording, intervals recorded after it (interval $first of $n)" -- \
	test "${first:--1}" -ge 0 -a "${first:--1}" -lt $((${n:-0} - 1))
t_summary

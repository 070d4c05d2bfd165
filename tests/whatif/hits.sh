#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: a trace is only as good as its oracle. Each boot's
# trace against the kernel's own count of the same pages: kmem:
# mm_page_alloc and mm_page_free counted by hist triggers around the
# workload alone (inner.hits: the trace must hold at least those) and
# around the whole recording (outer.hits: at most those). The guests
# write them: tests/whatif/guest.sh, and tests/rehearsal/guest.sh under
# --trace (tests/whatif/bonnie.sh and reclaim.sh).
#
# Usage: tests/whatif/hits.sh NAME=DIR...   (DIR holds report.json, the
# recording's `pcptop report --json`, inner.hits and outer.hits, each
# "ALLOCS FREES")
# Prints "ok|FAIL NAME trace.events...." lines; exit 1 on a failure, 2
# on bad input.

set -uo pipefail
command -v jq >/dev/null || { echo "hits: missing jq" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: hits.sh NAME=DIR..." >&2; exit 2; }
rc=0
for arg in "$@"; do
	name=${arg%%=*} d=${arg#*=}
	[ "$name" != "$arg" ] || { echo "hits: bad argument '$arg' (NAME=DIR)" >&2; exit 2; }
	# a boot that left no report cannot hold its trace to the kernel's
	# count: that is a failure, not a check that quietly did not run
	if [ ! -s "$d/report.json" ]; then
		echo "FAIL $name trace.events: no report.json ($d)"
		rc=1
		continue
	fi
	in_a='' in_f='' out_a='' out_f=''
	read -r in_a in_f <"$d/inner.hits" 2>/dev/null
	read -r out_a out_f <"$d/outer.hits" 2>/dev/null
	for k in alloc free; do
		if [ $k = alloc ]; then lo=${in_a:-} hi=${out_a:-}; else lo=${in_f:-} hi=${out_f:-}; fi
		got=$(jq ".trace.events.$k // 0" "$d/report.json")
		line="$name trace.events.$k: workload's mm_page_$k ${lo:-none} <= $got <= the recording's ${hi:-none}"
		if [[ "$lo" =~ ^[0-9]+$ && "$hi" =~ ^[0-9]+$ ]] && [ "$lo" -gt 0 ] &&
		   [ "$lo" -le "$got" ] && [ "$got" -le "$hi" ]; then
			echo "ok $line"
		else
			echo "FAIL $line"
			rc=1
		fi
	done
done
exit $rc

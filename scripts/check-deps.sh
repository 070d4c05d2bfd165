#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The dependency rule of CONTRIBUTING.md, checked for every folder of src/:
#   core      nothing (and bpf/pcptop.h, the maps' layout)
#   kernel    core (the only folder with libbpf and the skeleton)
#   rec       core
#   analysis  core, rec
#   whatif    core, rec
#   view      core, rec, analysis, whatif
#   report    core, rec, analysis, whatif, view, and cli.h (the commands'
#             options)
#   live      core, kernel, rec, view, cli.h (no libbpf header: kernel/
#             wraps it)
#   src/      main.c and cli*.c: any
# and no circles between files: a header's file may not, through the
# headers it includes or the functions it calls, come back to itself.
#
# Usage: scripts/check-deps.sh                 the include rules and circles
#        scripts/check-deps.sh --objects DIR   also circles of calls between
#                                              the objects under DIR (nm)
# Exit 1 with one line per breach.
set -u
cd "$(dirname "$0")/.."

declare -A may=(
	[core]="core"
	[kernel]="core kernel"
	[rec]="core rec"
	[analysis]="core rec analysis"
	[whatif]="core rec whatif"
	[view]="core rec analysis whatif view"
	[report]="core rec analysis whatif view report top"
	[live]="core kernel rec view live top"
)
bad=0
breach() {
	echo "check-deps: $*" >&2
	bad=1
}

# the folder of src/ that holds header $1, or "" (bpf/, the build, system)
home_of() {
	local d
	for d in "${!may[@]}"; do
		[ -e "src/$d/$1" ] && { echo "$d"; return; }
	done
	[ -e "src/$1" ] && echo top
}

for dir in "${!may[@]}"; do
	for f in src/$dir/*.[ch]; do
		while read -r inc; do
			h=${inc#*\"}
			h=${h%\"*}
			home=$(home_of "$h")
			[ -z "$home" ] && continue
			[[ " ${may[$dir]} " == *" $home "* ]] ||
				breach "$f includes $h of src/$home: $dir/ may use ${may[$dir]// /, }"
		done < <(grep -E '^#include "' "$f")
		if [ "$dir" != kernel ] && grep -qE '^#include <bpf/' "$f"; then
			breach "$f includes a libbpf header: only src/kernel/ may"
		fi
		if [ "$dir" != kernel ] && grep -qE '^#include "pcptop\.skel\.h"' "$f"; then
			breach "$f includes the skeleton: only src/kernel/ may"
		fi
		if [ "$f" != src/live/top_screen.c ] &&
			grep -qE '^#include <(n?curses|term)\.h>' "$f"; then
			breach "$f includes curses: only src/live/top_screen.c may"
		fi
	done
done

# circles: "a b" means file a (its .c and .h) uses file b; tsort names a loop
loop_of() {
	tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v 'input contains a loop'
}
edges=$(for f in src/*.[ch] src/*/*.[ch]; do
	m=$(basename "${f%.*}")
	grep -E '^#include "' "$f" | sed -E 's/.*"(.*)\.h".*/\1/' |
		while read -r h; do
			[ -n "$(home_of "$h.h")" ] && [ "$h" != "$m" ] && echo "$m $h"
		done
done | sort -u)
loop=$(loop_of <<<"$edges")
[ -z "$loop" ] || breach "files include each other in a circle: $(echo $loop)"

if [ "${1:-}" = --objects ]; then
	# the objects of today's sources: a stale one from a removed file
	# would make up calls
	objs=$(for f in src/*.c src/*/*.c; do
		o=$2/${f#src/}
		[ -e "${o%.c}.o" ] && echo "${o%.c}.o"
	done)
	# defined symbols by object, then each object's undefined ones
	defs=$(for o in $objs; do
		nm --defined-only "$o" 2>/dev/null | awk -v o="$(basename "${o%.o}")" \
			'$2 ~ /^[TDBR]$/ { print $3, o }'
	done | sort -k1,1)
	uses=$(for o in $objs; do
		nm --undefined-only "$o" 2>/dev/null | awk -v o="$(basename "${o%.o}")" \
			'{ print $NF, o }'
	done | sort -k1,1)
	calls=$(join <(echo "$defs") <(echo "$uses") | awk '$2 != $3 { print $3, $2 }' | sort -u)
	loop=$(loop_of <<<"$calls")
	[ -z "$loop" ] || breach "files call each other in a circle: $(echo $loop)"
fi
exit $bad

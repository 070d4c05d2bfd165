# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Sourced by tests/whatif/cross.sh and run.sh: the misses their caller
# declares known, one convention for both. CROSS_KNOWN is
# "A:B:figure[:PCT] ...", A's trace replayed at B, held to PCT.

# known_pct A:B:FIGURE DEFAULT_PCT: the envelope CROSS_KNOWN gives it
# (DEFAULT_PCT where it names no PCT); status 1 where it is not named
known_pct() {
	local t
	for t in ${CROSS_KNOWN:-}; do
		case "$t" in
		"$1") echo "$2"; return 0 ;;
		"$1":*) echo "${t##*:}"; return 0 ;;
		esac
	done
	return 1
}

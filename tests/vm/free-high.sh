# SPDX-License-Identifier: GPL-2.0-only
#
# The matrix's free_high check, over a run's rows (sourced by run.sh,
# and by skip-rule.sh, which feeds it made-up rows). free_high depends
# on timing: one kernel of the run showing it is enough. Since 6.16
# (c544a952ba61) it needs free_count >= batch + high_min / 2, which no
# 6.16 to 7.3 row's workload has reached (tests/oracle's k73 boots do,
# and hold it); every 6.1 and 6.12 row of the clean clones of 2026-12-04
# and -05 flushed with it (6.12: 887 to 7575 a boot).

# fh_below K: whether row K's kernel (its name's first X.Y) is before 6.16
fh_below() {
	[[ "$1" =~ -([0-9]+)\.([0-9]+) ]] || return 1
	[ "${BASH_REMATCH[1]}" -lt 6 ] ||
		{ [ "${BASH_REMATCH[1]}" -eq 6 ] && [ "${BASH_REMATCH[2]}" -lt 16 ]; }
}

# free_high_verdict OUT K...: reads OUT/K/status and OUT/K/free_high,
# prints "vmtest free_high: PASS|SKIP|FAIL (...)"; 0 pass, 3 skip, 1 fail
free_high_verdict() {
	local out=$1 k n st seen='' can='' booted=0
	shift
	for k in "$@"; do
		st=$(cat "$out/$k/status" 2>/dev/null)
		[ "$st" = SKIP ] && continue
		booted=$((booted + 1))
		fh_below "$k" && can+="${can:+, }$k"
		n=$(cat "$out/$k/free_high" 2>/dev/null || echo 0)
		[ "$n" -gt 0 ] 2>/dev/null && seen+="${seen:+, }$k ($n)"
	done
	if [ -n "$seen" ]; then
		echo "vmtest free_high: PASS (seen on $seen)"
		return 0
	elif [ "$booted" -eq 0 ]; then
		echo "vmtest free_high: SKIP (no kernel booted)"
		return 3
	elif [ -z "$can" ]; then
		echo "vmtest free_high: SKIP (every kernel of the run is 6.16 or later, whose free_high needs batch + high_min / 2, which no row's workload reaches)"
		return 3
	fi
	echo "vmtest free_high: FAIL (free_high.count is 0 on every kernel of the run, $can among them)"
	return 1
}

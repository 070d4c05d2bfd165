# SPDX-License-Identifier: GPL-2.0-only
#
# The matrix's free_high check, over a run's rows (sourced by run.sh,
# and by skip-rule.sh, which feeds it made-up rows). free_high depends
# on timing: one kernel of the run showing it is enough. Since 6.16
# (c544a952ba61) it needs free_count >= batch + high_min / 2, beyond
# where free_count stops on Debian's 6.16 to 7.3 at the rows' 1 GiB
# (docs/KERNELS.md): a run of those rows alone cannot show it.

# fh_reachable DIR: whether a row's pagesets can flush with free_high at
# all, by its pcptop info (DIR/info.json): before 6.16 any can; from
# 6.16 one whose batch + high_min / 2 is within batch << scale plus an
# order-3 entry's overshoot, as kshape_free_high_reachable() and pcptop
# info's "unreachable" line judge. No info.json, or no scale in it:
# taken as reachable.
fh_reachable() {
	[ -s "$1/info.json" ] || return 0
	jq -e '(.kernel.release | capture("^(?<a>[0-9]+)\\.(?<b>[0-9]+)")
		| (.a | tonumber) * 1000 + (.b | tonumber)) as $v
	  | .scale.value as $s
	  | $v < 6016 or $s == null or
	    any(.zones[].cpus[]; .batch > 0 and
		.batch + (.high_min / 2 | floor) <= .batch * pow(2; $s) + 7)' \
		"$1/info.json" >/dev/null 2>&1
}

# free_high_verdict OUT K...: reads OUT/K/status, OUT/K/free_high and
# OUT/K/info.json; prints "vmtest free_high: PASS|SKIP|FAIL (...)";
# returns 0 pass, 3 skip, 1 fail
free_high_verdict() {
	local out=$1 k n st seen='' can='' booted=0
	shift
	for k in "$@"; do
		st=$(cat "$out/$k/status" 2>/dev/null)
		[ "$st" = SKIP ] && continue
		booted=$((booted + 1))
		fh_reachable "$out/$k" && can+="${can:+, }$k"
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
		echo "vmtest free_high: SKIP (out of reach on every kernel of the run: batch + high_min / 2 > batch << scale, where free_count stops, as pcptop info says)"
		return 3
	fi
	echo "vmtest free_high: FAIL (free_high.count is 0 on every kernel of the run, $can among those that can flush it)"
	return 1
}

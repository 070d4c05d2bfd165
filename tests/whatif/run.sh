#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Why this exists: pcptop whatif predicts what another pcp_batch_scale_max
# would have done from one `record --trace`; a prediction is a figure like
# any other and is checked against what the kernel counted (issue 22). The
# instrumented 6.12 kernel (tests/vm/kernel/) is booted once per scale
# (tests/whatif/boot.sh; fentry mode, where the recording's own counts are
# exact: tests/oracle/ checks them against /proc/pcp_oracle), the same
# workload recorded with --trace at each, and on the host:
#   - self-consistency: each trace replayed at its recorded scale gives
#     back the recording's own counts (whatif --check: bulk-free and
#     refill calls and pages within 1 %, their size histograms within one
#     log2 bucket for 99 % of calls, the largest flush, free_high flush,
#     decay and drain exact, no event lost);
#   - prediction: the trace of scale A replayed at scale B against the
#     real run at B: bulk-free and refill calls and pages within 10 %,
#     the largest bulk free exact, interrupts-off p99 within one log2
#     bucket. Pairs: 5->0 and 0->5 (reference 000's two scales), 5->3,
#     5->6, 3->5, 6->5.
# Bounds are issue 22's; where the model misses, docs/ACCURACY.md says
# by how much and why. Do not widen them here.
#
# Usage: tests/whatif/run.sh [-r] [SCALE...]   (default scales 5 0 3 6)
#   -r   reuse the recordings of an earlier run (no boot): re-check only
# Environment: WHATIF_OUT (build/whatif/suite), WHATIF_BIN (static build,
# build/vm-x86), PCPTOP (the host's pcptop that replays, build/pcptop),
# WHATIF_PAIRS ("A:B ...", the predictions checked; tests/whatif/bonnie.sh
# sets "5:0 0:5").
# Prints one "whatif ok|FAIL WHAT: ..." line per check and
# "N passed, N failed"; exit 0 when all passed, 1 on a failure, 2 on bad
# input or a missing tool.

set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=${WHATIF_OUT:-$root/build/whatif/suite}
PCPTOP=${PCPTOP:-$root/build/pcptop}
reuse=0
[ "${1:-}" = -r ] && { reuse=1; shift; }
scales=("$@")
[ ${#scales[@]} -gt 0 ] || scales=(5 0 3 6)
PAIRS=${WHATIF_PAIRS:-"5:0 0:5 5:3 5:6 3:5 6:5"}
# issue 22's bounds
PRED_PCT=10

for t in jq qemu-system-x86_64 cpio gzip timeout; do
	command -v "$t" >/dev/null || {
		echo "whatif: missing $t (scripts/deps.sh)" >&2
		exit 2
	}
done
[ -x "$PCPTOP" ] || { echo "whatif: no $PCPTOP: run make" >&2; exit 2; }
for s in "${scales[@]}"; do
	[[ "$s" =~ ^[0-6]$ ]] || { echo "whatif: bad scale '$s' (0..6)" >&2; exit 2; }
done

passed=0
failed=0
say() {
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
	echo "whatif $1 $2"
}

start=$SECONDS
if [ $reuse = 0 ]; then
	mkdir -p "$OUT"
	for s in "${scales[@]}"; do
		"$here/boot.sh" "$s" "$OUT/s$s" 2>>"$OUT/boot.log" ||
			echo "whatif: scale $s: the guest did not finish, see $OUT/s$s/console.log" >&2
	done
fi
echo "whatif: boots done after $((SECONDS - start)) s" >&2

# self-consistency, per scale
for s in "${scales[@]}"; do
	d=$OUT/s$s
	if [ ! -s "$d/t.data" ]; then
		say FAIL "s$s: no recording ($d/console.log)"
		continue
	fi
	"$PCPTOP" whatif "$d/t.data" --check >"$d/check.host" 2>&1
	rc=$?
	while read -r res what rest; do
		case "$res" in
		ok) say ok "s$s self $what: $rest" ;;
		FAIL) say FAIL "s$s self $what: $rest" ;;
		esac
	done <"$d/check.host"
	[ $rc -le 1 ] || say FAIL "s$s self: whatif --check exit $rc: $(head -n 1 "$d/check.host")"
	"$PCPTOP" whatif "$d/t.data" --scale 0-6 --json >"$d/w.json" 2>"$d/w.err" ||
		say FAIL "s$s: whatif --json: $(head -n 1 "$d/w.err")"
done

# the log2 bucket of a value as the histograms bound it (2^k - 1)
bucket() {
	awk -v v="$1" 'BEGIN { b = 0; while (v >= 1) { v /= 2; b++ } print b }'
}

# prediction: A's trace at B against B's run
for pair in $PAIRS; do
	a=${pair%:*} b=${pair#*:}
	pa=$OUT/s$a/w.json mb=$OUT/s$b/w.json
	[ -s "$pa" ] && [ -s "$mb" ] || continue
	for k in bulk_free.calls bulk_free.pages refill.calls refill.pages; do
		p=$(jq --argjson b "$b" --arg k "$k" '.scales[] | select(.scale == $b) | .figures[$k]' "$pa")
		m=$(jq --arg k "$k" '.measured.figures[$k]' "$mb")
		line=$(awk -v p="$p" -v m="$m" -v bd="$PRED_PCT" 'BEGIN {
			if (m == 0 || p == "null" || m == "null") { print "FAIL " p " vs " m; exit }
			e = (p - m) * 100 / m
			printf "%s predicted %d, real %d: %+.2f %% (bound %d %%)\n",
				(e <= bd && e >= -bd) ? "ok" : "FAIL", p, m, e, bd }')
		say "${line%% *}" "$a->$b $k: ${line#* }"
	done
	p=$(jq --argjson b "$b" '.scales[] | select(.scale == $b) | .figures["bulk_free.max"]' "$pa")
	m=$(jq '.measured.figures["bulk_free.max"]' "$mb")
	[ "$p" = "$m" ] && r=ok || r=FAIL
	say $r "$a->$b bulk_free.max: predicted $p, real $m (exact)"
	p=$(jq --argjson b "$b" '.scales[] | select(.scale == $b) | .figures["irqs_off_ns.p99"]' "$pa")
	m=$(jq '.measured.figures["irqs_off_ns.p99"]' "$mb")
	if [[ "$p" =~ ^[0-9]+$ && "$m" =~ ^[0-9]+$ ]]; then
		d=$(($(bucket "$p") - $(bucket "$m")))
		[ ${d#-} -le 1 ] && r=ok || r=FAIL
		say $r "$a->$b irqs_off_ns.p99: predicted <= $p, real <= $m ns ($d log2 buckets, bound 1)"
	else
		say FAIL "$a->$b irqs_off_ns.p99: predicted $p, real $m"
	fi
done
echo "whatif: done in $((SECONDS - start)) s" >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

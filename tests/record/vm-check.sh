#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pcptop record inside a VM in fentry mode (issue 6): builds /exec.sh
# from tests/record/vm-record.sh, with bonnie++ and its shared libraries
# appended as a base64 tarball when the VM runs this machine's arch (the
# busybox initramfs has no libc), boots KERNEL with tests/vm/run.sh
# --exec and checks what the script printed: the recording exits with
# the command's status, its report shows fentry (not estimated) bulk
# frees, the command's argv and wall time.
# Needs what tests/vm/run.sh needs (the static builds: make vm-builds).
# Usage: tests/record/vm-check.sh [KERNEL]   (default amd64-6.12)
# Environment: VM_RUNNER (default tests/vm/run.sh), VMTEST_* as run.sh reads,
#   VMREC_LOG=FILE keeps the console log
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

K=${1:-amd64-6.12}
RUNNER=${VM_RUNNER:-tests/vm/run.sh}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

exe=$TMP/exec.sh
cp tests/record/vm-record.sh "$exe"
want=churn
case "$K" in
"$(dpkg --print-architecture)"-*)
	if bin=$(command -v bonnie++); then
		# the binary, every library ldd names and the loader, same paths
		stage=$TMP/payload
		for f in "$bin" $(ldd "$bin" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$stage$(dirname "$f")"
			cp -L "$f" "$stage$f"
		done
		echo __PAYLOAD__ >>"$exe"
		tar czf - -C "$stage" . | base64 >>"$exe"
		want=bonnie++
	fi
	;;
esac

echo "== pcptop record in VM $K, around $want"
start=$SECONDS
"$RUNNER" --exec "$exe" "$K" >"$TMP/console.log" 2>"$TMP/runner.err"
# the runner's boot lines, for tests/run-all.sh's count
grep '^boot: ' "$TMP/runner.err"
t_eq "the VM ran the script to its end" "$(sed -n 's/^.*VMREC:done://p' "$TMP/console.log" | tr -d '\r')" 1
echo "   VM run took $((SECONDS - start)) s"
grep -h 'crashed' "$TMP/runner.err" | sed 's/^/   note: /'
[ -n "${VMREC_LOG:-}" ] && cp "$TMP/console.log" "$VMREC_LOG"
v() { tr -d '\r' <"$TMP/console.log" | sed -n "s/^.*VMREC:$1://p"; }
rep=$(v report)
t_eq "workload" "$(v workload)" "$want"
t_eq "record exits with the command's status" "$(v record_rc)" 0
t_eq "report exits 0" "$(v report_rc)" 0
t_check "report --json parses" -- jq -e . >/dev/null <<<"$rep"
j() { jq -r "$1" <<<"$rep" 2>/dev/null; }
t_eq "bulk_free probe in fentry mode" \
	"$(j '.probes[] | select(.name == "bulk_free") | .mode')" fentry
t_eq "bulk frees exact, not estimated" "$(j .totals.bulk_free.estimated)" false
t_cmp "bulk free pages recorded" "$(j .totals.bulk_free.pages)" -gt 0
t_cmp "bulk free calls recorded" "$(j .totals.bulk_free.calls)" -gt 0
t_check "the command's wall time > 0" -- jq -e '.command.wall_s > 0' >/dev/null <<<"$rep"
t_eq "the command's exit status" "$(j .command.exit_status)" 0
t_check "the command's argv" -- grep -q "$want" <<<"$(j '.command.argv[0]')"
t_check "bulk frees land in a named zone (fentry reads it)" -- \
	jq -e '[.per_zone[] | select(.name != "unknown" and .bulk_free_pages > 0)] | length > 0' \
	>/dev/null <<<"$rep"
t_check "text report: scale and its source first" -- \
	grep -qE '^scale [0-9]+ \(' <<<"$(v text | head -n 1)"
t_eq "record -- sh -c 'exit 7' exits 7 in the VM" "$(v exit7)" 7
# fentry mode's JSON against docs/schema/ (a host that refuses fentry
# runs tracepoint mode: without this its documents would validate only
# there)
for kind in report info stat diff; do
	v "$kind" >"$TMP/$kind.json"
	out=$(tests/schema/validate.py "$kind" "$TMP/$kind.json" 2>&1)
	t_check "$kind --json in the VM validates against docs/schema/$kind.schema.json" -- \
		test $? -eq 0 -a -z "$out"
	[ -n "$out" ] && head -n 5 <<<"$out"
done
t_eq "  info --json in the VM names fentry for bulk_free" \
	"$(jq -r '.probes[] | select(.name == "bulk_free") | .mode' "$TMP/info.json")" fentry
if [ "$T_FAILED" -gt 0 ]; then
	echo "--- console (VMREC lines and errors)"
	grep -E 'VMREC:(record_err|report_err|work|text|payload)|vmtest:' "$TMP/console.log" "$TMP/runner.err" | head -n 40
	echo "--- the runner's stderr (its boot lines above), and the console's last lines"
	grep -v '^boot: ' "$TMP/runner.err"
	tr -d '\r' <"$TMP/console.log" | grep -v '^VMREC:\(report\|info\|stat\|diff\):' | tail -n 25
fi
t_summary

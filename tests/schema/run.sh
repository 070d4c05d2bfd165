#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pcptop's JSON against its schema (docs/schema/), with Debian's
# python3-jsonschema: info and stat on this machine's kernel, report and
# diff of a recording made here and of the recordings older versions made
# (tests/fixtures/rec). A document with a renamed or reshaped key must
# fail, so the schema can fail too.
# Usage: tests/schema/run.sh [BUILD_DIR]   (needs root for BPF)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

BUILD=${1:-build}
P=$(realpath "$BUILD/pcptop")
CHURN=$(realpath "$BUILD/churn")
V=tests/schema/validate.py
t_need schema "$P" "$CHURN" /usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# valid KIND FILE WHAT: the document validates, and says its version
valid() {
	local out
	out=$("$V" "$1" "$2" 2>&1)
	t_check "$3 validates against docs/schema/$1.schema.json" -- test $? -eq 0 -a -z "$out"
	[ -n "$out" ] && head -n 5 <<<"$out"
	t_eq "$3 names schema version 3" "$(jq -s 'map(.schema) | unique | join(",")' -r "$2")" 3
}

# invalid KIND FILE WHAT: a doctored document must not validate
invalid() {
	"$V" "$1" "$2" >"$TMP/why" 2>&1
	t_eq "$3 fails the schema" "$?" 1
}

echo "== this machine: info and stat (mode as info reports it)"
"$P" info --json >"$TMP/info.json" 2>/dev/null
t_eq "info --json exits 0" "$?" 0
valid info "$TMP/info.json" "info --json"
"$P" stat -i 0.3 -c 2 --json >"$TMP/stat.json" 2>/dev/null &
stat_pid=$!
"$CHURN" -m 32 -n 2 >/dev/null
wait "$stat_pid"
t_eq "stat --json exits 0" "$?" 0
t_cmp "stat --json wrote two intervals" "$(wc -l <"$TMP/stat.json")" -eq 2
valid stat "$TMP/stat.json" "stat --json"
"$P" stat -i 0.3 -c 1 --json --mode tracepoint >"$TMP/stat-tp.json" 2>/dev/null
valid stat "$TMP/stat-tp.json" "stat --json --mode tracepoint"

echo "== report and diff: recorded here, and by older versions"
"$P" record -q -i 0.3 -o "$TMP/here.data" -- "$CHURN" -m 64 -n 2 >/dev/null 2>&1
t_eq "record exits with churn's status" "$?" 0
"$P" report "$TMP/here.data" --json >"$TMP/report.json"
valid report "$TMP/report.json" "report --json of a recording made here"
for f in tests/fixtures/rec/*.data; do
	"$P" report "$f" --json >"$TMP/old.json" 2>/dev/null
	valid report "$TMP/old.json" "report --json of $(basename "$f")"
done
"$P" diff tests/fixtures/rec/host-tp-1.2.data "$TMP/here.data" --json >"$TMP/diff.json" 2>/dev/null
valid diff "$TMP/diff.json" "diff --json of a 1.2 recording and one made here"
"$P" record -q -i 0.3 -o "$TMP/here2.data" -- "$CHURN" -m 64 -n 2 >/dev/null 2>&1
"$P" diff tests/fixtures/rec/host-tp-1.2.data "$TMP/here.data" -- "$TMP/here.data" "$TMP/here2.data" \
	--json >"$TMP/diff-runs.json" 2>/dev/null
t_eq "diff of one run against two exits 0" "$?" 0
valid diff "$TMP/diff-runs.json" "diff --json of repeated runs"
t_eq "diff --json names the runs of each side" \
	"$(jq -r '[(.runs.a | length), (.runs.b | length)] | join(",")' "$TMP/diff-runs.json")" "2,2"

echo "== whatif: the unit tests' replay, and one of a --trace recording made here"
PCPTOP_WHATIF_JSON="$TMP/whatif.json" "$(dirname "$P")/unit_tests" whatif_outputs >/dev/null
t_eq "the unit tests wrote a whatif document" "$?" 0
valid whatif "$TMP/whatif.json" "whatif --json of an in-memory trace"
if "$P" record --help | grep -q -- '--trace'; then
	"$P" record -q --trace -i 0.3 -o "$TMP/trace.data" -- "$CHURN" -m 64 -n 2 >/dev/null 2>&1
	"$P" whatif "$TMP/trace.data" --json >"$TMP/whatif-here.json"
	t_eq "whatif --json of a --trace recording exits 0" "$?" 0
	valid whatif "$TMP/whatif-here.json" "whatif --json of a --trace recording made here"
fi
jq -c '.scales[0].figures |= with_entries(if .key == "bulk_free.calls" then .key = "bulk_free.ncalls" else . end)' \
	"$TMP/whatif.json" >"$TMP/bad.json"
invalid whatif "$TMP/bad.json" "whatif with bulk_free.calls renamed"
jq -c '.scales[0].parked = .scales[0].parked[1:]' "$TMP/whatif.json" >"$TMP/bad.json"
invalid whatif "$TMP/bad.json" "whatif with a parked series one point short"

echo "== the schema's figure keys are the figure table's"
# every row of the table is a key of report's totals (null where not
# measured): the schema must list exactly those, no more, no fewer
schema_keys=$(jq -r '."$defs".figures.required[]' docs/schema/common.schema.json | sort)
table_keys=$(jq -r '.totals | keys[] | select(. != "budget" and . != "counters")' "$TMP/report.json" | sort)
t_eq "the schema names every figure of the table, and no other" \
	"$(diff <(echo "$schema_keys") <(echo "$table_keys") | grep '^[<>]' | tr '\n' ' ')" ""
# stat's object and report's and diff's totals close their keys: each
# lists the figures again
for f in stat.schema.json:stat common.schema.json:totals; do
	listed=$(jq -r '.. | objects | select(has("bulk_free") and (.bulk_free == true)) | keys[]' \
		"docs/schema/${f%%:*}" 2>/dev/null | sort -u | grep -vxE 'schema|ts|interval_s|mode|modes|scale|hist|self|budget|counters')
	t_eq "${f#*:}'s keys in ${f%%:*} are the same figures" \
		"$(diff <(echo "$schema_keys") <(echo "$listed") | grep '^[<>]' | tr '\n' ' ')" ""
done

echo "== the schema can fail"
jq -c '.bulk_free |= (with_entries(if .key == "calls" then .key = "ncalls" else . end))' \
	"$TMP/stat-tp.json" >"$TMP/bad.json"
invalid stat "$TMP/bad.json" "stat with bulk_free.calls renamed"
jq -c '.hist.refill_pages.buckets = 3' "$TMP/stat-tp.json" >"$TMP/bad.json"
invalid stat "$TMP/bad.json" "stat with a histogram's buckets reshaped"
jq -c '.bulk_free_by_order.parts = [.bulk_free_by_order.parts[]]' "$TMP/stat-tp.json" >"$TMP/bad.json"
invalid stat "$TMP/bad.json" "stat with a split's parts a list"
jq -c 'del(.totals.reclaim_stall_ns)' "$TMP/report.json" >"$TMP/bad.json"
invalid report "$TMP/bad.json" "report without totals.reclaim_stall_ns"
jq -c 'del(.totals.pcp_pages)' "$TMP/report.json" >"$TMP/bad.json"
invalid report "$TMP/bad.json" "report without totals.pcp_pages"
jq -c '.schema = 2' "$TMP/report.json" >"$TMP/bad.json"
invalid report "$TMP/bad.json" "report naming another schema version"
jq -c '.summary = {}' "$TMP/diff.json" >"$TMP/bad.json"
invalid diff "$TMP/bad.json" "diff with its summary an object"
jq -c 'del(.paragraph)' "$TMP/diff.json" >"$TMP/bad.json"
invalid diff "$TMP/bad.json" "diff without its paragraph"
jq -c '.delta |= map_values(.pct = .change_pct | del(.change_pct))' "$TMP/diff.json" >"$TMP/bad.json"
invalid diff "$TMP/bad.json" "diff with delta's change_pct named pct (schema 2)"

t_summary

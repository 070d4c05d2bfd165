#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fleet's static parts, without a machine to watch: the rules pass
# promtool check rules and their unit tests (each alert firing and quiet,
# tests/fleet/pcptop.rules.test.yml); every Grafana panel's expression is
# valid PromQL (each one a recording rule of a scratch file for promtool)
# and every pcptop metric a panel or a rule names has a row in
# docs/METRICS.md (or is a recording rule of the rules file); the
# systemd unit passes systemd-analyze verify, with no warning, and its
# offline security exposure stays at most UNIT_EXPOSURE_MAX. Each checker
# is first fed something broken, and must fail on it.
# Usage: tests/fleet/rules.sh [BUILD_DIR]

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
. tests/prom/fetch.sh

BUILD=${1:-build}
RULES=packaging/prometheus/pcptop.rules.yml
DASH=packaging/grafana/pcptop.json
UNIT=packaging/systemd/pcptop.service.in
# systemd-analyze security --offline: 0 is the best, 10 the worst, and
# docs/FLEET.md gives the unit's score; past this bound, a hardening
# line was lost
UNIT_EXPOSURE_MAX=1.5
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PT=$(prom_fetch prometheus /usr/bin/promtool) ||
	{ echo "fleet: apt-get download prometheus failed" >&2; exit 2; }

echo "== the rules"
"$PT" check rules "$RULES" >"$TMP/check.out" 2>&1
t_eq "promtool check rules $RULES" "$?" 0
(cd tests/fleet && "$PT" test rules pcptop.rules.test.yml) >"$TMP/test.out" 2>&1
t_eq "promtool test rules: every recording rule and alert case" "$?" 0
[ -s "$TMP/test.out" ] && grep -q FAILED "$TMP/test.out" && sed 's/^/  /' "$TMP/test.out" | head -n 20
# each alert: a case where it fires and one where it stays quiet
cases() { # ALERT: "firing quiet"
	awk -v a="$1" '/alertname:/ { n = ($NF == a) }
		n && /exp_alerts: \[\]/ { q++; next } n && /exp_alerts:$/ { f++ }
		END { print f + 0, q + 0 }' tests/fleet/pcptop.rules.test.yml
}
for a in $(sed -n 's/^ *- alert: //p' "$RULES"); do
	read -r fire quiet <<<"$(cases "$a")"
	t_cmp "alert $a has a firing case" "$fire" -ge 1
	t_cmp "alert $a has a quiet case" "$quiet" -ge 1
done

# exprs FILE: a scratch rules file of the dashboard's expressions, with
# Grafana's variables as a query would have them
exprs_rules() {
	echo "groups:"
	echo "  - name: dashboard"
	echo "    rules:"
	jq -r '.panels[].targets[].expr' "$1" |
		sed -e 's/\$__rate_interval/5m/g' -e 's/\$instance/.*/g' |
		awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "      - record: dashboard:panel_%d\n        expr: \"%s\"\n", NR, $0 }'
}
echo "== the dashboard"
t_cmp "the dashboard has panels" "$(jq '.panels | length' "$DASH")" -ge 10
exprs_rules "$DASH" >"$TMP/dash.rules.yml"
t_eq "every panel's expression is PromQL ($(grep -c record: "$TMP/dash.rules.yml"), promtool)" \
	"$("$PT" check rules "$TMP/dash.rules.yml" >"$TMP/dash.out" 2>&1; echo $?)" 0
grep -q FAILED "$TMP/dash.out" && sed 's/^/  /' "$TMP/dash.out" | head -n 10
# the checker fails on a broken expression
jq '.panels[0].targets[0].expr = "rate(pcptop_refill_pages_total[5m]"' "$DASH" >"$TMP/bad.json"
exprs_rules "$TMP/bad.json" >"$TMP/bad.rules.yml"
t_cmp "and fails on a broken one" \
	"$("$PT" check rules "$TMP/bad.rules.yml" >/dev/null 2>&1; echo $?)" -ne 0

# names NAMEFILE... : pcptop metrics named, a histogram's series as itself
names() {
	grep -ohE 'pcptop_[a-z0-9_]+' "$@" | sed -E 's/_(bucket|sum|count)$//' | sort -u
}
recorded=$(sed -n 's/^ *- record: //p' "$RULES")
missing=""
for n in $(names "$DASH" "$RULES"); do
	grep -qF "| \`$n\` |" docs/METRICS.md || missing="$missing $n"
done
t_eq "every metric the dashboard and the rules name is in docs/METRICS.md" "${missing:-none}" none
missing=""
for r in $(jq -r '.panels[].targets[].expr' "$DASH" | grep -oE 'pcptop:[a-z0-9_:]+' | sort -u); do
	grep -qxF "$r" <<<"$recorded" || missing="$missing $r"
done
t_eq "every recording rule the dashboard uses is in $RULES" "${missing:-none}" none
t_cmp "the dashboard uses the recording rules" \
	"$(jq -r '.panels[].targets[].expr' "$DASH" | grep -c 'pcptop:')" -ge 4

echo "== the unit"
sed "s|@SBINDIR@/pcptop|$(realpath "$BUILD/pcptop")|" "$UNIT" >"$TMP/pcptop.service"
systemd-analyze verify --man=no "$TMP/pcptop.service" >"$TMP/verify.out" 2>&1
t_eq "systemd-analyze verify passes" "$?" 0
t_eq "with no warning" "$(cat "$TMP/verify.out")" ""
mkdir -p "$TMP/bad"
sed 's/^ProtectProc=invisible/ProtectProc=bogus/' "$TMP/pcptop.service" >"$TMP/bad/pcptop.service"
t_cmp "and warns on a bad line" \
	"$(systemd-analyze verify --man=no "$TMP/bad/pcptop.service" 2>&1 | wc -c)" -gt 0
exposure=$(systemd-analyze security --offline=yes "$TMP/pcptop.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for pcptop.service: \([0-9.]*\).*/\1/p')
t_check "its security exposure ($exposure) is at most $UNIT_EXPOSURE_MAX" -- \
	awk -v e="${exposure:-99}" -v m="$UNIT_EXPOSURE_MAX" 'BEGIN { exit !(e <= m) }'
t_eq "its capabilities are CAP_BPF, CAP_PERFMON and CAP_SYSLOG, no more" \
	"$(sed -n 's/^CapabilityBoundingSet=//p; s/^AmbientCapabilities=//p' "$UNIT" | sort -u)" \
	"CAP_BPF CAP_PERFMON CAP_SYSLOG"
t_summary

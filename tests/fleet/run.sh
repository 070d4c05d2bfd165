#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fleet's path on loopback, everything started here and stopped again:
# pcptop run as packaging/systemd/pcptop.service runs it (its ExecStart
# line, as the unit's user with the unit's capabilities, its textfile in
# the unit's runtime directory), Debian's prometheus-node-exporter with
# its textfile collector on a directory that links to that file (how
# docs/FLEET.md sets up Debian's node_exporter), and Debian's prometheus
# scraping it every second with the rules of packaging/prometheus. Both
# come out of their packages (tests/prom/fetch.sh); nothing is installed.
# Checks: bad set-ups exit 2 with one line; series arrive with their
# labels and the types docs/METRICS.md gives; their values are the same
# process's own --json totals; the recording rules give the rates; a
# crash leaves a file that the stale alert catches; a restart is a
# counter reset; a clean stop removes the file and leaves no program.
# Usage: tests/fleet/run.sh [BUILD_DIR]   (root)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
. tests/prom/fetch.sh

BUILD=${1:-build}
P=$(realpath "$BUILD/pcptop")
CHURN=$(realpath "$BUILD/churn")
UNIT=packaging/systemd/pcptop.service.in
t_need fleet "$P" "$CHURN"
[ "$(id -u)" = 0 ] || { echo "fleet: needs root (BPF, setpriv)" >&2; exit 2; }
# a uid no account has: the unit's User= stand-in (these machines run no
# systemd to make one)
SVC_UID=${FLEET_UID:-64123}
# the test's window for the rules' rates: [5m] needs five minutes of
# scrapes; the expressions are the file's, the window shorter
RATE_WINDOW=20s
# how far the rules' rate may be from pcptop's own pages a second over
# the same scrapes: rate() divides by the scrapes' times, not pcptop's
# intervals, and extrapolates to the window's edges (0.6 and 0.8 % in two
# runs of 2026-12-05 beside make test's VMs; 25 % until then, when the
# comparison took the --json intervals that ended in the window)
RATE_SPREAD_PCT=10
# a rule's value against its expression queried at the rule's own
# evaluation time, with the scrapes frozen so that both see the same
# samples: the same float arithmetic, so the same value but for rounding
RULE_EXACT_PCT=0.01
# the frozen scrapes: long enough for the rules to be evaluated at least
# once after the last sample was stored (evaluation_interval 1s)
FREEZE_S=3
NE=$(prom_fetch prometheus-node-exporter /usr/bin/prometheus-node-exporter) ||
	{ echo "fleet: apt-get download prometheus-node-exporter failed" >&2; exit 2; }
PROM=$(prom_fetch prometheus /usr/bin/prometheus) ||
	{ echo "fleet: apt-get download prometheus failed" >&2; exit 2; }

TMP=$(mktemp -d)
chmod 755 "$TMP"
pids=()
cleanup() {
	# SIGCONT too: a TERM waits on a stopped node_exporter (the rules'
	# freeze below), and so would the wait
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

free_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((20000 + RANDOM % 30000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
	done
	return 1
}
# the unit's ExecStart with its settings: INTERVAL TEXTFILE [ARGS]
exec_start() {
	local line
	line=$(sed -n 's/^ExecStart=//p' "$UNIT" | sed "s|@SBINDIR@/pcptop|$P|")
	line=${line//'${PCPTOP_INTERVAL}'/$1}
	line=${line//'${PCPTOP_TEXTFILE}'/$2}
	echo "${line//'$PCPTOP_ARGS'/${3:-}}"
}
caps=$(sed -n 's/^AmbientCapabilities=//p' "$UNIT" | tr ' ' '\n' |
	sed 's/^CAP_/+/' | tr 'A-Z' 'a-z' | paste -sd,)
# the unit's user, capabilities, bounding set and NoNewPrivileges=, its
# caches and umask
# (it execs: run it in a subshell of its own, "( as_unit ... ) &", so
# that $! is pcptop)
as_unit() {
	umask 022
	exec env PCPTOP_BTF_CACHE="$TMP/cache/btf" \
		PCPTOP_BOOT_CACHE="$TMP/cache/boot" \
		setpriv --reuid="$SVC_UID" --regid="$SVC_UID" --clear-groups \
		--inh-caps="$caps" --ambient-caps="$caps" \
		--bounding-set=-all,"$caps" --no-new-privs "$@"
}
progs() { bpftool prog show -j 2>/dev/null | jq length; }
progs_settled() { settled progs "$p0"; }

# RuntimeDirectory= and CacheDirectory=, as systemd would make them
install -d -o "$SVC_UID" -g "$SVC_UID" -m 0755 "$TMP/run"
install -d -o "$SVC_UID" -g "$SVC_UID" -m 0700 "$TMP/cache"
mkdir -p "$TMP/textfile" "$TMP/ro"
ln -s "$TMP/run/pcptop.prom" "$TMP/textfile/pcptop.prom"
TEXTFILE=$TMP/run/pcptop.prom

echo "== a bad set-up: exit 2 and one line, not a restart loop"
bad() { # NAME CMD...: exit 2, one line on stderr
	local name=$1 rc
	shift
	("$@") >/dev/null 2>"$TMP/bad.err"
	rc=$?
	t_eq "$name: exit 2 ($(head -c 120 "$TMP/bad.err"))" "$rc" 2
	t_eq "$name: one line on stderr" "$(wc -l <"$TMP/bad.err")" 1
}
# shellcheck disable=SC2046
bad "no BPF permission (the unit's user without its capabilities)" \
	setpriv --reuid="$SVC_UID" --regid="$SVC_UID" --clear-groups \
	--inh-caps=-all --bounding-set=-all $(exec_start 1 "$TEXTFILE")
# shellcheck disable=SC2046
bad "no textfile directory" as_unit $(exec_start 1 "$TMP/none/pcptop.prom")
# shellcheck disable=SC2046
bad "a textfile directory it cannot write" as_unit $(exec_start 1 "$TMP/ro/pcptop.prom")
# shellcheck disable=SC2046
bad "no BTF (PCPTOP_ARGS=--btf /nonexistent)" as_unit $(exec_start 1 "$TEXTFILE" "--btf /nonexistent")

echo "== as root, as ExecStart has it"
p0=$(progs)
# shellcheck disable=SC2046
$(exec_start 1 "$TMP/root.prom") --json >"$TMP/root.json" 2>"$TMP/root.err" &
rpid=$!
for _ in $(seq 1 50); do [ -s "$TMP/root.prom" ] && break; sleep 0.2; done
t_check "root: the textfile is written" -- test -s "$TMP/root.prom"
kill -TERM "$rpid"
wait "$rpid"
t_eq "root: SIGTERM ends it with exit 0" "$?" 0
t_check "root: and removes the textfile" -- test ! -e "$TMP/root.prom"
t_eq "root: no program left loaded" "$(progs_settled)" "$p0"

echo "== the unit's user, node_exporter and Prometheus on loopback"
( while :; do "$CHURN" -m 128 -s 30 >/dev/null 2>&1; done ) &
pids+=($!)
start_pcptop() { # NAME: the exporter, its --json in TMP/NAME.json
	# shellcheck disable=SC2046
	(as_unit $(exec_start 1 "$TEXTFILE") --json) >"$TMP/$1.json" 2>"$TMP/$1.err" &
	spid=$!
	pids+=($spid)
}
start_pcptop first
NEP=$(free_port) && PP=$(free_port) || { echo "fleet: no free port" >&2; exit 1; }
"$NE" --web.listen-address="127.0.0.1:$NEP" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$TMP/textfile" \
	>"$TMP/ne.log" 2>&1 &
nepid=$!
pids+=($nepid)
sed -e "s/\[5m\]/[$RATE_WINDOW]/g" packaging/prometheus/pcptop.rules.yml >"$TMP/rules.yml"
cat >"$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ["$TMP/rules.yml"]
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$NEP"]
EOF
"$PROM" --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PP" >"$TMP/prom.log" 2>&1 &
pids+=($!)
API=http://127.0.0.1:$PP/api/v1
q() { # PROMQL [TIME]: the result array
	curl -fsS "$API/query" --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} | jq -c '.data.result'
}
# until the condition's PromQL gives a value >= N, at most SECS
wait_for() { # PROMQL N SECS
	local i v
	for i in $(seq 1 $(($3 * 2))); do
		v=$(q "$1" 2>/dev/null | jq -r '.[0].value[1] // 0')
		awk -v v="$v" -v n="$2" 'BEGIN { exit !(v >= n) }' && return 0
		sleep 0.5
	done
	return 1
}
until_empty() { # PROMQL SECS: until the PromQL gives no series
	local i
	for i in $(seq 1 $(($2 * 2))); do
		[ "$(q "$1" 2>/dev/null | jq length)" = 0 ] && return 0
		sleep 0.5
	done
	return 1
}
ready=1
for _ in $(seq 1 120); do
	curl -fsS "http://127.0.0.1:$PP/-/ready" >/dev/null 2>&1 &&
		curl -fsS "http://127.0.0.1:$NEP/metrics" >/dev/null 2>&1 && { ready=0; break; }
	sleep 0.25
done
t_eq "node_exporter and Prometheus answer on loopback" "$ready" 0
t_check "ten scrapes of pcptop's file" -- wait_for 'count_over_time(pcptop_seconds_total[1m])' 10 60

q pcptop_info >"$TMP/info"
t_eq "pcptop_info's kernel label is this kernel" "$(jq -r '.[0].metric.kernel' "$TMP/info")" "$(uname -r)"
# the mode the exporter chose, from its own --json: fentry where the
# host allows it, a fallback where not
own_mode=$(head -n 1 "$TMP/first.json" | jq -r '.mode // empty')
t_check "pcptop's --json names its mode ($own_mode)" -- test -n "$own_mode"
t_eq "its mode label is that mode" "$(jq -r '.[0].metric.mode' "$TMP/info")" "$own_mode"
t_eq "and node_exporter's instance" "$(jq -r '.[0].metric.instance' "$TMP/info")" "127.0.0.1:$NEP"
t_check "pcptop_scale carries its source" -- \
	test "$(q pcptop_scale | jq -r '.[0].metric.source // empty')" != ""
t_check "pcp list pages come by zone" -- \
	test "$(q 'pcptop_pcp_pages{zone="Normal"}' | jq length)" -ge 1
t_check "CPU seconds come by cpu" -- \
	test "$(q 'pcptop_cpu_idle_seconds_total{cpu="0"}' | jq length)" -eq 1

# the types Prometheus learned from the scrape, against the contract
curl -fsS "$API/metadata" | jq -r '.data | to_entries[] | select(.key | startswith("pcptop_")) |
	"\(.key) \(.value[0].type)"' | sort >"$TMP/types"
t_cmp "pcptop metric families scraped" "$(wc -l <"$TMP/types")" -ge 80
bad_types=$(while read -r n ty; do
	grep -qF "| \`$n\` | $ty |" docs/METRICS.md || echo "$n:$ty"
done <"$TMP/types" | paste -sd' ')
t_eq "each has its row and type in docs/METRICS.md" "${bad_types:-none}" none

# the same scrape's totals against the sum of the same process's intervals
names='pcptop_seconds_total|pcptop_refill_pages_total|pcptop_refill_calls_total|pcptop_bulk_free_pages_total|pcptop_bulk_free_calls_total'
q "{__name__=~\"$names\"}" >"$TMP/totals"
t_eq "the totals come from one scrape" "$(jq '[.[].value[0]] | unique | length' "$TMP/totals")" 1
val() { jq -r --arg n "$1" '.[] | select(.metric.__name__ == $n) | .value[1]' "$TMP/totals"; }
secs=$(val pcptop_seconds_total)
jq -s -c --argjson s "$secs" '
	def abs: if . < 0 then -. else . end;
	[foreach .[] as $x ({n: 0, c: 0, rp: 0, rc: 0, bp: 0, bc: 0};
		.n += 1 | .c += $x.interval_s | .rp += $x.refill.pages | .rc += $x.refill.calls |
		.bp += $x.bulk_free.pages | .bc += $x.bulk_free.calls)] |
	map(select((.c - $s) | abs < 0.002)) | .[0] // {}' "$TMP/first.json" >"$TMP/own"
t_cmp "pcptop_seconds_total ($secs) is the sum of $(jq .n "$TMP/own") intervals of its own --json" \
	"$(jq '.n // 0' "$TMP/own")" -ge 5
for f in rp:pcptop_refill_pages_total rc:pcptop_refill_calls_total \
	bp:pcptop_bulk_free_pages_total bc:pcptop_bulk_free_calls_total; do
	t_eq "${f#*:} is its --json's sum over those intervals" \
		"$(val "${f#*:}")" "$(jq ".${f%%:*} // -1" "$TMP/own")"
done
t_cmp "refill pages counted under the churn" "$(val pcptop_refill_pages_total)" -gt 0

echo "== the recording rules"
t_check "a $RATE_WINDOW window of scrapes" -- wait_for 'count_over_time(pcptop_seconds_total[1m])' 22 40
# Queried while the scrapes go on, a rule's value and its expression
# at the same time see different samples: a scrape stamped before an
# evaluation can be stored after it, and an instant query is stamped
# with its own time, not the evaluation's (CI of 2026-12-05 failed two
# of this suite's checks, their lines not kept; up to 9.5 % apart here
# under that comparison). So node_exporter is stopped: every later
# evaluation sees every sample there will be, and the rule's own
# timestamp gives the expression's time.
kill -STOP "$nepid"
sleep "$FREEZE_S"
q 'pcptop:zone_lock_pages:rate5m[10s]' >"$TMP/rule"
q 'pcptop_seconds_total[10s]' >"$TMP/last"
T=$(jq -r '.[0].values[-1][0] // empty' "$TMP/rule")
v=$(jq -r '.[0].values[-1][1] // empty' "$TMP/rule")
t_last=$(jq -r '.[0].values[-1][0] // empty' "$TMP/last")
# before node_exporter goes on: a scrape begun in the last second of the
# freeze, stamped before T, would be stored once it answers
raw=$(q "sum without (estimated) (rate(pcptop_bulk_free_pages_total[$RATE_WINDOW])) + sum without (estimated) (rate(pcptop_refill_pages_total[$RATE_WINDOW]))" "${T:-0}" |
	jq -r '.[0].value[1]')
kill -CONT "$nepid"
t_check "the rule's last evaluation ($T) came after the last scrape ($t_last) was stored" -- \
	awk -v t="${T:-0}" -v l="${t_last:-0}" 'BEGIN { exit !(l > 0 && t - l >= 1) }'
t_check "pcptop:zone_lock_pages:rate5m ($v) is its expression at its time ($raw)" -- \
	awk -v a="${v:-0}" -v b="${raw:-0}" -v p="$RULE_EXACT_PCT" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
# The rule's last value before the freeze, at T0, against pcptop's own
# pages a second over the same samples: the pages its first and last
# scrape in the window counted apart, over the seconds pcptop's own
# intervals (pcptop_seconds_total) counted apart between them. rate()
# divides by the scrapes' times instead and extrapolates to the
# window's edges. Against pcptop's --json intervals that ended in the
# window, which the scrapes trail by up to an interval, the churn's
# moving rate made it -12 % in five runs, -42 % on a loaded host, and
# +28.5 % in the clean clone of 2026-12-05 13:31.
read -r T0 v0 < <(jq -r --argjson l "${t_last:-0}" \
	'[.[0].values[] | select((.[0] | tonumber) <= $l)] | last // ["0", "0"] | "\(.[0]) \(.[1])"' "$TMP/rule")
span() { # METRIC: its last sample in the window at T0 less its first, summed over its series
	q "$1[$RATE_WINDOW]" "$T0" | jq -r '[.[].values |
		if length > 1 then (.[-1][1] | tonumber) - (.[0][1] | tonumber) else 0 end] | add // 0'
}
own=$(awk -v b="$(span pcptop_bulk_free_pages_total)" -v r="$(span pcptop_refill_pages_total)" \
	-v s="$(span pcptop_seconds_total)" 'BEGIN { if (s > 0) printf "%.3f\n", (b + r) / s; else print 0 }')
t_check "its value before the freeze ($v0) is within $RATE_SPREAD_PCT % of pcptop's own pages a second between the window's first and last scrape ($own)" -- \
	awk -v a="$v0" -v b="$own" -v p="$RATE_SPREAD_PCT" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
for r in pcptop:reclaim_stall_seconds:rate5m pcptop:allocstall:rate5m; do
	t_check "$r is evaluated ($(q "$r" | jq -r '.[0].value[1] // "none"'))" -- \
		test "$(q "$r" | jq length)" -eq 1
done
# tracepoint mode times no hold; a function probe times every bulk free
if [ "$own_mode" = tracepoint ]; then
	t_eq "pcptop:lock_hold_seconds:max5m has no series: tracepoint mode times no hold" \
		"$(q 'pcptop:lock_hold_seconds:max5m' | jq length)" 0
else
	t_cmp "pcptop:lock_hold_seconds:max5m has a series ($own_mode mode times the hold)" \
		"$(q 'pcptop:lock_hold_seconds:max5m' | jq length)" -ge 1
fi

echo "== a crash: the file stays, the stale alert sees it"
{ kill -KILL "$spid" && wait "$spid"; } 2>/dev/null
t_check "the crashed exporter's file is still there" -- test -s "$TEXTFILE"
t_check "time() - pcptop_last_update_timestamp_seconds passes 4 intervals" -- \
	wait_for '(time() - pcptop_last_update_timestamp_seconds) / pcptop_interval_seconds' 4.5 20
t_check "PcptopTextfileStale is pending or firing" -- wait_for \
	'count(ALERTS{alertname="PcptopTextfileStale"})' 1 10

echo "== a restart: a counter reset, not a drop"
start_pcptop second
t_check "Prometheus sees the restart's counter reset" -- wait_for 'resets(pcptop_seconds_total[1m])' 1 30
t_check "and ten seconds of the new exporter's counting" -- wait_for pcptop_seconds_total 10 30
t_eq "one reset in the 45 s across it" "$(q 'resets(pcptop_seconds_total[45s])' | jq -r '.[0].value[1]')" 1
# counting seconds a second, across the restart and its gap: below 1, above 0
r=$(q 'rate(pcptop_seconds_total[45s])' | jq -r '.[0].value[1]')
t_check "rate(pcptop_seconds_total[45s]) across it is $r: between 0.3 and 1.05" -- \
	awk -v r="$r" 'BEGIN { exit !(r >= 0.3 && r <= 1.05) }'
t_check "the stale alert is gone" -- until_empty 'ALERTS{alertname="PcptopTextfileStale"}' 20
t_eq "and its expression gives nothing" \
	"$(q 'time() - pcptop_last_update_timestamp_seconds > 4 * pcptop_interval_seconds' | jq length)" 0

echo "== a clean stop"
kill -TERM "$spid"
wait "$spid"
t_eq "SIGTERM ends the exporter with exit 0" "$?" 0
t_check "the textfile is gone" -- test ! -e "$TEXTFILE"
curl -fsS "http://127.0.0.1:$NEP/metrics" >"$TMP/after"
t_eq "node_exporter serves no pcptop series" "$(grep -c '^pcptop_' "$TMP/after")" 0
t_eq "no program left loaded" "$(progs_settled)" "$p0"
t_eq "the exporter said nothing but its mode on stderr" \
	"$(grep -vc 'falling back\|cut, \|cache' "$TMP/second.err")" 0
t_summary

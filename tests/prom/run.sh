#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A fleet of boards watched with no server of pcptop's own: pcptop stat
# --prom keeps a textfile-collector file, Debian's prometheus-node-exporter
# serves it, a scrape on loopback finds the pcptop_* metrics with their
# labels, and Debian's promtool passes the file. The two binaries come out
# of their Debian packages (apt-get download, cached in
# $PCPTOP_CACHE/prom): no daemon is installed or started on the machine.
# Usage: tests/prom/run.sh [BUILD_DIR]   (needs root for BPF)

set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
. tests/prom/fetch.sh

BUILD=${1:-build}
P=$(realpath "$BUILD/pcptop")
CHURN=$(realpath "$BUILD/churn")
PORT=${PROM_TEST_PORT:-19100}
t_need prom "$P" "$CHURN"
TMP=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "prom: node_exporter and promtool from Debian (cached in $PROM_CACHE)" >&2
NE=$(prom_fetch prometheus-node-exporter /usr/bin/prometheus-node-exporter) ||
	{ echo "prom: apt-get download prometheus-node-exporter failed" >&2; exit 2; }
PT=$(prom_fetch prometheus /usr/bin/promtool) ||
	{ echo "prom: apt-get download prometheus failed" >&2; exit 2; }

mkdir -p "$TMP/textfile"
pgpgout0=$(awk '$1 == "pgpgout" { print $2 }' /proc/vmstat)
"$CHURN" -m 128 -s 20 >/dev/null 2>&1 &
pids+=($!)
"$P" stat -i 1 --prom "$TMP/textfile/pcptop.prom" >/dev/null 2>"$TMP/stat.err" &
pids+=($!)
"$NE" --web.listen-address="127.0.0.1:$PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$TMP/textfile" \
	>"$TMP/ne.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
	[ -s "$TMP/textfile/pcptop.prom" ] && grep -q 'pcptop_refill_pages_total' "$TMP/textfile/pcptop.prom" &&
		curl -fsS "http://127.0.0.1:$PORT/metrics" >/dev/null 2>&1 && break
	sleep 0.2
done
sleep 2 # a few intervals of the churn
curl -fsS "http://127.0.0.1:$PORT/metrics" >"$TMP/scrape" 2>"$TMP/curl.err"
t_eq "node_exporter answers a scrape on loopback" "$?" 0
t_eq "it read the textfile without error" \
	"$(sed -n 's/^node_textfile_scrape_error //p' "$TMP/scrape")" 0
t_check "the scrape carries pcptop_info with the kernel's labels" -- \
	grep -qE "^pcptop_info\\{.*kernel=\"$(uname -r)\".*\\} 1$" "$TMP/scrape"
t_check "and the scale with its source" -- grep -qE '^pcptop_scale\{source="[a-z-]+"\} -?[0-9]+$' "$TMP/scrape"
t_cmp "refill pages counted under the churn" \
	"$(sed -n 's/^pcptop_refill_pages_total{estimated="[a-z]*"} //p' "$TMP/scrape" | cut -d. -f1)" -gt 0
t_check "pcp list pages per zone" -- grep -qE '^pcptop_pcp_pages\{zone="Normal"\} [0-9]+$' "$TMP/scrape"
t_check "refills by migratetype, CMA on its own" -- \
	grep -qE '^pcptop_refill_migratetype_pages_total\{migratetype="CMA"\} [0-9]+$' "$TMP/scrape"
t_check "histograms as Prometheus histograms" -- grep -qE '^pcptop_[a-z_]+_bucket\{le="\+Inf"\} [0-9]+$' "$TMP/scrape"
# /proc/vmstat's KiB go out as bytes: within the run's growth, times 1024
# (the file's own digits: a scrape rewrites them as floats)
got=$(sed -n 's/^pcptop_pgpgout_bytes_total{estimated="false"} //p' "$TMP/textfile/pcptop.prom")
pgpgout1=$(awk '$1 == "pgpgout" { print $2 }' /proc/vmstat)
t_check "pcptop_pgpgout_bytes_total ($got) is 1024 times KiB, within the run's $((pgpgout1 - pgpgout0)) KiB" -- \
	test -n "$got" -a $((${got:-1} % 1024)) -eq 0 -a "${got:-1}" -le $(((pgpgout1 - pgpgout0) * 1024))
"$PT" check metrics <"$TMP/textfile/pcptop.prom" >"$TMP/promtool.out" 2>&1
t_eq "promtool check metrics passes on the file" "$?" 0
[ -s "$TMP/promtool.out" ] && sed 's/^/  promtool: /' "$TMP/promtool.out" | head -n 5
t_summary

# SPDX-License-Identifier: GPL-2.0-only
# Assertions for the shell test suites: each check prints one line and is
# counted; summary prints "N passed, N failed, N skipped" (and ", N known
# misses" when there are any) and sets the exit status. A skip (t_skip)
# and a known miss (t_known) are counted, never passed: tests/run-all.sh
# lists both by name above its closing line.
# Sourced, not run.

# textboxes.js and the like, whatever the suite's directory
T_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

T_PASSED=0
T_FAILED=0
T_SKIPPED=0
T_KNOWN=0

# t_skip WHAT WHY: a check that could not run here, and why
t_skip() {
	T_SKIPPED=$((T_SKIPPED + 1))
	printf 'SKIP %s (%s)\n' "$1" "$2"
}

# t_known WHAT BOUND: a known miss, inside its written bound
# (docs/ACCURACY.md); the suite asserts how many it may have
t_known() {
	T_KNOWN=$((T_KNOWN + 1))
	printf 'KNOWN MISS %s (bound %s)\n' "$1" "$2"
}

t_pass() {
	T_PASSED=$((T_PASSED + 1))
	printf 'ok   %s\n' "$*"
}

t_fail() {
	T_FAILED=$((T_FAILED + 1))
	printf 'FAIL %s\n' "$*"
}

# t_check DESC -- CMD...: passes when CMD exits 0
t_check() {
	local desc=$1
	shift
	[ "$1" = -- ] && shift
	if "$@"; then t_pass "$desc"; else t_fail "$desc"; fi
}

# t_cmp DESC A OP B: numeric comparison (-gt, -ge, -eq, -le, -lt, -ne)
t_cmp() {
	local desc=$1 a=$2 op=$3 b=$4
	if [[ "$a" =~ ^-?[0-9]+$ && "$b" =~ ^-?[0-9]+$ ]] && [ "$a" "$op" "$b" ]; then
		t_pass "$desc ($a $op $b)"
	else
		t_fail "$desc (got '$a', want $op '$b')"
	fi
}

# t_eq DESC GOT WANT: string equality
t_eq() {
	if [ "$2" = "$3" ]; then
		t_pass "$1 ($2)"
	else
		t_fail "$1 (got '$2', want '$3')"
	fi
}

# t_within_pct DESC A B PCT: |A - B| <= PCT% of B, both > 0
t_within_pct() {
	local desc=$1 a=$2 b=$3 pct=$4
	if awk -v a="$a" -v b="$b" -v p="$pct" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && b > 0 && d * 100 <= p * b) }'; then
		t_pass "$desc ($a vs $b, within $pct%)"
	else
		t_fail "$desc ($a vs $b, not within $pct%)"
	fi
}

# t_need SUITE FILE...: every FILE executable and we are root, else exit 2
t_need() {
	local suite=$1 f
	shift
	for f in "$@"; do
		if [ ! -x "$f" ]; then
			echo "$suite: $f missing: run make first" >&2
			exit 2
		fi
	done
	if [ "$(id -u)" != 0 ]; then
		echo "$suite: needs root (BPF)" >&2
		exit 2
	fi
}

# t_chromium PROFILE_DIR ARGS...: headless Chromium with nothing from the
# network and its profile in PROFILE_DIR, for the HTML screenshot tests
t_chromium() {
	local dir=$1
	shift
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$dir" --window-size=1200,1800 "$@"
}

# t_render PROFILE_DIR HTML PNG MIN_BYTES: HTML rendered to PNG (checked:
# at least MIN_BYTES) and its rendered DOM to PNG.dom, for the caller's
# checks of what the page holds once a browser has laid it out
t_render() {
	local dir=$1 html=$2 png=$3 min=$4
	t_chromium "$dir" --screenshot="$png" "file://$html" >/dev/null 2>&1
	t_cmp "$(basename "$png") is a real picture" \
		"$(stat -c %s "$png" 2>/dev/null || echo 0)" -gt "$min"
	t_chromium "$dir" --dump-dom "file://$html" >"$png.dom" 2>/dev/null
}

# t_text_boxes PROFILE_DIR HTML WHAT MIN_CHARTS: HTML's charts as
# Chromium lays them out (tests/record/textboxes.js, run in a copy of the
# page): at least MIN_CHARTS, and in each no text over another and none
# out of its chart (issue 33); the faults are printed
t_text_boxes() {
	local dir=$1 html=$2 what=$3 min=$4 copy=${2%.html}-boxes.html tb
	awk -v js="$T_LIB_DIR/record/textboxes.js" '
		/<\/body>/ { print "<script>"; while ((getline l <js) > 0) print l; print "</script>" }
		{ print }' "$html" >"$copy"
	t_chromium "$dir" --dump-dom "file://$copy" 2>/dev/null |
		grep '^TB ' >"$copy.tb"
	tb=$(sed -n 's/^TB done charts=\([0-9]*\) faults=\([0-9]*\)$/\1 \2/p' "$copy.tb")
	grep -E '^TB (over|out) ' "$copy.tb" | head -n 20 | sed 's/^TB /   /'
	t_cmp "$what: Chromium laid out its charts" "${tb% *}" -ge "$min"
	t_eq "$what: no chart's text over another or out of its chart, as Chromium lays them out" \
		"${tb#* }" 0
}

t_summary() {
	printf '%d passed, %d failed, %d skipped' "$T_PASSED" "$T_FAILED" \
		"$T_SKIPPED"
	[ "$T_KNOWN" -eq 0 ] || printf ', %d known misses' "$T_KNOWN"
	printf '\n'
	[ "$T_FAILED" -eq 0 ]
}

# MiB of a churn whose frees cannot all stay on the pcp lists, so that
# some go through free_pcppages_bulk whatever the lists held before: more
# than every pageset may hold (high_max, or high before 6.7; here a CPU's
# Normal list may hold 249856 pages), at most half of what is available
# (the frees must come from the churn, not from reclaim)
t_churn_past_high_mib() {
	local mib avail
	mib=$(awk -v page="$(getconf PAGESIZE)" '
		$1 == "cpu:" { t += h; h = 0 }
		($1 == "high:" || $1 == "high_max:") && $2 > h { h = $2 }
		END { printf "%d\n", (t + h) * page / 1048576 + 64 }' /proc/zoneinfo)
	avail=$(awk '$1 == "MemAvailable:" { print int($2 / 2048) }' /proc/meminfo)
	[ "$mib" -gt "$avail" ] && mib=$avail
	echo "$mib"
}

# the kernel frees a closed program after an RCU grace period: up to 3 s
settled() { # COUNT WANT: what COUNT prints once it is WANT, or after 3 s
	local n
	for _ in $(seq 1 30); do
		n=$("$1")
		[ "$n" = "$2" ] && break
		sleep 0.1
	done
	echo "$n"
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The live view, tested the way people use it: pcptop top runs in a tmux
# pane under page churn, the screen is read with capture-pane, keys are
# pressed and what the screen shows after each is checked; q, Ctrl-C and
# SIGTERM must leave the shell usable, nothing attached and bpf_stats as
# they were. Then a vt100 and a Linux console at 80x24, batch mode, and
# bad input.
# Usage: tests/top/run.sh [PCPTOP]   (default build/pcptop; churn beside it)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

P=$(realpath "${1:-build/pcptop}")
CHURN=$(dirname "$P")/churn
SOCK=pcptop-top-test-$$
TMP=$(mktemp -d)
STATS=/proc/sys/kernel/bpf_stats_enabled
# tmux on a socket of its own: no user config, no other sessions touched
TM=(tmux -L "$SOCK" -f /dev/null)
churn_pid=

cleanup() {
	[ -n "$churn_pid" ] && kill "$churn_pid" 2>/dev/null
	"${TM[@]}" kill-server 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

t_need top "$P" "$CHURN"
if ! command -v tmux >/dev/null; then
	echo "top: needs tmux" >&2
	exit 2
fi

screen() { # [SESSION]: the pane's text now
	"${TM[@]}" capture-pane -p -t "${1:-main}"
}

# wait_for SESSION ERE [SECS]: until the screen matches (default 10 s)
wait_for() {
	for _ in $(seq $((${3:-10} * 10))); do
		screen "$1" | grep -Eq -- "$2" && return 0
		sleep 0.1
	done
	return 1
}

# wait_gone SESSION ERE [SECS]: until the screen no longer matches
wait_gone() {
	for _ in $(seq $((${3:-10} * 10))); do
		screen "$1" | grep -Eq -- "$2" || return 0
		sleep 0.1
	done
	return 1
}

# the status line's clock, "HH:MM:SS 1.00s"
status_time() {
	screen "$1" | grep -Eo '[0-9]{2}:[0-9]{2}:[0-9]{2} [0-9.]+s' | head -n 1
}

# wait_tick SESSION: until the status clock differs from what it shows now
wait_tick() {
	local t0
	t0=$(status_time "$1")
	for _ in $(seq 50); do
		sleep 0.1
		[ "$(status_time "$1")" != "$t0" ] && return 0
	done
	return 1
}

# column NAME ZONE < screen: NAME's values on the rows of ZONE, one a line
column() {
	awk -v want="$1" -v zone="$2" '
		!hdr && / ZONE / {
			for (i = 1; i <= NF; i++) { f = $i; sub(/^\*/, "", f); if (f == want) c = i }
			hdr = 1; next
		}
		hdr && c {
			sub(/^>/, "")
			if ($2 == zone) print $c
		}'
}

sorted_label() { # the header label that carries the sort mark
	screen "$1" | grep -Eo '\*[A-Z0-9/]+' | head -n 1
}

selected_row() { # CPU and ZONE of the row marked '>'
	screen "$1" | awk '/^>/ { print $2, $3; exit }'
}

# sel_re "CPU ZONE": an ERE for that row when it is the selected one
sel_re() {
	printf '^> +%s ' "$(sed 's/[][().*^$+?{}|\\]/\\&/g' <<<"$1")"
}

# pcptop's pid: the child of the pane's shell
pcptop_pid() {
	local shell
	shell=$("${TM[@]}" list-panes -t "$1" -F '#{pane_pid}')
	pgrep -P "$shell" -x pcptop | head -n 1
}

# the BPF programs a process holds, from its fds
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u
}

# after pcptop ends: none of IDS is loaded, bpf_stats as before
check_released() { # WHAT IDS...
	local what=$1 id left="" i
	shift
	# the kernel frees a program after an RCU grace period: give it 3 s
	for i in $(seq 30); do
		left=""
		for id in "$@"; do
			bpftool prog show id "$id" >/dev/null 2>&1 && left="$left $id"
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	t_eq "$what: its BPF programs are gone" "${left:-none}" none
	t_eq "$what: bpf_stats_enabled back to $stats_before" "$(cat $STATS)" "$stats_before"
}

# shell_alive SESSION: the shell answers and echoes what is typed
shell_alive() {
	local tag=ALIVE-$RANDOM
	"${TM[@]}" send-keys -t "$1" "echo $tag" Enter
	wait_for "$1" "^$tag\$" 5
}

# start_top SESSION COLS ROWS TERM: a shell in a fresh session, pcptop in it
start_top() {
	"${TM[@]}" new-session -d -s "$1" -x "$2" -y "$3" \
		"env TERM=$4 PS1='$ ' bash --norc --noprofile"
	wait_for "$1" '^\$' 5
	"${TM[@]}" send-keys -t "$1" "$P top -d 1" Enter
	# the status clock replaces "collecting the first" with the interval
	wait_for "$1" '^>? +[0-9]+ all\(tp\) ' 10 &&
		wait_for "$1" '[0-9]{2}:[0-9]{2}:[0-9]{2} [0-9.]+s ' 5
}

stats_before=$(cat $STATS)
# more than pcp->high can hold, so the frees spill into bulk frees
"$CHURN" -m 512 -s 60 >/dev/null &
churn_pid=$!

echo "== live view at 100x30 under churn"
start_top main 100 30 xterm
t_eq "the first interval is shown" "$?" 0
pid=$(pcptop_pid main)
t_check "pcptop runs in the pane" -- test -n "$pid"
mapfile -t ids < <(prog_ids "$pid")
t_cmp "pcptop holds BPF programs" "${#ids[@]}" -gt 0
# BPF_ENABLE_STATS leaves the sysctl alone: the programs' run counts show it
t_check "bpf_stats on while it runs" -- \
	grep -Eq 'run_cnt [1-9]' <(for id in "${ids[@]}"; do bpftool prog show id "$id"; done)
t_eq "the sysctl is left alone" "$(cat $STATS)" "$stats_before"
t_check "first line names the scale and its source" -- \
	grep -Eq '^scale ([0-9]+|unknown)' <(screen | head -n 1)
t_check "header shows kernel, cost and pageblock order" -- \
	wait_for main "^kernel $(uname -r) .*cost: [0-9]+ ns/event, [0-9.]+% CPU \\(2s in 30s\\).*pageblock order" 6
# the cost is sampled: after its 2 s window the statistics are off again,
# and every BPF program on the system stops paying two clock reads a run
runs() {
	for id in "${ids[@]}"; do bpftool prog show id "$id"; done |
		sed -n 's/.*run_cnt \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}
r0=$(runs)
sleep 1
t_eq "bpf_stats off between cost windows (run_cnt holds still under churn)" "$(runs)" "$r0"
t_check "header shows the mode per probe group" -- \
	grep -Eq '^probes: bulk_free=[a-z]+~? refill=' <(screen)
t_check "pcp rows per zone" -- grep -Eq '^>? +0 Normal +[0-9.]+[kMGT]? +[0-9.]+[kMGT]? +[0-9]+ ' <(screen)
# bulk frees come in bursts (pcp->high is tuned up under load): watch a
# few refreshes for a change and for a nonzero figure
screen >"$TMP/a"
bpg_seen=$(column BPG/s 'all(tp)' <"$TMP/a" | tr '\n' ' ')
bpg_distinct=1
for _ in 1 2 3 4 5 6; do
	wait_tick main
	screen >"$TMP/b"
	bpg=$(column BPG/s 'all(tp)' <"$TMP/b" | tr '\n' ' ')
	grep -qxF -- "$bpg" <(tr '|' '\n' <<<"$bpg_seen") ||
		bpg_distinct=$((bpg_distinct + 1))
	bpg_seen="$bpg_seen|$bpg"
	[ "$bpg_distinct" -ge 2 ] && grep -Eq '[1-9]' <<<"$bpg_seen" && break
done
t_cmp "bulk-free pages/s change between refreshes ($bpg_seen)" "$bpg_distinct" -ge 2
t_check "bulk-free pages/s nonzero under churn" -- grep -Eq '[1-9]' <<<"$bpg_seen"
cnt_a=$(column COUNT Normal <"$TMP/a" | tr '\n' ' ')
cnt_b=$(column COUNT Normal <"$TMP/b" | tr '\n' ' ')
t_check "pcp count re-read every refresh ($cnt_a/ $cnt_b)" -- test "$cnt_a" != "$cnt_b"
t_cmp "100 columns hold every column" "$(grep -c ' SMAX$' "$TMP/b")" -eq 1

echo "== keys"
before=$(sorted_label main)
"${TM[@]}" send-keys -t main s
wait_gone main "\\$before( |$)" 3
t_check "s moves the sort mark ($before -> $(sorted_label main))" -- \
	test "$(sorted_label main)" != "$before"
"${TM[@]}" send-keys -t main '>'
wait_for main 'sort COUNT' 3
t_eq "> sorts by the next column" "$(sorted_label main)" '*COUNT'
"${TM[@]}" send-keys -t main '<' '<'
wait_for main 'sort CPU' 3
t_eq "< goes back" "$(sorted_label main)" '*CPU'

"${TM[@]}" send-keys -t main z
wait_gone main 'zone all ' 3
zone=$(screen | grep -Eo 'zone [A-Za-z0-9()]+' | head -n 1)
t_check "z filters to one zone ($zone)" -- test "$zone" != "zone all"
t_eq "only that zone's rows" "$(screen | awk '/ ZONE /{h=1;next} h && NF>3 && !/->/ && /^>? +[0-9]/{sub(/^>/,""); print $2}' | sort -u)" "${zone#zone }"
for _ in 1 2 3 4 5 6; do
	screen | grep -q 'zone all ' && break
	"${TM[@]}" send-keys -t main z
	sleep 0.2
done
t_check "z cycles back to all zones" -- wait_for main 'zone all ' 3

"${TM[@]}" send-keys -t main c
wait_for main 'rows summed' 3
t_check "c sums over CPUs" -- grep -Eq '^>? +all all\(tp\) ' <(screen)
t_cmp "one row per zone" "$(screen | grep -cE '^>? +all Normal ')" -eq 1
"${TM[@]}" send-keys -t main c
t_check "c again: rows per CPU" -- wait_for main 'rows per-CPU' 3

sel0=$(selected_row main)
"${TM[@]}" send-keys -t main Down
wait_gone main "$(sel_re "$sel0")" 3
sel1=$(selected_row main)
t_check "Down selects another row ($sel0 -> $sel1)" -- test -n "$sel1" -a "$sel1" != "$sel0"
t_check "the pane follows the selection" -- \
	grep -q "of CPU ${sel1% *}, ${sel1#* }" <(screen)
"${TM[@]}" send-keys -t main Up
wait_for main "$(sel_re "$sel0")" 3
t_eq "Up goes back" "$(selected_row main)" "$sel0"

t_check "pane shows batch sizes" -- grep -q '^batch sizes (pages) of' <(screen)
"${TM[@]}" send-keys -t main H
t_check "H switches to the times (spans in tracepoint mode)" -- wait_for main '^(event spans|zone->lock hold and interrupts off) \(ns\) of' 3
"${TM[@]}" send-keys -t main Tab
t_check "Tab switches to the system pane" -- wait_for main '^system, sampled each interval' 3
t_check "the system pane shows the pcp lists zone by zone" -- \
	grep -qE '^  pcp_pages +[0-9.kM]+ pages +.*Normal [0-9.kM]+' <(screen)
t_check "the header's system line shows the wall-time budget and what the kernel skipped" -- \
	grep -qE '^system: busy [0-9]+% iowait [0-9]+% throttled [0-9]+% stalled [0-9]+%  recursion_misses [0-9]+' <(screen)
"${TM[@]}" send-keys -t main Tab
t_check "Tab switches back" -- wait_for main '^batch sizes \(pages\) of' 3

"${TM[@]}" send-keys -t main h
t_check "h shows the help" -- wait_for main '^pcptop top: keys' 3
t_check "help lists the keys" -- grep -q 'zone filter' <(screen)
"${TM[@]}" send-keys -t main x
t_check "any key leaves the help" -- wait_for main '^scale ' 3
"${TM[@]}" send-keys -t main '?'
t_check "? shows the help too" -- wait_for main '^pcptop top: keys' 3
"${TM[@]}" send-keys -t main h
t_check "h again returns" -- wait_for main '^scale ' 3

"${TM[@]}" send-keys -t main Space
t_check "space shows PAUSED" -- wait_for main '^PAUSED ' 3
frozen=$(status_time main)
sleep 2.3
t_eq "paused: the display stays put" "$(status_time main)" "$frozen"
"${TM[@]}" send-keys -t main Space
t_check "space again resumes" -- wait_gone main '^PAUSED ' 3
t_check "resumed: a newer interval is shown" -- test "$(status_time main)" != "$frozen"

"${TM[@]}" send-keys -t main d
t_check "d prompts for the delay" -- wait_for main 'Change delay from 1 to:' 3
"${TM[@]}" send-keys -t main 2 Enter
t_check "the new delay is in force" -- wait_for main 'delay 2s ' 3
"${TM[@]}" send-keys -t main d 0 Enter
t_check "a bad delay is refused" -- wait_for main "bad delay '0'" 3
"${TM[@]}" resize-window -t main -x 84 -y 26
t_check "a resize redraws at the new size" -- wait_for main ' SPAN$' 3
t_cmp "after the resize no line is wider" "$(screen | awk '{ if (length > m) m = length } END { print m + 0 }')" -le 84

"${TM[@]}" send-keys -t main q
t_check "q ends pcptop" -- wait_for main '^\$ ?$' 5
t_check "the shell is usable after q" -- shell_alive main
t_check "pcptop is gone" -- test ! -e "/proc/$pid"
check_released "after q" "${ids[@]}"

echo "== Ctrl-C and SIGTERM"
"${TM[@]}" send-keys -t main "$P top -d 1" Enter
wait_for main '^>? +[0-9]+ all\(tp\) ' 10
pid=$(pcptop_pid main)
mapfile -t ids < <(prog_ids "$pid")
"${TM[@]}" send-keys -t main C-c
t_check "Ctrl-C ends pcptop" -- wait_for main '^\$ ?$' 5
t_check "the shell is usable after Ctrl-C" -- shell_alive main
check_released "after Ctrl-C" "${ids[@]}"
"${TM[@]}" send-keys -t main "$P top -d 1" Enter
wait_for main '^>? +[0-9]+ all\(tp\) ' 10
pid=$(pcptop_pid main)
mapfile -t ids < <(prog_ids "$pid")
kill -TERM "$pid"
t_check "SIGTERM ends pcptop" -- wait_for main '^\$ ?$' 5
t_check "the shell is usable after SIGTERM" -- shell_alive main
check_released "after SIGTERM" "${ids[@]}"

for term in vt100 linux; do
	echo "== TERM=$term at 80x24"
	start_top "$term" 80 24 "$term"
	t_eq "$term: the first interval is shown" "$?" 0
	screen "$term" >"$TMP/$term"
	t_check "$term: scale on the first line" -- grep -q '^scale ' <(head -n 1 "$TMP/$term")
	t_check "$term: table header" -- grep -Eq '^ \*CPU ZONE +COUNT +HIGH +BATCH' "$TMP/$term"
	t_check "$term: columns past the width are dropped" -- \
		grep -Eq 'MAX +REF/s +RPG/s +HIO/s$' "$TMP/$term"
	t_check "$term: rows" -- grep -Eq '^>? +1 all\(tp\) ' "$TMP/$term"
	t_check "$term: pane" -- grep -q '^batch sizes (pages) of' "$TMP/$term"
	t_cmp "$term: 24 lines used at most" "$(grep -c . "$TMP/$term")" -le 24
	"${TM[@]}" send-keys -t "$term" q
	t_check "$term: q ends pcptop" -- wait_for "$term" '^\$ ?$' 5
	t_check "$term: the shell is usable" -- shell_alive "$term"
done

echo "== a TERM with no terminfo entry, and TERM=dumb"
"${TM[@]}" new-session -d -s bogus -x 100 -y 30 \
	"env TERM=pcptop-no-such-term PS1='$ ' bash --norc --noprofile"
wait_for bogus '^\$' 5
"${TM[@]}" send-keys -t bogus "$P top -d 1" Enter
t_check "an unknown TERM gets the live view, through the built-in vt100 entry" -- \
	wait_for bogus "^no terminfo for TERM=pcptop-no-such-term here: using pcptop's built-in vt100 entry" 8
t_check "with its table" -- wait_for bogus '^ \*CPU ZONE ' 5
"${TM[@]}" send-keys -t bogus q
t_check "q ends it" -- wait_for bogus '^\$ ?$' 5
t_check "no private terminfo directory left behind" -- \
	test -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'pcptop-terminfo.*' 2>/dev/null)"
"${TM[@]}" new-session -d -s dumb -x 100 -y 30 \
	"env TERM=dumb $P top -n 1 -d 0.5 >$TMP/dumb 2>$TMP/dumb.err; echo rc=\$? >>$TMP/dumb.err"
for _ in $(seq 1 50); do grep -q '^rc=' "$TMP/dumb.err" 2>/dev/null && break; sleep 0.2; done
t_check "TERM=dumb: text frames, as with -b" -- grep -q '^ \*CPU ZONE ' "$TMP/dumb"
t_cmp "TERM=dumb: no escape codes" "$(LC_ALL=C grep -c $'\x1b' "$TMP/dumb")" -eq 0
t_check "TERM=dumb: the note says why" -- grep -q 'TERM is dumb: plain text frames' "$TMP/dumb.err"
t_check "TERM=dumb: exit 0" -- grep -q '^rc=0$' "$TMP/dumb.err"

echo "== batch mode"
"$P" top -b -n 2 -d 1 >"$TMP/batch" 2>"$TMP/batch.err" </dev/null
t_eq "-b -n 2 exits 0" "$?" 0
t_cmp "two frames" "$(grep -c '^scale ' "$TMP/batch")" -eq 2
t_cmp "no escape codes" "$(LC_ALL=C grep -c $'\x1b' "$TMP/batch")" -eq 0
t_cmp "every frame has the table" "$(grep -c '^ \*CPU ZONE ' "$TMP/batch")" -eq 2
t_cmp "and the histograms" "$(grep -c '^batch sizes (pages) of all CPUs and zones' "$TMP/batch")" -eq 2
"$P" top -b -n 50 -d 0.1 2>/dev/null | head -n 3 >/dev/null
t_eq "a closed pipe ends batch mode cleanly" "${PIPESTATUS[0]}" 0
t_eq "bpf_stats_enabled back after batch mode" "$(cat $STATS)" "$stats_before"

echo "== errors"
for bad in "-d 0" "-d x" "-n 0" "-n -3" "--bogus" "-d" "extra"; do
	# shellcheck disable=SC2086
	"$P" top $bad >/dev/null 2>"$TMP/err" </dev/null
	t_eq "top $bad exits 2" "$?" 2
	t_cmp "top $bad: one line" "$(wc -l <"$TMP/err")" -eq 1
done
"$P" top </dev/null >"$TMP/out" 2>"$TMP/err"
t_eq "no terminal and no -b exits 2" "$?" 2
t_check "and says to use -b" -- grep -q -- '-b' "$TMP/err"
"$P" top --help >"$TMP/help"
t_eq "top --help exits 0" "$?" 0
for word in Columns Keys Examples BPG/s 'all(tp)' 'zone->lock'; do
	t_check "top --help explains $word" -- grep -qF -- "$word" "$TMP/help"
done

t_summary

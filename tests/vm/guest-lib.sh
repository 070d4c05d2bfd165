# SPDX-License-Identifier: GPL-2.0-only
#
# Shell functions for the guests of tests/vm: init.sh and the scripts that
# run.sh --exec boots (tests/bench/startup-guest.sh) source it from
# /bin/vmtest-lib.sh. busybox sh.

# hwm_until_exit PID: its exit status and VmHWM in KiB, polled with shell
# builtins only until it is a zombie: a start of a second under TCG is
# too short for peak_rss's 0.1 s steps
hwm_until_exit() {
	local pid=$1 hwm=0 k v st
	while read -r _ _ st _ </proc/$pid/stat 2>/dev/null && [ "$st" != Z ]; do
		while read -r k v _; do
			[ "$k" = VmHWM: ] && hwm=$v
		done </proc/$pid/status 2>/dev/null
	done
	wait "$pid"
	echo "$? $hwm"
}

# The kernel's own count of kmem:mm_page_alloc and mm_page_free: a hist
# trigger's hits. Two triggers on one event must differ in their keys,
# and the hist file shows both, each with its totals. Written with >>: a
# write that truncates the trigger file clears the event's other triggers.
HIST_EV=/sys/kernel/tracing/events/kmem
# an allocation that failed is traced with pfn -1 and no page, which
# pcptop's trace leaves out (it took nothing from the lists)
HIST_NOFAIL="pfn != 18446744073709551615"

hist_on() { # EVENT KEY [FILTER]
	echo "hist:keys=$2${3:+ if $3}" >>"$HIST_EV/$1/trigger" 2>/dev/null
}

hist_hits() { # EVENT KEY [FILTER]: its trigger's hits, then it goes
	# the info line may name cpu common_cpu, and 7.3 common_cpucpu
	awk -v k="keys=[a-z_]*$2[:.]" '/^# trigger info:/ { on = $0 ~ k }
		on && $1 == "Hits:" { print $2; exit }' "$HIST_EV/$1/hist" 2>/dev/null
	echo "!hist:keys=$2${3:+ if $3}" >>"$HIST_EV/$1/trigger" 2>/dev/null
}

# until pid holds BPF links and their number holds still for a second
wait_links() {
	pid=$1 last=-1 still=0 i=0
	while [ $i -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
		n=$(ls -l /proc/"$pid"/fd 2>/dev/null | grep -c bpf_link)
		if [ "$n" -gt 0 ] && [ "$n" = "$last" ]; then
			still=$((still + 1))
			[ $still -ge 4 ] && return 0
		else
			still=0
		fi
		last=$n
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}

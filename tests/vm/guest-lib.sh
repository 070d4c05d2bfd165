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

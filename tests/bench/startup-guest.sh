# SPDX-License-Identifier: GPL-2.0-only
#
# Inside a board VM (tests/bench/startup.sh boots it with -icount shift=0,
# so guest time counts instructions: about what a 1 GHz in-order core
# takes): pcptop's start to exit of `stat -i 0.05 -c 1`, and its peak
# RSS, from an empty BTF cache (first), reading it (second), with the
# cache off, and in kprobe and tracepoint modes. One "BENCH:start:CASE:RUN NS" line per
# timed start and "BENCH:rss:CASE STATUS KIB" per measured one.
REPS=${REPS:-3}
CACHE=/var/cache/pcptop/btf

. /bin/vmtest-lib.sh

# one CASE: ENV ARGS; a cold case empties the cache before each start
one() {
	local case=$1 cold=$2 env=$3 i ns
	shift 3
	for i in $(seq "$REPS"); do
		[ "$cold" = cold ] && rm -rf $CACHE
		ns=$(env $env timed pcptop stat -i 0.05 -c 1 -H "$@" 2>&1 >/dev/null |
			sed -n 's/^timed: \([0-9]*\) ns$/\1/p')
		echo "BENCH:start:$case:$i ${ns:-failed}"
	done
	[ "$cold" = cold ] && rm -rf $CACHE
	env $env pcptop stat -i 0.05 -c 1 -H "$@" >/dev/null 2>&1 &
	# not in $(...): a subshell cannot wait for its parent's child
	hwm_until_exit $! >/tmp/hwm
	echo "BENCH:rss:$case $(cat /tmp/hwm)"
}

echo "BENCH:kernel:$(uname -r) $(uname -m) $(wc -c </sys/kernel/btf/vmlinux) bytes of BTF"
one first cold ""
pcptop stat -i 0.05 -c 1 -H >/dev/null 2>&1
one second warm ""
one second-kprobe warm "" --mode kprobe
one second-tracepoint warm "" --mode tracepoint
one cache-off warm "PCPTOP_BTF_CACHE="
echo "BENCH:source:$(pcptop info 2>/dev/null | sed -n 's/^kernel .*BTF //p')"

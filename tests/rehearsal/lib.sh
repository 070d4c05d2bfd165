# SPDX-License-Identifier: GPL-2.0-only
# What make rehearsal (tests/rehearsal/run.sh) and its bench
# (tests/bench/rehearsal.sh) share: the initramfs, the disk, one boot of
# reference 000's run, and the measures read from it. Sourced, not run;
# the caller sets root, OUT, BIN and defines log and die.

# the board: one Cortex-A55 core and 1 GiB
RH_SMP=1
RH_MEM_MB=${REHEARSAL_MEM_MB:-1024}
# as tests/oracle/run.sh: a steady clock (kvm's TSC is unstable under TCG
# and the HPET fallback costs microseconds a read)
RH_APPEND="console=ttyS0 quiet panic=-1 tsc=reliable clocksource=tsc pcptest.rehearsal=1"
# bonnie++'s 2 GiB file, its 16 Ki small files, the recording: 6 GiB of
# sparse image, made anew for every boot
RH_DISK_SIZE=6G
# A class-10 SD card (the board's /mnt): 10 MB/s written is all class 10
# promises; cards sold as such write 15-30 MB/s and read 40-90 MB/s, and
# A1 cards promise 1500 random reads and 500 writes a second. These make
# reference 000's ~12 GiB of bonnie++ I/O take about ten minutes, as the
# board's run did.
RH_SD_THROTTLE="throttling.bps-read=33554432,throttling.bps-write=16777216,throttling.iops-read=1500,throttling.iops-write=500"
RH_TIMEOUT=${REHEARSAL_TIMEOUT:-1800}
USER_HZ=100

# the initramfs: busybox, the static pcptop and hog, the guest script, the patched
# kernels' /init and bonnie++; $1 the modules cpio to append, or empty
rh_initrd() {
	local out=$1 mods=${2:-} stage=$OUT/initrd
	rm -rf "$stage"
	mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp"
	cp /bin/busybox "$stage/bin/busybox"
	cp "$BIN/pcptop" "$BIN/hog" "$stage/bin/"
	cp "$root/tests/rehearsal/guest.sh" "$stage/bin/rehearsal-guest.sh"
	# hist_on, hist_hits: the trace's oracle under --trace
	cp "$root/tests/vm/guest-lib.sh" "$stage/bin/vmtest-lib.sh"
	cp "$root/tests/vm/kernel/init.sh" "$stage/init"
	chmod 755 "$stage/init" "$stage/bin/"*
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$out.base" || return 1
	cat "$out.base" "$RH_BONNIE" $mods >"$out" || return 1
	rm -rf "$stage" "$out.base"
}

# rh_modules_stage MDIR DEST MODULE...: the MODULEs of a Debian kernel's
# modules directory MDIR and what they need, uncompressed (busybox's
# insmod reads plain .ko), in DEST, with DEST/order their load order. The
# package has no modules.dep (depmod makes it at install): each module's
# depends= (modinfo's field, what modpost found it needs and what depmod
# writes into modules.dep) is followed instead. A module built into the
# kernel is left out.
rh_modules_stage() {
	local mdir=$1 dest=$2 order=() seen=" " m
	shift 2
	mkdir -p "$dest" || return 1
	_rh_mod() {
		local name=$1 f dep
		case "$seen" in *" $name "*) return 0 ;; esac
		seen="$seen$name "
		f=$(find "$mdir/kernel" -name "$name.ko*" -print -quit)
		if [ -z "$f" ]; then
			grep -q "/$name.ko$" "$mdir/modules.builtin" && return 0
			log "module $name: neither in $mdir nor built in"
			return 1
		fi
		case "$f" in
		*.xz) xz -dc "$f" ;;
		*.zst) zstd -qdc "$f" ;;
		*.gz) gzip -dc "$f" ;;
		*) cat "$f" ;;
		esac >"$dest/$name.ko" || return 1
		for dep in $(tr '\0' '\n' <"$dest/$name.ko" |
			sed -n 's/^depends=//p' | tr ',' ' '); do
			_rh_mod "${dep//-/_}" || _rh_mod "$dep" || return 1
		done
		order+=("$name.ko")
	}
	for m; do
		_rh_mod "$m" || return 1
	done
	printf '%s\n' "${order[@]}" >"$dest/order"
}

# A Debian kernel's modules for the disk, virtio_blk and ext4 (as
# rh_modules_stage's, in /lib/modules/rehearsal), as a cpio at $3, with the
# package's boot/config-* (Debian's kernels have no /proc/config.gz:
# pcptop reads the scale there)
rh_modules_cpio() {
	local kdir=$1 mdir=$2 out=$3 stage=$OUT/modstage
	rm -rf "$stage"
	mkdir -p "$stage/boot"
	cp "$kdir"/boot/config-* "$stage/boot/" 2>/dev/null
	rh_modules_stage "$mdir" "$stage/lib/modules/rehearsal" virtio_blk ext4 ||
		return 1
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$out" || return 1
	rm -rf "$stage"
}

# a fresh ext4 on a sparse image
rh_disk() {
	rm -f "$1"
	truncate -s "$RH_DISK_SIZE" "$1" &&
		mkfs.ext4 -q -F -L rehearsal "$1" >/dev/null
}

# lines the guest printed with TAG, serial \r removed
rh_tagged() {
	tr -d '\r' <"$1" | sed -n "s/^REHEARSAL:$2://p"
}

# rh_boot DIR KERNEL INITRD APPEND SD ICOUNT_SLEEP [CUT_S] [MEM_MB]: one
# boot, console in DIR/console.log, disk DIR/disk.img (left as it is).
# SD=1 throttles the disk to the SD card's rates. CUT_S: kill qemu -9
# once the guest's ticks say bonnie++ has run that many guest seconds
# (empty: no cut). MEM_MB: the guest's RAM (RH_MEM_MB): bonnie++'s file
# is twice it, so less RAM is a shorter run of the same shape.
rh_boot() {
	local dir=$1 kernel=$2 initrd=$3 append=$4 sd=$5 sleep=$6 cut=${7:-}
	local mem=${8:-$RH_MEM_MB}
	local drive="file=$dir/disk.img,format=raw,if=none,id=d0,cache=unsafe"
	local logf=$dir/console.log pid t0=$SECONDS rc s0 tk
	# cache=unsafe: the host's page cache holds what the guest wrote, and
	# a killed qemu loses none of it; a power cut loses what the guest
	# had not written yet, which is the loss that matters here
	[ "$sd" = 1 ] && drive="$drive,$RH_SD_THROTTLE"
	# the line tests/run-all.sh counts as a boot
	echo "boot: $(basename "$dir") ($(basename "$kernel"))" >&2
	timeout -k 10 "$RH_TIMEOUT" qemu-system-x86_64 -m "$mem" \
		-smp "$RH_SMP" -icount "shift=0,sleep=$sleep" -nographic \
		-no-reboot -kernel "$kernel" -initrd "$initrd" \
		-append "$append" -drive "$drive" \
		-device virtio-blk-pci,drive=d0 </dev/null >"$logf" 2>&1 &
	pid=$!
	if [ -n "$cut" ]; then
		while kill -0 "$pid" 2>/dev/null; do
			sleep 0.2
			s0=$(rh_tagged "$logf" bonnie_start)
			tk=$(rh_tagged "$logf" tick | tail -n 1)
			[ -n "$s0" ] && [ -n "$tk" ] || continue
			if awk -v a="$tk" -v b="$s0" -v c="$cut" 'BEGIN { exit !(a - b >= c) }'; then
				# the power cut: qemu (the timeout's child), then the timeout
				kill -KILL $(pgrep -P "$pid") 2>/dev/null
				kill -KILL "$pid" 2>/dev/null
				break
			fi
		done
	fi
	# a killed qemu is the plan, not news
	wait "$pid" 2>/dev/null
	rc=$?
	log "$(basename "$dir"): boot ended after $((SECONDS - t0)) s (exit $rc)"
	echo "$((SECONDS - t0))" >"$dir/wall_s"
	return 0
}

# the recording off the disk image, as a card would be read on a PC
rh_fetch_rec() {
	rm -f "$2"
	debugfs -R "dump /rec.data $2" "$1" >/dev/null 2>&1
	[ -s "$2" ]
}

# the measures of one boot as JSON: guest CPU busy time (instructions,
# under -icount), elapsed and iowait guest time, bonnie++'s CSV
rh_metrics() {
	local logf=$1 cpu up csv
	cpu=$(rh_tagged "$logf" cpu | tail -n 1)
	up=$(rh_tagged "$logf" uptime | tail -n 1)
	csv=$(rh_tagged "$logf" csv | tail -n 1)
	awk -v cpu="$cpu" -v up="$up" -v csv="$csv" -v hz="$USER_HZ" '
	function q(s) { return "\"" s "\"" }
	function num(s) { return s ~ /^[0-9.]+$/ ? s : "null" }
	BEGIN {
		split(cpu, h, /\|/)
		n = split(h[1], a, " "); split(h[2], b, " ")
		# user nice system idle iowait irq softirq
		busy = (b[1] - a[1]) + (b[2] - a[2]) + (b[3] - a[3]) + \
			(b[6] - a[6]) + (b[7] - a[7])
		split(up, u, " ")
		bs = "null"; ws = "null"; is = "null"; es = "null"
		if (n >= 7) {
			bs = busy / hz; ws = (b[5] - a[5]) / hz; is = (b[4] - a[4]) / hz
		}
		if (u[2] != "")
			es = u[2] - u[1]
		printf "{\"busy_s\": %s, \"iowait_s\": %s, \"idle_s\": %s, \"elapsed_s\": %s",
			bs, ws, is, es
		# bonnie++ 2.00 CSV: K/s and CPU % per phase, files/s, latencies
		m = split(csv, c, ",")
		printf ", \"bonnie\": {\"version\": %s, \"size\": %s", q(c[2]), q(c[6])
		split("putc put_block rewrite getc get_block seeks", ph, " ")
		for (i = 1; i <= 6; i++)
			printf ", \"%s\": %s, \"%s_cpu\": %s", ph[i], num(c[8 + 2 * i]),
				ph[i], num(c[9 + 2 * i])
		split("seq_create seq_stat seq_del ran_create ran_stat ran_del", fp, " ")
		for (i = 1; i <= 6; i++)
			printf ", \"%s\": %s", fp[i], num(c[25 + 2 * i])
		split("putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del", lp, " ")
		for (i = 1; i <= 12; i++)
			printf ", \"%s_latency\": %s", lp[i], q(c[38 + i])
		printf ", \"fields\": %d}}\n", m
	}'
}

# a fresh $OUT/runs/NAME with a fresh disk; 1 after saying why not
rh_fresh() {
	rm -rf "$OUT/runs/$1"
	mkdir -p "$OUT/runs/$1"
	rh_disk "$OUT/runs/$1/disk.img" || { log "$1: mkfs.ext4 failed"; return 1; }
}

# the recording off runs/NAME's disk to $OUT/NAME.data, its report to
# runs/NAME/report.json; the disk image removed (2 GiB and more once
# bonnie++ has run)
rh_collect() {
	local dir=$OUT/runs/$1
	rm -f "$OUT/$1.data"
	if rh_fetch_rec "$dir/disk.img" "$OUT/$1.data"; then
		"$root/build/pcptop" report --json "$OUT/$1.data" \
			>"$dir/report.json" 2>"$dir/report.err"
	fi
	[ -n "${REHEARSAL_KEEP_DISKS:-}" ] || rm -f "$dir/disk.img"
}

# rh_run NAME KERNEL INITRD APPEND SD SLEEP [MEM_MB]: one run of
# reference 000 in $OUT/runs/NAME, its recording copied to
# $OUT/NAME.data, its measures to runs/NAME/metrics.json and pcptop's
# report to runs/NAME/report.json; MEM_MB as rh_boot's
rh_run() {
	local dir=$OUT/runs/$1
	rh_fresh "$1" || return 1
	rh_boot "$dir" "$2" "$3" "$4" "$5" "$6" "" "${7:-}"
	rh_metrics "$dir/console.log" >"$dir/metrics.json"
	rh_collect "$1"
}

# rh_trace_boots APPEND [MEM_MB]: reference 000's run with APPEND (the
# guest's --trace, its bonnie++ options) at pcp_batch_scale_max=5 and =0,
# one boot each and one at a time (two guests on two host cores stretch
# each other), each recording also as $OUT/suite/sN/t.data, where
# tests/whatif/run.sh and cross.sh read it, beside its report.json and
# the kernel's page counts (inner.hits, outer.hits), its fallbacks
# (extfrag: all, and those that claimed a block) and kswapd's wakeups
# (kswapd: asked, and balancing passes begun); sets bzimage and
# RH_BONNIE;
# 1 after saying why not
rh_trace_boots() {
	local append=$1 mem=${2:-} s
	bzimage=$("$root/tests/vm/kernel/build.sh") || { log "kernel build failed"; return 1; }
	RH_BONNIE=$("$root/tests/vm/bonnie-cpio.sh" amd64) || { log "no bonnie++ for amd64"; return 1; }
	rh_initrd "$OUT/initrd.cpio.gz" || { log "building the initramfs failed"; return 1; }
	for s in 5 0; do
		rh_run "s$s" "$bzimage" "$OUT/initrd.cpio.gz" \
			"$RH_APPEND $append pcptest.hits=1 pcp_batch_scale_max=$s" 0 on "$mem"
		mkdir -p "$OUT/suite/s$s"
		rm -f "$OUT/suite/s$s"/{t.data,report.json,inner.hits,outer.hits,extfrag,kswapd}
		cp "$OUT/s$s.data" "$OUT/suite/s$s/t.data" 2>/dev/null
		# the recording's report and the kernel's counts of its pages,
		# where tests/whatif/hits.sh reads them
		cp "$OUT/runs/s$s/report.json" "$OUT/suite/s$s/" 2>/dev/null
		rh_tagged "$OUT/runs/s$s/console.log" hits |
			awk '{ print $1, $2 >"'"$OUT/suite/s$s/inner.hits"'"
			       print $3, $4 >"'"$OUT/suite/s$s/outer.hits"'" }'
		rh_tagged "$OUT/runs/s$s/console.log" extfrag >"$OUT/suite/s$s/extfrag"
		rh_tagged "$OUT/runs/s$s/console.log" kswapd >"$OUT/suite/s$s/kswapd"
		log "s$s: $(rh_tagged "$OUT/runs/s$s/console.log" size)"
	done
}

# rh_cut NAME KERNEL INITRD APPEND CUT_S: the power cut in $OUT/runs/NAME:
# bonnie++ recorded to the disk, qemu killed -9 after CUT_S guest seconds
# of it (console-cut.log), then a boot on the same disk that reads the
# recording back (console.log); the file and its report as rh_run's
rh_cut() {
	local dir=$OUT/runs/$1
	rh_fresh "$1" || return 1
	rh_boot "$dir" "$2" "$3" "$RH_APPEND pcptest.rmode=cut $4" 0 on "$5"
	mv "$dir/console.log" "$dir/console-cut.log"
	rh_boot "$dir" "$2" "$3" "$RH_APPEND pcptest.rmode=readback" 0 on
	rh_collect "$1"
}

# How far before the cut the recording of rh_cut NAME ends, in guest
# seconds, in the recording's clock (realtime): the guest printed its
# realtime against its uptime once, then its uptime each second; the cut
# lies at most TICK after the last tick. Prints "LOST CUT_AT GAP": the
# seconds lost (all of the run when nothing reads back), the cut's
# second of bonnie++, the widest gap between ticks.
rh_cut_lost() {
	local d=$OUT/runs/$1 tick=$2 creal cup last s0 end
	read -r creal cup < <(rh_tagged "$d/console-cut.log" clock)
	last=$(rh_tagged "$d/console-cut.log" tick | tail -n 1)
	s0=$(rh_tagged "$d/console-cut.log" bonnie_start)
	end=$(jq -r '.start_unix + (.timeline[-1].t // 0)' "$d/report.json" 2>/dev/null)
	rh_tagged "$d/console-cut.log" tick | awk -v r="$creal" -v u="$cup" \
		-v t="$last" -v k="$tick" -v e="$end" -v s="$s0" '
		NR > 1 && $1 - p > g { g = $1 - p }
		{ p = $1 }
		END {
			if (r == "" || t == "" || s == "") { print "none none none"; exit }
			# nothing read back: the whole run since bonnie++ started
			lost = (e == "" || e == "null") ? t + k - s : t + k + r - u - e
			printf "%.1f %.0f %.1f\n", lost, t - s, g
		}'
}

# jq over one run's report, or its measures
rh_rj() { jq -r "$2" "$OUT/runs/$1/report.json" 2>/dev/null; }
rh_mj() { jq -r "$2" "$OUT/runs/$1/metrics.json" 2>/dev/null; }

# What every run needs, made once: the patched 6.12 ($bzimage), bonnie++,
# the initramfs ($OUT/initrd.cpio.gz); Debian's 6.17 ($k617 and
# $OUT/initrd-k617.cpio.gz), or $k617_skip saying why it cannot be had
RH_K617_PATTERN='^linux-image-6\.17\.[0-9]+\+deb13-amd64$'
RH_K617_SUITES="sid trixie trixie-backports"
rh_setup() {
	local kdir mdir
	log "kernel: tests/vm/kernel/build.sh (cached after the first build)"
	bzimage=$("$root/tests/vm/kernel/build.sh") || die "kernel build failed"
	RH_BONNIE=$("$root/tests/vm/bonnie-cpio.sh" amd64) || die "no bonnie++ for amd64"
	rh_initrd "$OUT/initrd.cpio.gz" || die "building the initramfs failed"
	k617_skip=
	if ! k617=$("$root/tests/vm/fetch-kernel.sh" --suites "$RH_K617_SUITES" \
		--image "$RH_K617_PATTERN" amd64 2>"$OUT/fetch-k617.err"); then
		k617_skip="cannot fetch $RH_K617_PATTERN from $RH_K617_SUITES: $(tail -n 1 "$OUT/fetch-k617.err")"
		return 0
	fi
	kdir=$(dirname "$(dirname "$k617")")
	mdir=$(ls -d "$kdir"/usr/lib/modules/*/ "$kdir"/lib/modules/*/ 2>/dev/null | head -n 1)
	if ! rh_modules_cpio "$kdir" "${mdir%/}" "$OUT/mods-k617.cpio.gz" ||
	   ! rh_initrd "$OUT/initrd-k617.cpio.gz" "$OUT/mods-k617.cpio.gz"; then
		k617_skip="no virtio_blk and ext4 modules in $kdir"
	fi
}

# -n N of the bench scripts: sets N, and RH_SHIFT to the words it took
rh_bench_n() {
	RH_SHIFT=0
	[ "${1:-}" = -n ] || return 0
	[[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "bad count '${2:-}'" 2
	N=$2
	RH_SHIFT=2
}

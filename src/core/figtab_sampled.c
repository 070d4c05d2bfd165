// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampled rows of the figure table: what batching does to the rest
 * of the system, read each interval from /proc beside the BPF maps, and
 * pcptop's own programs' statistics. figtab.c appends them to the BPF
 * rows; CONTRIBUTING.md's "A sampled figure" is how to add one.
 */
#include <stddef.h>
#include "arrays.h"
#include "figtab.h"

#define PCP_CHART "Memory parked in pcp lists"
#define WATERMARK_CHART "Free pages against the watermarks (all zones)"
#define STALL_CHART "Allocations that stalled, per second"
#define RECLAIM_CHART "Reclaim: pages scanned and reclaimed, per second"
#define COMPACT_CHART "Direct compaction outcomes, per second"
#define REFAULT_CHART "Refaults and major faults, per second"
#define PAGING_CHART "Block I/O paged in and out, KiB/s"
/* the rows as figtab.c lays its own out, which clang-format leaves there */
/* clang-format off */
#define CPU_CHART "CPU time by state, all CPUs (s a second)"
#define PSI_CHART "The kernel's stall totals (PSI), us a second"
#define BLOCK_CHART "Block devices: busy time (ms a second)"

/* a /proc/stat state: ms on each CPU, their sum the machine's */
#define CPU_ROW(st, what)                                                    \
	{                                                                     \
		.key = "cpu_" st, .title = "CPU time " what ", all CPUs (/proc/stat)", \
		.type = FIG_SAMPLED, FIG_NO_BPF,                               \
		.sample = { SRC_STAT, st, SAMPLE_COUNTER, SCOPE_CPU, "ms" },  \
		.chart = CPU_CHART,                                           \
		.prom_total = "pcptop_cpu_" st "_seconds_total",               \
		.prom_total_help = "CPU time " what ", seconds (/proc/stat), per CPU.", \
	}

/* a /proc/pressure total: us some (or all) tasks stalled on the resource */
#define PSI_ROW(res, kind, what)                                             \
	{                                                                     \
		.key = "psi_" res "_" kind, .title = what " (/proc/pressure/" res ", " kind ")", \
		.type = FIG_SAMPLED, FIG_NO_BPF,                               \
		.sample = { SRC_PSI, res "." kind, SAMPLE_COUNTER, SCOPE_MACHINE, "us" }, \
		.chart = PSI_CHART,                                           \
		.prom_total = "pcptop_psi_" res "_" kind "_seconds_total",     \
		.prom_total_help = what ", seconds (PSI " kind ").",           \
	}

/* a /sys/block/DEV/stat total, per device */
#define BLOCK_ROW(field, what, unit, ch, prom)                            \
	{                                                                     \
		.key = "blk_" field, .title = what " (/sys/block/*/stat, per device)", \
		.type = FIG_SAMPLED, FIG_NO_BPF,                               \
		.sample = { SRC_BLOCK, field, SAMPLE_COUNTER, SCOPE_DEV, unit }, \
		.chart = ch,                                                  \
		.prom_total = prom,                                           \
		.prom_total_help = what ", per device.",                      \
	}

const struct fig_desc sampled_figs[] = {
	{
		.key = "recursion_misses",
		.title = "probe runs the kernel skipped: a program already running on that CPU, or a kprobe hit inside another",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_PROG, "recursion_misses", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "runs" },
		.live = LIVE_HEADER,
		.prom_total = "pcptop_recursion_misses_total",
		.prom_total_help = "BPF program runs the kernel skipped because one was already running on that CPU.",
	},
	{
		.key = "pcp_pages",
		.title = "pages parked in the zone's pcp lists, all CPUs, at the interval's end",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "pcp.count", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.flags = FIG_TL_VALUE,
		.live = LIVE_PANE,
		.chart = PCP_CHART,
		.prom_gauge = "pcptop_pcp_pages",
		.prom_gauge_help = "Pages in the zone's pcp lists, all CPUs, at the last interval's end.",
	},
	{
		.key = "zone_free",
		.title = "the zone's free pages (the pcp lists' pages are not among them: the watermark checks count them as allocated)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "pages_free", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = WATERMARK_CHART,
		.prom_gauge = "pcptop_zone_free_pages",
		.prom_gauge_help = "The zone's free pages at the last interval's end.",
	},
	{
		.key = "zone_min",
		.title = "the zone's min watermark: below it only atomic and reclaiming allocations go on",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "min", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = WATERMARK_CHART,
		.prom_gauge = "pcptop_zone_min_pages",
		.prom_gauge_help = "The zone's min watermark, pages.",
	},
	{
		.key = "zone_low",
		.title = "the zone's low watermark: below it kswapd is woken",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "low", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = WATERMARK_CHART,
		.prom_gauge = "pcptop_zone_low_pages",
		.prom_gauge_help = "The zone's low watermark, pages.",
	},
	{
		.key = "zone_high",
		.title = "the zone's high watermark: kswapd reclaims until free pages are above it",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "high", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = WATERMARK_CHART,
		.prom_gauge = "pcptop_zone_high_pages",
		.prom_gauge_help = "The zone's high watermark, pages.",
	},
	{
		.key = "pcp_high",
		.title = "the pcp lists' high, summed over the zone's CPUs",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "pcp.high", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = PCP_CHART,
		.prom_gauge = "pcptop_pcp_high_pages",
		.prom_gauge_help = "The pcp lists' high, summed over the zone's CPUs.",
	},
	{
		/* struct per_cpu_pages has it from 6.7; zoneinfo prints it from 6.13 */
		.key = "pcp_high_min",
		.title = "the least the pcp lists' high is decayed to, summed over the zone's CPUs (zoneinfo 6.13+)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "pcp.high_min", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.prom_gauge = "pcptop_pcp_high_min_pages",
		.prom_gauge_help = "The pcp lists' high_min, summed over the zone's CPUs (6.13+).",
	},
	{
		.key = "pcp_high_max",
		.title = "the most the pcp lists' high is tuned up to, summed over the zone's CPUs (zoneinfo 6.13+)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "pcp.high_max", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.prom_gauge = "pcptop_pcp_high_max_pages",
		.prom_gauge_help = "The pcp lists' high_max, summed over the zone's CPUs (6.13+).",
	},
	{
		.key = "zone_managed",
		.title = "the zone's managed pages",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_ZONEINFO, "managed", SAMPLE_GAUGE, SCOPE_ZONE,
			    "pages" },
		.live = LIVE_PANE,
		.prom_gauge = "pcptop_zone_managed_pages",
		.prom_gauge_help = "The zone's managed pages.",
	},
	{
		.key = "buddy_free",
		.title = "free blocks per zone and order in the buddy allocator (fragmentation)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_BUDDYINFO, "free", SAMPLE_GAUGE,
			    SCOPE_ZONE_ORDER, "blocks" },
		.live = LIVE_PANE,
		.prom_gauge = "pcptop_buddy_free_blocks",
		.prom_gauge_help = "Free blocks of the zone's order in the buddy allocator.",
	},
	{
		.key = "allocstall",
		.title = "allocations that entered direct reclaim (allocstall_*, every zone type)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "allocstall_*", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "stalls" },
		.live = LIVE_HEADER,
		.chart = STALL_CHART,
		.prom_total = "pcptop_allocstall_total",
		.prom_total_help = "Allocations that entered direct reclaim.",
	},
	{
		.key = "compact_stall",
		.title = "allocations that entered direct compaction",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "compact_stall", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "stalls" },
		.live = LIVE_HEADER,
		.chart = STALL_CHART,
		.prom_total = "pcptop_compact_stall_total",
		.prom_total_help = "Allocations that entered direct compaction.",
	},
	{
		.key = "pgscan_direct_throttle",
		.title = "direct reclaimers throttled (pgscan_direct_throttle)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgscan_direct_throttle", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "stalls" },
		.live = LIVE_PANE,
		.chart = STALL_CHART,
		.prom_total = "pcptop_pgscan_direct_throttle_total",
		.prom_total_help = "Direct reclaimers throttled.",
	},
	{
		.key = "pgscan_kswapd",
		.title = "pages kswapd scanned",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgscan_kswapd", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = RECLAIM_CHART,
		.prom_total = "pcptop_pgscan_kswapd_total",
		.prom_total_help = "Pages kswapd scanned.",
	},
	{
		.key = "pgscan_direct",
		.title = "pages direct reclaim scanned",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgscan_direct", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = RECLAIM_CHART,
		.prom_total = "pcptop_pgscan_direct_total",
		.prom_total_help = "Pages direct reclaim scanned.",
	},
	{
		.key = "pgsteal_kswapd",
		.title = "pages kswapd reclaimed",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgsteal_kswapd", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = RECLAIM_CHART,
		.prom_total = "pcptop_pgsteal_kswapd_total",
		.prom_total_help = "Pages kswapd reclaimed.",
	},
	{
		.key = "pgsteal_direct",
		.title = "pages direct reclaim reclaimed",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgsteal_direct", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = RECLAIM_CHART,
		.prom_total = "pcptop_pgsteal_direct_total",
		.prom_total_help = "Pages direct reclaim reclaimed.",
	},
	{
		.key = "compact_fail",
		.title = "direct compactions that failed",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "compact_fail", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "compactions" },
		.live = LIVE_PANE,
		.chart = COMPACT_CHART,
		.prom_total = "pcptop_compact_fail_total",
		.prom_total_help = "Direct compactions that failed.",
	},
	{
		.key = "compact_success",
		.title = "direct compactions that succeeded",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "compact_success", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "compactions" },
		.live = LIVE_PANE,
		.chart = COMPACT_CHART,
		.prom_total = "pcptop_compact_success_total",
		.prom_total_help = "Direct compactions that succeeded.",
	},
	{
		.key = "workingset_refault_file",
		.title = "file pages read back soon after reclaim evicted them",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "workingset_refault_file", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = REFAULT_CHART,
		.prom_total = "pcptop_workingset_refault_file_total",
		.prom_total_help = "File pages refaulted after eviction.",
	},
	{
		.key = "workingset_refault_anon",
		.title = "anonymous pages read back soon after reclaim evicted them",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "workingset_refault_anon", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "pages" },
		.live = LIVE_PANE,
		.chart = REFAULT_CHART,
		.prom_total = "pcptop_workingset_refault_anon_total",
		.prom_total_help = "Anonymous pages refaulted after eviction.",
	},
	{
		.key = "pgmajfault",
		.title = "major page faults (a read from disk)",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgmajfault", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "faults" },
		.live = LIVE_PANE,
		.chart = REFAULT_CHART,
		.prom_total = "pcptop_pgmajfault_total",
		.prom_total_help = "Major page faults.",
	},
	{
		.key = "pgpgin",
		.title = "KiB read from block devices",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgpgin", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "KiB" },
		.live = LIVE_PANE,
		.chart = PAGING_CHART,
		.prom_total = "pcptop_pgpgin_bytes_total",
		.prom_total_help = "Bytes paged in from block devices.",
	},
	{
		.key = "pgpgout",
		.title = "KiB written to block devices",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "pgpgout", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "KiB" },
		.live = LIVE_PANE,
		.chart = PAGING_CHART,
		.prom_total = "pcptop_pgpgout_bytes_total",
		.prom_total_help = "Bytes paged out to block devices.",
	},
	{
		.key = "oom_kill",
		.title = "tasks the OOM killer killed",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_VMSTAT, "oom_kill", SAMPLE_COUNTER, SCOPE_MACHINE,
			    "kills" },
		.live = LIVE_HEADER,
		.prom_total = "pcptop_oom_kill_total",
		.prom_total_help = "Tasks the OOM killer killed.",
	},
	/*
	 * Where the wall time goes: CPU time by state (docs/ACCURACY.md,
	 * "Wall time"), the kernel's stall totals, and the block devices
	 */
	CPU_ROW("user", "in user mode"),
	CPU_ROW("nice", "in user mode at a positive nice"),
	CPU_ROW("system", "in the kernel, outside interrupts"),
	CPU_ROW("irq", "in hard interrupts"),
	CPU_ROW("softirq", "in softirqs"),
	CPU_ROW("iowait", "idle while a task of the CPU waited on I/O"),
	CPU_ROW("idle", "idle, no task waiting on I/O"),
	CPU_ROW("steal", "taken by the hypervisor"),
	{
		.key = "cpus_online",
		.title = "CPUs online (cpuN lines of /proc/stat) at the interval's end",
		.type = FIG_SAMPLED,
		FIG_NO_BPF,
		.sample = { SRC_STAT, "online", SAMPLE_GAUGE, SCOPE_MACHINE,
			    "cpus" },
		.prom_gauge = "pcptop_cpus_online",
		.prom_gauge_help = "CPUs online at the last interval's end.",
	},
	PSI_ROW("cpu", "some", "time some runnable task waited for a CPU"),
	PSI_ROW("cpu", "full", "time every non-idle task waited for a CPU"),
	PSI_ROW("memory", "some", "time some task stalled on memory (reclaim, compaction, thrashing)"),
	PSI_ROW("memory", "full", "time every non-idle task stalled on memory"),
	PSI_ROW("io", "some", "time some task waited on I/O"),
	PSI_ROW("io", "full", "time every non-idle task waited on I/O"),
	BLOCK_ROW("reads", "reads completed", "requests", NULL,
		  "pcptop_block_reads_total"),
	BLOCK_ROW("writes", "writes completed", "requests", NULL,
		  "pcptop_block_writes_total"),
	BLOCK_ROW("read_merges", "reads merged into a request queued", "requests",
		  NULL, "pcptop_block_read_merges_total"),
	BLOCK_ROW("write_merges", "writes merged into a request queued",
		  "requests", NULL, "pcptop_block_write_merges_total"),
	BLOCK_ROW("read_sectors", "sectors read (512 bytes)", "sectors", NULL,
		  "pcptop_block_read_bytes_total"),
	BLOCK_ROW("write_sectors", "sectors written (512 bytes)", "sectors", NULL,
		  "pcptop_block_written_bytes_total"),
	BLOCK_ROW("io_ms", "time with a request in flight", "ms", BLOCK_CHART,
		  "pcptop_block_busy_seconds_total"),
	BLOCK_ROW("queue_ms", "request time in flight, summed over requests",
		  "ms", NULL, "pcptop_block_queue_seconds_total"),
};
/* clang-format on */

const int nr_sampled_figs = ARRAY_SIZE(sampled_figs);

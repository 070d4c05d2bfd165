/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsers for where a run's wall time goes, beside the allocator's
 * figures: /proc/stat's cpu lines (time by state), /proc/pressure (the
 * kernel's own stall totals) and /sys/block/DEV/stat (each device's
 * requests and busy time). Paths are full, so tests point them at fixture
 * trees. All return 0 or -errno (-ENOENT: the file or the item is absent).
 */
#ifndef PCPTOP_PROCSTAT_H
#define PCPTOP_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the first eight fields of a cpu line; guest and guest_nice are inside
 * user and nice already, so they are not read */
enum cpu_state {
	CPU_USER,
	CPU_NICE,
	CPU_SYSTEM,
	CPU_IDLE,
	CPU_IOWAIT,
	CPU_IRQ,
	CPU_SOFTIRQ,
	CPU_STEAL,
	NR_CPU_STATES,
};

/* "user", ... "steal": the sampled figures' field names */
const char *cpu_state_name(int state);
/* the state of that name, -1 for none */
int cpu_state_find(const char *name);

struct cpustat_line {
	int cpu; /* -1: the "cpu" line, all CPUs */
	int64_t ticks[NR_CPU_STATES]; /* USER_HZ ticks */
};

struct cpustat {
	struct cpustat_line all;
	int nr; /* the cpuN lines: the online CPUs */
	int cap;
	struct cpustat_line *cpus;
};

/* /proc/stat's cpu and cpuN lines; -EINVAL for a cpu line of another shape */
int cpustat_parse(const char *path, struct cpustat *cs);
void cpustat_free(struct cpustat *cs);

/* a /proc/pressure/RESOURCE file's totals, us */
struct psi_totals {
	bool have_some, have_full; /* cpu has "full" from 5.13 */
	int64_t some_us, full_us;
};

int psi_parse(const char *path, struct psi_totals *p);

/*
 * Why a kernel has no /proc/pressure, from its config and command line
 * (kernel/sched/psi.c: psi_proc_init() creates it only when PSI is on at
 * boot): "no CONFIG_PSI", "psi=0 on the command line", "CONFIG_PSI_DEFAULT_DISABLED
 * without psi=1 on the command line". config_path may be "" when no config
 * was readable; the reason then says so.
 */
void psi_absent_reason(const char *config_path, const char *cmdline_path,
		       char *buf, size_t len);

/* /sys/block/DEV/stat (Documentation/block/stat.rst): 11, 15 or 17 fields */
enum block_stat_field {
	BLK_READS,
	BLK_READ_MERGES,
	BLK_READ_SECTORS,
	BLK_READ_MS,
	BLK_WRITES,
	BLK_WRITE_MERGES,
	BLK_WRITE_SECTORS,
	BLK_WRITE_MS,
	BLK_IN_FLIGHT, /* a level, not a total */
	BLK_IO_MS, /* time with at least one request in flight */
	BLK_QUEUE_MS, /* in-flight time weighted by the requests in flight */
	/* 4.18+ discards, 5.5+ flushes: read, not sampled */
	NR_BLOCK_STAT_FIELDS = 17,
};

#define BLOCK_STAT_MIN_FIELDS 11

struct blockstat {
	int nr; /* fields the kernel printed */
	int64_t v[NR_BLOCK_STAT_FIELDS];
};

/* "reads", ... "queue_ms": the sampled figures' field names */
const char *block_stat_name(int field);
int block_stat_find(const char *name);
int blockstat_parse(const char *path, struct blockstat *b);

#define BLOCK_NAME_LEN 32

/*
 * The whole disks under <root>/sys/block worth sampling, by name: every
 * one but loop and ram devices that never did I/O and the device-mapper
 * and md devices, whose requests their disks count again. The first max
 * by name go into names; returns how many there are (more than max when
 * some did not fit), or -errno.
 */
int blockdev_list(const char *root, char (*names)[BLOCK_NAME_LEN], int max);

#endif /* PCPTOP_PROCSTAT_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsers for the /proc files pcptop pairs its histograms with. Every
 * function takes a full path so tests can point it at fixture trees;
 * proc_path() builds "<root>/<rel>" for a root of "/" or a fixture dir.
 * All return 0 or -errno (-ENOENT: the file or the item is not there).
 */
#ifndef PCPTOP_PROCFS_H
#define PCPTOP_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ZONE_NAME_LEN 16
#define PCP_FIELD_ABSENT (-1)
#define PROC_FIELD_LEN 48

/* the "name value" lines of a /proc file or of one zone */
struct proc_field {
	char name[PROC_FIELD_LEN]; /* words joined by '_': "pages_free" */
	int64_t v;
};

struct proc_fields {
	int n;
	int cap;
	struct proc_field *f;
};

/* 0 with the value of name, or -ENOENT */
int proc_field_find(const struct proc_fields *pf, const char *name, int64_t *v);
/* append a field; 0 or -ENOMEM */
int proc_fields_add(struct proc_fields *pf, const char *name, int64_t v);
void proc_fields_free(struct proc_fields *pf);

struct pcp_cpu {
	int cpu;
	int count;
	int high;
	int batch;
	int high_min; /* PCP_FIELD_ABSENT where the kernel does not print it */
	int high_max;
};

struct zone_pcp {
	int node;
	char name[ZONE_NAME_LEN];
	int nr_cpus;
	struct pcp_cpu *cpus;
	/* its own lines, "pages free" to the pagesets: watermarks, managed, ... */
	struct proc_fields fields;
};

struct zoneinfo {
	int nr_zones;
	struct zone_pcp *zones;
};

/* "<root>/<rel>", root "/" or "" meaning the live system */
void proc_path(char *buf, size_t len, const char *root, const char *rel);

/*
 * /proc/zoneinfo: each zone's own lines and its "pagesets" blocks, in
 * the 6.1 and 6.13+ (high_min/max) shapes
 */
int zoneinfo_parse(const char *path, struct zoneinfo *zi);
void zoneinfo_free(struct zoneinfo *zi);
/* index into zi->zones of (node, name), or -1 */
int zoneinfo_find(const struct zoneinfo *zi, int node, const char *name);

/*
 * "pages free     3840" or "pgscan_kswapd 12": the name (words joined by
 * '_') and the value; -EINVAL for any other shape of line
 */
int name_value(const char *line, char *name, size_t len, int64_t *v);
/* the free blocks of each order in one zone of one node */
#define BUDDY_MAX_ORDERS 32

struct buddy_zone {
	int node;
	char name[ZONE_NAME_LEN];
	int nr_orders;
	int64_t free[BUDDY_MAX_ORDERS];
};

struct buddyinfo {
	int nr_zones;
	int cap;
	struct buddy_zone *zones;
};

/* /proc/buddyinfo: "Node 0, zone   Normal  12010 8689 ..." lines */
int buddyinfo_parse(const char *path, struct buddyinfo *bi);
void buddyinfo_free(struct buddyinfo *bi);

/* every "name value" line of /proc/vmstat */
int vmstat_parse(const char *path, struct proc_fields *pf);

/* "Page block order:" and "Pages per block:" of /proc/pagetypeinfo */
int pagetypeinfo_parse(const char *path, int *order, int *pages_per_block);

/*
 * Value of CONFIG_<name> (name given without the CONFIG_ prefix) in a
 * kernel config, plain or gzip-compressed (/proc/config.gz), told apart by
 * the gzip magic, not the file name. "# CONFIG_X is not set" is -ENOENT.
 */
int kconfig_lookup(const char *path, const char *name, char *val, size_t len);

/*
 * Value of "param=value" on a kernel command line; the last occurrence
 * wins, as it does for __setup() handlers. Parameters after a lone "--"
 * belong to init and are not looked at. "param" without "=" gives "".
 */
int cmdline_lookup(const char *path, const char *param, char *val, size_t len);

/* first integer in a file such as /proc/sys/vm/percpu_pagelist_high_fraction */
int read_long_file(const char *path, long *val);

/* whole small file into buf (NUL-terminated, trailing newline removed) */
int read_text_file(const char *path, char *buf, size_t len);

#endif /* PCPTOP_PROCFS_H */

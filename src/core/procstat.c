// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lines.h"
#include "procfs.h"
#include "procstat.h"

#define PATH_LEN 512
#define CPU_PREFIX "cpu"
#define CPU_PREFIX_LEN 3
#define VAL_LEN 32

static const char *const cpu_state_names[NR_CPU_STATES] = {
	[CPU_USER] = "user",	   [CPU_NICE] = "nice",
	[CPU_SYSTEM] = "system",   [CPU_IDLE] = "idle",
	[CPU_IOWAIT] = "iowait",   [CPU_IRQ] = "irq",
	[CPU_SOFTIRQ] = "softirq", [CPU_STEAL] = "steal",
};

const char *cpu_state_name(int state)
{
	return state >= 0 && state < NR_CPU_STATES ? cpu_state_names[state] :
						     "?";
}

int cpu_state_find(const char *name)
{
	int i;

	for (i = 0; i < NR_CPU_STATES; i++)
		if (!strcmp(cpu_state_names[i], name))
			return i;
	return -1;
}

/* the fields after "cpu" or "cpuN": at least the eight states */
static int cpu_fields(const char *s, struct cpustat_line *l)
{
	char *end;
	int i;

	for (i = 0; i < NR_CPU_STATES; i++) {
		s = skip_blanks(s);
		if (*s < '0' || *s > '9')
			return -EINVAL;
		errno = 0;
		l->ticks[i] = (int64_t)strtoll(s, &end, 10);
		if (errno || end == s || l->ticks[i] < 0)
			return -EINVAL;
		s = end;
	}
	return 0;
}

int cpustat_parse(const char *path, struct cpustat *cs)
{
	struct cpustat_line l;
	struct lines ln;
	bool all = false;
	char *end;
	long cpu;
	int err, r;

	memset(cs, 0, sizeof(*cs));
	err = lines_open(&ln, path);
	if (err)
		return err;
	while ((r = lines_next(&ln)) > 0) {
		const char *s = ln.buf;

		if (strncmp(s, CPU_PREFIX, CPU_PREFIX_LEN))
			continue;
		s += CPU_PREFIX_LEN;
		memset(&l, 0, sizeof(l));
		if (*s == ' ') {
			l.cpu = -1;
		} else {
			errno = 0;
			cpu = strtol(s, &end, 10);
			if (errno || end == s || cpu < 0 || cpu > INT32_MAX ||
			    *end != ' ') {
				err = -EINVAL;
				break;
			}
			l.cpu = (int)cpu;
			s = end;
		}
		err = cpu_fields(s, &l);
		if (err)
			break;
		if (l.cpu < 0) {
			cs->all = l;
			all = true;
			continue;
		}
		err = grow_array((void **)&cs->cpus, cs->nr, &cs->cap, 4,
				 sizeof(*cs->cpus));
		if (err)
			break;
		cs->cpus[cs->nr++] = l;
	}
	if (!err && r < 0)
		err = r;
	lines_close(&ln);
	if (!err && !all)
		err = -ENOENT;
	if (err)
		cpustat_free(cs);
	return err;
}

void cpustat_free(struct cpustat *cs)
{
	free(cs->cpus);
	memset(cs, 0, sizeof(*cs));
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=12345" */
static int psi_total(const char *s, int64_t *v)
{
	const char *t = strstr(s, "total=");
	char *end;

	if (!t)
		return -EINVAL;
	t += strlen("total=");
	errno = 0;
	*v = (int64_t)strtoll(t, &end, 10);
	if (errno || end == t || *v < 0)
		return -EINVAL;
	return 0;
}

int psi_parse(const char *path, struct psi_totals *p)
{
	struct lines ln;
	int err, r;

	memset(p, 0, sizeof(*p));
	err = lines_open(&ln, path);
	if (err)
		return err;
	while (!err && (r = lines_next(&ln)) > 0) {
		if (!strncmp(ln.buf, "some ", 5)) {
			err = psi_total(ln.buf, &p->some_us);
			p->have_some = !err;
		} else if (!strncmp(ln.buf, "full ", 5)) {
			err = psi_total(ln.buf, &p->full_us);
			p->have_full = !err;
		}
	}
	if (!err && r < 0)
		err = r;
	lines_close(&ln);
	if (!err && !p->have_some)
		err = -EINVAL;
	return err;
}

void psi_absent_reason(const char *config_path, const char *cmdline_path,
		       char *buf, size_t len)
{
	char v[VAL_LEN] = "", arg[VAL_LEN] = "";
	bool has_arg = !cmdline_lookup(cmdline_path, "psi", arg, sizeof(arg));
	/* psi_setup() takes kstrtobool's words: 1, y, on */
	bool arg_on = has_arg && (arg[0] == '1' || arg[0] == 'y' ||
				  arg[0] == 'Y' || !strcmp(arg, "on"));

	if (!config_path || !*config_path) {
		snprintf(
			buf, len,
			"no /proc/pressure, and no kernel config to say why (CONFIG_PSI, psi= on the command line)");
		return;
	}
	if (kconfig_lookup(config_path, "PSI", v, sizeof(v)) ||
	    strcmp(v, "y")) {
		snprintf(buf, len, "no CONFIG_PSI in this kernel (%s)",
			 config_path);
		return;
	}
	if (has_arg && !arg_on) {
		snprintf(buf, len,
			 "psi=%s on the kernel command line: boot with psi=1",
			 arg);
		return;
	}
	if (!kconfig_lookup(config_path, "PSI_DEFAULT_DISABLED", v,
			    sizeof(v)) &&
	    !strcmp(v, "y") && !arg_on) {
		snprintf(
			buf, len,
			"CONFIG_PSI_DEFAULT_DISABLED (Debian's default) without psi=1 on the kernel command line: boot with psi=1");
		return;
	}
	snprintf(
		buf, len,
		"no /proc/pressure although CONFIG_PSI=y and PSI is on at boot (%s)",
		config_path);
}

static const char *const block_stat_names[BLOCK_STAT_MIN_FIELDS] = {
	[BLK_READS] = "reads",
	[BLK_READ_MERGES] = "read_merges",
	[BLK_READ_SECTORS] = "read_sectors",
	[BLK_READ_MS] = "read_ms",
	[BLK_WRITES] = "writes",
	[BLK_WRITE_MERGES] = "write_merges",
	[BLK_WRITE_SECTORS] = "write_sectors",
	[BLK_WRITE_MS] = "write_ms",
	[BLK_IN_FLIGHT] = "in_flight",
	[BLK_IO_MS] = "io_ms",
	[BLK_QUEUE_MS] = "queue_ms",
};

const char *block_stat_name(int field)
{
	return field >= 0 && field < BLOCK_STAT_MIN_FIELDS ?
		       block_stat_names[field] :
		       "?";
}

int block_stat_find(const char *name)
{
	int i;

	for (i = 0; i < BLOCK_STAT_MIN_FIELDS; i++)
		if (!strcmp(block_stat_names[i], name))
			return i;
	return -1;
}

int blockstat_parse(const char *path, struct blockstat *b)
{
	char text[512], *end;
	const char *s = text;
	int err;

	memset(b, 0, sizeof(*b));
	err = read_text_file(path, text, sizeof(text));
	if (err)
		return err;
	while (b->nr < NR_BLOCK_STAT_FIELDS) {
		s = skip_blanks(s);
		if (!*s)
			break;
		errno = 0;
		b->v[b->nr] = (int64_t)strtoll(s, &end, 10);
		if (errno || end == s || b->v[b->nr] < 0)
			return -EINVAL;
		b->nr++;
		s = end;
	}
	return b->nr >= BLOCK_STAT_MIN_FIELDS ? 0 : -EINVAL;
}

static bool prefixed(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

/* loop and ram devices count when they did I/O; dm and md never */
static bool worth_sampling(const char *root, const char *name)
{
	char rel[PATH_LEN], path[PATH_LEN];
	struct blockstat b;

	if (name[0] == '.' || prefixed(name, "dm-") || prefixed(name, "md"))
		return false;
	if (!prefixed(name, "loop") && !prefixed(name, "ram") &&
	    !prefixed(name, "zram"))
		return true;
	snprintf(rel, sizeof(rel), "sys/block/%s/stat", name);
	proc_path(path, sizeof(path), root, rel);
	return !blockstat_parse(path, &b) &&
	       (b.v[BLK_READS] || b.v[BLK_WRITES]);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int blockdev_list(const char *root, char (*names)[BLOCK_NAME_LEN], int max)
{
	char path[PATH_LEN], (*all)[BLOCK_NAME_LEN] = NULL;
	struct dirent *e;
	int n = 0, cap = 0, err = 0;
	DIR *d;

	proc_path(path, sizeof(path), root, "sys/block");
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (strlen(e->d_name) >= BLOCK_NAME_LEN ||
		    !worth_sampling(root, e->d_name))
			continue;
		err = grow_array((void **)&all, n, &cap, 8, BLOCK_NAME_LEN);
		if (err)
			break;
		snprintf(all[n++], BLOCK_NAME_LEN, "%s", e->d_name);
	}
	closedir(d);
	if (!err && n) {
		/* by name, so that the first max are the same every start */
		qsort(all, (size_t)n, BLOCK_NAME_LEN, by_name);
		memcpy(names, all,
		       (size_t)(n < max ? n : max) * BLOCK_NAME_LEN);
	}
	free(all);
	return err ? err : n;
}

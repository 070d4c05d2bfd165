// SPDX-License-Identifier: GPL-2.0-only
/* procfs.c against the fixtures: real 6.18 files and a 6.1-shaped one */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kallsyms.h"
#include "procfs.h"
#include "unit.h"

#define SMALL_BUF 4
#define PATH_BUF 256
#define VAL_BUF 128
#define TEXT_BUF 512

static void test_proc_path(void)
{
	char buf[PATH_BUF];

	proc_path(buf, sizeof(buf), "/", "proc/cmdline");
	CHECK_EQ_STR(buf, "/proc/cmdline");
	proc_path(buf, sizeof(buf), "", "proc/cmdline");
	CHECK_EQ_STR(buf, "/proc/cmdline");
	proc_path(buf, sizeof(buf), NULL, "/proc/kallsyms");
	CHECK_EQ_STR(buf, "/proc/kallsyms");
	proc_path(buf, sizeof(buf), "tests/fixtures/trees/stock",
		  "proc/cmdline");
	CHECK_EQ_STR(buf, "tests/fixtures/trees/stock/proc/cmdline");
	proc_path(buf, sizeof(buf), "/tmp/root/", "/boot/config-6.1");
	CHECK_EQ_STR(buf, "/tmp/root/boot/config-6.1");
}

static void check_normal_618(const struct zone_pcp *z)
{
	CHECK_EQ_INT(z->node, 0);
	REQUIRE(z->nr_cpus == 2);
	CHECK_EQ_INT(z->cpus[0].cpu, 0);
	CHECK_EQ_INT(z->cpus[0].count, 2216);
	CHECK_EQ_INT(z->cpus[1].cpu, 1);
	CHECK_EQ_INT(z->cpus[1].count, 10218);
	CHECK_EQ_INT(z->cpus[1].high, 25661);
	CHECK_EQ_INT(z->cpus[1].batch, 63);
	CHECK_EQ_INT(z->cpus[1].high_min, 4832);
	CHECK_EQ_INT(z->cpus[1].high_max, 40960);
}

static void test_zoneinfo_618(void)
{
	const struct zone_pcp *z;
	struct zoneinfo zi;
	int i;

	REQUIRE(zoneinfo_parse(fixture("zoneinfo-6.18"), &zi) == 0);
	CHECK_EQ_INT(zi.nr_zones, 5);
	if (zi.nr_zones == 5) {
		CHECK_EQ_STR(zi.zones[0].name, "DMA");
		CHECK_EQ_STR(zi.zones[1].name, "DMA32");
		CHECK_EQ_STR(zi.zones[2].name, "Normal");
		CHECK_EQ_STR(zi.zones[3].name, "Movable");
		CHECK_EQ_STR(zi.zones[4].name, "Device");
		/* empty zones print no pagesets, yet are listed */
		CHECK_EQ_INT(zi.zones[3].nr_cpus, 0);
		CHECK_EQ_INT(zi.zones[4].nr_cpus, 0);
	}
	i = zoneinfo_find(&zi, 0, "Normal");
	CHECK_EQ_INT(i, 2);
	CHECK_EQ_INT(zoneinfo_find(&zi, 1, "Normal"), -1);
	CHECK_EQ_INT(zoneinfo_find(&zi, 0, "HighMem"), -1);
	if (i >= 0)
		check_normal_618(&zi.zones[i]);
	/* the DMA pageset: batch 1, high 0, with 6.13+'s two extra lines */
	z = &zi.zones[0];
	CHECK_EQ_INT(z->nr_cpus, 2);
	if (z->nr_cpus == 2) {
		CHECK_EQ_INT(z->cpus[0].batch, 1);
		CHECK_EQ_INT(z->cpus[0].high, 0);
		CHECK_EQ_INT(z->cpus[0].high_min, 28);
		CHECK_EQ_INT(z->cpus[0].high_max, 240);
	}
	zoneinfo_free(&zi);
	CHECK(zi.zones == NULL && zi.nr_zones == 0);
}

static void test_zoneinfo_61(void)
{
	const struct zone_pcp *z;
	struct zoneinfo zi;
	int i;

	REQUIRE(zoneinfo_parse(fixture("zoneinfo-6.1"), &zi) == 0);
	CHECK_EQ_INT(zi.nr_zones, 5);
	i = zoneinfo_find(&zi, 0, "Normal");
	CHECK_EQ_INT(i, 2);
	if (i >= 0) {
		z = &zi.zones[i];
		CHECK_EQ_INT(z->nr_cpus, 2);
		CHECK_EQ_INT(z->cpus[0].count, 150);
		CHECK_EQ_INT(z->cpus[0].high, 378);
		CHECK_EQ_INT(z->cpus[0].batch, 63);
		CHECK_EQ_INT(z->cpus[1].count, 312);
		/* 6.1 prints neither: they must not be read as 0 */
		CHECK_EQ_INT(z->cpus[0].high_min, PCP_FIELD_ABSENT);
		CHECK_EQ_INT(z->cpus[1].high_max, PCP_FIELD_ABSENT);
	}
	i = zoneinfo_find(&zi, 0, "DMA32");
	CHECK(i >= 0 && zi.zones[i].cpus[0].count == 41);
	i = zoneinfo_find(&zi, 0, "Movable");
	CHECK(i >= 0 && zi.zones[i].nr_cpus == 0);
	zoneinfo_free(&zi);
}

static void test_zoneinfo_errors(void)
{
	struct zoneinfo zi;

	CHECK_EQ_INT(zoneinfo_parse(fixture("no-such-file"), &zi), -ENOENT);
	CHECK_EQ_INT(zoneinfo_parse(fixture("config-6.1"), &zi), -EINVAL);
	CHECK(zi.zones == NULL && zi.nr_zones == 0);
	zoneinfo_free(&zi);
}

static void test_pagetypeinfo(void)
{
	int order = -1, pages = -1;

	CHECK_EQ_INT(pagetypeinfo_parse(fixture("pagetypeinfo-6.18"), &order,
					&pages),
		     0);
	CHECK_EQ_INT(order, 9);
	CHECK_EQ_INT(pages, 512);
	CHECK_EQ_INT(pagetypeinfo_parse(fixture("zoneinfo-6.18"), &order,
					&pages),
		     -ENOENT);
	CHECK_EQ_INT(pagetypeinfo_parse(fixture("no-such-file"), &order,
					&pages),
		     -ENOENT);
}

static void check_config_file(const char *path)
{
	char val[VAL_BUF];

	CHECK_EQ_INT(kconfig_lookup(path, "PCP_BATCH_SCALE_MAX", val,
				    sizeof(val)),
		     0);
	CHECK_EQ_STR(val, "5");
	CHECK_EQ_INT(kconfig_lookup(path, "CMA", val, sizeof(val)), -ENOENT);
	CHECK_EQ_INT(kconfig_lookup(path, "KALLSYMS_ALL", val, sizeof(val)),
		     -ENOENT);
	CHECK_EQ_INT(kconfig_lookup(path, "NO_SUCH_SYMBOL", val, sizeof(val)),
		     -ENOENT);
	/* a name that prefixes another must not match it */
	CHECK_EQ_INT(kconfig_lookup(path, "ZONE_DMA", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "y");
	CHECK_EQ_INT(kconfig_lookup(path, "CC_VERSION_TEXT", val, sizeof(val)),
		     0);
	CHECK_EQ_STR(val, "gcc (Debian 12.2.0-14) 12.2.0");
	CHECK_EQ_INT(kconfig_lookup(path, "CC_VERSION_TEXT", val, SMALL_BUF),
		     -E2BIG);
}

static void test_kconfig(void)
{
	char val[VAL_BUF];

	check_config_file(fixture("config-6.1"));
	check_config_file(fixture("config-6.1.gz"));
	/* the magic decides, not the name */
	check_config_file(fixture("config-6.1-gzip-noext"));
	check_config_file(fixture("config-6.1-plain.gz"));
	CHECK_EQ_INT(kconfig_lookup(fixture("config-6.1-truncated.gz"),
				    "PCP_BATCH_SCALE_MAX", val, sizeof(val)),
		     -EIO);
	CHECK_EQ_INT(kconfig_lookup(fixture("no-such-file"), "CMA", val,
				    sizeof(val)),
		     -ENOENT);
}

static void test_cmdline(void)
{
	const char *p;
	char val[VAL_BUF];

	p = fixture("cmdline-debian");
	CHECK_EQ_INT(cmdline_lookup(p, "root", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "UUID=5c3e6b1a-8f0d-4b8e-9a2e-3c1d7f2b9e40");
	CHECK_EQ_INT(cmdline_lookup(p, "quiet", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "");
	CHECK_EQ_INT(cmdline_lookup(p, "pcp_batch_scale_max", val, sizeof(val)),
		     -ENOENT);
	CHECK_EQ_INT(cmdline_lookup(p, "root", val, SMALL_BUF), -E2BIG);

	/* last before "--" wins: 3, then 0; the 9 after "--" is init's */
	p = fixture("cmdline-lastwins");
	CHECK_EQ_INT(cmdline_lookup(p, "pcp_batch_scale_max", val, sizeof(val)),
		     0);
	CHECK_EQ_STR(val, "0");
	CHECK_EQ_INT(cmdline_lookup(p, "console", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "ttySC0,115200");
	CHECK_EQ_INT(cmdline_lookup(p, "single", val, sizeof(val)), -ENOENT);
	CHECK_EQ_INT(cmdline_lookup(p, "--", val, sizeof(val)), -ENOENT);

	p = fixture("cmdline-qemu");
	CHECK_EQ_INT(cmdline_lookup(p, "tsc", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "unstable");
	CHECK_EQ_INT(cmdline_lookup(p, "pcp_batch_scale_max", val, sizeof(val)),
		     0);
	CHECK_EQ_STR(val, "0x3");
	CHECK_EQ_INT(cmdline_lookup(p, "-v", val, sizeof(val)), -ENOENT);

	/* quotes as next_arg() strips them; '-' matches '_' in names */
	p = fixture("cmdline-quoted");
	CHECK_EQ_INT(cmdline_lookup(p, "dyndbg", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "file mm/page_alloc.c +p");
	CHECK_EQ_INT(cmdline_lookup(p, "pcp_batch_scale_max", val, sizeof(val)),
		     0);
	CHECK_EQ_STR(val, "2");
	CHECK_EQ_INT(cmdline_lookup(p, "quoted", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "a b");
	CHECK_EQ_INT(cmdline_lookup(p, "nosmt", val, sizeof(val)), 0);
	CHECK_EQ_STR(val, "");
	CHECK_EQ_INT(cmdline_lookup(p, "page_alloc.c", val, sizeof(val)),
		     -ENOENT);

	CHECK_EQ_INT(cmdline_lookup(fixture("no-such-file"), "ro", val,
				    sizeof(val)),
		     -ENOENT);
}

static void test_kallsyms(void)
{
	unsigned long long addr = 0;
	const char *p;

	p = fixture("kallsyms-patched-all");
	CHECK_EQ_INT(kallsyms_lookup(p, "setup_pcp_batch_scale_max", &addr), 0);
	CHECK_EQ_U64(addr, 0xffff800081a4e2b8ULL);
	/* exact names: not __setup_str_setup_pcp_batch_scale_max */
	CHECK_EQ_INT(kallsyms_lookup(p, "pcp_batch_scale_max", &addr), 0);
	CHECK_EQ_U64(addr, 0xffff800081c61a48ULL);
	CHECK_EQ_INT(kallsyms_lookup(p, "rzg2l_wdt_probe", &addr), 0);
	CHECK_EQ_U64(addr, 0xffff80007a0b1000ULL);
	CHECK_EQ_INT(kallsyms_readable(p), 0);

	p = fixture("kallsyms-patched-noall");
	CHECK_EQ_INT(kallsyms_lookup(p, "setup_pcp_batch_scale_max", &addr), 0);
	CHECK_EQ_INT(kallsyms_lookup(p, "pcp_batch_scale_max", &addr), -ENOENT);

	p = fixture("kallsyms-unpatched");
	CHECK_EQ_INT(kallsyms_lookup(p, "setup_pcp_batch_scale_max", &addr),
		     -ENOENT);
	CHECK_EQ_INT(kallsyms_lookup(p, "free_pcppages_bulk", &addr), 0);
	CHECK_EQ_U64(addr, 0xffffffff812e4a10ULL);
	/* a compiler clone is another name */
	CHECK_EQ_INT(kallsyms_lookup(p, "rmqueue_bulk", &addr), -ENOENT);
	CHECK_EQ_INT(kallsyms_lookup(p, "rmqueue_bulk.isra.0", &addr), 0);
	CHECK_EQ_INT(kallsyms_lookup(p, "e1000_probe", &addr), 0);
	CHECK_EQ_U64(addr, 0xffffffffc0a41000ULL);
	/* zeros at the top (x86 per-CPU symbols) do not hide the rest */
	CHECK_EQ_INT(kallsyms_readable(p), 0);

	p = fixture("kallsyms-zero");
	CHECK_EQ_INT(kallsyms_lookup(p, "free_pcppages_bulk", &addr), -EPERM);
	CHECK_EQ_INT(kallsyms_lookup(p, "e1000_probe", &addr), -EPERM);
	CHECK_EQ_INT(kallsyms_lookup(p, "pcp_batch_scale_max", &addr), -ENOENT);
	CHECK_EQ_INT(kallsyms_readable(p), -EPERM);

	CHECK_EQ_INT(kallsyms_lookup(fixture("no-such-file"), "x", &addr),
		     -ENOENT);
	CHECK_EQ_INT(kallsyms_readable(fixture("no-such-file")), -ENOENT);
	CHECK_EQ_INT(kallsyms_readable(fixture("cmdline-debian")), -ENOENT);
}

/*
 * A symbol's text ends where the next higher address starts: the kernel
 * lists its own in address order, a module's after them; a module's
 * symbol is not the kernel's text. A name's compiler parts
 * (.cold, .constprop.0) are its text too, a longer name is not. The same
 * from the prefetched pass as from a new one.
 */
static int scratch(char *path, size_t len, const char *content);

static int by_lo(const void *a, const void *b)
{
	const struct kallsyms_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void test_kallsyms_ranges(void)
{
	static const char *const syms[] = { "free_pcppages_bulk",
					    "pcp_batch_high_lock",
					    "rzg2l_wdt_probe", "no_such",
					    "__alloc_pages_slowpath" };
	const int n = sizeof(syms) / sizeof(syms[0]);
	struct kallsyms_range r[8];
	char path[64];
	int pass, found;

	REQUIRE(!scratch(
		path, sizeof(path),
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 t __alloc_pages_slowpath.cold\n"
		"ffffffff81001100 t other_cold\n"
		"ffffffff812e4a10 t free_pcppages_bulk\n"
		"ffffffff812e4a10 t free_pcppages_bulk_alias\n"
		"ffffffff812e5000 t free_pcppages_bulk_old\n"
		"ffffffff812e6000 t __alloc_pages_slowpath.constprop.0\n"
		"ffffffff812e7000 T __alloc_pages_noprof\n"
		"ffffffff82c61a50 d pcp_batch_high_lock\n"
		"ffffffffc0a41000 t rzg2l_wdt_probe\t[rzg2l_wdt]\n"));
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			REQUIRE(!kallsyms_prefetch(path, syms, n));
		REQUIRE(!kallsyms_ranges(path, syms, n, r, 8, &found));
		REQUIRE(found == 4);
		/* the cache answers name by name: the order is no promise */
		qsort(r, found, sizeof(r[0]), by_lo);
		CHECK_EQ_INT(r[0].sym, 4);
		CHECK_EQ_U64(r[0].lo, 0xffffffff81001000ULL);
		CHECK_EQ_U64(r[0].hi, 0xffffffff81001100ULL);
		CHECK_EQ_INT(r[1].sym, 0);
		CHECK_EQ_U64(r[1].lo, 0xffffffff812e4a10ULL);
		CHECK_EQ_U64(r[1].hi, 0xffffffff812e5000ULL);
		CHECK_EQ_INT(r[2].sym, 4);
		CHECK_EQ_U64(r[2].lo, 0xffffffff812e6000ULL);
		CHECK_EQ_U64(r[2].hi, 0xffffffff812e7000ULL);
		CHECK_EQ_INT(r[3].sym, 1);
		CHECK_EQ_U64(r[3].hi, 0xffffffffc0a41000ULL);
	}
	kallsyms_forget();
	CHECK(!kallsyms_ranges(path, syms, n, r, 1, &found) && found == 1);
	unlink(path);
	REQUIRE(!kallsyms_ranges(fixture("kallsyms-zero"), syms, 1, r, 8,
				 &found));
	CHECK_EQ_INT(found, 0);
}

/* a scratch file with the given content; the caller unlinks path */
static int scratch(char *path, size_t len, const char *content)
{
	FILE *f;
	int fd;

	snprintf(path, len, "/tmp/pcptop-unit-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(path);
		return -errno;
	}
	fputs(content, f);
	fclose(f);
	return 0;
}

static void check_long(const char *content, int err, long want)
{
	char path[PATH_BUF];
	long v = -1;

	if (scratch(path, sizeof(path), content)) {
		unit_fail(__FILE__, __LINE__, "no scratch file");
		return;
	}
	CHECK_EQ_INT(read_long_file(path, &v), err);
	if (!err)
		CHECK_EQ_INT(v, want);
	unlink(path);
}

/* one prefetch answers every later lookup of its names from memory */
static void test_kallsyms_prefetch(void)
{
	static const char *const names[] = { "free_pcppages_bulk",
					     "rmqueue_bulk", "e1000_probe" };
	static const char *const later[] = { "e1000_probe",
					     "free_pcppages_bulk" };
	unsigned long long addrs[2], addr = 0;
	char path[PATH_BUF], cmd[2 * PATH_BUF];

	if (scratch(path, sizeof(path), "")) {
		unit_fail(__FILE__, __LINE__, "no scratch file");
		return;
	}
	snprintf(cmd, sizeof(cmd), "cp %s %s", fixture("kallsyms-unpatched"),
		 path);
	REQUIRE(system(cmd) == 0);
	CHECK_EQ_INT(kallsyms_prefetch(path, names, 3), 0);
	/* the file is gone: what follows comes from the prefetch */
	unlink(path);
	CHECK_EQ_INT(kallsyms_lookup(path, "free_pcppages_bulk", &addr), 0);
	CHECK_EQ_U64(addr, 0xffffffff812e4a10ULL);
	CHECK_EQ_INT(kallsyms_lookup(path, "rmqueue_bulk", &addr), -ENOENT);
	CHECK_EQ_INT(kallsyms_lookup_many(path, later, 2, addrs), 0);
	CHECK_EQ_U64(addrs[0], 0xffffffffc0a41000ULL);
	CHECK_EQ_U64(addrs[1], 0xffffffff812e4a10ULL);
	CHECK_EQ_INT(kallsyms_readable(path), 0);
	/* a name it was not given goes to the file */
	CHECK_EQ_INT(kallsyms_lookup(path, "e1000_remove", &addr), -ENOENT);
	kallsyms_forget();
	CHECK_EQ_INT(kallsyms_lookup(path, "free_pcppages_bulk", &addr),
		     -ENOENT);
	CHECK_EQ_INT(kallsyms_prefetch(fixture("kallsyms-zero"), names, 3), 0);
	CHECK_EQ_INT(kallsyms_lookup(fixture("kallsyms-zero"),
				     "free_pcppages_bulk", &addr),
		     -EPERM);
	CHECK_EQ_INT(kallsyms_readable(fixture("kallsyms-zero")), -EPERM);
	kallsyms_forget();
}

static void test_read_files(void)
{
	char buf[TEXT_BUF], path[PATH_BUF];
	long v;

	check_long("0\n", 0, 0);
	check_long("  42 pages\n", 0, 42);
	check_long("-8\n", 0, -8);
	check_long("abc\n", -EINVAL, 0);
	check_long("", -EINVAL, 0);
	CHECK_EQ_INT(read_long_file(fixture("no-such-file"), &v), -ENOENT);

	CHECK_EQ_INT(
		read_text_file(fixture("cmdline-debian"), buf, sizeof(buf)), 0);
	CHECK_EQ_STR(
		buf,
		"BOOT_IMAGE=/boot/vmlinuz-6.1.0-28-amd64 root=UUID=5c3e6b1a-8f0d-4b8e-9a2e-3c1d7f2b9e40 ro quiet");
	CHECK_EQ_INT(read_text_file(fixture("cmdline-debian"), buf, SMALL_BUF),
		     -E2BIG);
	/* "abc\n" in 4 bytes: only the newline is left out, and it goes */
	if (!scratch(path, sizeof(path), "abc\n")) {
		CHECK_EQ_INT(read_text_file(path, buf, SMALL_BUF), 0);
		CHECK_EQ_STR(buf, "abc");
		unlink(path);
	}
	if (!scratch(path, sizeof(path), "abcd")) {
		CHECK_EQ_INT(read_text_file(path, buf, SMALL_BUF), -E2BIG);
		unlink(path);
	}
	CHECK_EQ_INT(read_text_file(fixture("no-such-file"), buf, sizeof(buf)),
		     -ENOENT);
}

const struct unit_test procfs_tests[] = {
	TEST(test_proc_path),	    TEST(test_zoneinfo_618),
	TEST(test_zoneinfo_61),	    TEST(test_zoneinfo_errors),
	TEST(test_pagetypeinfo),    TEST(test_kconfig),
	TEST(test_cmdline),	    TEST(test_kallsyms),
	TEST(test_kallsyms_ranges), TEST(test_kallsyms_prefetch),
	TEST(test_read_files),	    TEST_END,
};

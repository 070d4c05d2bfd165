// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wall-time sources: /proc/stat's cpu lines, /proc/pressure and
 * /sys/block/DEV/stat parsed, the devices worth sampling chosen, each
 * reason for a missing /proc/pressure told, and the sampler's per-CPU and
 * per-device cells from two readings of a fixture root
 * (tests/fixtures/walltime).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "procstat.h"
#include "sampler.h"
#include "unit.h"

#define CMD_LEN 1024
#define REASON_LEN 256

static void test_cpustat(void)
{
	struct cpustat cs;

	REQUIRE(!cpustat_parse(fixture("walltime/a/proc/stat"), &cs));
	CHECK_EQ_INT(cs.nr, 2);
	CHECK_EQ_INT(cs.all.cpu, -1);
	CHECK_EQ_INT(cs.all.ticks[CPU_USER], 1000);
	CHECK_EQ_INT(cs.all.ticks[CPU_STEAL], 5);
	CHECK_EQ_INT(cs.cpus[1].cpu, 1);
	CHECK_EQ_INT(cs.cpus[1].ticks[CPU_IDLE], 4100);
	CHECK_EQ_INT(cs.cpus[0].ticks[CPU_IOWAIT], 150);
	cpustat_free(&cs);
	CHECK(cpustat_parse(fixture("walltime/none"), &cs) == -ENOENT);
	/* a file with no cpu line is no /proc/stat */
	CHECK(cpustat_parse(fixture("vmstat-6.18"), &cs) == -ENOENT);
	CHECK_EQ_INT(cpu_state_find("softirq"), CPU_SOFTIRQ);
	CHECK_EQ_INT(cpu_state_find("guest"), -1);
	CHECK_EQ_STR(cpu_state_name(CPU_IOWAIT), "iowait");
}

static void test_psi(void)
{
	struct psi_totals p;

	REQUIRE(!psi_parse(fixture("walltime/a/proc/pressure/io"), &p));
	CHECK(p.have_some && p.have_full);
	CHECK_EQ_INT(p.some_us, 30000);
	CHECK_EQ_INT(p.full_us, 20000);
	/* a vmstat file has no "some" line */
	CHECK(psi_parse(fixture("vmstat-6.18"), &p) == -EINVAL);
}

static void reason_has(const char *config, const char *cmdline,
		       const char *want)
{
	char buf[REASON_LEN];

	psi_absent_reason(config ? fixture(config) : "", fixture(cmdline), buf,
			  sizeof(buf));
	if (!strstr(buf, want)) {
		printf("  psi_absent_reason(%s, %s) = \"%s\", wanted \"%s\"\n",
		       config ? config : "\"\"", cmdline, buf, want);
		CHECK(0);
	}
}

static void test_psi_absent_reasons(void)
{
	reason_has("psi/config-nopsi", "psi/cmdline-none", "no CONFIG_PSI");
	reason_has("psi/config-debian", "psi/cmdline-none",
		   "CONFIG_PSI_DEFAULT_DISABLED");
	reason_has("psi/config-on", "psi/cmdline-psi0", "psi=0");
	reason_has("psi/config-debian", "psi/cmdline-psi0", "psi=0");
	/* psi=1 and a config that enables it: the kernel should have it */
	reason_has("psi/config-debian", "psi/cmdline-psi1", "although");
	reason_has(NULL, "psi/cmdline-none", "no kernel config");
}

static void test_blockstat(void)
{
	struct blockstat b;

	REQUIRE(!blockstat_parse(fixture("walltime/a/sys/block/vda/stat"), &b));
	CHECK_EQ_INT(b.nr, 17);
	CHECK_EQ_INT(b.v[BLK_READS], 12000);
	CHECK_EQ_INT(b.v[BLK_IO_MS], 70000);
	CHECK_EQ_INT(b.v[BLK_QUEUE_MS], 95000);
	/* 4.x's 11 fields are enough */
	REQUIRE(!blockstat_parse(fixture("walltime/a/sys/block/loop1/stat"),
				 &b));
	CHECK_EQ_INT(b.nr, 11);
	CHECK(blockstat_parse(fixture("walltime/a/proc/pressure/io"), &b) ==
	      -EINVAL);
	CHECK_EQ_INT(block_stat_find("io_ms"), BLK_IO_MS);
	CHECK_EQ_INT(block_stat_find("discards"), -1);
}

static void test_blockdev_list(void)
{
	char names[SAMPLE_DEVS][BLOCK_NAME_LEN];
	char one[1][BLOCK_NAME_LEN];

	/* loop0 never did I/O, dm-0 is counted by its disk */
	CHECK_EQ_INT(blockdev_list(fixture("walltime/a"), names, SAMPLE_DEVS),
		     2);
	CHECK_EQ_STR(names[0], "loop1");
	CHECK_EQ_STR(names[1], "vda");
	/* more than there is room for: the count, and the first by name */
	CHECK_EQ_INT(blockdev_list(fixture("walltime/a"), one, 1), 2);
	CHECK_EQ_STR(one[0], "loop1");
	CHECK(blockdev_list(fixture("walltime/none"), names, SAMPLE_DEVS) ==
	      -ENOENT);
}

static int64_t cell(const struct samples *s, const char *key, int k)
{
	const struct fig_desc *d = fig_find(key);
	const struct sample_cell *c;

	if (!d)
		return -1;
	c = samples_cell(s, d, k < 0 ? 0 : sample_zone_cell(k));
	return sample_present(c) ? sample_value(d, c) : -1;
}

/* two readings of the fixture root: each CPU's and device's increase */
static void test_sampler_cells(void)
{
	char root[] = "/tmp/pcptop-walltime-XXXXXX", cmd[CMD_LEN];
	struct sampler smp;
	struct samples s;
	struct facts fa;

	REQUIRE(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "cp -R %s/. %s", fixture("walltime/a"),
		 root);
	REQUIRE(!system(cmd));
	facts_init(&fa);
	REQUIRE(!sampler_open(&smp, root, NULL, NULL, false, &fa));
	CHECK_EQ_INT(fa.nr_devs, 2);
	CHECK_EQ_STR(fa.devs[1], "vda");
	CHECK_EQ_STR(fa.psi_absent, "");
	snprintf(cmd, sizeof(cmd), "cp -R %s/. %s", fixture("walltime/b"),
		 root);
	REQUIRE(!system(cmd));
	REQUIRE(!samples_alloc(&s));
	REQUIRE(!sampler_read(&smp, &s, NULL, NULL));
	/* ticks of USER_HZ, in ms: cpu0 50 ticks, cpu1 50 */
	CHECK_EQ_INT(cell(&s, "cpu_user", 0), 50 * 1000 / smp.user_hz);
	CHECK_EQ_INT(cell(&s, "cpu_user", 1), 50 * 1000 / smp.user_hz);
	CHECK_EQ_INT(cell(&s, "cpu_user", -1), 100 * 1000 / smp.user_hz);
	CHECK_EQ_INT(cell(&s, "cpu_iowait", -1), 60 * 1000 / smp.user_hz);
	CHECK_EQ_INT(cell(&s, "cpu_idle", 1), 50 * 1000 / smp.user_hz);
	CHECK_EQ_INT(cell(&s, "cpus_online", -1), 2);
	CHECK_EQ_INT(cell(&s, "psi_cpu_some", -1), 500);
	CHECK_EQ_INT(cell(&s, "psi_io_some", -1), 15000);
	CHECK_EQ_INT(cell(&s, "psi_memory_full", -1), 500);
	/* vda is cell 1, loop1 cell 0; the sum has both */
	CHECK_EQ_INT(cell(&s, "blk_reads", 1), 100);
	CHECK_EQ_INT(cell(&s, "blk_reads", 0), 4);
	CHECK_EQ_INT(cell(&s, "blk_reads", -1), 104);
	CHECK_EQ_INT(cell(&s, "blk_writes", 1), 400);
	CHECK_EQ_INT(cell(&s, "blk_io_ms", 1), 900);
	CHECK_EQ_INT(cell(&s, "blk_write_sectors", -1), 12800);
	CHECK_EQ_INT(cell(&s, "blk_read_merges", 1), 10);
	/*
	 * cpu1's iowait goes back 5 ticks (a waiter woken elsewhere): no
	 * increase, not a reset that would count all 75 ticks again
	 */
	snprintf(
		cmd, sizeof(cmd),
		"sed -i 's/^cpu1 450 0 230 4150 80/cpu1 450 0 230 4150 75/' %s/proc/stat",
		root);
	REQUIRE(!system(cmd));
	REQUIRE(!sampler_read(&smp, &s, NULL, NULL));
	CHECK_EQ_INT(cell(&s, "cpu_iowait", 1), 0);
	CHECK_EQ_INT(cell(&s, "cpu_user", 1), 0);
	samples_free(&s);
	sampler_close(&smp);
	facts_free(&fa);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(!system(cmd));
}

/* a kernel without /proc/pressure says why, from its config */
static void test_sampler_psi_absent(void)
{
	char root[] = "/tmp/pcptop-nopsi-XXXXXX", cmd[CMD_LEN];
	struct sampler smp;
	struct facts fa;

	REQUIRE(mkdtemp(root));
	snprintf(
		cmd, sizeof(cmd),
		"cp -R %s/. %s && rm -rf %s/proc/pressure && cp %s %s/proc/cmdline",
		fixture("walltime/a"), root, root, fixture("psi/cmdline-none"),
		root);
	REQUIRE(!system(cmd));
	facts_init(&fa);
	snprintf(fa.scale.config_path, sizeof(fa.scale.config_path), "%s",
		 fixture("psi/config-debian"));
	REQUIRE(!sampler_open(&smp, root, NULL, NULL, false, &fa));
	CHECK(strstr(fa.psi_absent, "psi=1") != NULL);
	CHECK(!fa.sampled[fig_index(fig_find("psi_io_some"))]);
	CHECK(fa.sampled[fig_index(fig_find("cpu_user"))]);
	sampler_close(&smp);
	facts_free(&fa);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(!system(cmd));
}

const struct unit_test procstat_tests[] = {
	TEST(test_cpustat),
	TEST(test_psi),
	TEST(test_psi_absent_reasons),
	TEST(test_blockstat),
	TEST(test_blockdev_list),
	TEST(test_sampler_cells),
	TEST(test_sampler_psi_absent),
	TEST_END,
};

// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the recfile tests share: a reference recording with known
 * contents, written through the real writer, and file helpers. Files go
 * to one temporary directory, on tmpfs where there is one, removed at exit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "recbuf.h"
#include "recfile_fixture.h"
#include "unit.h"

#define TMPDIR_LEN 64
/* rf_tpath() results stay valid while a few are in use in one call */
#define TPATH_BUFS 4

static char tmpdir[TMPDIR_LEN];

/* the files are the tests' own: remove them all, then the directory */
static void remove_tmpdir(void)
{
	char path[TMPDIR_LEN + NAME_MAX + 2];
	struct dirent *de;
	DIR *d = opendir(tmpdir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", tmpdir,
				 de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(tmpdir);
}

const char *rf_tpath(const char *name)
{
	static char buf[TPATH_BUFS][TMPDIR_LEN + NAME_MAX + 2];
	static int next;
	char *p = buf[next++ % TPATH_BUFS];

	/* tmpfs where there is one: these tests write thousands of files */
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/dev/shm/pcptop-unit-XXXXXX");
		if (!mkdtemp(tmpdir)) {
			snprintf(tmpdir, sizeof(tmpdir),
				 "/tmp/pcptop-unit-XXXXXX");
			if (!mkdtemp(tmpdir))
				unit_fail(__FILE__, __LINE__,
					  "no temporary directory");
		}
		atexit(remove_tmpdir);
	}
	snprintf(p, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return p;
}

char *rf_argv[] = { "bonnie++", "-d", "/tmp/a dir", "-s", "256", NULL };

void rf_make_header(struct rec_header *h, struct zoneinfo *zi)
{
	static const char *const names[] = { "DMA32", "Normal" };
	int z, c;

	rec_header_init(h, NR_CPUS);
	snprintf(h->pcptop_version, sizeof(h->pcptop_version), "9.9.9");
	h->start_realtime_ns = 1748736000ULL * 1000000000ULL;
	h->interval_ns = 500000000ULL;
	snprintf(h->f.release, sizeof(h->f.release), "6.1.0-cip-test");
	snprintf(h->f.arch, sizeof(h->f.arch), "aarch64");
	snprintf(h->f.hostname, sizeof(h->f.hostname), "board7");
	h->f.nr_probes = 2;
	snprintf(h->f.probes[0].name, sizeof(h->f.probes[0].name), "bulk_free");
	snprintf(h->f.probes[0].mode_name, sizeof(h->f.probes[0].mode_name),
		 "fentry");
	snprintf(h->f.probes[0].target, sizeof(h->f.probes[0].target),
		 "free_pcppages_bulk");
	snprintf(h->f.probes[1].name, sizeof(h->f.probes[1].name), "refill");
	snprintf(h->f.probes[1].mode_name, sizeof(h->f.probes[1].mode_name),
		 "tracepoint");
	h->f.probes[0].mode = MODE_FENTRY;
	h->f.probes[1].mode = MODE_TRACEPOINT;
	h->f.probes[1].estimated = true;
	snprintf(h->f.mode_summary, sizeof(h->f.mode_summary), "mixed");
	h->f.scale.value = 5;
	h->f.scale.source = SCALE_SRC_CONFIG;
	h->f.scale.have[SCALE_SRC_CONFIG] = true;
	h->f.scale.val[SCALE_SRC_CONFIG] = 5;
	h->f.scale.have[SCALE_SRC_CMDLINE] = true;
	h->f.scale.val[SCALE_SRC_CMDLINE] = 0;
	h->f.scale.patch = SCALE_PATCH_ABSENT;
	snprintf(h->f.scale.config_path, sizeof(h->f.scale.config_path),
		 "/proc/config.gz");
	snprintf(h->f.scale.note, sizeof(h->f.scale.note), "cmdline ignored");
	memset(zi, 0, sizeof(*zi));
	zi->nr_zones = 2;
	zi->zones = calloc(2, sizeof(*zi->zones));
	for (z = 0; z < 2; z++) {
		zi->zones[z].node = 0;
		snprintf(zi->zones[z].name, ZONE_NAME_LEN, "%s", names[z]);
		zi->zones[z].nr_cpus = NR_CPUS;
		zi->zones[z].cpus = calloc(NR_CPUS, sizeof(struct pcp_cpu));
		for (c = 0; c < NR_CPUS; c++) {
			struct pcp_cpu *p = &zi->zones[z].cpus[c];

			p->cpu = c;
			p->count = 10 + c;
			p->high = 378;
			p->batch = 63;
			p->high_min = z ? 63 : PCP_FIELD_ABSENT;
			p->high_max = z ? 756 : PCP_FIELD_ABSENT;
		}
	}
	h->f.zones = *zi;
	h->f.pageblock_order = 9;
	h->f.pages_per_block = 512;
	h->f.high_fraction = 0;
	h->f.run_gap_ns = 5000;
	h->f.run_cap_pages = 2016;
	h->argc = 5;
	h->argv = rf_argv;
}

void rf_fill_snap(struct snapshot *s, unsigned int seed)
{
	size_t nh = (size_t)NR_CPUS * PCPTOP_NR_HIST_KEYS;
	size_t nc = (size_t)NR_CPUS * PCPTOP_NR_COUNTER_KEYS;
	uint64_t *h = (uint64_t *)s->hists, *c = (uint64_t *)s->counters;
	size_t i;

	for (i = 0; i < nh * (PCPTOP_HIST_SLOTS + 1); i++)
		h[i] = (i * 7919 + seed) % 97 == 0 ? i * seed : 0;
	for (i = 0; i < nc * NR_PCPTOP_COUNTERS; i++)
		c[i] = (i * 104729 + seed) % 89 == 0 ?
			       (uint64_t)i << 33 | seed :
			       0;
}

void rf_snap_init(struct snapshot *s)
{
	/* no latency and no pcp memory: the reference file has no detail */
	snapshot_alloc(s, NR_CPUS);
}

void rf_snap_fini(struct snapshot *s)
{
	snapshot_free(s);
}

bool rf_snap_equal(const struct snapshot *a, const struct snapshot *b)
{
	return a->nr_cpus == b->nr_cpus &&
	       !memcmp(a->hists, b->hists,
		       (size_t)a->nr_cpus * PCPTOP_NR_HIST_KEYS *
			       sizeof(*a->hists)) &&
	       !memcmp(a->counters, b->counters,
		       (size_t)a->nr_cpus * PCPTOP_NR_COUNTER_KEYS *
			       sizeof(*a->counters));
}

/*
 * The reference file: header, NR_IV intervals, end. ends[i] is the file
 * size after chunk i (0: header), so a prefix's whole chunks are known.
 */
size_t rf_write_ref(const char *path, uint64_t ends[MAX_CHUNKS])
{
	struct rec_header h;
	struct zoneinfo zi;
	struct rec_writer w;
	struct rec_interval iv;
	struct rec_end e = {};
	struct snapshot s;
	int i, err;

	rf_make_header(&h, &zi);
	rf_snap_init(&s);
	err = rec_writer_open(&w, path, &h);
	CHECK_EQ_INT(err, 0);
	ends[0] = w.bytes;
	for (i = 0; i < NR_IV; i++) {
		rf_fill_snap(&s, (unsigned int)i + 1);
		memset(&iv, 0, sizeof(iv));
		iv.seq = (uint32_t)i;
		iv.t_start_ns = (uint64_t)i * 500000000ULL;
		iv.t_end_ns = (uint64_t)(i + 1) * 500000000ULL;
		iv.realtime_ns = h.start_realtime_ns + iv.t_end_ns;
		CHECK_EQ_INT(rec_write_interval(&w, &iv, &s), 0);
		ends[i + 1] = w.bytes;
	}
	snprintf(e.reason, sizeof(e.reason), "command exited");
	e.have_command = true;
	e.exit_code = 7;
	e.wait_status = 7 << 8;
	e.wall_ns = 1499000000ULL;
	e.utime_ns = 12;
	e.stime_ns = 34;
	e.maxrss_kb = 5678;
	e.nr_intervals = NR_IV;
	e.recorded_ns = 1500000000ULL;
	CHECK_EQ_INT(rec_write_end(&w, &h, &e), 0);
	ends[NR_IV + 1] = w.bytes;
	CHECK_EQ_INT(rec_writer_close(&w), 0);
	zoneinfo_free(&zi);
	rf_snap_fini(&s);
	return NR_IV + 2;
}

void rf_read_all(const char *path, struct read_result *rr)
{
	struct rec_reader r;
	struct rec_item it;
	int ret;

	memset(rr, 0, sizeof(*rr));
	rr->open_err = rec_open(&r, path);
	if (rr->open_err) {
		snprintf(rr->msg, sizeof(rr->msg), "%s", r.msg);
		return;
	}
	while (!(ret = rec_next(&r, &it)) && it.type != REC_CHUNK_NONE) {
		if (it.type == REC_CHUNK_INTERVAL)
			rr->intervals++;
		else if (it.type == REC_CHUNK_END)
			rr->have_end = true;
	}
	rr->last = ret;
	snprintf(rr->msg, sizeof(rr->msg), "%s", r.msg);
	rec_close(&r);
}

int rf_load(const char *path, unsigned char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return -1;
	*len = (size_t)st.st_size;
	*buf = malloc(*len + 1);
	if (read(fd, *buf, *len) != (ssize_t)*len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void rf_store(const char *path, const void *buf, size_t len)
{
	int fd;

	/* a new file each time: ext4 flushes a file truncated and rewritten */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		unit_fail(__FILE__, __LINE__, "cannot write %s", path);
	if (fd >= 0)
		close(fd);
}

/* the byte-order field as a little- and a big-endian writer store it */
const unsigned char rf_order_le[4] = { 0x04, 0x03, 0x02, 0x01 };
const unsigned char rf_order_be[4] = { 0x01, 0x02, 0x03, 0x04 };

void rf_preamble(unsigned char *p, const unsigned char order[4], int major,
		 int minor)
{
	memcpy(p, REC_MAGIC, REC_MAGIC_LEN);
	memcpy(p + REC_MAGIC_LEN, order, 4);
	p[12] = (unsigned char)major;
	p[13] = 0;
	p[14] = (unsigned char)minor;
	p[15] = 0;
}

void rf_put_chunk_header(unsigned char *p, uint32_t type, uint32_t clen,
			 uint32_t ulen)
{
	struct rbuf b = {};

	rb_u32(&b, REC_CHUNK_MAGIC);
	rb_u16(&b, (uint16_t)type);
	rb_u16(&b, 0);
	rb_u32(&b, 0);
	rb_u32(&b, clen);
	rb_u32(&b, ulen);
	rb_u32(&b, 0);
	memcpy(p, b.p, REC_CHUNK_HDR_LEN);
	rb_free(&b);
}

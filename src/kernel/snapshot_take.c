// SPDX-License-Identifier: GPL-2.0-only
/*
 * One interval out of the BPF maps: flip the epoch the probes write, then
 * read and zero the copy they left, so a reset never races with the
 * kernel's increments.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "clock.h"
#include "snapshot.h"
#include "snapshot_take.h"
#include "pcptop.skel.h"

/* lets a probe that read the old epoch finish its increments */
#define EPOCH_GRACE_NS 200000

/*
 * A per-CPU array lookup returns one value per possible CPU; scatter them
 * into dst[cpu * stride + key], then zero the kernel copy.
 */
static int read_and_zero(int fd, __u32 base, int nr_keys, void *dst,
			 size_t value_size, int nr_cpus, void *buf,
			 const void *zeroes)
{
	int key, cpu, err;

	for (key = 0; key < nr_keys; key++) {
		__u32 k = base + key;

		if (bpf_map_lookup_elem(fd, &k, buf))
			return -errno;
		for (cpu = 0; cpu < nr_cpus; cpu++)
			memcpy((char *)dst + ((size_t)cpu * nr_keys + key) *
						     value_size,
			       (char *)buf + (size_t)cpu * value_size,
			       value_size);
		err = bpf_map_update_elem(fd, &k, zeroes, BPF_EXIST);
		if (err)
			return -errno;
	}
	return 0;
}

/* 1 when the map holds a key, 0 when it is empty, or -errno */
static int map_holds(const struct bpf_map *map)
{
	__u64 key;

	if (!bpf_map_get_next_key(bpf_map__fd(map), NULL, &key))
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

int snapshot_calls_in_flight(struct attach *a)
{
	int err = map_holds(a->skel->maps.decays);

	return err ? err : map_holds(a->skel->maps.drains);
}

int snapshot_take(struct attach *a, struct snapshot *s)
{
	struct timespec grace = { 0, EPOCH_GRACE_NS };
	size_t hsz = sizeof(struct pcptop_hist_val);
	size_t csz = sizeof(struct pcptop_counter_val);
	size_t lsz = sizeof(struct pcptop_lat_val);
	size_t big = hsz > csz ? hsz : csz;
	void *buf, *zeroes;
	__u32 old;
	int err;

	if (lsz > big)
		big = lsz;
	buf = calloc(s->nr_cpus, big);
	zeroes = calloc(s->nr_cpus, big);
	if (!buf || !zeroes) {
		err = -ENOMEM;
		goto out;
	}
	old = a->skel->bss->epoch & 1;
	__atomic_store_n(&a->skel->bss->epoch, old ^ 1, __ATOMIC_SEQ_CST);
	s->switch_ns = clock_mono_ns();
	s->calls_in_flight = snapshot_calls_in_flight(a) > 0;
	nanosleep(&grace, NULL);

	err = read_and_zero(bpf_map__fd(a->skel->maps.hists),
			    old * PCPTOP_NR_HIST_KEYS, PCPTOP_NR_HIST_KEYS,
			    s->hists, hsz, s->nr_cpus, buf, zeroes);
	if (!err)
		err = read_and_zero(bpf_map__fd(a->skel->maps.counters),
				    old * PCPTOP_NR_COUNTER_KEYS,
				    PCPTOP_NR_COUNTER_KEYS, s->counters, csz,
				    s->nr_cpus, buf, zeroes);
	if (!err && a->skel->rodata->latency_on)
		err = read_and_zero(bpf_map__fd(a->skel->maps.lats),
				    old * PCPTOP_NR_LAT_KEYS,
				    PCPTOP_NR_LAT_KEYS, s->lats, lsz,
				    s->nr_cpus, buf, zeroes);
out:
	free(buf);
	free(zeroes);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "snapshot.h"
#include "pcptop.skel.h"

/* lets a probe that read the old epoch finish its increments */
#define EPOCH_GRACE_NS 200000

int snapshot_alloc(struct snapshot *s, int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->nr_cpus = nr_cpus;
	s->hists = calloc((size_t)nr_cpus * PCPTOP_NR_HIST_KEYS,
			  sizeof(*s->hists));
	s->counters = calloc((size_t)nr_cpus * PCPTOP_NR_COUNTER_KEYS,
			     sizeof(*s->counters));
	if (!s->hists || !s->counters) {
		snapshot_free(s);
		return -ENOMEM;
	}
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->hists);
	free(s->counters);
	s->hists = NULL;
	s->counters = NULL;
}

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
			memcpy((char *)dst +
				       ((size_t)cpu * nr_keys + key) * value_size,
			       (char *)buf + (size_t)cpu * value_size,
			       value_size);
		err = bpf_map_update_elem(fd, &k, zeroes, BPF_EXIST);
		if (err)
			return -errno;
	}
	return 0;
}

int snapshot_take(struct attach *a, struct snapshot *s)
{
	struct timespec grace = { 0, EPOCH_GRACE_NS };
	size_t hsz = sizeof(struct pcptop_hist_val);
	size_t csz = sizeof(struct pcptop_counter_val);
	size_t big = hsz > csz ? hsz : csz;
	void *buf, *zeroes;
	__u32 old;
	int err;

	buf = calloc(s->nr_cpus, big);
	zeroes = calloc(s->nr_cpus, big);
	if (!buf || !zeroes) {
		err = -ENOMEM;
		goto out;
	}
	old = a->skel->bss->epoch & 1;
	__atomic_store_n(&a->skel->bss->epoch, old ^ 1, __ATOMIC_SEQ_CST);
	nanosleep(&grace, NULL);

	err = read_and_zero(bpf_map__fd(a->skel->maps.hists),
			    old * PCPTOP_NR_HIST_KEYS, PCPTOP_NR_HIST_KEYS,
			    s->hists, hsz, s->nr_cpus, buf, zeroes);
	if (!err)
		err = read_and_zero(bpf_map__fd(a->skel->maps.counters),
				    old * PCPTOP_NR_COUNTER_KEYS,
				    PCPTOP_NR_COUNTER_KEYS, s->counters, csz,
				    s->nr_cpus, buf, zeroes);
out:
	free(buf);
	free(zeroes);
	return err;
}

static bool in_range(int want, int v)
{
	return want == SNAP_ALL || want == v;
}

uint64_t snap_counter_at(const struct snapshot *s, int cpu, int zone,
			 int order_slot, int mt_slot, int counter)
{
	uint64_t sum = 0;
	int c, z, o, m;

	for (c = 0; c < s->nr_cpus; c++) {
		if (!in_range(cpu, c))
			continue;
		for (z = 0; z < PCPTOP_MAX_ZONES; z++) {
			if (!in_range(zone, z))
				continue;
			for (o = 0; o < PCPTOP_ORDER_SLOTS; o++) {
				if (!in_range(order_slot, o))
					continue;
				for (m = 0; m < PCPTOP_MT_SLOTS; m++) {
					int key = pcptop_counter_key(z, o, m);

					if (!in_range(mt_slot, m))
						continue;
					sum += s->counters[(size_t)c * PCPTOP_NR_COUNTER_KEYS + key]
						       .c[counter];
				}
			}
		}
	}
	return sum;
}

uint64_t snap_counter(const struct snapshot *s, int cpu, int zone,
		      int counter)
{
	return snap_counter_at(s, cpu, zone, SNAP_ALL, SNAP_ALL, counter);
}

void snap_hist(const struct snapshot *s, int cpu, int zone, int hist,
	       uint64_t slots[PCPTOP_HIST_SLOTS], uint64_t *max)
{
	int c, z, i;

	memset(slots, 0, sizeof(uint64_t) * PCPTOP_HIST_SLOTS);
	*max = 0;
	for (c = 0; c < s->nr_cpus; c++) {
		if (!in_range(cpu, c))
			continue;
		for (z = 0; z < PCPTOP_MAX_ZONES; z++) {
			const struct pcptop_hist_val *h;

			if (!in_range(zone, z))
				continue;
			h = &s->hists[(size_t)c * PCPTOP_NR_HIST_KEYS +
				      pcptop_hist_key(z, hist)];
			for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
				slots[i] += h->slots[i];
			if (h->max > *max)
				*max = h->max;
		}
	}
}

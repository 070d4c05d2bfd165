// SPDX-License-Identifier: GPL-2.0-only
/*
 * What pcptop itself costs, as the kernel accounts it: the memory its maps
 * lock, each program's runs and run time, and the runs the kernel skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "uapi_compat.h"
#include "pcptop.skel.h"

/* a kprobe that fired inside another kprobe's handler is skipped, too */
static uint64_t kprobe_missed(const struct attach *a)
{
	uint64_t missed = 0;
	int i;

	for (i = 0; i < a->nr_links; i++) {
		struct compat_perf_link_info info;
		__u32 len = sizeof(info);
		int fd = bpf_link__fd(a->links[i]);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		if (info.type == COMPAT_LINK_TYPE_PERF_EVENT &&
		    (info.perf_type == COMPAT_PERF_EVENT_KPROBE ||
		     info.perf_type == COMPAT_PERF_EVENT_KRETPROBE))
			missed += info.missed;
	}
	return missed;
}

/* bytes a map locks, as its fdinfo says; 0 when it cannot be read */
static uint64_t map_memlock(int fd)
{
	char path[64], line[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

void attach_self_cost(const struct attach *a, struct self_cost *s)
{
	struct bpf_program *prog;
	struct bpf_map *map;

	memset(s, 0, sizeof(*s));
	if (!a->skel)
		return;
	s->valid = true;
	bpf_object__for_each_map(map, a->skel->obj)
		if (bpf_map__fd(map) >= 0)
			s->map_bytes += map_memlock(bpf_map__fd(map));
	bpf_object__for_each_program(prog, a->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);
		struct self_prog *sp;

		if (fd < 0 || !bpf_program__autoload(prog) ||
		    s->nr_progs >= SELF_MAX_PROGS ||
		    bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		sp = &s->progs[s->nr_progs++];
		snprintf(sp->name, sizeof(sp->name), "%s",
			 bpf_program__name(prog));
		sp->runs = info.run_cnt;
		sp->run_ns = info.run_time_ns;
		s->stats_on |= info.run_cnt > 0;
	}
}

void attach_prog_stats(const struct attach *a, struct prog_stats *ps)
{
	struct bpf_program *prog;

	memset(ps, 0, sizeof(*ps));
	if (!a->skel)
		return;
	bpf_object__for_each_program(prog, a->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		ps->run_ns += info.run_time_ns;
		ps->run_cnt += info.run_cnt;
		ps->recursion_misses += info.recursion_misses;
	}
	ps->recursion_misses += kprobe_missed(a);
}

int attach_sample_prog(void *ctx, const char *field, int64_t *v)
{
	const struct attach *a = ctx;
	struct prog_stats ps;

	if (!a || !a->skel)
		return -ENOENT;
	attach_prog_stats(a, &ps);
	if (!strcmp(field, "recursion_misses"))
		*v = (int64_t)ps.recursion_misses;
	else if (!strcmp(field, "run_cnt"))
		*v = (int64_t)ps.run_cnt;
	else if (!strcmp(field, "run_ns"))
		*v = (int64_t)ps.run_ns;
	else
		return -ENOENT;
	return 0;
}

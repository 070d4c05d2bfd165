// SPDX-License-Identifier: GPL-2.0-only
/*
 * floor: attach count-only BPF programs to the hooks named on the command
 * line, hold them until SIGINT or SIGTERM, print the runs counted. The
 * cost floor make bench sets pcptop against: the same hooks, nothing done.
 *
 * Usage: floor HOOK...
 *   HOOK  fentry:FN fexit:FN kprobe:FN kretprobe:FN tp:TRACEPOINT
 *         (pcptop info --json prints its hooks in this form)
 * Prints "floor: attached N hooks" once attached, "floor: N runs" at the
 * end. Exits 2 on a bad hook, 1 when the kernel refuses one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"

/* programs of each kind in floor.bpf.c */
#define PER_FN_KIND 8
#define PER_TP 16
#define MAX_HOOKS (4 * PER_FN_KIND + PER_TP)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

struct kind {
	const char *prefix;
	const char *prog; /* program name stem in floor.bpf.c */
	int max; /* programs of the stem there */
	int used;
};

static struct kind kinds[] = {
	{ .prefix = "fentry:", .prog = "fe", .max = PER_FN_KIND },
	{ .prefix = "fexit:", .prog = "fx", .max = PER_FN_KIND },
	{ .prefix = "kprobe:", .prog = "kp", .max = PER_FN_KIND },
	{ .prefix = "kretprobe:", .prog = "kr", .max = PER_FN_KIND },
	{ .prefix = "tp:", .prog = "tb", .max = PER_TP },
};

#define NR_KINDS (sizeof(kinds) / sizeof(kinds[0]))

struct hook {
	struct bpf_program *prog;
	const char *target;
	int kind;
};

int main(int argc, char **argv)
{
	struct hook hooks[MAX_HOOKS];
	struct bpf_link *links[MAX_HOOKS] = {};
	struct floor_bpf *skel;
	struct bpf_program *p;
	unsigned long long total = 0;
	int nr = 0, i, k, err = 0, ncpu;
	char name[16];

	if (argc < 2) {
		fprintf(stderr,
			"usage: floor HOOK... (fentry:FN fexit:FN kprobe:FN kretprobe:FN tp:NAME)\n");
		return 2;
	}
	skel = floor_bpf__open();
	if (!skel) {
		fprintf(stderr, "floor: open: %s\n", strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, false);
	for (i = 1; i < argc && nr < MAX_HOOKS; i++) {
		for (k = 0; k < (int)NR_KINDS; k++)
			if (!strncmp(argv[i], kinds[k].prefix,
				     strlen(kinds[k].prefix)))
				break;
		if (k == (int)NR_KINDS || kinds[k].used >= kinds[k].max) {
			fprintf(stderr, "floor: bad hook '%s'\n", argv[i]);
			floor_bpf__destroy(skel);
			return 2;
		}
		snprintf(name, sizeof(name), "%s%d", kinds[k].prog,
			 kinds[k].used++);
		p = bpf_object__find_program_by_name(skel->obj, name);
		hooks[nr].prog = p;
		hooks[nr].target = argv[i] + strlen(kinds[k].prefix);
		hooks[nr].kind = k;
		bpf_program__set_autoload(p, true);
		/* fentry, fexit and tp_btf name their target before the load */
		if (k == 0 || k == 1 || k == 4)
			bpf_program__set_attach_target(p, 0, hooks[nr].target);
		nr++;
	}
	err = floor_bpf__load(skel);
	if (err) {
		fprintf(stderr, "floor: load: %s\n", strerror(-err));
		floor_bpf__destroy(skel);
		return 1;
	}
	for (i = 0; i < nr; i++) {
		if (hooks[i].kind == 2 || hooks[i].kind == 3)
			links[i] = bpf_program__attach_kprobe(
				hooks[i].prog, hooks[i].kind == 3,
				hooks[i].target);
		else
			links[i] = bpf_program__attach(hooks[i].prog);
		if (!links[i]) {
			fprintf(stderr, "floor: attach %s: %s\n",
				hooks[i].target, strerror(errno));
			err = 1;
			goto out;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("floor: attached %d hooks\n", nr);
	fflush(stdout);
	while (!stop)
		pause();
	ncpu = libbpf_num_possible_cpus();
	if (ncpu > 0) {
		unsigned long long v[ncpu];
		__u32 key = 0;

		if (!bpf_map__lookup_elem(skel->maps.runs, &key, sizeof(key), v,
					  sizeof(v), 0))
			for (i = 0; i < ncpu; i++)
				total += v[i];
	}
	printf("floor: %llu runs\n", total);
out:
	for (i = 0; i < nr; i++)
		bpf_link__destroy(links[i]);
	floor_bpf__destroy(skel);
	return err;
}

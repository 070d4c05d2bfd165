// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "kallsyms.h"
#include "kallsyms_boot.h"
#include "procfs.h"
#include "snapshot_take.h"
#include "system.h"

#define LIVE_ROOT "/"

/*
 * Every kallsyms name a start-up looks up, in one pass over the file: the
 * kprobe candidates of every probe, the scale patch's symbols and the
 * drain callers' functions.
 */
static void prefetch_kallsyms(void)
{
	const char *names[KALLSYMS_CACHE_MAX];
	char path[64], boot_id[64], source[48];
	int id, i, n = 0;

	for (id = 0; id < NR_PROBES; id++)
		for (i = 0; i < PROBE_MAX_FNS && n < KALLSYMS_CACHE_MAX; i++)
			if (probe_table[id].fns[i])
				names[n++] = probe_table[id].fns[i];
	for (i = 0; i < SCALE_KALLSYMS_NSYMS && n < KALLSYMS_CACHE_MAX; i++)
		names[n++] = scale_kallsyms_syms[i];
	for (i = 0; i < nr_drain_caller_syms && n < KALLSYMS_CACHE_MAX; i++)
		names[n++] = drain_caller_syms[i].name;
	proc_path(path, sizeof(path), LIVE_ROOT, "proc/kallsyms");
	proc_path(boot_id, sizeof(boot_id), LIVE_ROOT,
		  "proc/sys/kernel/random/boot_id");
	/* without it every lookup reads the file itself: slower, no worse */
	kallsyms_prefetch_boot(path, boot_id, NULL, names, n, source,
			       sizeof(source));
}

static void facts_probes(struct facts *f, const struct attach *a)
{
	int id;

	for (id = 0; id < NR_PROBES && id < FACTS_MAX_PROBES; id++) {
		const struct probe_state *ps = &a->probes[id];
		struct fact_probe *p = &f->probes[f->nr_probes++];

		snprintf(p->name, sizeof(p->name), "%s", probe_table[id].name);
		p->mode = ps->mode;
		snprintf(p->mode_name, sizeof(p->mode_name), "%s",
			 probe_mode_name(ps->mode));
		snprintf(p->target, sizeof(p->target), "%s", ps->target);
		snprintf(p->reason, sizeof(p->reason), "%s", ps->reason);
		p->estimated = ps->estimated;
	}
	snprintf(f->mode_summary, sizeof(f->mode_summary), "%s",
		 facts_summary_mode(f));
	snprintf(f->fallback, sizeof(f->fallback), "%s", a->fallback);
	snprintf(f->btf_source, sizeof(f->btf_source), "%s", a->btf_source);
	f->cross_check = a->cross_check;
}

static void read_kvar(struct facts *f, struct attach *a, int *kvar_err)
{
	int value;

	*kvar_err = -ENOENT;
	if (!a || !f->scale.kvar_addr)
		return;
	*kvar_err = attach_read_kernel_int(a, f->scale.kvar_addr, &value);
	/* both setters resolve again, so value and note follow */
	if (!*kvar_err)
		scale_set_kvar(&f->scale, value);
	else
		scale_set_kvar_error(&f->scale, *kvar_err);
}

int system_collect(struct facts *f, struct attach *a,
		   const struct attach_opts *o, int *kvar_err)
{
	struct utsname uts;
	char path[256];
	long v;
	int err;

	facts_init(f);
	if (uname(&uts))
		return -errno;
	snprintf(f->release, sizeof(f->release), "%s", uts.release);
	snprintf(f->arch, sizeof(f->arch), "%s", uts.machine);
	snprintf(f->hostname, sizeof(f->hostname), "%s", uts.nodename);
	if (a)
		facts_probes(f, a);
	if (o)
		f->run_gap_ns = o->run_gap_ns;

	err = scale_collect(LIVE_ROOT, uts.release, &f->scale);
	if (err)
		return err;
	read_kvar(f, a, kvar_err);
	if (a && a->free_high_uncapped)
		scale_set_free_high_uncapped(&f->scale);
	if (a)
		f->shape = a->shape;

	proc_path(path, sizeof(path), LIVE_ROOT, "proc/zoneinfo");
	f->zones_err = zoneinfo_parse(path, &f->zones);
	if (f->zones_err == -ENOMEM)
		return -ENOMEM;
	proc_path(path, sizeof(path), LIVE_ROOT, "proc/pagetypeinfo");
	f->pageblock_err = pagetypeinfo_parse(path, &f->pageblock_order,
					      &f->pages_per_block);
	if (f->pageblock_err)
		f->pageblock_order = f->pages_per_block = -1;
	proc_path(path, sizeof(path), LIVE_ROOT,
		  "proc/sys/vm/percpu_pagelist_high_fraction");
	f->high_fraction_err = read_long_file(path, &v);
	f->high_fraction = f->high_fraction_err ? -1 : v;
	f->run_cap_pages = facts_chunk_bound(f);
	return 0;
}

int system_attach(struct system *s, const struct attach_opts *o,
		  bool say_fallback, bool with_zoneinfo)
{
	int err;

	memset(s, 0, sizeof(*s));
	facts_init(&s->f);
	prefetch_kallsyms();
	err = attach_open(&s->a, o);
	if (err) {
		fprintf(stderr, "pcptop: %s\n", s->a.error);
		return err;
	}
	if (say_fallback && s->a.fallback[0])
		fprintf(stderr, "pcptop: %s\n", s->a.fallback);
	err = system_collect(&s->f, &s->a, o, &s->kvar_err);
	if (err) {
		fprintf(stderr, "pcptop: reading /proc: %s\n", strerror(-err));
		system_detach(s);
		/* a runtime failure, not an unusable kernel */
		return -EIO;
	}
	attach_set_run_cap(&s->a, s->f.run_cap_pages);
	attach_set_scale(&s->a, s->f.scale.source == SCALE_SRC_INFERRED ?
					-1 :
					s->f.scale.value);
	err = sampler_open(&s->smp, LIVE_ROOT, attach_sample_prog, &s->a,
			   with_zoneinfo, &s->f);
	if (err) {
		fprintf(stderr, "pcptop: sampling /proc: %s\n", strerror(-err));
		system_detach(s);
		return err;
	}
	return 0;
}

void system_detach(struct system *s)
{
	sampler_close(&s->smp);
	facts_free(&s->f);
	attach_close(&s->a);
}

int system_sample(struct system *s, struct snapshot *snap)
{
	int err;

	err = snapshot_take(&s->a, snap);
	if (err)
		return err;
	zoneinfo_free(&snap->zi);
	return sampler_read(&s->smp, &snap->smp, &snap->zi, &snap->zi_err);
}

int system_nr_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Gathering the kernel's facts for the attach plan (kernel_facts.h). The
 * plan reads the kernel's cut BTF (btf_cache.h), a few tens of KB; where
 * there is none, the whole BTF is parsed once here and freed before
 * libbpf parses it for the load: the two are never in memory together.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "arrays.h"
#include "boot_note.h"
#include "btf_cache.h"
#include "kallsyms.h"
#include "fentry_load.h"
#include "errname.h"
#include "kernel_facts.h"
#include "kernel_quirks.h"
#include "load_report.h"

#define KALLSYMS_PATH "/proc/kallsyms"
/* libbpf attaches kprobes through this PMU; absent without CONFIG_KPROBES */
#define KPROBE_PMU_PATH "/sys/bus/event_source/devices/kprobe/type"
/* this boot's note (core/boot_note.h) that the fentry probe attached */
#define FENTRY_NOTE "fentry"
/* btf_trace_<tp> prototypes carry a leading void *__data */
#define TP_PROTO_EXTRA_ARGS 1
#define CAP_BPF_BIT 39
#define CAP_PERFMON_BIT 38

bool kernel_bpf_allowed(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
	bool bpf, perfmon, sys_admin;

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	sys_admin = data[0].effective & (1U << CAP_SYS_ADMIN);
	bpf = data[1].effective & (1U << (CAP_BPF_BIT - 32));
	perfmon = data[1].effective & (1U << (CAP_PERFMON_BIT - 32));
	return sys_admin || (bpf && perfmon);
}

static int tp_nargs(const struct btf *btf, const char *tp)
{
	char name[96];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_ptr(t))
		return -EINVAL;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	return btf_vlen(t) - TP_PROTO_EXTRA_ARGS;
}

static bool btf_has_func(const struct btf *btf, const char *fn)
{
	return btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC) > 0;
}

/* whether fn's BTF prototype returns a value (not void) */
static bool btf_func_returns(const struct btf *btf, const char *fn)
{
	const struct btf_type *t;
	int id = btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC);

	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	t = t ? btf__type_by_id(btf, t->type) : NULL;
	return t && btf_is_func_proto(t) && t->type != 0;
}

static bool btf_has_member(const struct btf *btf, const char *st,
			   const char *member)
{
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, st, BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!t)
		return false;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

/*
 * Whether the kernel loads and attaches an fentry program on fn, tried
 * with a two-instruction program before the object is loaded: a refusal
 * found by the whole load costs libbpf a second parse of vmlinux BTF and
 * a second verification, a third of pcptop's start-up here (fentry is
 * refused with EPERM on these machines, ENOTSUPP at attach on arm64
 * before v6.4). id is fn's id in the kernel's own BTF (a cut BTF's ids
 * are its own: the cache keeps the kernel's). 0, or the -errno the kernel
 * gave.
 */
static int fentry_works(int id)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FENTRY);
	int prog, link, err = 0;

	if (id <= 0)
		return -ENOENT;
	opts.attach_btf_id = id;
	prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "pcptop_probe", "GPL", ret0,
			     ARRAY_SIZE(ret0), &opts);
	if (prog < 0)
		return -errno;
	link = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0)
		err = -errno;
	else
		close(link);
	close(prog);
	return err;
}

/*
 * fentry_works(), answered from this boot's note when an earlier start
 * attached it: the probe's trampoline takes a grace period or two to take
 * down, a good part of a board's start (docs/PERFORMANCE.md, "Start-up
 * and the BTF cache"). A refusal is asked again each time: it may have
 * been passing.
 */
static int fentry_works_this_boot(int id, const char *fn)
{
	char note[128];
	int err;

	if (id <= 0)
		return fentry_works(id);
	snprintf(note, sizeof(note), "fentry attached to %s, BTF id %d", fn,
		 id);
	if (boot_note_has(NULL, BOOT_ID_PATH, FENTRY_NOTE, note))
		return 0;
	err = fentry_works(id);
	if (!err)
		boot_note_set(NULL, BOOT_ID_PATH, FENTRY_NOTE, note);
	return err;
}

/*
 * The BTF the plan reads, and the one libbpf's CO-RE will (kf->core_btf):
 * --btf's file; else the kernel's cut (btf_cache.h), which spares both a
 * parse of megabytes, with kf->fn_btf_id the kernel BTF's ids of the
 * probes' functions; else, when no cut can be had, the kernel's whole
 * BTF, *whole set (its ids are the kernel's). NULL and *err set, with msg
 * saying what to do.
 */
static struct btf *load_btf(const struct attach_opts *o,
			    struct kernel_facts *kf, char *msg, size_t msglen,
			    int *err, bool *whole)
{
	struct btf_cache c;
	struct btf *btf;
	int why;

	kf->core_btf[0] = '\0';
	memset(kf->fn_btf_id, 0, sizeof(kf->fn_btf_id));
	*whole = false;
	if (o->btf_path) {
		btf = btf__parse(o->btf_path, NULL);
		if (!btf) {
			*err = -errno;
			snprintf(
				msg, msglen,
				"cannot read BTF from %s (%s): give the BTF of this very kernel (docs/FIELD.md says how to make one)",
				o->btf_path, strerror(-*err));
			return NULL;
		}
		snprintf(kf->btf_source, sizeof(kf->btf_source), "%s (--btf)",
			 o->btf_path);
		snprintf(kf->core_btf, sizeof(kf->core_btf), "%s", o->btf_path);
		return btf;
	}
	why = kf->kernel_btf ? btf_cache_open(&c, VMLINUX_BTF_PATH) : -ENOENT;
	if (!why) {
		snprintf(kf->btf_source, sizeof(kf->btf_source), "%s",
			 c.source);
		snprintf(kf->core_btf, sizeof(kf->core_btf), "%s", c.path);
		memcpy(kf->fn_btf_id, c.fn_btf_id, sizeof(kf->fn_btf_id));
		/* the plan's to free; the memfd stays for the load */
		return c.btf;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		*err = -errno;
		snprintf(
			msg, msglen,
			"no kernel BTF (%s: %s): use --btf FILE with this kernel's BTF (docs/FIELD.md), or a kernel with CONFIG_DEBUG_INFO_BTF=y",
			VMLINUX_BTF_PATH,
			/* libbpf's "not found" */
			*err == -ESRCH ? "not found" : strerror(-*err));
		return NULL;
	}
	*whole = true;
	if (kf->kernel_btf)
		snprintf(kf->btf_source, sizeof(kf->btf_source),
			 "%s (whole: no cut, %s)", VMLINUX_BTF_PATH,
			 errname(why));
	else
		snprintf(kf->btf_source, sizeof(kf->btf_source),
			 "found by libbpf");
	return btf;
}

/*
 * The drain callers' text, from the pass over kallsyms system.c made: a
 * name absent from this kernel (inlined, renamed) is left out, the parts
 * the compiler split off one (.cold, .constprop.0) are in, and with
 * addresses hidden (kptr_restrict) none is known.
 */
static void gather_callers(struct kernel_facts *kf)
{
	struct kallsyms_range r[PCPTOP_MAX_CALLER_RANGES];
	const char *names[KALLSYMS_CACHE_MAX] = { NULL };
	int i, n = 0, found = 0;

	kf->nr_callers = 0;
	for (i = 0; i < nr_drain_caller_syms && i < KALLSYMS_CACHE_MAX; i++)
		names[n++] = drain_caller_syms[i].name;
	if (kallsyms_ranges(KALLSYMS_PATH, names, n, r,
			    PCPTOP_MAX_CALLER_RANGES, &found))
		return;
	for (i = 0; i < found; i++) {
		struct pcptop_caller_range *c = &kf->callers[kf->nr_callers];

		if (!r[i].lo || r[i].hi <= r[i].lo)
			continue;
		c->lo = r[i].lo;
		c->hi = r[i].hi;
		c->caller = drain_caller_syms[r[i].sym].caller;
		kf->nr_callers++;
	}
}

/*
 * The pcp code's shape (core/kshape.h): the commit function's return
 * (QUIRK_CHUNKED_COMMIT), zone->lock's name (QUIRK_ZONE_LOCK_FIELDS) and
 * the zone-lock tracepoints (QUIRK_ZONE_LOCK_TP), then the rule decided.
 */
static void gather_shape(const struct btf *btf, struct kernel_facts *kf)
{
	const char *commit = kf->fn[PROBE_FREE_HIGH];
	struct kshape *k = &kf->shape;
	struct utsname uts;

	k->known = true;
	k->commit_in_btf = commit && btf_has_func(btf, commit);
	k->commit_returns = k->commit_in_btf && btf_func_returns(btf, commit);
	k->pcp_free_count = kf->pcp_free_count;
	k->pcp_free_factor = kf->free_high_uncapped;
	k->zone_lock_renamed = btf_has_member(btf, "zone", "_lock") &&
			       !btf_has_member(btf, "zone", "lock");
	k->zone_lock_tps = tp_nargs(btf, QUIRK_ZONE_LOCK_TP) >= 0;
	kshape_decide(k, uname(&uts) ? NULL : uts.release);
}

int kernel_facts_gather(const struct attach_opts *o, struct kernel_facts *kf,
			char *msg, size_t msglen)
{
	unsigned long long addrs[NR_PROBES];
	struct btf *btf;
	int id, k, fentry_id, err = 0;
	bool whole;

	kf->kernel_btf = !access(VMLINUX_BTF_PATH, R_OK);
	btf = load_btf(o, kf, msg, msglen, &err, &whole);
	if (!btf)
		return err;
	load_report_mark("the kernel's BTF (cache key, entry)");

	for (id = 0; id < NR_PROBES; id++) {
		const struct probe_desc *d = &probe_table[id];

		/* the first name this kernel knows, else the oldest */
		kf->fn[id] = d->fns[0];
		for (k = 0; k < PROBE_MAX_FNS && d->fns[k]; k++) {
			kf->fn[id] = d->fns[k];
			if (btf_has_func(btf, d->fns[k]))
				break;
		}
		kf->in_btf[id] = kf->fn[id] && btf_has_func(btf, kf->fn[id]);
		if (whole && kf->kernel_btf && kf->in_btf[id])
			kf->fn_btf_id[id] = btf__find_by_name_kind(
				btf, kf->fn[id], BTF_KIND_FUNC);
		kf->tp_nargs[id] = d->tp ? tp_nargs(btf, d->tp) : -ENOENT;
		kf->tp_exit_nargs[id] = d->tp_exit ? tp_nargs(btf, d->tp_exit) :
						     -ENOENT;
	}
	kf->pcp_free_count = btf_has_member(btf, "per_cpu_pages", "free_count");
	/* 6.1's pageset: free_high frees it whole, whatever the scale */
	kf->free_high_uncapped =
		btf_has_member(btf, "per_cpu_pages", "free_factor");
	gather_shape(btf, kf);
	kallsyms_lookup_many(KALLSYMS_PATH, kf->fn, NR_PROBES, addrs);
	for (id = 0; id < NR_PROBES; id++)
		kf->in_kallsyms[id] = kf->fn[id] && addrs[id] != 0;
	gather_callers(kf);
	load_report_mark("the BTF's facts, kallsyms");
	kf->kprobe_pmu = !access(KPROBE_PMU_PATH, R_OK);
	/*
	 * fentry attaches through the kernel's own BTF, which --btf is not;
	 * a cut BTF's ids are its own, the cache keeps the kernel's
	 */
	fentry_id = -ENOENT;
	/*
	 * Only auto mode asks (attach_open): a mode named has its own load
	 * answer, and the probe's trampoline costs a grace period to take
	 * down (docs/PERFORMANCE.md, "Start-up and the BTF cache")
	 */
	if (o->want == MODE_AUTO && kf->kernel_btf &&
	    kf->in_btf[PROBE_BULK_FREE])
		fentry_id =
			kf->fn_btf_id[PROBE_BULK_FREE] ?
				(int)kf->fn_btf_id[PROBE_BULK_FREE] :
				/* --btf's ids are its file's (btf-min's?) */
				fentry_load_kernel_btf_id(
					kf->fn[PROBE_BULK_FREE]);
	kf->fentry_err =
		fentry_works_this_boot(fentry_id, kf->fn[PROBE_BULK_FREE]);
	load_report_mark("the fentry probe");
	/* read once here; freed before libbpf reads its own for the load */
	btf__free(btf);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "procfs.h"
#include "pcptop.skel.h"

#define KALLSYMS_PATH "/proc/kallsyms"
#define VMLINUX_BTF_PATH "/sys/kernel/btf/vmlinux"
/* libbpf attaches kprobes through this PMU; absent without CONFIG_KPROBES */
#define KPROBE_PMU_PATH "/sys/bus/event_source/devices/kprobe/type"
#define COMMIT_FN_OLD "free_unref_page_commit"
#define COMMIT_FN_NEW "free_frozen_page_commit"
#define TP_DRAIN "mm_page_pcpu_drain"
#define TP_ZONE_LOCKED "mm_page_alloc_zone_locked"
/* btf_trace_<tp> prototypes carry a leading void *__data */
#define TP_PROTO_EXTRA_ARGS 1
#define ZONE_LOCKED_TP_ARGS 4
/* fentry -> kprobe -> tracepoint: at most one fallback per flavour */
#define MAX_LOAD_ATTEMPTS 3
#define CAP_BPF_BIT 39
#define CAP_PERFMON_BIT 38

static const char *const probe_names[NR_PROBES] = {
	[PROBE_BULK_FREE] = "bulk_free",
	[PROBE_REFILL] = "refill",
	[PROBE_DECAY] = "decay",
	[PROBE_DRAIN] = "drain",
	[PROBE_FREE_HIGH] = "free_high",
};

static const char *const mode_names[] = {
	[MODE_NONE] = "none",
	[MODE_FENTRY] = "fentry",
	[MODE_KPROBE] = "kprobe",
	[MODE_TRACEPOINT] = "tracepoint",
	[MODE_HEURISTIC] = "heuristic",
	[MODE_AUTO] = "auto",
};

const char *probe_name(enum probe_id id)
{
	return id < NR_PROBES ? probe_names[id] : "?";
}

const char *probe_mode_name(enum probe_mode mode)
{
	return mode <= MODE_AUTO ? mode_names[mode] : "?";
}

int probe_mode_parse(const char *s, enum probe_mode *mode)
{
	static const enum probe_mode choices[] = { MODE_AUTO, MODE_FENTRY,
						   MODE_KPROBE,
						   MODE_TRACEPOINT };
	size_t i;

	for (i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		if (!strcmp(s, mode_names[choices[i]])) {
			*mode = choices[i];
			return 0;
		}
	}
	return -EINVAL;
}

/* what the running kernel offers, gathered once before planning */
struct kernel_facts {
	bool in_btf[NR_PROBES];
	bool in_kallsyms[NR_PROBES];
	const char *fn[NR_PROBES];
	bool kprobe_pmu;
	bool tp_drain;
	bool tp_zone_locked;
	int zone_locked_args;
};

struct plan_rules {
	bool allow_fentry;
	bool allow_kprobe;
	bool allow_fn_probes;	/* false for --mode tracepoint */
	char fentry_refused[96];
	char kprobe_refused[96];
};

/*
 * Kernel-internal errno, absent from user space's errno.h: what arm64 before
 * 6.4 returns for fentry (no BPF trampoline support). libc would call it
 * "Unknown error 524".
 */
#define PCPTOP_ENOTSUPP 524

/* "EPERM" reads better than "Operation not permitted" next to a mode */
static const char *errname(int err)
{
	const char *name = strerrorname_np(-err);

	if (err == -PCPTOP_ENOTSUPP)
		return "ENOTSUPP, -524";

	return name ? name : strerror(-err);
}

static bool verbose_libbpf;
static char libbpf_last[ATTACH_MSG_LEN];

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	size_t n;

	if (verbose_libbpf)
		return vfprintf(stderr, fmt, args);
	if (level == LIBBPF_DEBUG)
		return 0;
	/* keep the last warning for the one-line error, drop the rest */
	vsnprintf(libbpf_last, sizeof(libbpf_last), fmt, args);
	n = strlen(libbpf_last);
	if (n && libbpf_last[n - 1] == '\n')
		libbpf_last[n - 1] = '\0';
	return 0;
}

static bool has_bpf_privileges(void)
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

static int gather_facts(struct attach *a, struct kernel_facts *kf)
{
	unsigned long long addrs[NR_PROBES];
	struct btf *btf;
	int i, err;

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		snprintf(a->error, sizeof(a->error),
			 "no kernel BTF (%s: %s): pcptop needs a kernel built with CONFIG_DEBUG_INFO_BTF=y",
			 VMLINUX_BTF_PATH, strerror(-err));
		return err;
	}
	snprintf(a->btf_source, sizeof(a->btf_source), "%s",
		 access(VMLINUX_BTF_PATH, R_OK) ? "found by libbpf" :
						  VMLINUX_BTF_PATH);

	kf->fn[PROBE_BULK_FREE] = "free_pcppages_bulk";
	kf->fn[PROBE_REFILL] = "rmqueue_bulk";
	kf->fn[PROBE_DECAY] = "decay_pcp_high";
	kf->fn[PROBE_DRAIN] = "drain_pages_zone";
	/* renamed in v6.15 with the frozen-page rework */
	kf->fn[PROBE_FREE_HIGH] = btf_has_func(btf, COMMIT_FN_NEW) ?
					  COMMIT_FN_NEW : COMMIT_FN_OLD;
	snprintf(a->commit_fn, sizeof(a->commit_fn), "%s",
		 kf->fn[PROBE_FREE_HIGH]);

	kallsyms_lookup_many(KALLSYMS_PATH, kf->fn, NR_PROBES, addrs);
	for (i = 0; i < NR_PROBES; i++) {
		kf->in_btf[i] = btf_has_func(btf, kf->fn[i]);
		kf->in_kallsyms[i] = addrs[i] != 0;
	}
	kf->kprobe_pmu = !access(KPROBE_PMU_PATH, R_OK);
	kf->tp_drain = tp_nargs(btf, TP_DRAIN) > 0;
	kf->zone_locked_args = tp_nargs(btf, TP_ZONE_LOCKED);
	kf->tp_zone_locked = kf->zone_locked_args == ZONE_LOCKED_TP_ARGS;
	/* parsed once here; freed before libbpf parses it for the load */
	btf__free(btf);
	return 0;
}

static void set_probe(struct probe_state *p, enum probe_mode mode,
		      const char *target, bool estimated, const char *fmt, ...)
{
	va_list ap;

	p->mode = mode;
	p->estimated = estimated;
	snprintf(p->target, sizeof(p->target), "%s", target);
	va_start(ap, fmt);
	vsnprintf(p->reason, sizeof(p->reason), fmt, ap);
	va_end(ap);
}

/* why neither function probe flavour is in use, for the reason text */
static const char *fn_unavailable(const struct kernel_facts *kf,
				  const struct plan_rules *r, int id,
				  char *buf, size_t len)
{
	const char *kp;

	if (!r->allow_fn_probes)
		return "not probed: --mode tracepoint";
	if (!kf->in_btf[id])
		return "not in BTF (inlined or absent in this kernel)";
	if (r->kprobe_refused[0])
		kp = r->kprobe_refused;
	else if (!kf->kprobe_pmu)
		kp = "no kprobes in this kernel";
	else if (!kf->in_kallsyms[id])
		kp = "no kallsyms entry for kprobe";
	else
		kp = "kprobe not requested";
	snprintf(buf, len, "%s, %s",
		 r->fentry_refused[0] ? r->fentry_refused :
					"fentry not requested",
		 kp);
	return buf;
}

static void plan_fn_probe(struct attach *a, const struct kernel_facts *kf,
			  const struct plan_rules *r, int id)
{
	const char *fn = kf->fn[id];
	char why_buf[PROBE_REASON_LEN];
	const char *why = fn_unavailable(kf, r, id, why_buf, sizeof(why_buf));

	if (r->allow_fn_probes && kf->in_btf[id] && r->allow_fentry) {
		set_probe(&a->probes[id], MODE_FENTRY, fn, false,
			  "fentry/fexit on %s", fn);
		return;
	}
	if (r->allow_fn_probes && kf->in_btf[id] && r->allow_kprobe &&
	    kf->in_kallsyms[id] && kf->kprobe_pmu) {
		set_probe(&a->probes[id], MODE_KPROBE, fn, false,
			  "kprobe/kretprobe on %s%s%s", fn,
			  r->fentry_refused[0] ? " (" : "",
			  r->fentry_refused[0] ? r->fentry_refused : "");
		if (r->fentry_refused[0])
			strncat(a->probes[id].reason, ")",
				sizeof(a->probes[id].reason) -
					strlen(a->probes[id].reason) - 1);
		return;
	}

	switch (id) {
	case PROBE_BULK_FREE:
		if (kf->tp_drain) {
			set_probe(&a->probes[id], MODE_TRACEPOINT,
				  "kmem:" TP_DRAIN, true,
				  "%s: %s; pages exact, calls and lock time estimated from event runs",
				  fn, why);
			return;
		}
		break;
	case PROBE_REFILL:
		if (kf->tp_zone_locked) {
			set_probe(&a->probes[id], MODE_TRACEPOINT,
				  "kmem:" TP_ZONE_LOCKED, true,
				  "%s: %s; pages from percpu_refill events, calls and lock time estimated",
				  fn, why);
			return;
		}
		break;
	case PROBE_FREE_HIGH:
		if (a->probes[PROBE_BULK_FREE].mode != MODE_NONE) {
			set_probe(&a->probes[id], MODE_HEURISTIC,
				  a->probes[PROBE_BULK_FREE].target, true,
				  "%s: %s; estimated from bulk frees that start at an order 1-3 list",
				  fn, why);
			return;
		}
		break;
	default:
		break;
	}
	set_probe(&a->probes[id], MODE_NONE, "", false, "%s: %s", fn, why);
}

static void plan(struct attach *a, const struct kernel_facts *kf,
		 const struct plan_rules *r)
{
	int id;

	/* bulk_free first: free_high's fallback depends on it */
	for (id = 0; id < NR_PROBES; id++)
		plan_fn_probe(a, kf, r, id);
}

struct prog_pair {
	struct bpf_program *entry;
	struct bpf_program *exit;
};

static void probe_progs(struct pcptop_bpf *s, int id, enum probe_mode mode,
			struct prog_pair *pp)
{
	bool fe = mode == MODE_FENTRY;

	pp->entry = pp->exit = NULL;
	if (mode != MODE_FENTRY && mode != MODE_KPROBE)
		return;
	switch (id) {
	case PROBE_BULK_FREE:
		pp->entry = fe ? s->progs.fe_bulk : s->progs.kp_bulk;
		pp->exit = fe ? s->progs.fx_bulk : s->progs.kr_bulk;
		break;
	case PROBE_REFILL:
		pp->entry = fe ? s->progs.fe_refill : s->progs.kp_refill;
		pp->exit = fe ? s->progs.fx_refill : s->progs.kr_refill;
		break;
	case PROBE_DECAY:
		pp->entry = fe ? s->progs.fe_decay : s->progs.kp_decay;
		pp->exit = fe ? s->progs.fx_decay : s->progs.kr_decay;
		break;
	case PROBE_DRAIN:
		pp->entry = fe ? s->progs.fe_drain : s->progs.kp_drain;
		pp->exit = fe ? s->progs.fx_drain : s->progs.kr_drain;
		break;
	case PROBE_FREE_HIGH:
		pp->entry = fe ? s->progs.fe_commit : s->progs.kp_commit;
		pp->exit = fe ? s->progs.fx_commit : s->progs.kr_commit;
		break;
	}
}

static struct bpf_program *tp_prog(struct attach *a, int id)
{
	if (a->probes[id].mode != MODE_TRACEPOINT)
		return NULL;
	return id == PROBE_BULK_FREE ? a->skel->progs.tp_drain :
	       id == PROBE_REFILL    ? a->skel->progs.tp_zone_locked :
				       NULL;
}

static int add_link(struct attach *a, struct bpf_link *link)
{
	if (!link)
		return -errno;
	if (a->nr_links >= ATTACH_MAX_LINKS) {
		bpf_link__destroy(link);
		return -E2BIG;
	}
	a->links[a->nr_links++] = link;
	return 0;
}

static int attach_prog(struct attach *a, struct bpf_program *prog,
		       enum probe_mode mode, const char *fn, bool ret)
{
	if (mode == MODE_KPROBE)
		return add_link(a, bpf_program__attach_kprobe(prog, ret, fn));
	return add_link(a, bpf_program__attach(prog));
}

static void detach_all(struct attach *a)
{
	while (a->nr_links > 0)
		bpf_link__destroy(a->links[--a->nr_links]);
	pcptop_bpf__destroy(a->skel);
	a->skel = NULL;
}

/* one open + load + attach of the current plan; 0 or -errno */
static int load_plan(struct attach *a, const struct kernel_facts *kf,
		     const struct attach_opts *o, enum probe_mode *failed)
{
	struct bpf_program *prog;
	struct prog_pair pp;
	int id, err;

	*failed = MODE_NONE;
	a->skel = pcptop_bpf__open();
	if (!a->skel)
		return -errno;
	bpf_object__for_each_program(prog, a->skel->obj)
		bpf_program__set_autoload(prog, false);
	bpf_program__set_autoload(a->skel->progs.read_kvar, true);
	a->skel->rodata->run_gap_ns = o->run_gap_ns;
	a->skel->rodata->free_high_exact =
		a->probes[PROBE_FREE_HIGH].mode == MODE_FENTRY ||
		a->probes[PROBE_FREE_HIGH].mode == MODE_KPROBE;

	for (id = 0; id < NR_PROBES; id++) {
		probe_progs(a->skel, id, a->probes[id].mode, &pp);
		if (pp.entry) {
			bpf_program__set_autoload(pp.entry, true);
			bpf_program__set_autoload(pp.exit, true);
			if (a->probes[id].mode == MODE_FENTRY) {
				bpf_program__set_attach_target(pp.entry, 0,
							       kf->fn[id]);
				bpf_program__set_attach_target(pp.exit, 0,
							       kf->fn[id]);
			}
		}
		prog = tp_prog(a, id);
		if (prog)
			bpf_program__set_autoload(prog, true);
	}
	a->cross_check = o->cross_check && kf->tp_drain &&
			 a->probes[PROBE_BULK_FREE].mode != MODE_TRACEPOINT;
	if (a->cross_check)
		bpf_program__set_autoload(a->skel->progs.tp_drain_xcheck, true);

	err = pcptop_bpf__load(a->skel);
	if (err)
		goto fail;

	for (id = 0; id < NR_PROBES; id++) {
		enum probe_mode mode = a->probes[id].mode;

		probe_progs(a->skel, id, mode, &pp);
		if (pp.entry) {
			err = attach_prog(a, pp.entry, mode, kf->fn[id], false);
			if (!err)
				err = attach_prog(a, pp.exit, mode, kf->fn[id],
						  true);
			if (err)
				goto fail;
		}
		prog = tp_prog(a, id);
		if (prog) {
			err = attach_prog(a, prog, MODE_TRACEPOINT, NULL, false);
			if (err)
				goto fail;
		}
	}
	if (a->cross_check) {
		err = attach_prog(a, a->skel->progs.tp_drain_xcheck,
				  MODE_TRACEPOINT, NULL, false);
		if (err)
			goto fail;
	}
	return 0;
fail:
	/* which flavour to give up: the most fragile one in the plan */
	for (id = 0; id < NR_PROBES; id++)
		if (a->probes[id].mode == MODE_FENTRY)
			*failed = MODE_FENTRY;
	if (*failed == MODE_NONE)
		for (id = 0; id < NR_PROBES; id++)
			if (a->probes[id].mode == MODE_KPROBE)
				*failed = MODE_KPROBE;
	detach_all(a);
	return err;
}

static void note_fallback(struct attach *a, enum probe_mode failed, int err)
{
	char list[ATTACH_MSG_LEN] = "";
	size_t n = 0;
	int id;

	for (id = 0; id < NR_PROBES; id++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s=%s",
			      n ? ", " : "", probe_name(id),
			      probe_mode_name(a->probes[id].mode));
	snprintf(a->fallback, sizeof(a->fallback),
		 "%s refused (%s): falling back to %s", probe_mode_name(failed),
		 errname(err), list);
}

int attach_open(struct attach *a, const struct attach_opts *o)
{
	struct kernel_facts kf = {};
	struct plan_rules rules = {
		.allow_fentry = o->want == MODE_AUTO || o->want == MODE_FENTRY,
		.allow_kprobe = o->want == MODE_AUTO || o->want == MODE_KPROBE,
		.allow_fn_probes = o->want != MODE_TRACEPOINT,
	};
	enum probe_mode failed = MODE_NONE, first_failed = MODE_NONE;
	int attempt, err, first_err = 0;

	memset(a, 0, sizeof(*a));
	verbose_libbpf = o->verbose;
	libbpf_set_print(libbpf_print);

	if (!has_bpf_privileges()) {
		snprintf(a->error, sizeof(a->error),
			 "not allowed to load BPF programs: run as root (or with CAP_BPF and CAP_PERFMON)");
		return -EPERM;
	}
	err = gather_facts(a, &kf);
	if (err)
		return err;

	for (attempt = 0; attempt < MAX_LOAD_ATTEMPTS; attempt++) {
		plan(a, &kf, &rules);
		err = load_plan(a, &kf, o, &failed);
		if (!err)
			break;
		if (!first_err) {
			first_err = err;
			first_failed = failed;
		}
		if (failed == MODE_NONE || o->want == failed) {
			snprintf(a->error, sizeof(a->error),
				 "%s programs refused (%s)%s%s%s",
				 failed == MODE_NONE ? "BPF" :
						       probe_mode_name(failed),
				 errname(err),
				 libbpf_last[0] ? ": " : "", libbpf_last,
				 o->want == MODE_AUTO ?
					 "" :
					 "; try --mode auto, or -v for libbpf's log");
			return err;
		}
		if (failed == MODE_FENTRY) {
			rules.allow_fentry = false;
			snprintf(rules.fentry_refused,
				 sizeof(rules.fentry_refused),
				 "fentry refused (%s)", errname(err));
		} else {
			rules.allow_kprobe = false;
			snprintf(rules.kprobe_refused,
				 sizeof(rules.kprobe_refused),
				 "kprobe refused (%s)", errname(err));
		}
	}
	if (err) {
		snprintf(a->error, sizeof(a->error), "could not attach (%s)",
			 strerror(-err));
		return err;
	}
	if (first_err)
		note_fallback(a, first_failed, first_err);
	return 0;
}

void attach_close(struct attach *a)
{
	if (a->skel)
		detach_all(a);
}

const char *attach_summary_mode(const struct attach *a)
{
	enum probe_mode common = MODE_NONE;
	int id;

	for (id = 0; id < NR_PROBES; id++) {
		enum probe_mode m = a->probes[id].mode;

		if (m == MODE_NONE || m == MODE_HEURISTIC)
			continue;
		if (common != MODE_NONE && common != m)
			return "mixed";
		common = m;
	}
	return probe_mode_name(common);
}

void attach_set_run_cap(struct attach *a, unsigned long long pages)
{
	if (a->skel)
		a->skel->bss->run_max_pages = pages;
}

int attach_read_kernel_int(struct attach *a, unsigned long long addr,
			   int *value)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	if (!a->skel)
		return -EINVAL;
	a->skel->bss->kvar_addr = addr;
	a->skel->bss->kvar_err = 0;
	err = bpf_prog_test_run_opts(bpf_program__fd(a->skel->progs.read_kvar),
				     &topts);
	if (err)
		return -errno;
	if (a->skel->bss->kvar_err)
		return a->skel->bss->kvar_err;
	*value = a->skel->bss->kvar_value;
	return 0;
}

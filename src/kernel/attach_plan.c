// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "attach_plan.h"

void plan_rules_init(struct plan_rules *r, enum probe_mode want)
{
	memset(r, 0, sizeof(*r));
	r->allow_fentry = want == MODE_AUTO || want == MODE_FENTRY;
	r->allow_kprobe = want == MODE_AUTO || want == MODE_KPROBE;
	r->allow_fn_probes = want != MODE_TRACEPOINT;
}

static void set_probe(struct probe_state *p, enum probe_mode mode,
		      const char *target, bool estimated, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

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
				  const struct plan_rules *r, int id, char *buf,
				  size_t len)
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

static void plan_probe(const struct kernel_facts *kf,
		       const struct plan_rules *r, int id,
		       struct probe_state probes[NR_PROBES])
{
	const struct probe_desc *d = &probe_table[id];
	const char *fn = kf->fn[id] ? kf->fn[id] : d->fns[0];
	char why_buf[PROBE_REASON_LEN];
	const char *why = fn_unavailable(kf, r, id, why_buf, sizeof(why_buf));
	struct probe_state *p = &probes[id];
	char tp[PROBE_TARGET_LEN];

	if (r->allow_fn_probes && kf->in_btf[id] && r->allow_fentry) {
		set_probe(p, MODE_FENTRY, fn, false, "fentry/fexit on %s", fn);
		return;
	}
	if (r->allow_fn_probes && kf->in_btf[id] && r->allow_kprobe &&
	    kf->in_kallsyms[id] && kf->kprobe_pmu) {
		if (r->fentry_refused[0])
			set_probe(p, MODE_KPROBE, fn, false,
				  "kprobe/kretprobe on %s (%s)", fn,
				  r->fentry_refused);
		else
			set_probe(p, MODE_KPROBE, fn, false,
				  "kprobe/kretprobe on %s", fn);
		return;
	}
	/* the arguments the program reads must all be there */
	if (d->tp && kf->tp_nargs[id] >= d->tp_nargs) {
		snprintf(tp, sizeof(tp), "kmem:%s", d->tp);
		set_probe(p, MODE_TRACEPOINT, tp, true, "%s: %s; %s", fn, why,
			  d->tp_note);
		return;
	}
	if (d->heuristic_on >= 0 && probes[d->heuristic_on].mode != MODE_NONE) {
		set_probe(p, MODE_HEURISTIC, probes[d->heuristic_on].target,
			  true, "%s: %s; %s", fn, why, d->heuristic_note);
		return;
	}
	set_probe(p, MODE_NONE, "", false, "%s: %s", fn, why);
}

void attach_plan(const struct kernel_facts *kf, const struct plan_rules *r,
		 struct probe_state probes[NR_PROBES])
{
	int id;

	memset(probes, 0, sizeof(*probes) * NR_PROBES);
	/* in table order: a heuristic rides on a probe planned before it */
	for (id = 0; id < NR_PROBES; id++)
		plan_probe(kf, r, id, probes);
}

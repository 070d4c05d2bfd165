// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "attach_plan.h"

void plan_rules_init(struct plan_rules *r, const struct attach_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->allow_fentry = o->want == MODE_AUTO || o->want == MODE_FENTRY;
	r->allow_kprobe = o->want == MODE_AUTO || o->want == MODE_KPROBE;
	r->allow_fn_probes = o->want != MODE_TRACEPOINT;
	r->opts = probe_opts_of(o);
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

/*
 * Interrupt and lock tracepoints only mean something inside a call the
 * function probes time; they go where a timed probe (bulk frees,
 * refills) is fentry or kprobe. Support probes come last in the table,
 * after the probes they ride beside.
 */
/* whether the kernel has the tracepoint (and its end) with what is read */
static bool tp_usable(const struct kernel_facts *kf, int id)
{
	const struct probe_desc *d = &probe_table[id];

	return d->tp && kf->tp_nargs[id] >= d->tp_nargs &&
	       (!d->tp_exit || kf->tp_exit_nargs[id] >= d->tp_nargs);
}

/* "kmem:mm_page_pcpu_drain", or "vmscan:a and b" for a pair */
static void tp_names(const struct probe_desc *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s%s%s", d->tp_cat, d->tp,
		 d->tp_exit ? " and " : "", d->tp_exit ? d->tp_exit : "");
}

static void plan_support(const struct kernel_facts *kf,
			 const struct plan_rules *r, int id,
			 struct probe_state probes[NR_PROBES])
{
	const struct probe_desc *d = &probe_table[id];
	struct probe_state *p = &probes[id];
	char tps[PROBE_REASON_LEN];
	bool beside = false;
	int t;

	for (t = 0; t < NR_PROBES; t++)
		beside |= (d->beside ? d->beside == BESIDE(t) :
				       probe_table[t].timed) &&
			  probe_mode_fn(probes[t].mode);
	if (d->opt && !(r->opts & d->opt)) {
		set_probe(p, MODE_NONE, "", false, "%s: %s", d->what,
			  probe_opt_unasked(d->opt));
		return;
	}
	if (!beside) {
		set_probe(p, MODE_NONE, "", false, "%s: only beside %s",
			  d->what,
			  d->beside ? "the bulk free's function probe" :
				      "function probes");
		return;
	}
	tp_names(d, tps, sizeof(tps));
	if (!tp_usable(kf, id)) {
		set_probe(p, MODE_NONE, "", false, "%s: no %s in this kernel",
			  d->what, tps);
		return;
	}
	set_probe(p, MODE_TRACEPOINT, d->tp, false, "%s: %s", d->what, tps);
}

/*
 * A probe with tracepoints and no function times the same span in every
 * mode: its tracepoints are what it measures, not a stand-in.
 */
static void plan_tp_only(const struct kernel_facts *kf, int id,
			 struct probe_state *p)
{
	const struct probe_desc *d = &probe_table[id];
	char tps[PROBE_REASON_LEN];

	tp_names(d, tps, sizeof(tps));
	if (!tp_usable(kf, id))
		set_probe(p, MODE_NONE, "", false, "%s: no %s in this kernel",
			  d->tp_note, tps);
	else
		set_probe(p, MODE_TRACEPOINT, d->tp, false, "%s: %s",
			  d->tp_note, tps);
}

/*
 * A probe's heuristic, its stand-in when its function is not asked for:
 * the one there is reads free_high off each bulk free, as the commit
 * function, called on every free, stays unprobed. 6.1 flushes the whole
 * pageset on free_high and nothing else does, so there it is exact; from
 * 6.7 the previous free's order, part of the rule, is not visible at the
 * flush.
 */
static void plan_heuristic(const struct kernel_facts *kf, int id,
			   struct probe_state probes[NR_PROBES])
{
	const struct probe_desc *d = &probe_table[id];
	const struct probe_state *bulk = &probes[d->heuristic_on];
	const char *fn = kf->fn[id] ? kf->fn[id] : d->fns[0];
	struct probe_state *p = &probes[id];

	if (!probe_mode_fn(bulk->mode)) {
		set_probe(
			p, MODE_NONE, "", false,
			"%s: tracepoint events cannot tell free_high flushes from others (see hi_order_runs)",
			fn);
		return;
	}
	if (kf->pcp_free_count)
		set_probe(
			p, MODE_HEURISTIC, bulk->target, true,
			"inferred at each bulk free, estimated: the previous free's order is not visible there; --exact-free-high probes %s on every free",
			fn);
	else
		set_probe(
			p, MODE_HEURISTIC, bulk->target, false,
			"inferred at each bulk free, exact: this kernel flushes the whole pageset on free_high and on nothing else");
}

/* a drain's caller comes from kallsyms: say when it cannot */
static const char *drain_note(const struct kernel_facts *kf, int id)
{
	if (id != PROBE_DRAIN)
		return "";
	if (kf->nr_callers)
		return "; callers from its kernel stack";
	return "; callers unknown, kallsyms gave no addresses: all count as other";
}

/*
 * A probe that starts at its tracepoint beside its function
 * (probe_desc.fn_entry_tp) needs it there too: "" when it has it or does
 * not start there, else why not
 */
static const char *entry_tp_missing(const struct kernel_facts *kf, int id,
				    char *buf, size_t len)
{
	const struct probe_desc *d = &probe_table[id];

	if (!d->fn_entry_tp || kf->tp_nargs[id] >= d->tp_nargs)
		return "";
	snprintf(buf, len, "no %s:%s in this kernel, where its calls start",
		 d->tp_cat, d->tp);
	return buf;
}

/* "", or " from compaction:x" where the call starts at a tracepoint */
static void entry_from(const struct probe_desc *d, char *buf, size_t len)
{
	if (d->fn_entry_tp)
		snprintf(buf, len, " from %s:%s", d->tp_cat, d->tp);
	else
		buf[0] = '\0';
}

static void plan_probe(const struct kernel_facts *kf,
		       const struct plan_rules *r, int id,
		       struct probe_state probes[NR_PROBES])
{
	const struct probe_desc *d = &probe_table[id];
	const char *fn = kf->fn[id] ? kf->fn[id] : d->fns[0];
	char why_buf[PROBE_REASON_LEN], from[PROBE_REASON_LEN];
	const char *why, *no_entry, *kp_what;
	struct probe_state *p = &probes[id];
	char tp[PROBE_TARGET_LEN];

	if (d->support) {
		plan_support(kf, r, id, probes);
		return;
	}
	if (!d->fns[0]) {
		plan_tp_only(kf, id, p);
		return;
	}
	/* these run on every allocation or free: only when asked */
	if (d->opt && !(r->opts & d->opt)) {
		if (d->heuristic_on >= 0)
			plan_heuristic(kf, id, probes);
		else
			set_probe(p, MODE_NONE, "", false, "%s: %s", fn,
				  probe_opt_unasked(d->opt));
		return;
	}
	why = fn_unavailable(kf, r, id, why_buf, sizeof(why_buf));
	no_entry = entry_tp_missing(kf, id, from, sizeof(from));
	if (no_entry[0]) {
		set_probe(p, MODE_NONE, "", false, "%s: %s", fn, no_entry);
		return;
	}
	entry_from(d, from, sizeof(from));
	kp_what = d->fn_entry_tp ? "kretprobe" : "kprobe/kretprobe";
	if (r->allow_fn_probes && kf->in_btf[id] && r->allow_fentry) {
		set_probe(p, MODE_FENTRY, fn, false, "%s on %s%s%s",
			  d->fn_entry_tp ? "fexit" : "fentry/fexit", fn, from,
			  drain_note(kf, id));
		return;
	}
	if (r->allow_fn_probes && kf->in_btf[id] && r->allow_kprobe &&
	    kf->in_kallsyms[id] && kf->kprobe_pmu) {
		if (r->fentry_refused[0])
			set_probe(p, MODE_KPROBE, fn, false,
				  "%s on %s%s (%s)%s", kp_what, fn, from,
				  r->fentry_refused, drain_note(kf, id));
		else
			set_probe(p, MODE_KPROBE, fn, false, "%s on %s%s%s",
				  kp_what, fn, from, drain_note(kf, id));
		return;
	}
	/* the arguments the program reads must all be there */
	if (tp_usable(kf, id)) {
		snprintf(tp, sizeof(tp), "%s:%s", d->tp_cat, d->tp);
		set_probe(p, MODE_TRACEPOINT, tp, true, "%s: %s; %s", fn, why,
			  d->tp_note);
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

// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "plan_fixture.h"

/* a tracepoint the kernel does not have */
#define TP_ABSENT (-2)

void kernel_612(struct kernel_facts *kf)
{
	int id;

	memset(kf, 0, sizeof(*kf));
	for (id = 0; id < NR_PROBES; id++) {
		const struct probe_desc *d = &probe_table[id];

		kf->fn[id] = d->fns[0];
		kf->in_btf[id] = d->fns[0] != NULL;
		kf->in_kallsyms[id] = d->fns[0] != NULL;
		kf->tp_nargs[id] = d->tp ? d->tp_nargs : TP_ABSENT;
		kf->tp_exit_nargs[id] = d->tp_exit ? d->tp_nargs : TP_ABSENT;
	}
	kf->kprobe_pmu = true;
	kf->pcp_free_count = true;
}

void plan_rules(struct plan_rules *r, enum probe_mode want, bool exact)
{
	struct attach_opts o = { .want = want, .exact_free_high = exact };

	plan_rules_init(r, &o);
}

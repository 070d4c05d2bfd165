// SPDX-License-Identifier: GPL-2.0-only
#include "json_facts.h"
#include "units.h"

void json_scale_fields(struct json_writer *w, const struct scale_info *s)
{
	int src;

	if (s->value >= 0)
		json_int(w, "value", s->value);
	else
		json_null(w, "value");
	json_str(w, "source", scale_source_name(s->source));
	json_obj_begin(w, "sources");
	for (src = 0; src < SCALE_SRC_UNKNOWN; src++)
		if (s->have[src])
			json_int(w, scale_source_name(src), s->val[src]);
	json_obj_end(w);
	json_str(w, "patch",
		 s->patch == SCALE_PATCH_PRESENT ? "present" :
		 s->patch == SCALE_PATCH_ABSENT	 ? "absent" :
						   "unknown");
	if (s->config_path[0])
		json_str(w, "config_path", s->config_path);
	if (s->cmdline_raw[0])
		json_str(w, "cmdline_raw", s->cmdline_raw);
	json_str(w, "note", s->note);
}

void json_scale_inferred(struct json_writer *w, const struct scale_info *s)
{
	char inferred[SCALE_INFERRED_LEN];

	if (s->have[SCALE_SRC_INFERRED])
		json_int(w, "inferred_at_least", s->val[SCALE_SRC_INFERRED]);
	else
		json_null(w, "inferred_at_least");
	json_int(w, "inferred_evidence", s->inferred_evidence);
	if (s->inferred_exact_n)
		json_int(w, "inferred_exact", s->inferred_exact);
	else
		json_null(w, "inferred_exact");
	scale_inferred_line(s, inferred, sizeof(inferred));
	json_str(w, "inferred", inferred);
}

void json_self(struct json_writer *w, const struct self_cost *s)
{
	int i;

	json_obj_begin(w, "self");
	json_u64(w, "map_bytes", s->map_bytes);
	json_bool(w, "bpf_stats", s->stats_on);
	json_arr_begin(w, "programs");
	for (i = 0; i < s->nr_progs; i++) {
		json_obj_begin(w, NULL);
		json_str(w, "name", s->progs[i].name);
		json_u64(w, "runs", s->progs[i].runs);
		json_u64(w, "run_ns", s->progs[i].run_ns);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

/* "hooks": every attach point of a probe, as "kind:name" */
static void json_hooks(struct json_writer *w, const struct fact_probe *p)
{
	int id = probe_find(p->name);
	const struct probe_desc *d = id >= 0 ? &probe_table[id] : NULL;
	char h[PROBE_TARGET_LEN + 16];

	json_arr_begin(w, "hooks");
	switch (d ? p->mode : MODE_NONE) {
	case MODE_FENTRY:
	case MODE_KPROBE:
		/* its calls start at its tracepoint (probe_desc.fn_entry_tp) */
		if (d->fn_entry_tp)
			snprintf(h, sizeof(h), "tp:%s", d->tp);
		else
			snprintf(h, sizeof(h), "%s:%s",
				 p->mode == MODE_FENTRY ? "fentry" : "kprobe",
				 p->target);
		json_str(w, NULL, h);
		snprintf(h, sizeof(h), "%s:%s",
			 p->mode == MODE_FENTRY ? "fexit" : "kretprobe",
			 p->target);
		json_str(w, NULL, h);
		break;
	case MODE_TRACEPOINT:
		snprintf(h, sizeof(h), "tp:%s", d->tp);
		json_str(w, NULL, h);
		if (d->tp_exit) {
			snprintf(h, sizeof(h), "tp:%s", d->tp_exit);
			json_str(w, NULL, h);
		}
		break;
	default:
		break;
	}
	json_arr_end(w);
}

void json_facts(struct json_writer *w, const struct facts *f, int nr_cpus)
{
	int i;

	json_obj_begin(w, "kernel");
	json_str(w, "release", f->release);
	json_str(w, "arch", f->arch);
	json_str(w, "hostname", f->hostname);
	json_str(w, "btf", f->btf_source);
	if (nr_cpus >= 0)
		json_int(w, "nr_cpus", nr_cpus);
	json_obj_end(w);
	json_str(w, "mode", f->mode_summary);
	json_arr_begin(w, "probes");
	for (i = 0; i < f->nr_probes; i++) {
		const struct fact_probe *p = &f->probes[i];

		json_obj_begin(w, NULL);
		json_str(w, "name", p->name);
		json_str(w, "mode", p->mode_name);
		json_str(w, "target", p->target);
		json_bool(w, "estimated", p->estimated);
		json_bool(w, "per_page",
			  probe_per_page(probe_find(p->name), p->mode));
		json_hooks(w, p);
		json_str(w, "reason", p->reason);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_str(w, "fallback", f->fallback);
	if (f->pageblock_order >= 0) {
		json_int(w, "pageblock_order", f->pageblock_order);
		json_int(w, "pages_per_block", f->pages_per_block);
	} else {
		json_null(w, "pageblock_order");
	}
	if (f->high_fraction >= 0)
		json_int(w, "percpu_pagelist_high_fraction", f->high_fraction);
	else
		json_null(w, "percpu_pagelist_high_fraction");
	json_u64(w, "run_cap_pages", f->run_cap_pages);
	json_wall_sources(w, f);
	json_zone_pagesets(w, "zones", &f->zones);
}

void json_wall_sources(struct json_writer *w, const struct facts *f)
{
	int i;

	json_arr_begin(w, "block_devices");
	for (i = 0; i < f->nr_devs && i < SAMPLE_DEVS; i++)
		json_str(w, NULL, f->devs[i]);
	json_arr_end(w);
	json_int(w, "block_devices_unsampled",
		 f->nr_devs > SAMPLE_DEVS ? f->nr_devs - SAMPLE_DEVS : 0);
	if (f->psi_absent[0])
		json_str(w, "pressure_absent", f->psi_absent);
	else
		json_null(w, "pressure_absent");
}

void json_zone_pagesets(struct json_writer *w, const char *key,
			const struct zoneinfo *zi)
{
	int z, c;

	json_arr_begin(w, key);
	for (z = 0; z < zi->nr_zones; z++) {
		const struct zone_pcp *zp = &zi->zones[z];

		json_obj_begin(w, NULL);
		json_int(w, "node", zp->node);
		json_str(w, "zone", zp->name);
		json_arr_begin(w, "cpus");
		for (c = 0; c < zp->nr_cpus; c++) {
			const struct pcp_cpu *p = &zp->cpus[c];

			json_obj_begin(w, NULL);
			json_int(w, "cpu", p->cpu);
			json_int(w, "count", p->count);
			json_int(w, "high", p->high);
			json_int(w, "batch", p->batch);
			if (p->high_min != PCP_FIELD_ABSENT) {
				json_int(w, "high_min", p->high_min);
				json_int(w, "high_max", p->high_max);
			}
			json_obj_end(w);
		}
		json_arr_end(w);
		json_obj_end(w);
	}
	json_arr_end(w);
}

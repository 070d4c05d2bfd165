// SPDX-License-Identifier: GPL-2.0-only
#include "hist.h"
#include "json_facts.h"

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
	json_str(w, "patch", s->patch == SCALE_PATCH_PRESENT ? "present" :
			     s->patch == SCALE_PATCH_ABSENT  ? "absent" :
							       "unknown");
	if (s->config_path[0])
		json_str(w, "config_path", s->config_path);
	if (s->cmdline_raw[0])
		json_str(w, "cmdline_raw", s->cmdline_raw);
	json_str(w, "note", s->note);
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

void json_log2_hist(struct json_writer *w, const char *key,
		    const uint64_t *slots, int nr)
{
	int i, last = hist_last_slot(slots, nr);

	json_arr_begin(w, key);
	for (i = 0; i <= last; i++) {
		json_obj_begin(w, NULL);
		json_u64(w, "lo", hist_slot_lo(i));
		json_u64(w, "hi", hist_slot_hi(i));
		json_u64(w, "count", slots[i]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

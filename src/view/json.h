/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A streaming JSON writer: pcptop prints one object per line (stat) or one
 * document (info), so no tree is ever built. key is NULL for array
 * elements and the top-level value.
 */
#ifndef PCPTOP_JSON_H
#define PCPTOP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

/*
 * The shape of every JSON document pcptop prints (info, stat, report,
 * diff): docs/schema/ holds its JSON Schema. A renamed, removed or
 * reshaped key bumps it, with a line in docs/CHANGELOG.md; a new key
 * does not.
 */
#define JSON_SCHEMA_VERSION 3

struct json_writer {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *w, FILE *f);
void json_obj_begin(struct json_writer *w, const char *key);
void json_obj_end(struct json_writer *w);
void json_arr_begin(struct json_writer *w, const char *key);
void json_arr_end(struct json_writer *w);
void json_str(struct json_writer *w, const char *key, const char *val);
void json_u64(struct json_writer *w, const char *key, uint64_t val);
void json_int(struct json_writer *w, const char *key, long long val);
void json_double(struct json_writer *w, const char *key, double val);
void json_bool(struct json_writer *w, const char *key, bool val);
void json_null(struct json_writer *w, const char *key);
/* ends the top-level value with a newline and flushes: one object a line */
void json_end_line(struct json_writer *w);
/* "schema": JSON_SCHEMA_VERSION, the first key of every document */
void json_schema(struct json_writer *w);

#endif /* PCPTOP_JSON_H */

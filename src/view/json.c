// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include "json.h"

void json_init(struct json_writer *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->need_comma[0] = false;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* separator and key before a value at the current depth */
static void value_prefix(struct json_writer *w, const char *key)
{
	if (w->need_comma[w->depth])
		fputc(',', w->f);
	w->need_comma[w->depth] = true;
	if (key) {
		put_string(w->f, key);
		fputc(':', w->f);
	}
}

static void open_nested(struct json_writer *w, const char *key, char ch)
{
	value_prefix(w, key);
	fputc(ch, w->f);
	if (w->depth < JSON_MAX_DEPTH - 1)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void close_nested(struct json_writer *w, char ch)
{
	fputc(ch, w->f);
	if (w->depth > 0)
		w->depth--;
}

void json_obj_begin(struct json_writer *w, const char *key)
{
	open_nested(w, key, '{');
}

void json_obj_end(struct json_writer *w)
{
	close_nested(w, '}');
}

void json_arr_begin(struct json_writer *w, const char *key)
{
	open_nested(w, key, '[');
}

void json_arr_end(struct json_writer *w)
{
	close_nested(w, ']');
}

void json_str(struct json_writer *w, const char *key, const char *val)
{
	value_prefix(w, key);
	if (val)
		put_string(w->f, val);
	else
		fputs("null", w->f);
}

void json_u64(struct json_writer *w, const char *key, uint64_t val)
{
	value_prefix(w, key);
	fprintf(w->f, "%llu", (unsigned long long)val);
}

void json_int(struct json_writer *w, const char *key, long long val)
{
	value_prefix(w, key);
	fprintf(w->f, "%lld", val);
}

void json_double(struct json_writer *w, const char *key, double val)
{
	value_prefix(w, key);
	/* JSON has no NaN or infinity */
	if (isfinite(val))
		fprintf(w->f, "%.15g", val);
	else
		fputs("null", w->f);
}

void json_bool(struct json_writer *w, const char *key, bool val)
{
	value_prefix(w, key);
	fputs(val ? "true" : "false", w->f);
}

void json_null(struct json_writer *w, const char *key)
{
	value_prefix(w, key);
	fputs("null", w->f);
}

void json_end_line(struct json_writer *w)
{
	fputc('\n', w->f);
	fflush(w->f);
	w->depth = 0;
	w->need_comma[0] = false;
}

void json_schema(struct json_writer *w)
{
	json_int(w, "schema", JSON_SCHEMA_VERSION);
}

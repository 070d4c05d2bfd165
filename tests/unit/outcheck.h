/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Finding a figure in an output by its row, not anywhere: a key also
 * appears in histogram titles, help lines and other figures' names, so a
 * plain strstr() passes for rows that never printed.
 */
#ifndef PCPTOP_OUTCHECK_H
#define PCPTOP_OUTCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OUT_LINE_LEN 1024

/*
 * The first line of text starting with prefix, copied into line (cut to
 * OUT_LINE_LEN); NULL when no line starts so.
 */
const char *out_line(const char *text, const char *prefix,
		     char line[OUT_LINE_LEN]);
/* whether s holds v as a number of its own: not a part of a longer one */
bool out_has_number(const char *s, long long v);
/* "\"key\":" at any depth of a JSON text */
bool out_has_key(const char *json, const char *key);
/* "\"key\":v" with v a number (not the first digits of a longer one) */
bool out_has_key_number(const char *json, const char *key, long long v);

/* room for one figure's JSON object */
#define OUT_OBJ_LEN 65536

/* the JSON object under "key" (its first), braces included, into buf */
bool out_object(const char *json, const char *key, char *buf, size_t len);
/*
 * whether the object under obj has "key":v as its own first "key" (a
 * nested object's, such as a zone's "value", comes after it)
 */
bool out_obj_key_number(const char *json, const char *obj, const char *key,
			long long v);
/* whether line holds word as a whole word, between blanks or line ends */
bool out_word(const char *line, const char *word);

#endif /* PCPTOP_OUTCHECK_H */

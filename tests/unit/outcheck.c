// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "outcheck.h"

const char *out_line(const char *text, const char *prefix,
		     char line[OUT_LINE_LEN])
{
	size_t plen = strlen(prefix), n;
	const char *at = text, *end;

	while (at && *at) {
		if (!strncmp(at, prefix, plen)) {
			end = strchr(at, '\n');
			n = end ? (size_t)(end - at) : strlen(at);
			if (n >= OUT_LINE_LEN)
				n = OUT_LINE_LEN - 1;
			memcpy(line, at, n);
			line[n] = '\0';
			return line;
		}
		at = strchr(at, '\n');
		if (at)
			at++;
	}
	return NULL;
}

static bool digit_at(const char *s, const char *base)
{
	return s >= base && *s && isdigit((unsigned char)*s);
}

bool out_has_number(const char *s, long long v)
{
	char num[32];
	const char *at = s;
	size_t n;

	n = (size_t)snprintf(num, sizeof(num), "%lld", v);
	while ((at = strstr(at, num))) {
		if (!digit_at(at - 1, s) && !digit_at(at + n, s) &&
		    at[n] != '.')
			return true;
		at++;
	}
	return false;
}

bool out_has_key(const char *json, const char *key)
{
	char k[256];

	snprintf(k, sizeof(k), "\"%s\":", key);
	return strstr(json, k) != NULL;
}

bool out_has_key_number(const char *json, const char *key, long long v)
{
	char k[256];
	const char *at = json;
	size_t n;

	n = (size_t)snprintf(k, sizeof(k), "\"%s\":%lld", key, v);
	while ((at = strstr(at, k))) {
		if (!isdigit((unsigned char)at[n]) && at[n] != '.')
			return true;
		at++;
	}
	return false;
}

/* where the object that starts at open ('{') ends, past its '}', or NULL */
static const char *object_end(const char *open)
{
	const char *p = open;
	int depth = 0;
	bool str = false;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			continue;
		}
		if (*p == '"')
			str = true;
		else if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
	}
	return NULL;
}

bool out_object(const char *json, const char *key, char *buf, size_t len)
{
	char k[256];
	const char *at, *end;
	size_t n;

	snprintf(k, sizeof(k), "\"%s\":{", key);
	at = strstr(json, k);
	if (!at || !len)
		return false;
	at += strlen(k) - 1;
	end = object_end(at);
	if (!end)
		return false;
	n = (size_t)(end - at);
	if (n >= len)
		n = len - 1;
	memcpy(buf, at, n);
	buf[n] = '\0';
	return true;
}

bool out_obj_key_number(const char *json, const char *obj, const char *key,
			long long v)
{
	static char body[OUT_OBJ_LEN];
	char k[256], kv[256];
	const char *at;
	size_t n;

	if (!out_object(json, obj, body, sizeof(body)))
		return false;
	snprintf(k, sizeof(k), "\"%s\":", key);
	n = (size_t)snprintf(kv, sizeof(kv), "\"%s\":%lld", key, v);
	/* the object's own key comes before those of what it nests */
	at = strstr(body, k);
	return at && !strncmp(at, kv, n) && !isdigit((unsigned char)at[n]) &&
	       at[n] != '.';
}

bool out_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *at = line;

	while ((at = strstr(at, word))) {
		if ((at == line || isspace((unsigned char)at[-1])) &&
		    (!at[n] || isspace((unsigned char)at[n])))
			return true;
		at++;
	}
	return false;
}

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

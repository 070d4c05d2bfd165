/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the output tests (test_outputs.c: stat, --prom and the live
 * view; test_rec_outputs.c: report and diff): the checks of a figure's
 * row, the modes every figure is tested in, and the text rows of stat
 * and report.
 */
#ifndef PCPTOP_OUTPUTS_H
#define PCPTOP_OUTPUTS_H

#include <stdio.h>
#include <string.h>
#include "facts.h"
#include "figures.h"
#include "outcheck.h"
#include "samples.h"
#include "unit.h"

#define KEY_LEN 128

/* a line of text starting with prefix, holding the number v */
#define CHECK_ROW(text, prefix, v, output)                                    \
	do {                                                                  \
		char line_[OUT_LINE_LEN];                                     \
		if (!out_line((text), (prefix), line_))                       \
			unit_fail(__FILE__, __LINE__, "%s has no row \"%s\"", \
				  (output), (prefix));                        \
		else if (!out_has_number(line_, (long long)(v)))              \
			unit_fail(__FILE__, __LINE__,                         \
				  "%s: row \"%s\" lacks %lld: %s", (output),  \
				  (prefix), (long long)(v), line_);           \
	} while (0)

/* needle in text, or a failure naming the output and what is missing */
#define CHECK_HAS(text, needle, output)                                  \
	do {                                                             \
		if (!strstr((text), (needle)))                           \
			unit_fail(__FILE__, __LINE__, "%s lacks \"%s\"", \
				  (output), (needle));                   \
	} while (0)

/* every figure is measured in one of these, and tested there */
extern const enum probe_mode output_modes[];
#define NR_OUTPUT_MODES 2

/* "\"key\":" into buf (KEY_LEN) */
void out_quoted(char *buf, const char *key);
/* every shown figure's text row with its value, every histogram's title */
void text_rows(const char *t, const struct facts *fa, const struct figures *f,
	       const struct samples *s, const char *output);

#endif /* PCPTOP_OUTPUTS_H */

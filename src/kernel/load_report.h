/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a start spends its time on, and what loading cost the verifier,
 * printed with -v: on a slow board's core the verifier, attaching and the
 * links' release at exit are most of a start (docs/PERFORMANCE.md).
 */
#ifndef PCPTOP_LOAD_REPORT_H
#define PCPTOP_LOAD_REPORT_H

#include <stdbool.h>

struct bpf_object;

/* on with -v; everything below prints nothing while off */
void load_report_set(bool on);
/* "pcptop: took N ms: STEP" since the last mark; NULL only marks */
void load_report_mark(const char *step);
/* each loaded program's verified instructions (5.16+), and their sum */
void load_report_verifier(struct bpf_object *obj);

#endif /* PCPTOP_LOAD_REPORT_H */

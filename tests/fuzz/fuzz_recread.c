// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording reader as report and diff use it: a file of any bytes is
 * read up to its last whole chunk and summed up, every figure computed.
 * Seeds: tests/fixtures/rec and recordings made by the record suite.
 */
#include <stdlib.h>
#include "explain.h"
#include "fuzz_common.h"
#include "recsum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	static struct cmp_result r;
	char msg[REC_ERR_LEN], words[EXPLAIN_LEN];
	struct rec_summary s;

	if (!path || rec_summary_load(path, &s, msg, sizeof(msg)))
		return 0;
	/* the file against itself: every metric, its spread, the words */
	memset(&r, 0, sizeof(r));
	r.a.n = r.b.n = 1;
	r.a.run[0] = r.b.run[0] = &s;
	if (!cmp_build(&r))
		explain_paragraph(&r, words, sizeof(words));
	rec_summary_free(&s);
	return 0;
}

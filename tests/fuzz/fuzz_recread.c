// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording reader as report and diff use it: a file of any bytes is
 * read up to its last whole chunk and summed up, every figure computed.
 * Seeds: tests/fixtures/rec and recordings made by the record suite.
 */
#include "fuzz_common.h"
#include "recsum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct rec_metric m[REC_MAX_METRICS];
	struct rec_summary s;
	char msg[REC_ERR_LEN];

	if (!path || rec_summary_load(path, &s, msg, sizeof(msg)))
		return 0;
	rec_metrics(&s, NULL, m, REC_MAX_METRICS);
	rec_summary_free(&s);
	return 0;
}

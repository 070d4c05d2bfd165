// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option parsers of every command: the input is an argument vector,
 * NUL-separated, the first byte picking the command. Bad input must end
 * in -EINVAL and a message, never in a crash or a read out of bounds.
 */
#include <getopt.h>
#include <stdlib.h>
#include "cli.h"
#include "fuzz_common.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 2];
	int argc = 0;
	size_t i, start;
	union {
		struct info_opts info;
		struct stat_opts stat;
		struct top_opts top;
		struct record_opts record;
		struct report_opts report;
		struct btf_min_cli btf_min;
	} o;

	if (!size)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[argc++] = "pcptop";
	for (i = 0, start = 0; i < size && argc < MAX_ARGS; i++) {
		if (i == size - 1 || buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	/* getopt keeps state between calls: 0 starts it afresh */
	optind = 0;
	switch (data[0] % 7) {
	case 0:
		cli_parse_info(argc, argv, &o.info);
		break;
	case 1:
		cli_parse_stat(argc, argv, &o.stat);
		break;
	case 2:
		cli_parse_top(argc, argv, &o.top);
		break;
	case 3:
		cli_parse_record(argc, argv, &o.record);
		break;
	case 6:
		cli_parse_btf_min(argc, argv, &o.btf_min);
		break;
	default:
		cli_parse_report(argc, argv, &o.report, data[0] % 7 == 5);
		break;
	}
	free(buf);
	return 0;
}

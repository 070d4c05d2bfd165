// SPDX-License-Identifier: GPL-2.0-only
/* pcptop record (issue 6 replaces this stub) */
#include "cli.h"

int cmd_record(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("record is not built yet");
}

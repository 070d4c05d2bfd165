// SPDX-License-Identifier: GPL-2.0-only
/* pcptop top: the live view (issue 5 replaces this stub) */
#include "cli.h"

int cmd_top(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("the live view is not built yet: use 'pcptop stat -i 1'");
}

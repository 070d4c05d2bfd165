// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE /* strerrorname_np() */
#include <string.h>
#include "errname.h"
#include "uapi_compat.h"

const char *errname(int err)
{
	int e = err < 0 ? -err : err;
	const char *name = strerrorname_np(e);

	/* libc would call it "Unknown error 524" */
	if (e == COMPAT_ENOTSUPP)
		return "ENOTSUPP, -524";
	return name ? name : strerror(e);
}

// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "page_out.h"

int page_out(const char *out, int (*fn)(FILE *f, const void *ctx),
	     const void *ctx)
{
	bool to_stdout = !strcmp(out, "-");
	FILE *f = stdout;
	int err = 0, page_err, fd;

	if (!to_stdout) {
		err = outfile_keep_old(out);
		fd = err ? err : outfile_create(out);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			cli_warn("cannot write %s: %s", out,
				 strerror(fd < 0 ? -fd : errno));
			if (fd >= 0)
				close(fd);
			return -EINVAL;
		}
	}
	page_err = fn(f, ctx);
	if (fflush(f) || ferror(f))
		err = -EIO;
	if (!to_stdout && fclose(f) && !err)
		err = -errno;
	if (page_err || err) {
		/* a page cut short is not written: say which part failed */
		cli_warn("writing %s: %s", out,
			 strerror(-(page_err ? page_err : err)));
		return page_err ? page_err : -EIO;
	}
	if (!to_stdout)
		fprintf(stderr, "pcptop: wrote %s\n", out);
	return 0;
}

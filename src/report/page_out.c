// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "page_out.h"

int page_out(const char *out, void (*fn)(FILE *f, const void *ctx),
	     const void *ctx)
{
	bool to_stdout = !strcmp(out, "-");
	FILE *f = stdout;
	int err = 0, fd;

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
	fn(f, ctx);
	if (fflush(f) || ferror(f))
		err = -EIO;
	if (!to_stdout && fclose(f) && !err)
		err = -errno;
	if (err) {
		cli_warn("writing %s: %s", out, strerror(-err));
		return -EIO;
	}
	if (!to_stdout)
		fprintf(stderr, "pcptop: wrote %s\n", out);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "arrays.h"
#include "outfile.h"
#include "terminfo_data.h"
#include "top_terminfo.h"

struct builtin {
	const char *name;
	const unsigned char *data;
	size_t len;
};

static const struct builtin builtins[] = {
	{ "linux", ti_linux, sizeof(ti_linux) },
	{ "vt100", ti_vt100, sizeof(ti_vt100) },
	{ "xterm-256color", ti_xterm_256color, sizeof(ti_xterm_256color) },
};

/* terminals that speak xterm's dialect, by TERM prefix */
static const char *const xterm_like[] = { "xterm", "screen", "tmux",
					  "rxvt",  "putty",  "alacritty",
					  "foot",  "kitty",  "st",
					  "gnome", "konsole" };

/* where the private directory may go: a board may have only some */
static const char *const tmp_dirs[] = { "TMPDIR", "/tmp", "/dev/shm", "/run" };

static const struct builtin *builtin_for(const char *term)
{
	size_t i;

	if (!strncmp(term, "linux", 5))
		return &builtins[0];
	for (i = 0; i < ARRAY_SIZE(xterm_like); i++)
		if (!strncmp(term, xterm_like[i], strlen(xterm_like[i])))
			return &builtins[2];
	/* vt100's sequences are the ones every other terminal shares */
	return &builtins[1];
}

const char *terminfo_builtin_name(const char *term)
{
	return builtin_for(term)->name;
}

static int write_new_file(const char *path, const unsigned char *p, size_t n)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	int err;

	if (fd < 0)
		return -errno;
	err = outfile_write_all(fd, p, n);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int make_dir(char *dir, size_t len)
{
	const char *base;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tmp_dirs); i++) {
		base = tmp_dirs[i][0] == '/' ? tmp_dirs[i] :
					       getenv(tmp_dirs[i]);
		if (!base || !*base)
			continue;
		if ((size_t)snprintf(dir, len, "%s/pcptop-terminfo.XXXXXX",
				     base) >= len)
			continue;
		if (mkdtemp(dir))
			return 0;
	}
	return -errno;
}

static void entry_paths(const char *dir, const char *term, char *sub,
			char *file, size_t len)
{
	snprintf(sub, len, "%s/%c", dir, term[0]);
	snprintf(file, len, "%s/%c/%s", dir, term[0], term);
}

int terminfo_builtin_use(const char *term, char *dir, size_t len)
{
	const struct builtin *b = builtin_for(term);
	char sub[TERMINFO_DIR_LEN + 8], file[TERMINFO_DIR_LEN + 80];
	int err;

	/* a name that is a path, or too long, cannot be a file name here */
	if (!*term || strchr(term, '/') || strlen(term) > 64)
		return -EINVAL;
	err = make_dir(dir, len);
	if (err)
		return err;
	entry_paths(dir, term, sub, file, sizeof(file));
	if (mkdir(sub, 0700)) {
		err = -errno;
		rmdir(dir);
		return err;
	}
	err = write_new_file(file, b->data, b->len);
	if (!err && setenv("TERMINFO", dir, 1))
		err = -errno;
	if (err)
		terminfo_builtin_drop(dir, term);
	return err;
}

void terminfo_builtin_drop(const char *dir, const char *term)
{
	char sub[TERMINFO_DIR_LEN + 8], file[TERMINFO_DIR_LEN + 80];

	entry_paths(dir, term, sub, file, sizeof(file));
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	unsetenv("TERMINFO");
}

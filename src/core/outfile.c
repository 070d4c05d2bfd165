// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outfile.h"

#define OUTFILE_MODE 0644

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int outfile_check(const char *path, char *msg, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!path || !*path) {
		snprintf(msg, len, "empty output path");
		return -EINVAL;
	}
	if (strlen(path) >= sizeof(dir) - 8) {
		snprintf(msg, len, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	if (!lstat(path, &st)) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(
				msg, len,
				"%s is a symlink: pcptop does not write through one; give the file's real path",
				path);
			return -ELOOP;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(msg, len, "%s is %s: give a file to write",
				 path, kind_of(st.st_mode));
			return -EINVAL;
		}
	} else if (errno != ENOENT) {
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK | X_OK)) {
		int err = errno;

		snprintf(dir, sizeof(dir), "%s", path);
		snprintf(msg, len, "cannot write in %s: %s", dirname(dir),
			 strerror(err));
		return -err;
	}
	return 0;
}

int outfile_keep_old(const char *path)
{
	char old[PATH_MAX];
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return -ENAMETOOLONG;
	return rename(path, old) ? -errno : 0;
}

int outfile_create(const char *path)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      OUTFILE_MODE);

	return fd < 0 ? -errno : fd;
}

int outfile_scratch(const char *path)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		      OUTFILE_MODE);
	struct stat st;

	if (fd < 0)
		return -errno;
	/*
	 * O_NOFOLLOW stops a symlink, O_NONBLOCK a FIFO's wait; anything but
	 * a file of its own (a device, a hard link to another file) is left
	 * as it was, untruncated
	 */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink > 1 ||
	    ftruncate(fd, 0) || fcntl(fd, F_SETFL, 0)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int outfile_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n) {
		w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

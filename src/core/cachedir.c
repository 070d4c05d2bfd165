// SPDX-License-Identifier: GPL-2.0-only
/* pcptop's cache directories and their entries (cachedir.h) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cachedir.h"
#include "outfile.h"

/* the default directory's parents, world-readable as /var/cache is */
#define CACHE_PARENT_MODE 0755
#define CACHE_DIR_MODE 0700
#define CACHE_FILE_MODE 0600

/* a directory only its owner, pcptop's user, may change */
static int dir_trusted(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	return 0;
}

/* every directory of path (absolute), as mkdir -p */
static int make_parents(char *path)
{
	char *slash = path;

	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		if (mkdir(path, CACHE_PARENT_MODE) && errno != EEXIST) {
			*slash = '/';
			return -errno;
		}
		*slash = '/';
	}
	if (mkdir(path, CACHE_PARENT_MODE) && errno != EEXIST)
		return -errno;
	return 0;
}

int cachedir_open(const char *dir, bool make_parents_too)
{
	char parent[PATH_MAX], base[PATH_MAX];
	int pfd, fd, err;

	if (snprintf(parent, sizeof(parent), "%s", dir) >= (int)sizeof(parent))
		return -ENAMETOOLONG;
	snprintf(base, sizeof(base), "%s", dir);
	/* /var/cache/pcptop, even /var, may be missing on a board: make them */
	if (make_parents_too) {
		err = make_parents(dirname(parent));
		if (err)
			return err;
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	pfd = open(dirname(parent),
		   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	err = dir_trusted(pfd);
	if (!err && mkdirat(pfd, basename(base), CACHE_DIR_MODE) &&
	    errno != EEXIST)
		err = -errno;
	fd = err ? -1 :
		   openat(pfd, basename(base),
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (!err && fd < 0)
		err = -errno;
	close(pfd);
	if (!err)
		err = dir_trusted(fd);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

ssize_t cachedir_read(int dfd, const char *name, size_t max, void **buf)
{
	struct stat st;
	ssize_t n = 0, got;
	int fd, err = 0;

	*buf = NULL;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max)
		err = -EBADMSG;
	else if (!(*buf = malloc(st.st_size ? st.st_size : 1)))
		err = -ENOMEM;
	while (!err && n < st.st_size) {
		got = read(fd, (char *)*buf + n, st.st_size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			err = got < 0 ? -errno : -EBADMSG;
		else
			n += got;
	}
	close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
		return err;
	}
	return n;
}

#define TMP_FMT ".%s.%d.tmp"

/*
 * A pcptop killed between writing its entry and renaming it leaves the
 * temporary file behind; nothing else would ever remove it. Those of
 * processes no longer alive go before a new entry is written.
 */
static void stale_tmp_sweep(int dfd)
{
	struct dirent *e;
	int fd, pid, n;
	DIR *dir;

	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((e = readdir(dir))) {
		n = strlen(e->d_name);
		if (e->d_name[0] != '.' || n < 5 ||
		    strcmp(e->d_name + n - 4, ".tmp"))
			continue;
		/* ".NAME.PID.tmp": the PID is the last dotted field */
		e->d_name[n - 4] = '\0';
		pid = atoi(strrchr(e->d_name, '.') + 1);
		e->d_name[n - 4] = '.';
		if (pid > 0 && pid != getpid() && kill(pid, 0) &&
		    errno == ESRCH)
			unlinkat(dfd, e->d_name, 0);
	}
	closedir(dir);
}

int cachedir_write(int dfd, const char *name, const void *hdr, size_t hdr_len,
		   const void *payload, size_t payload_len)
{
	char tmp[NAME_MAX + 1];
	int fd, err;

	stale_tmp_sweep(dfd);
	if (snprintf(tmp, sizeof(tmp), TMP_FMT, name, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = openat(dfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    CACHE_FILE_MODE);
	if (fd < 0)
		return -errno;
	err = outfile_write_all(fd, hdr, hdr_len);
	if (!err)
		err = outfile_write_all(fd, payload, payload_len);
	/* a power cut leaves the old entry or the new one, never a part */
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dfd, tmp, dfd, name))
		err = -errno;
	if (err)
		unlinkat(dfd, tmp, 0);
	else
		fsync(dfd);
	return err;
}

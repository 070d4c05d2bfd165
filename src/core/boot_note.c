// SPDX-License-Identifier: GPL-2.0-only
/* Facts kept until the next boot (boot_note.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "boot_note.h"
#include "cachedir.h"

/* a boot_id line and one line of text */
#define NOTE_MAX 512

int boot_id_read(const char *path, char id[BOOT_ID_LEN])
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, id, BOOT_ID_LEN - 1);
	close(fd);
	if (n < 0)
		return -errno;
	id[n] = '\0';
	id[strcspn(id, "\n")] = '\0';
	return id[0] ? 0 : -ENODATA;
}

int boot_cache_open(const char *dir)
{
	if (!dir)
		dir = getenv(BOOT_CACHE_ENV);
	if (!dir)
		dir = BOOT_CACHE_DIR;
	if (!*dir)
		return -ECANCELED;
	return cachedir_open(dir, !strcmp(dir, BOOT_CACHE_DIR));
}

/* the note's directory, opened, and what the note must hold: fd or -errno */
static int note_open(const char *dir, const char *boot_id_path,
		     const char *text, char *want, size_t want_len)
{
	char boot_id[BOOT_ID_LEN];
	int err;

	err = boot_id_read(boot_id_path, boot_id);
	if (err)
		return err;
	if ((size_t)snprintf(want, want_len, "%s\n%s\n", boot_id, text) >=
	    want_len)
		return -ENAMETOOLONG;
	return boot_cache_open(dir);
}

bool boot_note_has(const char *dir, const char *boot_id_path, const char *name,
		   const char *text)
{
	char want[NOTE_MAX];
	void *buf = NULL;
	ssize_t len;
	bool has;
	int dfd;

	dfd = note_open(dir, boot_id_path, text, want, sizeof(want));
	if (dfd < 0)
		return false;
	len = cachedir_read(dfd, name, NOTE_MAX, &buf);
	close(dfd);
	has = len >= 0 && (size_t)len == strlen(want) &&
	      !memcmp(buf, want, len);
	free(buf);
	return has;
}

int boot_note_set(const char *dir, const char *boot_id_path, const char *name,
		  const char *text)
{
	char want[NOTE_MAX];
	int dfd, err;

	dfd = note_open(dir, boot_id_path, text, want, sizeof(want));
	if (dfd < 0)
		return dfd;
	err = cachedir_write(dfd, name, want, strlen(want), NULL, 0);
	close(dfd);
	return err;
}

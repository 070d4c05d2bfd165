// SPDX-License-Identifier: GPL-2.0-only
/* A boot's kallsyms findings, kept for the starts that follow (kallsyms_boot.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "boot_note.h"
#include "cachedir.h"
#include "kallsyms.h"
#include "kallsyms_boot.h"

#define ENTRY_NAME "kallsyms"
#define ENTRY_MAGIC "PCPKSYM"
/* the entry's layout and kallsyms.c's state: a change to either bumps it */
#define ENTRY_VERSION 1
/* kallsyms.c's state is some 10 KB: anything larger is not one of ours */
#define ENTRY_MAX (64U << 10)

struct entry_hdr {
	char magic[8];
	uint32_t version;
	uint32_t hdr_len;
	char boot_id[40];
	uint32_t payload_len;
	uint32_t payload_crc;
	uint32_t hdr_crc; /* of every byte before it */
};

static uint32_t crc_of(const void *p, size_t len)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)len);
}

/* dfd's entry, whole and made this boot, into kallsyms.c: 0 or why not */
static int load(int dfd, const char *boot_id, const char *path,
		const char *const *syms, int n)
{
	const struct entry_hdr *h;
	void *buf;
	ssize_t len;
	int err = -EBADMSG;

	len = cachedir_read(dfd, ENTRY_NAME, ENTRY_MAX, &buf);
	if (len < 0)
		return len;
	h = buf;
	if ((size_t)len < sizeof(*h) || memcmp(h->magic, ENTRY_MAGIC, 8) ||
	    h->hdr_len != sizeof(*h) ||
	    h->hdr_crc != crc_of(h, offsetof(struct entry_hdr, hdr_crc)) ||
	    h->payload_len != (size_t)len - sizeof(*h) ||
	    h->payload_crc != crc_of(h + 1, h->payload_len))
		goto out;
	err = -ESTALE;
	if (h->version != ENTRY_VERSION ||
	    strncmp(h->boot_id, boot_id, sizeof(h->boot_id)))
		goto out;
	err = kallsyms_state_set(h + 1, h->payload_len, path, syms, n);
out:
	free(buf);
	return err;
}

static int keep(int dfd, const char *boot_id)
{
	struct entry_hdr h;
	const void *state;
	size_t len;

	state = kallsyms_state(&len);
	if (!state)
		return -ENODATA;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, ENTRY_MAGIC, sizeof(ENTRY_MAGIC));
	h.version = ENTRY_VERSION;
	h.hdr_len = sizeof(h);
	snprintf(h.boot_id, sizeof(h.boot_id), "%s", boot_id);
	h.payload_len = len;
	h.payload_crc = crc_of(state, len);
	h.hdr_crc = crc_of(&h, offsetof(struct entry_hdr, hdr_crc));
	return cachedir_write(dfd, ENTRY_NAME, &h, sizeof(h), state, len);
}

int kallsyms_prefetch_boot(const char *path, const char *boot_id_path,
			   const char *dir, const char *const *syms, int n,
			   char *source, size_t source_len)
{
	char boot_id[BOOT_ID_LEN];
	int dfd = -1, why, err;

	why = dfd = boot_cache_open(dir);
	if (dfd >= 0 && (why = boot_id_read(boot_id_path, boot_id))) {
		close(dfd);
		dfd = -1;
	}
	if (dfd >= 0) {
		why = load(dfd, boot_id, path, syms, n);
		if (!why) {
			snprintf(source, source_len, "cache hit");
			close(dfd);
			return 0;
		}
	}
	err = kallsyms_prefetch(path, syms, n);
	if (!err && dfd >= 0) {
		err = keep(dfd, boot_id);
		snprintf(source, source_len, "%s%s",
			 err		 ? "not cached: " :
			 why == -ENOENT	 ? "cached now" :
			 why == -ESTALE	 ? "stale entry rebuilt" :
			 why == -EBADMSG ? "damaged entry rebuilt" :
					   "rebuilt",
			 err ? strerror(-err) : "");
		/* read and usable, only not kept */
		err = 0;
	} else if (!err) {
		snprintf(source, source_len, "%s%s",
			 why == -ECANCELED ? "cache off" : "no cache: ",
			 why == -ECANCELED ? "" : strerror(-why));
	}
	if (dfd >= 0)
		close(dfd);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BTF cache (btf_cache.h): finding, checking, making and keeping the
 * cut BTF of the running kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bpf_elf.h"
#include "btf_cache.h"
#include "errname.h"
#include "btf_cache_key.h"
#include "btf_cut.h"
#include "cachedir.h"
#include "outfile.h"
#include "probes.h"

#define KERNEL_NOTES_PATH "/sys/kernel/notes"

/* "EROFS" fits the info line where "Read-only file system" would not */
/* the key of the running kernel and this pcptop */
static int key_make(struct btf_cache_key *k, const char *kernel_btf)
{
	const void *obj;
	size_t obj_len;
	int n, err;

	memset(k, 0, sizeof(*k));
	/* a kernel built without a build ID is still told by its BTF */
	n = build_id_read(KERNEL_NOTES_PATH, k->build_id, sizeof(k->build_id));
	k->build_id_len = n > 0 ? n : 0;
	err = file_crc32(kernel_btf, &k->btf_size, &k->btf_crc);
	if (err)
		return err;
	obj = pcptop_bpf_elf_inflate(&obj_len);
	if (!obj)
		return -errno;
	k->prog_crc = btf_cache_prog_crc(obj, obj_len);
	return 0;
}

/* each probe's first function the kernel knows: kernel_facts' rule */
static void fn_ids(const struct btf *btf, uint32_t ids[NR_PROBES])
{
	int p, k, id;

	for (p = 0; p < NR_PROBES; p++) {
		const struct probe_desc *d = &probe_table[p];

		ids[p] = 0;
		for (k = 0; k < PROBE_MAX_FNS && d->fns[k]; k++) {
			id = btf__find_by_name_kind(btf, d->fns[k],
						    BTF_KIND_FUNC);
			if (id > 0) {
				ids[p] = id;
				break;
			}
		}
	}
}

/* the memfd behind the last btf_cache_open()'s path; -1: none */
static int memfd = -1;

/* the cut's bytes in a memfd, whose path libbpf's CO-RE then reads */
static int to_memfd(struct btf_cache *c, const void *data, uint32_t len)
{
	int err;

	if (memfd >= 0)
		close(memfd);
	memfd = memfd_create("pcptop-btf", MFD_CLOEXEC);
	if (memfd < 0)
		return -errno;
	err = outfile_write_all(memfd, data, len);
	if (!err)
		snprintf(c->path, sizeof(c->path), "/proc/self/fd/%d", memfd);
	return err;
}

static void cache_drop(struct btf_cache *c)
{
	btf__free(c->btf);
	c->btf = NULL;
	c->path[0] = '\0';
}

/* an entry for key k that checks whole: 0 and c filled, or why not */
static int load_entry(struct btf_cache *c, int dfd, const char *name,
		      const struct btf_cache_key *k)
{
	const struct btf_cache_hdr *h;
	const void *payload;
	void *buf;
	ssize_t n;
	int err;

	n = cachedir_read(dfd, name,
			  sizeof(struct btf_cache_hdr) + BTF_CACHE_MAX_PAYLOAD,
			  &buf);
	if (n < 0)
		return n;
	err = btf_cache_entry_check(buf, n, k, &h, &payload);
	if (!err) {
		c->btf = btf__new(payload, h->payload_len);
		err = c->btf ? to_memfd(c, payload, h->payload_len) : -EBADMSG;
		memcpy(c->fn_btf_id, h->fn_btf_id, sizeof(c->fn_btf_id));
	}
	free(buf);
	return err;
}

/* a new cut from the kernel's whole BTF, kept in dfd when it is >= 0 */
static int rebuild(struct btf_cache *c, const char *kernel_btf, int dfd,
		   const char *name, const struct btf_cache_key *k)
{
	struct btf_cache_hdr h;
	struct btf *whole;
	const void *obj, *raw;
	size_t obj_len;
	__u32 len;
	int err;

	whole = btf__parse(kernel_btf, NULL);
	if (!whole)
		return -errno;
	obj = pcptop_bpf_elf_inflate(&obj_len);
	c->btf = obj ? btf_cut(whole, obj, obj_len) : NULL;
	err = c->btf ? 0 : -errno;
	fn_ids(whole, c->fn_btf_id);
	btf__free(whole);
	if (err)
		return err;
	raw = btf__raw_data(c->btf, &len);
	if (!raw)
		return -ENOMEM;
	err = to_memfd(c, raw, len);
	if (err || dfd < 0)
		return err;
	btf_cache_hdr_fill(&h, k, raw, len, c->fn_btf_id);
	return cachedir_write(dfd, name, &h, sizeof(h), raw, len);
}

static void say(struct btf_cache *c, const char *kernel_btf, const char *what,
		int err)
{
	snprintf(c->source, sizeof(c->source), "%s (cut, %s%s%s)", kernel_btf,
		 what, err ? ": " : "", err ? errname(err) : "");
}

int btf_cache_open(struct btf_cache *c, const char *kernel_btf)
{
	const char *dir = getenv(BTF_CACHE_ENV);
	char name[BTF_CACHE_NAME_LEN];
	struct btf_cache_key k;
	int dfd = -1, err, why;

	memset(c, 0, sizeof(*c));
	err = key_make(&k, kernel_btf);
	if (err)
		return err;
	btf_cache_name(&k, name, sizeof(name));
	if (!dir)
		dir = BTF_CACHE_DIR;
	why = *dir ? cachedir_open(dir, !strcmp(dir, BTF_CACHE_DIR)) :
		     -ECANCELED;
	if (why >= 0) {
		dfd = why;
		why = load_entry(c, dfd, name, &k);
		if (!why) {
			say(c, kernel_btf, "cache hit", 0);
			goto out;
		}
		cache_drop(c);
	}
	err = rebuild(c, kernel_btf, dfd, name, &k);
	if (err && c->btf && c->path[0] && dfd >= 0) {
		/* cut and usable, only not kept: say why, run on */
		say(c, kernel_btf, "not cached", err);
		err = 0;
	} else if (!err && dfd < 0) {
		say(c, kernel_btf, why == -ECANCELED ? "cache off" : "no cache",
		    why == -ECANCELED ? 0 : why);
	} else if (!err) {
		say(c, kernel_btf,
		    why == -ENOENT  ? "cached now" :
		    why == -ESTALE  ? "stale entry rebuilt" :
		    why == -EBADMSG ? "damaged entry rebuilt" :
				      "rebuilt",
		    why == -ENOENT || why == -ESTALE || why == -EBADMSG ? 0 :
									  why);
	}
out:
	if (dfd >= 0)
		close(dfd);
	if (err)
		cache_drop(c);
	return err;
}

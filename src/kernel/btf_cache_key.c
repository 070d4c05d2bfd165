// SPDX-License-Identifier: GPL-2.0-only
/*
 * Key and integrity of a BTF cache entry (btf_cache_key.h). Pure: files
 * and zlib's crc32 only, so the unit tests check every refusal.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "btf_cache_key.h"
#include "probes.h"

/* ELF note fields are padded to 4 bytes */
#define NOTE_ALIGN(n) (((n) + 3) & ~(size_t)3)
#define NOTE_GNU "GNU"
/* /sys/kernel/notes is a few hundred bytes */
#define NOTES_MAX 4096
/*
 * The chunk file_crc32 reads at a time, on the stack: sysfs hands out a
 * page a read whatever is asked, so more would only cost memory
 */
#define CRC_CHUNK (16 * 1024)

int build_id_from_notes(const void *notes, size_t len, uint8_t *id, size_t max)
{
	const uint8_t *p = notes, *end = p + len;
	Elf32_Nhdr nh;
	size_t name, desc;

	while ((size_t)(end - p) >= sizeof(nh)) {
		memcpy(&nh, p, sizeof(nh));
		p += sizeof(nh);
		name = NOTE_ALIGN(nh.n_namesz);
		desc = NOTE_ALIGN(nh.n_descsz);
		if (name < nh.n_namesz || desc < nh.n_descsz ||
		    name > (size_t)(end - p) || desc > (size_t)(end - p) - name)
			return -EINVAL;
		if (nh.n_type == NT_GNU_BUILD_ID &&
		    nh.n_namesz == sizeof(NOTE_GNU) &&
		    !memcmp(p, NOTE_GNU, sizeof(NOTE_GNU))) {
			if (!nh.n_descsz || nh.n_descsz > max)
				return -EINVAL;
			memcpy(id, p + name, nh.n_descsz);
			return nh.n_descsz;
		}
		p += name + desc;
	}
	return -ENOENT;
}

int build_id_read(const char *path, uint8_t *id, size_t max)
{
	uint8_t buf[NOTES_MAX];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	return build_id_from_notes(buf, n, id, max);
}

int file_crc32(const char *path, uint64_t *size, uint32_t *crc)
{
	uint8_t buf[CRC_CHUNK];
	uLong c = crc32(0, Z_NULL, 0);
	uint64_t total = 0;
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		c = crc32(c, buf, n);
		total += n;
	}
	close(fd);
	*size = total;
	*crc = c;
	return err;
}

static uLong crc_str(uLong c, const char *s)
{
	/* the NUL too: "ab","c" and "a","bc" differ */
	return s ? crc32(c, (const Bytef *)s, strlen(s) + 1) :
		   crc32(c, (const Bytef *)"", 1);
}

uint32_t btf_cache_prog_crc(const void *obj, size_t len)
{
	uLong c = crc32(0, Z_NULL, 0);
	const struct probe_desc *d;
	int id, k;

	c = crc32(c, obj, len);
	/* the cut keeps the functions and tracepoints the plan asks for */
	for (id = 0; id < NR_PROBES; id++) {
		d = &probe_table[id];
		for (k = 0; k < PROBE_MAX_FNS; k++)
			c = crc_str(c, d->fns[k]);
		c = crc_str(c, d->tp);
		c = crc_str(c, d->tp_exit);
	}
	return c;
}

int btf_cache_name(const struct btf_cache_key *k, char *buf, size_t len)
{
	char hex[2 * BUILD_ID_MAX + 1];
	uint32_t i;
	int n;

	for (i = 0; i < k->build_id_len && i < BUILD_ID_MAX; i++)
		snprintf(hex + 2 * i, 3, "%02x", k->build_id[i]);
	hex[2 * i] = '\0';
	n = snprintf(buf, len, "vmlinux-%s-%08x.btf", hex, k->btf_crc);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static uint32_t hdr_crc(const struct btf_cache_hdr *h)
{
	return crc32(crc32(0, Z_NULL, 0), (const Bytef *)h,
		     offsetof(struct btf_cache_hdr, hdr_crc));
}

void btf_cache_hdr_fill(struct btf_cache_hdr *h, const struct btf_cache_key *k,
			const void *payload, uint32_t len,
			const uint32_t fn_btf_id[NR_PROBES])
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, BTF_CACHE_MAGIC, sizeof(BTF_CACHE_MAGIC));
	h->version = BTF_CACHE_VERSION;
	h->hdr_len = sizeof(*h);
	h->key = *k;
	memcpy(h->fn_btf_id, fn_btf_id, sizeof(h->fn_btf_id));
	h->payload_len = len;
	h->payload_crc = crc32(crc32(0, Z_NULL, 0), payload, len);
	h->hdr_crc = hdr_crc(h);
}

int btf_cache_entry_check(const void *buf, size_t buf_len,
			  const struct btf_cache_key *k,
			  const struct btf_cache_hdr **hdr,
			  const void **payload)
{
	const struct btf_cache_hdr *h = buf;
	const uint8_t *p = buf;

	if (buf_len < sizeof(*h) ||
	    memcmp(h->magic, BTF_CACHE_MAGIC, sizeof(BTF_CACHE_MAGIC)) ||
	    h->version != BTF_CACHE_VERSION || h->hdr_len != sizeof(*h) ||
	    h->hdr_crc != hdr_crc(h))
		return -EBADMSG;
	if (h->payload_len > BTF_CACHE_MAX_PAYLOAD ||
	    buf_len != sizeof(*h) + h->payload_len ||
	    h->payload_crc !=
		    crc32(crc32(0, Z_NULL, 0), p + sizeof(*h), h->payload_len))
		return -EBADMSG;
	if (memcmp(&h->key, k, sizeof(*k)))
		return -ESTALE;
	*hdr = h;
	*payload = p + sizeof(*h);
	return 0;
}

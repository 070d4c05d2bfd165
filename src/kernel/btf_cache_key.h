/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pure half of the BTF cache (btf_cache.h): which kernel and which
 * pcptop an entry was cut for, and the entry's own integrity. No libbpf:
 * the unit tests link it.
 *
 * The key is the kernel's GNU build ID (/sys/kernel/notes), the size and
 * CRC32 of its BTF (/sys/kernel/btf/vmlinux, read in small chunks), and a
 * CRC32 of what pcptop cuts for (its BPF object and probe table). A
 * release string alone says nothing: a rebuilt kernel keeps its release.
 */
#ifndef PCPTOP_BTF_CACHE_KEY_H
#define PCPTOP_BTF_CACHE_KEY_H

#include <stddef.h>
#include <stdint.h>
#include "probes.h"

/* SHA-1 build IDs are 20 bytes; room for longer ones (--build-id=sha256) */
#define BUILD_ID_MAX 32
#define BTF_CACHE_NAME_LEN (2 * BUILD_ID_MAX + 32)
#define BTF_CACHE_MAGIC "PCPTBTF"
/*
 * The entry format's and the cut's version: the key names the object and
 * probe table a cut is for, not btf_cut.c's code, so a change to what
 * btf_cut.c keeps must bump it, or old entries stay in use
 */
#define BTF_CACHE_VERSION 2 /* 2: every probe's function id, fentry's target */
/* a cut BTF is tens of KB: anything larger is not one of ours */
#define BTF_CACHE_MAX_PAYLOAD (4U << 20)

struct btf_cache_key {
	uint8_t build_id[BUILD_ID_MAX];
	uint32_t build_id_len;
	uint32_t btf_crc;
	uint64_t btf_size;
	uint32_t prog_crc; /* pcptop's BPF object and probe table */
	uint32_t pad;
};

/* an entry: this header, then payload_len bytes of raw BTF */
struct btf_cache_hdr {
	char magic[8];
	uint32_t version;
	uint32_t hdr_len;
	struct btf_cache_key key;
	/*
	 * the kernel BTF's id of each probe's function (the first of its
	 * names the kernel knows, kernel_facts' rule; 0: none): fentry's
	 * targets, which a cut's own ids are not
	 */
	uint32_t fn_btf_id[NR_PROBES];
	uint32_t payload_len;
	uint32_t payload_crc;
	uint32_t hdr_crc; /* of every byte before it */
};

/*
 * The NT_GNU_BUILD_ID note's descriptor among ELF notes (the contents of
 * /sys/kernel/notes) into id: its length, or -ENOENT (no such note) or
 * -EINVAL (malformed notes).
 */
int build_id_from_notes(const void *notes, size_t len, uint8_t *id, size_t max);
/* the same, read from a file of notes: length, or -errno */
int build_id_read(const char *path, uint8_t *id, size_t max);
/*
 * Size and CRC32 of a file read in 16 KiB chunks, so that a 6 MB kernel
 * BTF costs one chunk of memory: 0 or -errno.
 */
int file_crc32(const char *path, uint64_t *size, uint32_t *crc);
/* CRC32 of what pcptop cuts for: the object's bytes and the probe table */
uint32_t btf_cache_prog_crc(const void *obj, size_t len);

/* the entry's file name for a key: 0, or -ENAMETOOLONG */
int btf_cache_name(const struct btf_cache_key *k, char *buf, size_t len);
/* the header for payload under key k */
void btf_cache_hdr_fill(struct btf_cache_hdr *h, const struct btf_cache_key *k,
			const void *payload, uint32_t len,
			const uint32_t fn_btf_id[NR_PROBES]);
/*
 * Whether buf (a whole entry) can be trusted for key k: 0 with *payload
 * and *len pointing into buf; -EBADMSG when it is damaged (magic,
 * version, length, either CRC); -ESTALE when it is whole but for another
 * key (another kernel build or another pcptop).
 */
int btf_cache_entry_check(const void *buf, size_t buf_len,
			  const struct btf_cache_key *k,
			  const struct btf_cache_hdr **hdr,
			  const void **payload);

#endif /* PCPTOP_BTF_CACHE_KEY_H */

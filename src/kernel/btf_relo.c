// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a .BTF.ext's CO-RE records (btf_relo.h). The layout is libbpf's
 * (libbpf_internal.h, struct btf_ext_header): a header, then at
 * core_relo_off after it a record size and, per ELF section, its name,
 * its record count and the records, each a struct bpf_core_relo.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>
#include "btf_relo.h"

#define BTF_EXT_MAGIC 0xeB9F

struct ext_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
	/* optional: older objects end the header here */
	uint32_t core_relo_off, core_relo_len;
};

struct ext_sec {
	uint32_t sec_name_off;
	uint32_t num_info;
};

static int add_root(uint32_t *ids, int n, int max, uint32_t id)
{
	int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return n;
	if (n >= max)
		return -E2BIG;
	ids[n] = id;
	return n + 1;
}

int btf_ext_core_roots(const void *ext, size_t len, uint32_t *ids, int max)
{
	const uint8_t *base = ext, *p, *end;
	struct bpf_core_relo rec;
	struct ext_hdr h = {};
	struct ext_sec sec;
	uint32_t rec_size, i;
	int n = 0;

	if (len < offsetof(struct ext_hdr, core_relo_off))
		return -EINVAL;
	memcpy(&h, base, len < sizeof(h) ? len : sizeof(h));
	if (h.magic != BTF_EXT_MAGIC || h.hdr_len > len ||
	    h.hdr_len < offsetof(struct ext_hdr, core_relo_off))
		return -EINVAL;
	/* a header without the CO-RE part: nothing to relocate */
	if (h.hdr_len < sizeof(h) || !h.core_relo_len)
		return 0;
	if (h.core_relo_off > len - h.hdr_len ||
	    h.core_relo_len > len - h.hdr_len - h.core_relo_off ||
	    h.core_relo_len < sizeof(rec_size))
		return -EINVAL;
	p = base + h.hdr_len + h.core_relo_off;
	end = p + h.core_relo_len;
	memcpy(&rec_size, p, sizeof(rec_size));
	p += sizeof(rec_size);
	if (rec_size < sizeof(rec))
		return -EINVAL;
	while (p < end) {
		if ((size_t)(end - p) < sizeof(sec))
			return -EINVAL;
		memcpy(&sec, p, sizeof(sec));
		p += sizeof(sec);
		if (sec.num_info > (size_t)(end - p) / rec_size)
			return -EINVAL;
		for (i = 0; i < sec.num_info; i++, p += rec_size) {
			memcpy(&rec, p, sizeof(rec));
			n = add_root(ids, n, max, rec.type_id);
			if (n < 0)
				return n;
		}
	}
	return n;
}

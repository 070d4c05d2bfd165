// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BTF cache's pure half: the key (build ID from ELF notes, a file's
 * CRC32 in chunks), an entry's integrity check, and the CO-RE roots of a
 * .BTF.ext. Every way an entry can be refused is tried.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>
#include "btf_cache_key.h"
#include "btf_relo.h"
#include "unit.h"

/* tests/fixtures/btf/notes: /sys/kernel/notes of an amd64 6.1.102 kernel */
static const uint8_t fixture_id[] = { 0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c,
				      0x43, 0x7a, 0xbc, 0xd4, 0x55, 0xd2, 0x73,
				      0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9 };

static void test_build_id_fixture(void)
{
	uint8_t id[BUILD_ID_MAX];

	CHECK_EQ_INT(build_id_read(fixture("btf/notes"), id, sizeof(id)),
		     sizeof(fixture_id));
	CHECK(!memcmp(id, fixture_id, sizeof(fixture_id)));
	CHECK_EQ_INT(build_id_read(fixture("btf/absent"), id, sizeof(id)),
		     -ENOENT);
	/* a build ID longer than the room given is refused, not cut */
	CHECK_EQ_INT(build_id_read(fixture("btf/notes"), id, 8), -EINVAL);
}

/* notes: "Xen" type 1 (4 bytes), "Linux" type 6 (odd sizes), then GNU */
static size_t make_notes(uint8_t *buf, int with_gnu)
{
	static const uint8_t head[] = {
		4, 0, 0,   0,	4,   0,	  0,   0, 1, 0, 0, 0, 'X', 'e', 'n',
		0, 1, 2,   3,	4,   6,	  0,   0, 0, 3, 0, 0, 0,   6,	0,
		0, 0, 'L', 'i', 'n', 'u', 'x', 0, 0, 0, 9, 9, 9,   0,
	};
	static const uint8_t gnu[] = { 4,    0,	   0,	 0, 5,	  0,
				       0,    0,	   3,	 0, 0,	  0,
				       'G',  'N',  'U',	 0, 0xde, 0xad,
				       0xbe, 0xef, 0x42, 0, 0,	  0 };
	size_t n = sizeof(head);

	memcpy(buf, head, sizeof(head));
	if (with_gnu) {
		memcpy(buf + n, gnu, sizeof(gnu));
		n += sizeof(gnu);
	}
	return n;
}

static void test_build_id_notes(void)
{
	uint8_t buf[128], id[BUILD_ID_MAX];
	size_t n;

	n = make_notes(buf, 1);
	CHECK_EQ_INT(build_id_from_notes(buf, n, id, sizeof(id)), 5);
	CHECK(!memcmp(id, "\xde\xad\xbe\xef\x42", 5));
	n = make_notes(buf, 0);
	CHECK_EQ_INT(build_id_from_notes(buf, n, id, sizeof(id)), -ENOENT);
	/* cut inside the GNU note's descriptor */
	n = make_notes(buf, 1);
	CHECK_EQ_INT(build_id_from_notes(buf, n - 4, id, sizeof(id)), -EINVAL);
	/* a name size that runs past the end */
	buf[0] = 0xff;
	CHECK_EQ_INT(build_id_from_notes(buf, n, id, sizeof(id)), -EINVAL);
	CHECK_EQ_INT(build_id_from_notes(buf, 0, id, sizeof(id)), -ENOENT);
}

/* a file of n bytes, more than file_crc32's chunk: its path */
static const char *temp_file(char *path, size_t len, size_t n, uint8_t **data)
{
	FILE *f;
	size_t i;
	int fd;

	snprintf(path, len, "/tmp/pcptop-unit-crc-XXXXXX");
	fd = mkstemp(path);
	*data = malloc(n);
	if (fd < 0 || !*data)
		return NULL;
	for (i = 0; i < n; i++)
		(*data)[i] = (uint8_t)(i * 7 + (i >> 9));
	f = fdopen(fd, "w");
	if (!f || fwrite(*data, 1, n, f) != n) {
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	return path;
}

static void test_file_crc(void)
{
	const size_t n = 200003; /* twelve chunks and a part */
	char path[64];
	uint8_t *data = NULL;
	uint64_t size = 0;
	uint32_t crc = 0;

	if (!temp_file(path, sizeof(path), n, &data)) {
		free(data);
		REQUIRE(!"temporary file");
	}
	CHECK_EQ_INT(file_crc32(path, &size, &crc), 0);
	CHECK_EQ_U64(size, n);
	CHECK_EQ_U64(crc, crc32(crc32(0, Z_NULL, 0), data, n));
	unlink(path);
	free(data);
	CHECK_EQ_INT(file_crc32(path, &size, &crc), -ENOENT);
}

static void key(struct btf_cache_key *k, uint32_t btf_crc)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->build_id, fixture_id, sizeof(fixture_id));
	k->build_id_len = sizeof(fixture_id);
	k->btf_size = 5500000;
	k->btf_crc = btf_crc;
	k->prog_crc = btf_cache_prog_crc("object", 6);
}

static void test_name_and_prog_crc(void)
{
	struct btf_cache_key k;
	char name[BTF_CACHE_NAME_LEN];

	key(&k, 0xcbfc7190);
	CHECK_EQ_INT(btf_cache_name(&k, name, sizeof(name)), 0);
	CHECK_EQ_STR(
		name,
		"vmlinux-4a5a9b0affb66c437abcd455d2738af879985fa9-cbfc7190.btf");
	CHECK_EQ_INT(btf_cache_name(&k, name, 20), -ENAMETOOLONG);
	/* another object, another pcptop: another key */
	CHECK(btf_cache_prog_crc("object", 6) !=
	      btf_cache_prog_crc("objecT", 6));
}

/* a whole entry for key k with payload "raw BTF bytes": its length */
static size_t entry(uint8_t *buf, const struct btf_cache_key *k)
{
	static const char payload[] = "raw BTF bytes";
	uint32_t ids[NR_PROBES] = { [PROBE_BULK_FREE] = 1234 };
	struct btf_cache_hdr h;

	btf_cache_hdr_fill(&h, k, payload, sizeof(payload), ids);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), payload, sizeof(payload));
	return sizeof(h) + sizeof(payload);
}

static void test_entry_check(void)
{
	uint8_t buf[sizeof(struct btf_cache_hdr) + 64];
	const struct btf_cache_hdr *h = NULL;
	struct btf_cache_key k, other;
	const void *payload = NULL;
	size_t n;

	key(&k, 1);
	n = entry(buf, &k);
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &k, &h, &payload), 0);
	REQUIRE(h && payload);
	CHECK_EQ_INT(h->fn_btf_id[PROBE_BULK_FREE], 1234);
	CHECK_EQ_STR(payload, "raw BTF bytes");

	/* whole, but for another kernel build or BTF: stale */
	key(&other, 2);
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &other, &h, &payload),
		     -ESTALE);
	other = k;
	other.build_id[0] ^= 1;
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &other, &h, &payload),
		     -ESTALE);
	other = k;
	other.prog_crc ^= 1;
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &other, &h, &payload),
		     -ESTALE);

	/* damaged: payload, key inside the header, magic; cut or grown */
	buf[n - 3] ^= 0x10;
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &k, &h, &payload), -EBADMSG);
	n = entry(buf, &k);
	buf[offsetof(struct btf_cache_hdr, key) + 3] ^= 0x01;
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &k, &h, &payload), -EBADMSG);
	n = entry(buf, &k);
	buf[0] = 'X';
	CHECK_EQ_INT(btf_cache_entry_check(buf, n, &k, &h, &payload), -EBADMSG);
	n = entry(buf, &k);
	CHECK_EQ_INT(btf_cache_entry_check(buf, n - 1, &k, &h, &payload),
		     -EBADMSG);
	CHECK_EQ_INT(btf_cache_entry_check(buf, n + 1, &k, &h, &payload),
		     -EBADMSG);
	CHECK_EQ_INT(btf_cache_entry_check(buf, 10, &k, &h, &payload),
		     -EBADMSG);
	CHECK_EQ_INT(btf_cache_entry_check(buf, 0, &k, &h, &payload), -EBADMSG);
}

/* a .BTF.ext: 32-byte header, no func or line info, CO-RE records */
static size_t btf_ext(uint8_t *buf, uint32_t hdr_len, uint32_t rec_size,
		      const uint32_t *types, uint32_t n)
{
	uint32_t hdr[8] = { 0x0001eB9F, hdr_len, 0, 0, 0, 0, 0, 0 };
	uint32_t *p = (uint32_t *)(buf + sizeof(hdr)), i;

	p[0] = rec_size;
	p[1] = 0; /* section name */
	p[2] = n;
	for (i = 0; i < n; i++) {
		uint32_t *r = p + 3 + i * (rec_size / 4);

		memset(r, 0, rec_size);
		r[1] = types[i];
	}
	hdr[7] = (3 + n * (rec_size / 4)) * 4;
	memcpy(buf, hdr, sizeof(hdr));
	return sizeof(hdr) + hdr[7];
}

static void test_core_roots(void)
{
	static const uint32_t types[] = { 5, 7, 5, 9 };
	uint32_t buf[64], ids[8];
	uint8_t *b = (uint8_t *)buf;
	size_t n;

	n = btf_ext(b, 32, 16, types, 4);
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 8), 3);
	CHECK_EQ_INT(ids[0], 5);
	CHECK_EQ_INT(ids[1], 7);
	CHECK_EQ_INT(ids[2], 9);
	/* larger records than today's are stepped over */
	n = btf_ext(b, 32, 20, types, 4);
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 8), 3);
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 2), -E2BIG);
	/* an object without CO-RE records: a 24-byte header */
	buf[1] = 24;
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 8), 0);
	/* malformed: short records, a count past the end, a cut section */
	n = btf_ext(b, 32, 12, types, 4);
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 8), -EINVAL);
	n = btf_ext(b, 32, 16, types, 4);
	buf[8 + 2] = 1000;
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 8), -EINVAL);
	n = btf_ext(b, 32, 16, types, 4);
	CHECK_EQ_INT(btf_ext_core_roots(b, n - 4, ids, 8), -EINVAL);
	buf[0] = 0;
	CHECK_EQ_INT(btf_ext_core_roots(b, n, ids, 8), -EINVAL);
}

const struct unit_test btf_cache_tests[] = {
	TEST(test_build_id_fixture),
	TEST(test_build_id_notes),
	TEST(test_file_crc),
	TEST(test_name_and_prog_crc),
	TEST(test_entry_check),
	TEST(test_core_roots),
	TEST_END,
};

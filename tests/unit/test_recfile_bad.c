// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader against broken files: cut at every length, every bit
 * flipped, random bytes, absurd lengths and foreign files. Each gives a
 * clear error or the readable prefix, never a crash (run once under
 * valgrind or -fsanitize=address,undefined).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recfile_fixture.h"
#include "unit.h"

#define RANDOM_ROUNDS 3000
#define RANDOM_MAX_LEN 700
#define RANDOM_SEED 20250601u
/* the preamble's minor version (bytes 14-15) is the only unchecked field */
#define MINOR_OFF 14
#define MINOR_LEN 2

/* a prefix holds exactly its whole chunks; the header alone is needed */
static void test_truncated_every_length(void)
{
	const char *ref = rf_tpath("ref.data"), *cut = rf_tpath("cut.data");
	uint64_t ends[MAX_CHUNKS];
	struct read_result rr;
	unsigned char *buf;
	size_t len, n, k, nr_chunks;
	int whole_iv;
	bool boundary;

	nr_chunks = rf_write_ref(ref, ends);
	REQUIRE(rf_load(ref, &buf, &len) == 0);
	CHECK_EQ_U64(len, ends[nr_chunks - 1]);
	for (n = 0; n <= len; n++) {
		rf_store(cut, buf, n);
		rf_read_all(cut, &rr);
		if (n < ends[0]) {
			if (rr.open_err >= 0 || !rr.msg[0])
				unit_fail(__FILE__, __LINE__,
					  "%zu bytes: open gave %d, \"%s\"", n,
					  rr.open_err, rr.msg);
			continue;
		}
		whole_iv = 0;
		boundary = false;
		for (k = 0; k < nr_chunks; k++) {
			if (ends[k] == n)
				boundary = true;
			if (k >= 1 && k <= NR_IV && ends[k] <= n)
				whole_iv++;
		}
		if (rr.open_err || rr.intervals != whole_iv ||
		    rr.last != (boundary ? 0 : -ENODATA) ||
		    rr.have_end != (n == len))
			unit_fail(
				__FILE__, __LINE__,
				"%zu bytes: open %d, %d intervals (want %d), last %d, end %d: %s",
				n, rr.open_err, rr.intervals, whole_iv, rr.last,
				rr.have_end, rr.msg);
	}
	free(buf);
}

/* every single bit flip past the minor version is caught */
static void test_bit_flips(void)
{
	const char *ref = rf_tpath("ref.data"), *bad = rf_tpath("flip.data");
	uint64_t ends[MAX_CHUNKS];
	struct read_result rr;
	unsigned char *buf;
	size_t len, off;
	int k, before;

	rf_write_ref(ref, ends);
	REQUIRE(rf_load(ref, &buf, &len) == 0);
	for (off = 0; off < len; off++) {
		buf[off] ^= (unsigned char)(1u << (off % 8));
		rf_store(bad, buf, len);
		buf[off] ^= (unsigned char)(1u << (off % 8));
		rf_read_all(bad, &rr);
		if (off >= MINOR_OFF && off < MINOR_OFF + MINOR_LEN) {
			CHECK(!rr.open_err && rr.intervals == NR_IV);
			continue;
		}
		if (off < ends[0]) {
			if (rr.open_err >= 0 || !rr.msg[0])
				unit_fail(__FILE__, __LINE__,
					  "flip at %zu: header accepted", off);
			continue;
		}
		/* intervals wholly before the flipped chunk still read */
		before = 0;
		for (k = 1; k <= NR_IV; k++)
			if (ends[k] <= off)
				before++;
		if (rr.open_err || rr.last >= 0 || rr.intervals != before ||
		    !rr.msg[0])
			unit_fail(
				__FILE__, __LINE__,
				"flip at %zu: open %d, %d intervals (want %d), last %d",
				off, rr.open_err, rr.intervals, before,
				rr.last);
	}
	free(buf);
}

static void test_random_bytes(void)
{
	const char *ref = rf_tpath("ref.data"), *bad = rf_tpath("random.data");
	uint64_t ends[MAX_CHUNKS];
	struct read_result rr;
	unsigned char *buf, junk[RANDOM_MAX_LEN + 4096];
	size_t len, n, keep, i;
	unsigned int seed = RANDOM_SEED;
	int round;

	rf_write_ref(ref, ends);
	REQUIRE(rf_load(ref, &buf, &len) == 0);
	for (round = 0; round < RANDOM_ROUNDS; round++) {
		/* bare noise, a valid preamble, or a valid header, then noise */
		keep = round % 3 == 0 ? 0 :
		       round % 3 == 1 ? REC_PREAMBLE_LEN :
					ends[0];
		n = keep + (size_t)rand_r(&seed) % RANDOM_MAX_LEN;
		if (keep > sizeof(junk) || n > sizeof(junk))
			continue;
		memcpy(junk, buf, keep);
		for (i = keep; i < n; i++)
			junk[i] = (unsigned char)rand_r(&seed);
		rf_store(bad, junk, n);
		rf_read_all(bad, &rr);
		if (rr.open_err)
			CHECK(rr.msg[0]);
		else
			CHECK(rr.last <= 0 && rr.intervals == 0);
	}
	free(buf);
}

/* huge length fields end reading without allocating what they claim */
static void test_absurd_lengths(void)
{
	const char *bad = rf_tpath("absurd.data");
	unsigned char buf[REC_PREAMBLE_LEN + REC_CHUNK_HDR_LEN + 64] = {};
	struct read_result rr;
	static const uint32_t lens[][2] = {
		{ 0xffffffffu, 0xffffffffu },
		{ 1u << 29, 1u << 30 },
		{ 1u << 29, 1u << 20 },
		{ 64, 0xffffffffu },
		{ 0, 0 },
		{ 16, 1u << 25 },
	};
	size_t i;

	rf_preamble(buf, rf_order_le, REC_VERSION_MAJOR, 0);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		rf_put_chunk_header(buf + REC_PREAMBLE_LEN, REC_CHUNK_HEADER,
				    lens[i][0], lens[i][1]);
		rf_store(bad, buf, sizeof(buf));
		rf_read_all(bad, &rr);
		CHECK(rr.open_err == -EBADMSG || rr.open_err == -ENODATA);
		CHECK(strstr(rr.msg, "absurd.data") != NULL);
	}
}

static void test_foreign_files(void)
{
	const char *bad = rf_tpath("foreign.data");
	unsigned char buf[REC_PREAMBLE_LEN + REC_CHUNK_HDR_LEN] = {};
	struct read_result rr;

	rf_store(bad, "hello, world\n", 13);
	rf_read_all(bad, &rr);
	CHECK_EQ_INT(rr.open_err, -EBADMSG);
	CHECK(strstr(rr.msg, "not a pcptop recording") != NULL);

	rf_preamble(buf, rf_order_be, REC_VERSION_MAJOR, 0);
	rf_store(bad, buf, sizeof(buf));
	rf_read_all(bad, &rr);
	CHECK_EQ_INT(rr.open_err, -EPROTO);
	CHECK(strstr(rr.msg, "big-endian") != NULL);

	rf_preamble(buf, rf_order_le, REC_VERSION_MAJOR + 1, 0);
	rf_store(bad, buf, sizeof(buf));
	rf_read_all(bad, &rr);
	CHECK_EQ_INT(rr.open_err, -EPROTO);
	CHECK(strstr(rr.msg, "format version 2.0") != NULL);

	rf_read_all(rf_tpath("does-not-exist"), &rr);
	CHECK_EQ_INT(rr.open_err, -ENOENT);
}

const struct unit_test recfile_bad_tests[] = {
	TEST(test_truncated_every_length), TEST(test_bit_flips),
	TEST(test_random_bytes),	   TEST(test_absurd_lengths),
	TEST(test_foreign_files),	   TEST_END
};

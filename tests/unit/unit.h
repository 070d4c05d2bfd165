/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny test runner. CHECK*() record a failure with file:line and let
 * the test go on, so one run shows every broken expectation. Each test
 * file exports a NULL-terminated table; runner.c lists the tables.
 */
#ifndef PCPTOP_UNIT_H
#define PCPTOP_UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
};

#define TEST(fn)        \
	{               \
#fn, fn \
	}
#define TEST_END           \
	{                  \
		NULL, NULL \
	}

extern const struct unit_test procfs_tests[];
extern const struct unit_test scale_tests[];
extern const struct unit_test hist_tests[];

void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "<fixtures>/<rel>", fixtures being $PCPTOP_FIXTURES or tests/fixtures */
const char *fixture(const char *rel);

#define CHECK(cond)                                                 \
	do {                                                        \
		if (!(cond))                                        \
			unit_fail(__FILE__, __LINE__, "%s", #cond); \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                   \
	do {                                                                 \
		long long a_ = (a), b_ = (b);                                \
		if (a_ != b_)                                                \
			unit_fail(__FILE__, __LINE__,                        \
				  "%s == %s: %lld != %lld", #a, #b, a_, b_); \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                   \
	do {                                                                 \
		unsigned long long a_ = (a), b_ = (b);                       \
		if (a_ != b_)                                                \
			unit_fail(__FILE__, __LINE__,                        \
				  "%s == %s: %llu != %llu", #a, #b, a_, b_); \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                 \
	do {                                                               \
		const char *a_ = (a), *b_ = (b);                           \
		if (!a_ || !b_ || strcmp(a_, b_))                          \
			unit_fail(__FILE__, __LINE__,                      \
				  "%s == %s: \"%s\" != \"%s\"", #a, #b,    \
				  a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

/* for a condition the rest of the test depends on */
#define REQUIRE(cond)                                               \
	do {                                                        \
		if (!(cond)) {                                      \
			unit_fail(__FILE__, __LINE__, "%s", #cond); \
			return;                                     \
		}                                                   \
	} while (0)

#endif /* PCPTOP_UNIT_H */

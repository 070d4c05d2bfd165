// SPDX-License-Identifier: GPL-2.0-only
/*
 * A boot's kallsyms findings kept for the starts that follow
 * (kallsyms_boot.h): a second start answers from the entry with the file
 * gone, and every way an entry can be wrong (another boot, other names,
 * a damaged byte, a directory others may write) is read again, never
 * trusted. And boot_note.h's notes in the same directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "boot_note.h"
#include "kallsyms.h"
#include "kallsyms_boot.h"
#include "unit.h"

#define SOURCE_LEN 64
/* the fixture's free_pcppages_bulk (tests/fixtures/kallsyms-unpatched) */
#define FPB_ADDR 0xffffffff812e4a10ULL

struct kb {
	char dir[PATH_MAX], cache[PATH_MAX], ksyms[PATH_MAX], boot[PATH_MAX];
	char src[SOURCE_LEN];
};

static const char *const names[] = { "free_pcppages_bulk", "rmqueue_bulk",
				     "e1000_probe" };

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

static int copy_ksyms(struct kb *k)
{
	char cmd[3 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "cp %s %s", fixture("kallsyms-unpatched"),
		 k->ksyms);
	return system(cmd) ? -EIO : 0;
}

static int kb_init(struct kb *k)
{
	snprintf(k->dir, sizeof(k->dir), "/tmp/pcptop-kb.XXXXXX");
	if (!mkdtemp(k->dir))
		return -errno;
	snprintf(k->cache, sizeof(k->cache), "%s/boot", k->dir);
	snprintf(k->ksyms, sizeof(k->ksyms), "%s/kallsyms", k->dir);
	snprintf(k->boot, sizeof(k->boot), "%s/boot_id", k->dir);
	if (put(k->boot, "6a0e9f3c-1b2d-4c5e-8f70-123456789abc\n"))
		return -EIO;
	return copy_ksyms(k);
}

static int prefetch(struct kb *k, const char *const *syms, int n)
{
	kallsyms_forget();
	k->src[0] = '\0';
	return kallsyms_prefetch_boot(k->ksyms, k->boot, k->cache, syms, n,
				      k->src, sizeof(k->src));
}

/* flip one byte at off of the entry */
static void damage(struct kb *k, long off)
{
	char path[PATH_MAX + 16];
	FILE *f;
	int c;

	snprintf(path, sizeof(path), "%s/kallsyms", k->cache);
	f = fopen(path, "r+");
	if (!f)
		return;
	fseek(f, off, SEEK_SET);
	c = fgetc(f);
	fseek(f, off, SEEK_SET);
	fputc(c ^ 0x5a, f);
	fclose(f);
}

static void test_kallsyms_boot(void)
{
	unsigned long long addr = 0;
	struct kb k;

	REQUIRE(kb_init(&k) == 0);
	CHECK_EQ_INT(prefetch(&k, names, 3), 0);
	CHECK_EQ_STR(k.src, "cached now");
	/* the file gone, the next start answers from the entry */
	unlink(k.ksyms);
	CHECK_EQ_INT(prefetch(&k, names, 3), 0);
	CHECK_EQ_STR(k.src, "cache hit");
	CHECK_EQ_INT(kallsyms_lookup(k.ksyms, "free_pcppages_bulk", &addr), 0);
	CHECK_EQ_U64(addr, FPB_ADDR);
	CHECK_EQ_INT(kallsyms_lookup(k.ksyms, "rmqueue_bulk", &addr), -ENOENT);
	CHECK_EQ_INT(kallsyms_readable(k.ksyms), 0);

	/* another boot: KASLR moved everything, read again */
	REQUIRE(copy_ksyms(&k) == 0);
	REQUIRE(put(k.boot, "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0\n") == 0);
	CHECK_EQ_INT(prefetch(&k, names, 3), 0);
	CHECK_EQ_STR(k.src, "stale entry rebuilt");
	CHECK_EQ_INT(prefetch(&k, names, 3), 0);
	CHECK_EQ_STR(k.src, "cache hit");
	/* other names: another pcptop's probe table */
	CHECK_EQ_INT(prefetch(&k, names, 2), 0);
	CHECK_EQ_STR(k.src, "stale entry rebuilt");
	/* a damaged byte in the header, then in the findings */
	damage(&k, 20);
	CHECK_EQ_INT(prefetch(&k, names, 2), 0);
	CHECK_EQ_STR(k.src, "damaged entry rebuilt");
	damage(&k, 200);
	CHECK_EQ_INT(prefetch(&k, names, 2), 0);
	CHECK_EQ_STR(k.src, "damaged entry rebuilt");
	CHECK_EQ_INT(kallsyms_lookup(k.ksyms, "free_pcppages_bulk", &addr), 0);
	CHECK_EQ_U64(addr, FPB_ADDR);

	/* a directory others may write is not trusted, the read goes on */
	REQUIRE(chmod(k.cache, 0770) == 0);
	CHECK_EQ_INT(prefetch(&k, names, 2), 0);
	CHECK(!strncmp(k.src, "no cache: ", 10));
	/* off */
	snprintf(k.cache, sizeof(k.cache), "%s", "");
	CHECK_EQ_INT(prefetch(&k, names, 2), 0);
	CHECK_EQ_STR(k.src, "cache off");
	/* without the file and without an entry: the read's error */
	unlink(k.ksyms);
	CHECK_EQ_INT(prefetch(&k, names, 2), -ENOENT);

	kallsyms_forget();
	snprintf(k.cache, sizeof(k.cache), "rm -rf %s", k.dir);
	CHECK(system(k.cache) == 0);
}

/* a note holds its text for this boot only, and only in a trusted place */
static void test_boot_note(void)
{
	const char *fentry =
		"fentry attached to free_pcppages_bulk, BTF id 4242";
	char path[PATH_MAX + 16];
	struct kb k;

	REQUIRE(kb_init(&k) == 0);
	CHECK(!boot_note_has(k.cache, k.boot, "fentry", fentry));
	CHECK_EQ_INT(boot_note_set(k.cache, k.boot, "fentry", fentry), 0);
	CHECK(boot_note_has(k.cache, k.boot, "fentry", fentry));
	/* another text, another note's name */
	CHECK(!boot_note_has(
		k.cache, k.boot, "fentry",
		"fentry attached to free_pcppages_bulk, BTF id 4243"));
	CHECK(!boot_note_has(k.cache, k.boot, "kprobe", fentry));
	/* off, and not even read */
	CHECK(!boot_note_has("", k.boot, "fentry", fentry));
	CHECK_EQ_INT(boot_note_set("", k.boot, "fentry", fentry), -ECANCELED);
	/* cut short: not the note */
	snprintf(path, sizeof(path), "%s/fentry", k.cache);
	REQUIRE(truncate(path, 20) == 0);
	CHECK(!boot_note_has(k.cache, k.boot, "fentry", fentry));
	CHECK_EQ_INT(boot_note_set(k.cache, k.boot, "fentry", fentry), 0);
	/* the next boot knows nothing of it */
	REQUIRE(put(k.boot, "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0\n") == 0);
	CHECK(!boot_note_has(k.cache, k.boot, "fentry", fentry));
	CHECK_EQ_INT(boot_note_set(k.cache, k.boot, "fentry", fentry), 0);
	CHECK(boot_note_has(k.cache, k.boot, "fentry", fentry));
	/* no boot_id to key it by: no note */
	unlink(k.boot);
	CHECK(!boot_note_has(k.cache, k.boot, "fentry", fentry));
	REQUIRE(put(k.boot, "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0\n") == 0);
	/* a directory others may write: neither read nor written */
	REQUIRE(chmod(k.cache, 0770) == 0);
	CHECK(!boot_note_has(k.cache, k.boot, "fentry", fentry));
	CHECK(boot_note_set(k.cache, k.boot, "fentry", fentry) < 0);

	snprintf(path, sizeof(path), "rm -rf %s", k.dir);
	CHECK(system(path) == 0);
}

const struct unit_test kallsyms_boot_tests[] = {
	TEST(test_kallsyms_boot),
	TEST(test_boot_note),
	TEST_END,
};

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BTF cache (btf_cache.h): finding, checking, making and keeping the
 * cut BTF of the running kernel.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bpf_elf.h"
#include "btf_cache.h"
#include "btf_cache_key.h"
#include "btf_cut.h"
#include "outfile.h"
#include "probes.h"

#define KERNEL_NOTES_PATH "/sys/kernel/notes"
/* the default directory's parents, world-readable as /var/cache is */
#define CACHE_PARENT_MODE 0755
#define CACHE_DIR_MODE 0700
#define CACHE_FILE_MODE 0600

/* "EROFS" fits the info line where "Read-only file system" would not */
static const char *errname(int err)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	return name ? name : "error";
}

/* a directory only its owner, pcptop's user, may change */
static int dir_trusted(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	return 0;
}

/* every directory of path (absolute), as mkdir -p */
static int make_parents(char *path)
{
	char *slash = path;

	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		if (mkdir(path, CACHE_PARENT_MODE) && errno != EEXIST) {
			*slash = '/';
			return -errno;
		}
		*slash = '/';
	}
	if (mkdir(path, CACHE_PARENT_MODE) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * The cache directory, made if missing, opened without following a
 * symlink in its last two components: an fd, or -errno.
 */
static int cache_dir_open(const char *dir)
{
	char parent[PATH_MAX], base[PATH_MAX];
	int pfd, fd, err;

	if (snprintf(parent, sizeof(parent), "%s", dir) >= (int)sizeof(parent))
		return -ENAMETOOLONG;
	snprintf(base, sizeof(base), "%s", dir);
	/* /var/cache/pcptop, even /var, may be missing on a board: make them */
	if (!strcmp(dir, BTF_CACHE_DIR)) {
		err = make_parents(dirname(parent));
		if (err)
			return err;
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	pfd = open(dirname(parent),
		   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	err = dir_trusted(pfd);
	if (!err && mkdirat(pfd, basename(base), CACHE_DIR_MODE) &&
	    errno != EEXIST)
		err = -errno;
	fd = err ? -1 :
		   openat(pfd, basename(base),
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (!err && fd < 0)
		err = -errno;
	close(pfd);
	if (!err)
		err = dir_trusted(fd);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

/* the whole entry name into *buf: its length, or -errno */
static ssize_t entry_read(int dfd, const char *name, void **buf)
{
	struct stat st;
	ssize_t n = 0, got;
	int fd, err = 0;

	*buf = NULL;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISREG(st.st_mode) ||
		 st.st_size > (off_t)(sizeof(struct btf_cache_hdr) +
				      BTF_CACHE_MAX_PAYLOAD))
		err = -EBADMSG;
	else if (!(*buf = malloc(st.st_size ? st.st_size : 1)))
		err = -ENOMEM;
	while (!err && n < st.st_size) {
		got = read(fd, (char *)*buf + n, st.st_size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			err = got < 0 ? -errno : -EBADMSG;
		else
			n += got;
	}
	close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
		return err;
	}
	return n;
}

#define TMP_FMT ".%s.%d.tmp"

/*
 * A pcptop killed between writing its entry and renaming it leaves the
 * temporary file behind; nothing else would ever remove it. Those of
 * processes no longer alive go before a new entry is written.
 */
static void stale_tmp_sweep(int dfd)
{
	struct dirent *e;
	int fd, pid, n;
	DIR *dir;

	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((e = readdir(dir))) {
		n = strlen(e->d_name);
		if (e->d_name[0] != '.' || n < 5 ||
		    strcmp(e->d_name + n - 4, ".tmp"))
			continue;
		/* ".NAME.PID.tmp": the PID is the last dotted field */
		e->d_name[n - 4] = '\0';
		pid = atoi(strrchr(e->d_name, '.') + 1);
		e->d_name[n - 4] = '.';
		if (pid > 0 && pid != getpid() && kill(pid, 0) &&
		    errno == ESRCH)
			unlinkat(dfd, e->d_name, 0);
	}
	closedir(dir);
}

/* the entry written whole under a temporary name, then renamed: 0/-errno */
static int entry_write(int dfd, const char *name, const struct btf_cache_hdr *h,
		       const void *payload)
{
	char tmp[BTF_CACHE_NAME_LEN + 32];
	int fd, err;

	stale_tmp_sweep(dfd);
	snprintf(tmp, sizeof(tmp), TMP_FMT, name, (int)getpid());
	fd = openat(dfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    CACHE_FILE_MODE);
	if (fd < 0)
		return -errno;
	err = outfile_write_all(fd, h, sizeof(*h));
	if (!err)
		err = outfile_write_all(fd, payload, h->payload_len);
	/* a power cut leaves the old entry or the new one, never a part */
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dfd, tmp, dfd, name))
		err = -errno;
	if (err)
		unlinkat(dfd, tmp, 0);
	else
		fsync(dfd);
	return err;
}

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

	n = entry_read(dfd, name, &buf);
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
	return entry_write(dfd, name, &h, raw);
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
	why = *dir ? cache_dir_open(dir) : -ECANCELED;
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

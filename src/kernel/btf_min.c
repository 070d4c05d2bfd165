// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop btf-min (btf_min.h says what goes in). A board pays for a whole
 * BTF twice: libbpf 1.1 reads the file into one buffer and copies it into
 * another (what that costs: docs/FIELD.md, "What it costs on the board");
 * the minimal one is a few KB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "arrays.h"
#include "bpf_elf.h"
#include "btf_cut.h"
#include "btf_min.h"
#include "outfile.h"

extern char **environ;

#if defined(__x86_64__)
#define OWN_ARCH "x86"
#elif defined(__aarch64__)
#define OWN_ARCH "arm64"
#else
#define OWN_ARCH NULL
#endif

/* a struct only each architecture's kernel has */
static const struct {
	const char *arch, *st;
} arch_marks[] = {
	{ "x86", "cpuinfo_x86" },
	{ "arm64", "cpuinfo_arm64" },
};

static const char *btf_arch(const struct btf *btf)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arch_marks); i++)
		if (btf__find_by_name_kind(btf, arch_marks[i].st,
					   BTF_KIND_STRUCT) > 0)
			return arch_marks[i].arch;
	return NULL;
}

/* a temporary file holding data (or empty): its fd, path in tmpl */
static int tmp_file(char *tmpl, size_t len, const void *data, size_t n)
{
	const char *dir = getenv("TMPDIR");
	int fd, err;

	snprintf(tmpl, len, "%s/pcptop-btf-min-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmpl);
	if (fd < 0)
		return -errno;
	err = data ? outfile_write_all(fd, data, n) : 0;
	if (err) {
		close(fd);
		unlink(tmpl);
		return err;
	}
	return fd;
}

static int run_bpftool(const struct btf_min_opts *o, const char *obj,
		       const char *out, char *msg, size_t len)
{
	const char *tool = o->bpftool ? o->bpftool : "bpftool";
	char *argv[] = { (char *)tool,
			 "gen",
			 "min_core_btf",
			 (char *)o->src,
			 (char *)out,
			 (char *)obj,
			 NULL };
	posix_spawn_file_actions_t fa;
	int status, err;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
					 O_WRONLY, 0);
	err = -posix_spawnp(&pid, tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		snprintf(
			msg, len,
			"cannot run %s (%s): btf-min needs bpftool for the CO-RE part (Debian: apt-get install bpftool)",
			tool, strerror(-err));
		return err;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	snprintf(
		msg, len,
		"%s gen min_core_btf %s failed (its message is above): is it this kernel's BTF?",
		tool, o->src);
	return -EINVAL;
}

static int write_out(const char *path, const struct btf *btf, size_t *bytes)
{
	const void *data;
	__u32 sz;
	int fd, err;

	data = btf__raw_data(btf, &sz);
	if (!data)
		return -ENOMEM;
	err = outfile_keep_old(path);
	if (err)
		return err;
	fd = outfile_create(path);
	if (fd < 0)
		return fd;
	err = outfile_write_all(fd, data, sz);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	*bytes = sz;
	return err;
}

int btf_min_make(const struct btf_min_opts *o, struct btf_min_result *r,
		 char *msg, size_t len)
{
	char obj_tmp[256] = "", min_tmp[256] = "";
	struct btf *src = NULL, *min = NULL;
	const char *obj = o->object, *arch;
	const void *elf;
	size_t elf_sz;
	__u32 src_sz;
	struct stat st;
	char why[80];
	int fd, err = 0;

	memset(r, 0, sizeof(*r));
	err = outfile_check(o->out, msg, len);
	if (err)
		return err;
	/* what fails is said once, here; libbpf's own lines would repeat it */
	libbpf_set_print(NULL);
	if (!stat(o->src, &st) && S_ISDIR(st.st_mode))
		err = -EISDIR;
	src = err ? NULL : btf__parse(o->src, NULL);
	if (!src) {
		err = err ?: -errno;
		libbpf_strerror(err, why, sizeof(why));
		snprintf(
			msg, len,
			"cannot read BTF from %s (%s): give a raw BTF (/sys/kernel/btf/vmlinux, pahole --btf_encode_detached) or a vmlinux with .BTF",
			o->src, why);
		return err;
	}
	if (btf__raw_data(src, &src_sz))
		r->src_bytes = src_sz;
	arch = btf_arch(src);
	if (!obj && arch && OWN_ARCH && strcmp(arch, OWN_ARCH)) {
		snprintf(
			msg, len,
			"%s is an %s kernel's BTF and this pcptop carries %s programs: run the %s pcptop, or give --object with %s's pcptop.bpf.o (make ARCH=%s)",
			o->src, arch, OWN_ARCH, arch, arch, arch);
		err = -EINVAL;
		goto out;
	}
	if (!obj) {
		elf = pcptop_bpf_elf_inflate(&elf_sz);
		fd = elf ? tmp_file(obj_tmp, sizeof(obj_tmp), elf, elf_sz) :
			   -errno;
		pcptop_bpf_elf_release();
		if (fd < 0) {
			err = fd;
			snprintf(
				msg, len,
				"cannot write the BPF object to a temporary file (%s): set TMPDIR",
				strerror(-err));
			goto out;
		}
		close(fd);
		obj = obj_tmp;
	}
	fd = tmp_file(min_tmp, sizeof(min_tmp), NULL, 0);
	if (fd < 0) {
		err = fd;
		snprintf(msg, len,
			 "cannot make a temporary file (%s): set TMPDIR",
			 strerror(-err));
		goto out;
	}
	close(fd);
	err = run_bpftool(o, obj, min_tmp, msg, len);
	if (err)
		goto out;
	min = btf__parse_raw(min_tmp);
	if (!min) {
		err = -errno;
		libbpf_strerror(err, why, sizeof(why));
		snprintf(msg, len, "bpftool's output %s does not parse (%s)",
			 min_tmp, why);
		goto out;
	}
	err = btf_cut_add_plan_facts(min, src, &r->funcs, &r->tracepoints);
	if (!err)
		err = write_out(o->out, min, &r->out_bytes);
	if (err)
		snprintf(msg, len, "cannot write %s (%s)", o->out,
			 strerror(-err));
out:
	if (obj_tmp[0])
		unlink(obj_tmp);
	if (min_tmp[0])
		unlink(min_tmp);
	btf__free(min);
	btf__free(src);
	return err;
}

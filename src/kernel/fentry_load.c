// SPDX-License-Identifier: GPL-2.0-only
/*
 * fentry and fexit programs loaded with the target's BTF id pcptop
 * already has (fentry_load.h says why). libbpf decides whether to parse
 * the kernel's whole BTF from the programs' types before it loads any,
 * then calls each program's prepare callback just before its
 * bpf_prog_load(): the programs are raw tracepoints until then, and
 * tracing programs from there on. A handler registered for no section
 * (the fallback) keeps its callbacks when the type changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "fentry_load.h"

#define FENTRY_SEC "pcptop.fentry/"
#define FEXIT_SEC "pcptop.fexit/"
/* every fentry and fexit program of bpf/ (15), with room */
#define MAX_TARGETS 32
#define FN_NAME_LEN 64

struct target {
	const struct bpf_program *prog;
	char fn[FN_NAME_LEN];
	uint32_t btf_id;
};

static struct target targets[MAX_TARGETS];
static int nr_targets;
/* the kernel's whole BTF, read once a load where no cache had an id */
static struct btf *whole;

void fentry_load_reset(void)
{
	nr_targets = 0;
	btf__free(whole);
	whole = NULL;
}

static struct target *target_of(const struct bpf_program *prog)
{
	int i;

	for (i = 0; i < nr_targets; i++)
		if (targets[i].prog == prog)
			return &targets[i];
	return NULL;
}

int fentry_load_target(struct bpf_program *prog, const char *fn,
		       uint32_t btf_id)
{
	struct target *t = target_of(prog);

	if (!t) {
		if (nr_targets >= MAX_TARGETS)
			return -E2BIG;
		t = &targets[nr_targets++];
	}
	t->prog = prog;
	snprintf(t->fn, sizeof(t->fn), "%s", fn);
	t->btf_id = btf_id;
	return 0;
}

/* the attach type the section names, and its function; 0: not ours */
static enum bpf_attach_type sec_type(const struct bpf_program *prog,
				     const char **fn)
{
	const char *sec = bpf_program__section_name(prog);

	if (!strncmp(sec, FENTRY_SEC, strlen(FENTRY_SEC))) {
		*fn = sec + strlen(FENTRY_SEC);
		return BPF_TRACE_FENTRY;
	}
	if (!strncmp(sec, FEXIT_SEC, strlen(FEXIT_SEC))) {
		*fn = sec + strlen(FEXIT_SEC);
		return BPF_TRACE_FEXIT;
	}
	return 0;
}

int fentry_load_kernel_btf_id(const char *fn)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC);
	btf__free(btf);
	return id;
}

/* fn's id in the whole BTF, kept for the load's other programs */
static int whole_btf_id(const char *fn)
{
	if (!whole)
		whole = btf__load_vmlinux_btf();
	if (!whole)
		return -ENOENT;
	return btf__find_by_name_kind(whole, fn, BTF_KIND_FUNC);
}

static int prepare_load(struct bpf_program *prog,
			struct bpf_prog_load_opts *opts, long cookie)
{
	enum bpf_attach_type type;
	struct target *t;
	const char *fn;
	int id, err;

	type = sec_type(prog, &fn);
	if (!type)
		return -EOPNOTSUPP;
	t = target_of(prog);
	if (t)
		fn = t->fn;
	id = t && t->btf_id ? (int)t->btf_id : whole_btf_id(fn);
	if (id < 0)
		return id;
	err = bpf_program__set_type(prog, BPF_PROG_TYPE_TRACING);
	if (!err)
		err = bpf_program__set_expected_attach_type(prog, type);
	if (err)
		return err;
	opts->expected_attach_type = type;
	opts->attach_btf_id = id;
	opts->attach_btf_obj_fd = 0;
	opts->attach_prog_fd = 0;
	return 0;
}

static int attach(const struct bpf_program *prog, long cookie,
		  struct bpf_link **link)
{
	*link = bpf_program__attach_trace(prog);
	return *link ? 0 : -errno;
}

int fentry_load_register(void)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, ho,
		    .prog_prepare_load_fn = prepare_load,
		    .prog_attach_fn = attach);
	static int handler;

	if (handler > 0)
		return 0;
	handler = libbpf_register_prog_handler(
		NULL, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, &ho);
	return handler > 0 ? 0 : handler;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cutting a kernel's BTF down to what pcptop reads (btf_cut.h). It runs
 * on the board, the first time pcptop meets a kernel, where bpftool's
 * min_core_btf is not at hand: it keeps whole types where bpftool keeps
 * single members, a few tens of KB against a few MB. What it keeps is
 * part of the cache's format: a change here bumps BTF_CACHE_VERSION
 * (btf_cache_key.h), or entries cut by an older pcptop are still used.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "arrays.h"
#include "btf_cut.h"
#include "btf_relo.h"
#include "kernel_quirks.h"
#include "probes.h"

/* pcptop's object relocates against a few dozen types */
#define MAX_ROOTS 256
/* read by kernel_facts.c's plan, whether or not the programs relocate it */
static const char *const plan_structs[] = { "per_cpu_pages" };

struct root {
	const char *name;
	size_t len; /* without a ___flavour */
	int kind;
};

struct cut {
	const struct btf *src;
	__u32 nr; /* src's types, void included */
	__u32 *map; /* src id -> cut id; 0: not in the cut */
	__u32 *stack;
	__u32 depth;
	struct root roots[MAX_ROOTS + ARRAY_SIZE(plan_structs)];
	int nr_roots;
};

/*
 * a prototype with proto's argument names and count, typed ulong, and
 * returning void where proto does: a commit function that returns a value
 * is the chunked one (core/kshape.h)
 */
static int add_counted_proto(struct btf *dst, const struct btf *src,
			     const struct btf_type *proto, int ulong)
{
	const struct btf_param *p = btf_params(proto);
	int id, i, err;

	id = btf__add_func_proto(dst, proto->type ? ulong : 0);
	for (i = 0; id > 0 && i < btf_vlen(proto); i++, p++) {
		err = btf__add_func_param(
			dst, btf__name_by_offset(src, p->name_off), ulong);
		if (err)
			return err;
	}
	return id;
}

static int add_func(struct btf *dst, const struct btf *src, const char *fn,
		    int ulong)
{
	const struct btf_type *t;
	int id, proto;

	if (btf__find_by_name_kind(dst, fn, BTF_KIND_FUNC) > 0)
		return 0;
	id = btf__find_by_name_kind(src, fn, BTF_KIND_FUNC);
	if (id <= 0)
		return 0;
	t = btf__type_by_id(src, btf__type_by_id(src, id)->type);
	if (!t || !btf_is_func_proto(t))
		return 0;
	proto = add_counted_proto(dst, src, t, ulong);
	if (proto < 0)
		return proto;
	id = btf__add_func(dst, fn, BTF_FUNC_GLOBAL, proto);
	return id < 0 ? id : 1;
}

/* btf_trace_TP: typedef -> pointer -> the tracepoint's prototype */
static int add_trace_typedef(struct btf *dst, const struct btf *src,
			     const char *tp, int ulong)
{
	const struct btf_type *t;
	char name[96];
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	if (btf__find_by_name_kind(dst, name, BTF_KIND_TYPEDEF) > 0)
		return 0;
	id = btf__find_by_name_kind(src, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return 0;
	t = btf__type_by_id(src, btf__type_by_id(src, id)->type);
	if (!t || !btf_is_ptr(t))
		return 0;
	t = btf__type_by_id(src, t->type);
	if (!t || !btf_is_func_proto(t))
		return 0;
	id = add_counted_proto(dst, src, t, ulong);
	if (id > 0)
		id = btf__add_ptr(dst, id);
	if (id > 0)
		id = btf__add_typedef(dst, name, id);
	return id < 0 ? id : 1;
}

int btf_cut_add_plan_facts(struct btf *dst, const struct btf *src, int *funcs,
			   int *tps)
{
	const struct probe_desc *d;
	const char *tp[2];
	int ulong, id, k, n;

	ulong = btf__find_by_name_kind(dst, "long unsigned int", BTF_KIND_INT);
	if (ulong <= 0)
		ulong = btf__add_int(dst, "long unsigned int", sizeof(long), 0);
	if (ulong < 0)
		return ulong;
	for (id = 0; id < NR_PROBES; id++) {
		d = &probe_table[id];
		for (k = 0; k < PROBE_MAX_FNS && d->fns[k]; k++) {
			n = add_func(dst, src, d->fns[k], ulong);
			if (n < 0)
				return n;
			*funcs += n;
		}
		tp[0] = d->tp;
		tp[1] = d->tp_exit;
		for (k = 0; k < 2; k++) {
			n = tp[k] ? add_trace_typedef(dst, src, tp[k], ulong) :
				    0;
			if (n < 0)
				return n;
			*tps += n;
		}
	}
	n = add_trace_typedef(dst, src, QUIRK_ZONE_LOCK_TP, ulong);
	if (n < 0)
		return n;
	*tps += n;
	return 0;
}

/*
 * The name's length without a ___flavour suffix, as libbpf's
 * bpf_core_essential_name_len() finds it: the last "X___Y" with X and Y
 * not underscores.
 */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = (int)n - 5; i >= 0; i--)
		if (name[i] != '_' && name[i + 1] == '_' &&
		    name[i + 2] == '_' && name[i + 3] == '_' &&
		    name[i + 4] != '_')
			return i + 1;
	return n;
}

/* libbpf's btf_kind_core_compat(): a candidate has the root's kind */
static bool kind_compat(int a, int b)
{
	bool ea = a == BTF_KIND_ENUM || a == BTF_KIND_ENUM64;
	bool eb = b == BTF_KIND_ENUM || b == BTF_KIND_ENUM64;

	return a == b || (ea && eb);
}

static int add_root(struct cut *c, const char *name, int kind)
{
	if (!name || !*name)
		return 0;
	if (c->nr_roots >= (int)ARRAY_SIZE(c->roots))
		return -E2BIG;
	c->roots[c->nr_roots].name = name;
	c->roots[c->nr_roots].len = essential_len(name);
	c->roots[c->nr_roots].kind = kind;
	c->nr_roots++;
	return 0;
}

/* the object's .BTF and .BTF.ext sections */
static int object_sections(Elf *elf, Elf_Data **btf, Elf_Data **ext)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *name;
	size_t stridx;

	*btf = *ext = NULL;
	if (elf_getshdrstrndx(elf, &stridx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		name = elf_strptr(elf, stridx, sh.sh_name);
		if (name && !strcmp(name, ".BTF"))
			*btf = elf_getdata(scn, NULL);
		else if (name && !strcmp(name, ".BTF.ext"))
			*ext = elf_getdata(scn, NULL);
	}
	return *btf ? 0 : -ENOENT;
}

/* the roots: what the object's CO-RE records start from, and the plan's */
static int find_roots(struct cut *c, const struct btf *local,
		      const Elf_Data *ext)
{
	const struct btf_type *t;
	__u32 ids[MAX_ROOTS];
	size_t i;
	int n = 0, err, k;

	if (ext) {
		n = btf_ext_core_roots(ext->d_buf, ext->d_size, ids, MAX_ROOTS);
		if (n < 0)
			return n;
	}
	for (k = 0; k < n; k++) {
		t = btf__type_by_id(local, ids[k]);
		if (!t)
			return -EINVAL;
		err = add_root(c, btf__name_by_offset(local, t->name_off),
			       btf_kind(t));
		if (err)
			return err;
	}
	for (i = 0; i < ARRAY_SIZE(plan_structs); i++) {
		err = add_root(c, plan_structs[i], BTF_KIND_STRUCT);
		if (err)
			return err;
	}
	return 0;
}

static bool is_root(const struct cut *c, const struct btf_type *t)
{
	const char *name = btf__name_by_offset(c->src, t->name_off);
	size_t len;
	int i;

	if (!name || !*name)
		return false;
	len = essential_len(name);
	for (i = 0; i < c->nr_roots; i++)
		if (c->roots[i].len == len &&
		    !memcmp(c->roots[i].name, name, len) &&
		    kind_compat(c->roots[i].kind, btf_kind(t)))
			return true;
	return false;
}

static void push(struct cut *c, __u32 id)
{
	if (id && id < c->nr && !c->map[id]) {
		c->map[id] = 1;
		c->stack[c->depth++] = id;
	}
}

/* what a type needs beside it in the cut; a pointer needs nothing */
static void mark_refs(struct cut *c, const struct btf_type *t)
{
	const struct btf_member *m;
	const struct btf_param *p;
	int i;

	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		push(c, t->type);
		break;
	case BTF_KIND_ARRAY:
		push(c, btf_array(t)->type);
		push(c, btf_array(t)->index_type);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		m = btf_members(t);
		for (i = 0; i < btf_vlen(t); i++, m++)
			push(c, m->type);
		break;
	case BTF_KIND_FUNC_PROTO:
		push(c, t->type);
		p = btf_params(t);
		for (i = 0; i < btf_vlen(t); i++, p++)
			push(c, p->type);
		break;
	default:
		break;
	}
}

/* every root and what it embeds, then cut ids in src's order */
static void mark(struct cut *c)
{
	__u32 id, next = 0;

	for (id = 1; id < c->nr; id++)
		if (is_root(c, btf__type_by_id(c->src, id)))
			push(c, id);
	while (c->depth)
		mark_refs(c, btf__type_by_id(c->src, c->stack[--c->depth]));
	for (id = 1; id < c->nr; id++)
		if (c->map[id])
			c->map[id] = ++next;
}

static int emit_members(struct btf *dst, const struct cut *c,
			const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	int i, err;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		err = btf__add_field(dst,
				     btf__name_by_offset(c->src, m->name_off),
				     c->map[m->type],
				     btf_member_bit_offset(t, i),
				     btf_member_bitfield_size(t, i));
		if (err)
			return err;
	}
	return 0;
}

static int emit_enum(struct btf *dst, const struct cut *c,
		     const struct btf_type *t, const char *name)
{
	const struct btf_enum *e = btf_enum(t);
	const struct btf_enum64 *e64 = btf_enum64(t);
	int i, id, err = 0;

	if (btf_is_enum(t))
		id = btf__add_enum(dst, name, t->size);
	else
		id = btf__add_enum64(dst, name, t->size, btf_kflag(t));
	for (i = 0; id > 0 && !err && i < btf_vlen(t); i++) {
		if (btf_is_enum(t))
			/* an unsigned enum's values read as __s32 in BTF */
			err = btf__add_enum_value(
				dst, btf__name_by_offset(c->src, e[i].name_off),
				btf_kflag(t) ? (__s64)e[i].val :
					       (__s64)(__u32)e[i].val);
		else
			err = btf__add_enum64_value(
				dst,
				btf__name_by_offset(c->src, e64[i].name_off),
				btf_enum64_value(&e64[i]));
	}
	return id < 0 ? id : err;
}

static int emit_proto(struct btf *dst, const struct cut *c,
		      const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);
	int i, id, err = 0;

	id = btf__add_func_proto(dst, c->map[t->type]);
	for (i = 0; id > 0 && !err && i < btf_vlen(t); i++, p++)
		err = btf__add_func_param(
			dst, btf__name_by_offset(c->src, p->name_off),
			c->map[p->type]);
	return id < 0 ? id : err;
}

/* one type of the cut, its references renumbered: 0 or -errno */
static int emit(struct btf *dst, const struct cut *c, const struct btf_type *t)
{
	const char *name = btf__name_by_offset(c->src, t->name_off);
	int id;

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		/* btf__add_int() makes whole-byte integers only, as kernels have */
		if (btf_int_offset(t) || btf_int_bits(t) != t->size * 8)
			return -EOPNOTSUPP;
		id = btf__add_int(dst, name, t->size, btf_int_encoding(t));
		break;
	case BTF_KIND_FLOAT:
		id = btf__add_float(dst, name, t->size);
		break;
	case BTF_KIND_PTR:
		id = btf__add_ptr(dst, 0);
		break;
	case BTF_KIND_ARRAY:
		id = btf__add_array(dst, c->map[btf_array(t)->index_type],
				    c->map[btf_array(t)->type],
				    btf_array(t)->nelems);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		id = btf_is_struct(t) ? btf__add_struct(dst, name, t->size) :
					btf__add_union(dst, name, t->size);
		return id < 0 ? id : emit_members(dst, c, t);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return emit_enum(dst, c, t, name);
	case BTF_KIND_FWD:
		id = btf__add_fwd(dst, name,
				  btf_kflag(t) ? BTF_FWD_UNION :
						 BTF_FWD_STRUCT);
		break;
	case BTF_KIND_TYPEDEF:
		id = btf__add_typedef(dst, name, c->map[t->type]);
		break;
	case BTF_KIND_VOLATILE:
		id = btf__add_volatile(dst, c->map[t->type]);
		break;
	case BTF_KIND_CONST:
		id = btf__add_const(dst, c->map[t->type]);
		break;
	case BTF_KIND_RESTRICT:
		id = btf__add_restrict(dst, c->map[t->type]);
		break;
	case BTF_KIND_TYPE_TAG:
		id = btf__add_type_tag(dst, name, c->map[t->type]);
		break;
	case BTF_KIND_FUNC_PROTO:
		return emit_proto(dst, c, t);
	default:
		/* functions, variables, sections: no type embeds one */
		return -EOPNOTSUPP;
	}
	return id < 0 ? id : 0;
}

static int cut_types(struct btf *dst, struct cut *c, const struct btf *local,
		     const Elf_Data *ext)
{
	__u32 id;
	int err;

	c->nr = btf__type_cnt(c->src);
	c->map = calloc(c->nr, sizeof(*c->map));
	c->stack = calloc(c->nr, sizeof(*c->stack));
	if (!c->map || !c->stack)
		return -ENOMEM;
	err = find_roots(c, local, ext);
	if (err)
		return err;
	mark(c);
	for (id = 1; id < c->nr; id++) {
		if (!c->map[id])
			continue;
		err = emit(dst, c, btf__type_by_id(c->src, id));
		if (err)
			return err;
	}
	return 0;
}

struct btf *btf_cut(const struct btf *src, const void *obj, unsigned long len)
{
	struct btf *dst = NULL, *local = NULL;
	struct cut c = { .src = src };
	Elf_Data *btf_sec, *ext_sec;
	Elf *elf = NULL;
	int funcs = 0, tps = 0, err;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		err = -EINVAL;
		goto out;
	}
	/* libelf only reads an image it is not asked to update */
	elf = elf_memory((char *)obj, len);
	err = elf ? object_sections(elf, &btf_sec, &ext_sec) : -EINVAL;
	if (err)
		goto out;
	local = btf__new(btf_sec->d_buf, btf_sec->d_size);
	dst = local ? btf__new_empty() : NULL;
	if (!dst) {
		err = -errno;
		goto out;
	}
	err = cut_types(dst, &c, local, ext_sec);
	if (!err)
		err = btf_cut_add_plan_facts(dst, src, &funcs, &tps);
out:
	free(c.map);
	free(c.stack);
	btf__free(local);
	if (elf)
		elf_end(elf);
	if (err) {
		btf__free(dst);
		errno = -err;
		return NULL;
	}
	return dst;
}

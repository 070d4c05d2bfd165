// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --trace's loader. The trace object (bpf/trace.bpf.c) is loaded
 * whole until a load takes (trace_open()'s order): the function probes as
 * fentry, else as kprobes, else without them, the tracepoints tp_btf and
 * then raw, and a refused free_one_page() probe once more without it, so
 * a refused flavour costs a reload of a small object rather than a plan
 * of its own.
 *
 * Its tracepoints are tp_btf and its function probes fentry wherever the
 * kernel has BTF of its own, whatever the main object chose to spare its
 * start a parse of that BTF: libbpf parses it for this object's CO-RE
 * anyway (no cut BTF is given here). Raw tracepoints read the page
 * through a helper call, and kprobes dispatch through pt_regs and read
 * each argument that way: as the main object's raw_tp and kprobes, the
 * trace cost 706 guest instructions an event, against 366 as tp_btf and
 * fentry (docs/PERFORMANCE.md, "record --trace"). The fentry programs load
 * through fentry_load.h with their targets' ids from one parse of ours.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "arrays.h"
#include "fentry_load.h"
#include "kallsyms.h"
#include "kernel_facts.h"
#include "kernel_quirks.h"
#include "pcptrace.h"
#include "trace.h"
#include "trace.skel.h"

#define KALLSYMS_PATH "/proc/kallsyms"
/* fn_probes' entries, at most */
#define FN_PROBES_MAX 8

struct trace {
	struct trace_bpf *skel;
	struct ring_buffer *rb;
	trace_sink_fn sink;
	void *ctx;
	int sink_err;
	uint32_t hooks;
	uint32_t rb_bytes;
	int nr_cpus;
	bool buddy; /* the last load asked for free_one_page()'s probe */
	/* each function probe's name in this kernel, NULL where absent */
	const char *fn[FN_PROBES_MAX];
};

#define FN_NAMES_MAX 3

/*
 * a function probe: the function's names, newest first (the first this
 * kernel has is probed), its programs by mode, and the hook bit it gives
 */
struct fn_probe {
	const char *fns[FN_NAMES_MAX];
	uint32_t hook;
	size_t fentry, fexit, kprobe,
		kretprobe; /* skel->progs offsets, 0 none */
};

/* as progs.c's: a name bpf/trace.bpf.c lacks does not compile */
#define PROG(name) offsetof(struct trace_bpf, progs.name)
/* an offset of 0 means "no program": none can sit there */
_Static_assert(offsetof(struct trace_bpf, progs) > 0,
	       "the skeleton's programs must not start it");

/* fn_probes[]' rows by name, so set_autoload() needs no positions */
enum fn_id {
	FN_DRAIN,
	FN_DECAY,
	FN_DEAD,
	FN_ONLINE,
	FN_COMMIT, /* tt_free leaves the pcp orders to it */
	FN_BUDDY, /* with the commit, it takes tt_free's place */
	FN_ISOLATE, /* fexit only: its return says whether it took the block */
	NR_FN_PROBES,
};

static const struct fn_probe fn_probes[NR_FN_PROBES] = {
	[FN_DRAIN] = { .fns = { "drain_pages_zone" },
		       .hook = PCPT_HOOK_DRAIN,
		       .fentry = PROG(tf_drain),
		       .kprobe = PROG(tk_drain) },
	[FN_DECAY] = { .fns = { "decay_pcp_high" },
		       .hook = PCPT_HOOK_DECAY | PCPT_HOOK_DECAY_END,
		       .fentry = PROG(tf_decay),
		       .fexit = PROG(tx_decay),
		       .kprobe = PROG(tk_decay),
		       .kretprobe = PROG(tr_decay) },
	[FN_DEAD] = { .fns = { "page_alloc_cpu_dead" },
		      .hook = PCPT_HOOK_HOTPLUG,
		      .fentry = PROG(tf_dead),
		      .fexit = PROG(tx_dead),
		      .kprobe = PROG(tk_dead),
		      .kretprobe = PROG(tr_dead) },
	[FN_ONLINE] = { .fns = { "page_alloc_cpu_online" },
			.hook = PCPT_HOOK_HOTPLUG,
			.fentry = PROG(tf_online),
			.kprobe = PROG(tk_online) },
	/* renamed after 6.12; the arguments the program reads kept */
	[FN_COMMIT] = { .fns = QUIRK_COMMIT_FNS,
			.hook = PCPT_HOOK_COMMIT,
			.fentry = PROG(tf_commit),
			.kprobe = PROG(tk_commit) },
	/* only beside the commit, in place of mm_page_free */
	[FN_BUDDY] = { .fns = { "free_one_page" },
		       .hook = PCPT_HOOK_BUDDY,
		       .fentry = PROG(tf_buddy),
		       .kprobe = PROG(tk_buddy) },
	[FN_ISOLATE] = { .fns = { "__isolate_free_page" },
			 .hook = PCPT_HOOK_ISOLATE,
			 .fexit = PROG(tx_isolate) },
};

_Static_assert(NR_FN_PROBES <= FN_PROBES_MAX, "struct trace's fn[] is short");

static struct bpf_program *prog_at(struct trace_bpf *s, size_t off)
{
	return off ? *(struct bpf_program **)((char *)s + off) : NULL;
}

/* the program at off loaded or not; 0 when there is none, or -errno */
static int load_at(struct trace_bpf *s, size_t off, bool on)
{
	struct bpf_program *prog = prog_at(s, off);

	return prog ? bpf_program__set_autoload(prog, on) : 0;
}

static int on_record(void *ctx, void *data, size_t len)
{
	struct trace *t = ctx;
	int err;

	if (t->sink_err)
		return 0;
	err = t->sink(t->ctx, data, len);
	if (err)
		t->sink_err = err;
	return 0;
}

/*
 * Whether fn can be probed in mode, > 0 when it can: for fentry its id in
 * the kernel's BTF (vmlinux, parsed once a load by the caller), its
 * programs' target; for kprobes 1 when kallsyms has it. Each is a walk of
 * a large table: once a name and a load.
 */
static int fn_probe_id(const char *fn, int mode, const struct btf *vmlinux)
{
	unsigned long long addr;

	if (mode == PCPT_FN_FENTRY)
		return vmlinux ? btf__find_by_name_kind(vmlinux, fn,
							BTF_KIND_FUNC) :
				 -ENOENT;
	if (mode == PCPT_FN_KPROBE)
		return kallsyms_lookup(KALLSYMS_PATH, fn, &addr) == 0;
	return 0;
}

/* p's first name this kernel has, into *fn (NULL: none); its id as above */
static int fn_probe_find(const struct fn_probe *p, int mode,
			 const struct btf *vmlinux, const char **fn)
{
	int i, id = 0;

	*fn = NULL;
	for (i = 0; i < FN_NAMES_MAX && p->fns[i]; i++) {
		id = fn_probe_id(p->fns[i], mode, vmlinux);
		if (id > 0) {
			*fn = p->fns[i];
			return id;
		}
	}
	return id;
}

static uint32_t ringbuf_bytes(const struct trace_opts *o)
{
	const char *env = getenv(TRACE_RINGBUF_ENV);
	long page = sysconf(_SC_PAGESIZE);
	unsigned long v = o->ringbuf_bytes;

	if (!v && env && *env)
		v = strtoul(env, NULL, 0);
	if (!v)
		v = PCPTRACE_RINGBUF_DEFAULT;
	/* the kernel wants a power of 2 of pages */
	if (v < (unsigned long)page)
		v = page;
	while (v & (v - 1))
		v &= v - 1;
	return v;
}

/* tp_btf and fentry need it; --btf serves CO-RE only */
static bool kernel_btf(void)
{
	return access(VMLINUX_BTF_PATH, R_OK) == 0;
}

/* the test knob: a record an event, as before format 1.6 */
static bool runs_off(void)
{
	const char *env = getenv(TRACE_NO_RUNS_ENV);

	return env && *env && strcmp(env, "0");
}

/*
 * autoload the tracepoints and one mode's function probes, fentry's with
 * their targets; 0 or -errno
 */
static int set_autoload(struct trace *t, bool raw_tp, int mode, bool buddy_ok,
			const struct btf *vmlinux)
{
	struct trace_bpf *s = t->skel;
	int ids[NR_FN_PROBES], err = 0;
	bool commit, buddy;
	size_t i;

	for (i = 0; i < NR_FN_PROBES; i++)
		ids[i] = fn_probe_find(&fn_probes[i], mode, vmlinux, &t->fn[i]);
	commit = ids[FN_COMMIT] > 0;
	buddy = buddy_ok && commit && ids[FN_BUDDY] > 0;
	err = bpf_program__set_autoload(s->progs.tt_alloc, !raw_tp);
	if (!err)
		err = bpf_program__set_autoload(s->progs.tt_free,
						!raw_tp && !buddy);
	if (!err)
		err = bpf_program__set_autoload(s->progs.rtt_alloc, raw_tp);
	if (!err)
		err = bpf_program__set_autoload(s->progs.rtt_free,
						raw_tp && !buddy);
	if (!err)
		err = bpf_program__set_autoload(s->progs.tt_reclaim_begin,
						!raw_tp);
	if (!err)
		err = bpf_program__set_autoload(s->progs.tt_reclaim_end,
						!raw_tp);
	if (!err)
		err = bpf_program__set_autoload(s->progs.rtt_reclaim_begin,
						raw_tp);
	if (!err)
		err = bpf_program__set_autoload(s->progs.rtt_reclaim_end,
						raw_tp);
	t->hooks = PCPT_HOOK_ALLOC_FREE | PCPT_HOOK_RECLAIM |
		   (uint32_t)mode << PCPT_HOOK_FN_SHIFT;
	for (i = 0; i < NR_FN_PROBES; i++) {
		const struct fn_probe *p = &fn_probes[i];
		/* a probe with no program of this mode is not on */
		bool on = (i == FN_BUDDY ? buddy : ids[i] > 0) &&
			  (mode != PCPT_FN_KPROBE || p->kprobe) &&
			  (mode != PCPT_FN_FENTRY || p->fentry || p->fexit);
		bool fentry = on && mode == PCPT_FN_FENTRY;
		bool kprobe = on && mode == PCPT_FN_KPROBE;

		if (!on)
			t->fn[i] = NULL;
		if (!err)
			err = load_at(s, p->fentry, fentry);
		if (!err)
			err = load_at(s, p->kprobe, kprobe);
		/* at this kernel's name, not the section's (attach_kprobes) */
		if (p->kprobe)
			bpf_program__set_autoattach(prog_at(s, p->kprobe),
						    false);
		if (fentry && p->fentry && !err)
			err = fentry_load_target(prog_at(s, p->fentry),
						 t->fn[i], (uint32_t)ids[i]);
		if (p->fexit) {
			if (!err)
				err = load_at(s, p->fexit, fentry);
			if (fentry && !err)
				err = fentry_load_target(prog_at(s, p->fexit),
							 t->fn[i],
							 (uint32_t)ids[i]);
		}
		if (p->kretprobe) {
			if (!err)
				err = load_at(s, p->kretprobe, kprobe);
			bpf_program__set_autoattach(prog_at(s, p->kretprobe),
						    false);
		}
		if (on)
			t->hooks |= p->hook;
	}
	t->buddy = buddy;
	s->rodata->fn_commit = commit;
	s->rodata->tp_direct = !raw_tp;
	s->rodata->runs = !runs_off();
	return err;
}

/*
 * the skeleton's link slot of prog, so that the skeleton's detach and
 * destroy take down what is attached by hand as well; NULL if none
 */
static struct bpf_link **skel_link_of(struct trace_bpf *s,
				      const struct bpf_program *prog)
{
	const struct bpf_object_skeleton *sk = s->skeleton;
	int i;

	for (i = 0; i < sk->prog_cnt; i++) {
		const struct bpf_prog_skeleton *ps =
			(const void *)((const char *)sk->progs +
				       (size_t)i * sk->prog_skel_sz);

		if (*ps->prog == prog)
			return ps->link;
	}
	return NULL;
}

static int attach_kprobe_at(struct trace_bpf *s, size_t off, bool ret,
			    const char *fn)
{
	struct bpf_program *prog = prog_at(s, off);
	struct bpf_link **slot;

	if (!prog || !bpf_program__autoload(prog))
		return 0;
	slot = skel_link_of(s, prog);
	if (!slot)
		return -ENOENT;
	*slot = bpf_program__attach_kprobe(prog, ret, fn);
	return *slot ? 0 : -errno;
}

/*
 * The kprobes at the names this kernel gives their functions (the
 * commit's changed after 6.12), a probe's entry before its exit; 0 or
 * -errno
 */
static int attach_kprobes(struct trace *t)
{
	size_t i;
	int err = 0;

	for (i = 0; i < NR_FN_PROBES && !err; i++) {
		const struct fn_probe *p = &fn_probes[i];

		if (!t->fn[i])
			continue;
		err = attach_kprobe_at(t->skel, p->kprobe, false, t->fn[i]);
		if (!err && p->kretprobe)
			err = attach_kprobe_at(t->skel, p->kretprobe, true,
					       t->fn[i]);
	}
	return err;
}

/* one open, load and attach with the function probes in mode; 0 or -errno */
static int load_mode(struct trace *t, const struct trace_opts *o, int mode,
		     bool raw_tp, bool buddy_ok)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = o->btf_path);
	struct btf *vmlinux = NULL;
	size_t sz;
	int err;

	err = fentry_load_register();
	if (err)
		return err;
	fentry_load_reset();
	/* megabytes, parsed once and freed before the attach */
	if (mode == PCPT_FN_FENTRY) {
		vmlinux = btf__load_vmlinux_btf();
		if (!vmlinux)
			return -errno ? -errno : -ENOENT;
	}
	if (!trace_bpf_elf_inflate(&sz)) {
		err = -errno;
		btf__free(vmlinux);
		return err;
	}
	t->skel = trace_bpf__open_opts(&oo);
	if (!t->skel) {
		err = -errno;
		trace_bpf_elf_release();
		btf__free(vmlinux);
		return err;
	}
	err = bpf_map__set_max_entries(t->skel->maps.trace_rb, t->rb_bytes);
	if (!err)
		err = set_autoload(t, raw_tp, mode, buddy_ok, vmlinux);
	btf__free(vmlinux);
	if (!err)
		err = trace_bpf__load(t->skel);
	fentry_load_reset();
	trace_bpf_elf_release();
	if (err)
		goto fail;
	/*
	 * Entries before exits (fentry's in the skeleton's order, kprobes'
	 * in fn_probes'): a CPU going down in the window of
	 * page_alloc_cpu_dead's would mark the next drains on its
	 * controlling CPU as CPU_DEAD's. A decay's return without its entry
	 * finds no decay open in the replay, and is ignored there.
	 */
	err = trace_bpf__attach(t->skel);
	if (!err)
		err = attach_kprobes(t);
	if (!err)
		return 0;
fail:
	trace_bpf__destroy(t->skel);
	t->skel = NULL;
	return err;
}

int trace_open(struct trace **out, const struct trace_opts *o,
	       trace_sink_fn sink, void *ctx, char *msg, size_t msg_len)
{
	/*
	 * raw_tp: the tracepoints as raw twins, where a policy refuses
	 * tracing programs (tp_btf, fentry) but not kprobes or raw
	 * tracepoints; where the kernel has no BTF they are raw throughout
	 */
	static const struct {
		int mode;
		bool raw_tp;
	} order[] = { { PCPT_FN_FENTRY, false },
		      { PCPT_FN_KPROBE, false },
		      { PCPT_FN_KPROBE, true },
		      { PCPT_FN_NONE, false },
		      { PCPT_FN_NONE, true } };
	static const char *const what[] = {
		[PCPT_FN_FENTRY] = "function probes as fentry",
		[PCPT_FN_KPROBE] = "function probes as kprobes",
		[PCPT_FN_NONE] = "tracepoints",
	};
	bool has_btf = kernel_btf();
	struct trace *t;
	int err = -ENOENT;
	size_t i;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->sink = sink;
	t->ctx = ctx;
	t->rb_bytes = ringbuf_bytes(o);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		int mode = order[i].mode;

		/* fentry and tp_btf need the kernel's own BTF, not --btf's */
		if ((mode == PCPT_FN_FENTRY &&
		     (!has_btf ||
		      (o->want != MODE_AUTO && o->want != MODE_FENTRY))) ||
		    (mode == PCPT_FN_KPROBE && o->want != MODE_AUTO &&
		     o->want != MODE_KPROBE) ||
		    (order[i].raw_tp && !has_btf))
			continue;
		err = load_mode(t, o, mode, order[i].raw_tp || !has_btf, true);
		/* the buddy frees then come from mm_page_free, as before it */
		if (err && t->buddy) {
			if (o->verbose)
				fprintf(stderr,
					"pcptop: --trace: free_one_page's probe refused (%s): loading without it\n",
					strerror(-err));
			err = load_mode(t, o, mode, order[i].raw_tp || !has_btf,
					false);
		}
		if (!err)
			break;
		if (o->verbose)
			fprintf(stderr, "pcptop: --trace: %s%s refused (%s)\n",
				what[mode],
				order[i].raw_tp || !has_btf ? " (raw)" : "",
				strerror(-err));
	}
	if (err) {
		snprintf(
			msg, msg_len,
			"--trace: the trace programs do not load (%s): run with -v for libbpf's log, or record without --trace",
			strerror(-err));
		goto fail;
	}
	t->nr_cpus = libbpf_num_possible_cpus();
	if (t->nr_cpus <= 0) {
		err = t->nr_cpus ? t->nr_cpus : -EINVAL;
		snprintf(msg, msg_len, "--trace: cannot count the CPUs: %s",
			 strerror(-err));
		goto fail;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.trace_rb), on_record,
				 t, NULL);
	if (!t->rb) {
		err = -errno;
		snprintf(msg, msg_len,
			 "--trace: cannot map the ring buffer (%s, %u bytes)",
			 strerror(-err), t->rb_bytes);
		goto fail;
	}
	*out = t;
	return 0;
fail:
	trace_close(t);
	return err;
}

int trace_poll(struct trace *t)
{
	int n = ring_buffer__consume(t->rb);

	if (t->sink_err)
		return t->sink_err;
	return n;
}

/*
 * A per-CPU array's one value on every possible CPU, each size bytes (a
 * multiple of 8: the kernel's stride), into a new buffer; 0 or -errno.
 */
static int read_per_cpu(const struct trace *t, const struct bpf_map *m,
			size_t size, void **out)
{
	uint32_t k = 0;
	void *v;

	v = calloc((size_t)t->nr_cpus, size);
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(m), &k, v)) {
		int err = -errno;

		free(v);
		return err;
	}
	*out = v;
	return 0;
}

int trace_lost(struct trace *t, uint64_t *per_cpu, int nr)
{
	uint64_t *v;
	int i, err;

	err = read_per_cpu(t, t->skel->maps.trace_lost, sizeof(*v),
			   (void **)&v);
	if (err)
		return err;
	for (i = 0; i < nr; i++)
		per_cpu[i] = i < t->nr_cpus ? v[i] : 0;
	free(v);
	return 0;
}

void trace_detach(struct trace *t)
{
	trace_bpf__detach(t->skel);
}

int trace_flush_runs(struct trace *t)
{
	struct pcptrace_run *v;
	int i, err;

	_Static_assert(sizeof(*v) % 8 == 0,
		       "a per-CPU value is read at 8-byte strides");
	err = read_per_cpu(t, t->skel->maps.trace_runs, sizeof(*v),
			   (void **)&v);
	if (err)
		return err;
	for (i = 0; i < t->nr_cpus && !t->sink_err; i++)
		if (v[i].ev.time_ns)
			on_record(t, &v[i].ev, sizeof(v[i].ev));
	free(v);
	return t->sink_err;
}

uint32_t trace_hooks(const struct trace *t)
{
	return t->hooks;
}

uint32_t trace_ringbuf_bytes(const struct trace *t)
{
	return t->rb_bytes;
}

int trace_nr_cpus(const struct trace *t)
{
	return t->nr_cpus;
}

void trace_prog_stats(const struct trace *t, uint64_t *run_ns,
		      uint64_t *run_cnt)
{
	struct bpf_prog_info info;
	struct bpf_program *p;
	uint32_t len;

	*run_ns = *run_cnt = 0;
	bpf_object__for_each_program(p, t->skel->obj) {
		if (bpf_program__fd(p) < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
			continue;
		*run_ns += info.run_time_ns;
		*run_cnt += info.run_cnt;
	}
}

void trace_close(struct trace *t)
{
	if (!t)
		return;
	ring_buffer__free(t->rb);
	trace_bpf__destroy(t->skel);
	free(t);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Carrying out the attach plan. Programs are found through the program
 * table (progs.c), so adding a probe needs no code here. When the kernel
 * refuses a flavour (fentry: EPERM by policy, -524 on arm64 before 6.4),
 * the plan is made again without it, at most once per flavour.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "errname.h"
#include "bpf_elf.h"
#include "fentry_load.h"
#include "kernel_facts.h"
#include "load_report.h"
#include "procfs.h"
#include "progs.h"
#include "units.h"
#include "uapi_compat.h"
#include "pcptop.skel.h"

/* fentry -> kprobe -> tracepoint: at most one fallback per flavour */
#define MAX_LOAD_ATTEMPTS 3

/* "EPERM" reads better than "Operation not permitted" next to a mode */
static bool verbose_libbpf;
static char libbpf_last[ATTACH_MSG_LEN];

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	size_t n;

	if (verbose_libbpf)
		return vfprintf(stderr, fmt, args);
	if (level == LIBBPF_DEBUG)
		return 0;
	/* keep the last warning for the one-line error, drop the rest */
	vsnprintf(libbpf_last, sizeof(libbpf_last), fmt, args);
	n = strlen(libbpf_last);
	if (n && libbpf_last[n - 1] == '\n')
		libbpf_last[n - 1] = '\0';
	return 0;
}

/* the program in slot s of probe id; NULL for SLOT_NONE */
static struct bpf_program *slot_prog(const struct attach *a, int id,
				     enum prog_slot s)
{
	return s == SLOT_NONE ? NULL : prog_at(a->skel, probe_progs[id].at[s]);
}

/* --cross-check's program: tp_btf, or its raw twin without kernel BTF */
static struct bpf_program *xcheck_prog(const struct attach *a)
{
	return prog_at(a->skel,
		       xcheck_progs.at[a->raw_tp ? SLOT_RAW_TP : SLOT_TP]);
}

static int add_link(struct attach *a, struct bpf_link *link)
{
	if (!link)
		return -errno;
	if (a->nr_links >= ATTACH_MAX_LINKS) {
		bpf_link__destroy(link);
		return -E2BIG;
	}
	a->links[a->nr_links++] = link;
	return 0;
}

/* fn: the function (kprobe) or the tracepoint (raw) to attach to */
static int attach_prog(struct attach *a, struct bpf_program *prog,
		       enum probe_mode mode, const char *fn, bool ret)
{
	/* progs_check() said which; nothing attached is not a success */
	if (!prog)
		return -ENOENT;
	if (mode == MODE_KPROBE)
		return add_link(a, bpf_program__attach_kprobe(prog, ret, fn));
	if (mode == MODE_TRACEPOINT && a->raw_tp)
		return add_link(a,
				bpf_program__attach_raw_tracepoint(prog, fn));
	return add_link(a, bpf_program__attach(prog));
}

static bool slot_is_tp(enum prog_slot s)
{
	return s == SLOT_TP || s == SLOT_TP_EXIT || s == SLOT_RAW_TP ||
	       s == SLOT_RAW_TP_EXIT;
}

/*
 * probe id's exit (or entry) program, where its mode runs one: at the
 * function, or at a tracepoint (a stand-in's, or the entry of a probe
 * that starts at one beside its function: probe_desc.fn_entry_tp)
 */
static int attach_probe_end(struct attach *a, const struct kernel_facts *kf,
			    int id, bool exit)
{
	const struct probe_desc *d = &probe_table[id];
	enum probe_mode m = a->probes[id].mode;
	struct prog_need n;
	enum prog_slot s;

	prog_need(id, m, a->raw_tp, &n);
	s = exit ? n.exit : n.entry;
	if (s == SLOT_NONE)
		return 0;
	if (slot_is_tp(s))
		return attach_prog(a, slot_prog(a, id, s), MODE_TRACEPOINT,
				   exit ? d->tp_exit : d->tp, exit);
	return attach_prog(a, slot_prog(a, id, s), m, kf->fn[id], exit);
}

static void detach_all(struct attach *a)
{
	load_report_mark(NULL);
	while (a->nr_links > 0)
		bpf_link__destroy(a->links[--a->nr_links]);
	load_report_mark("the links' release");
	pcptop_bpf__destroy(a->skel);
	a->skel = NULL;
	load_report_mark("the programs' and maps' release");
}

/* load slot s of probe id; fentry at the name this kernel has */
static int autoload_slot(struct attach *a, const struct kernel_facts *kf,
			 int id, enum prog_slot s)
{
	struct bpf_program *prog = slot_prog(a, id, s);
	int err;

	if (s == SLOT_NONE)
		return 0;
	if (!prog)
		return -ENOENT;
	err = bpf_program__set_autoload(prog, true);
	/*
	 * an fentry section names a default target (bpf/pcptop.bpf.c);
	 * its BTF id from the cache spares libbpf the whole BTF
	 */
	if (!err && (s == SLOT_FENTRY || s == SLOT_FEXIT))
		err = fentry_load_target(prog, kf->fn[id], kf->fn_btf_id[id]);
	return err;
}

/* only the plan's programs load; 0 or -errno */
static int set_autoload(struct attach *a, const struct kernel_facts *kf)
{
	struct bpf_program *prog;
	struct prog_need n;
	int id, err = 0;

	bpf_object__for_each_program(prog, a->skel->obj) {
		err = bpf_program__set_autoload(prog, false);
		if (err)
			goto out;
	}
	err = bpf_program__set_autoload(prog_at(a->skel, read_kvar_prog), true);
	if (err)
		goto out;
	for (id = 0; id < NR_PROBES; id++) {
		prog_need(id, a->probes[id].mode, a->raw_tp, &n);
		err = autoload_slot(a, kf, id, n.entry);
		if (!err)
			err = autoload_slot(a, kf, id, n.exit);
		if (err)
			goto out;
	}
	if (a->cross_check)
		err = bpf_program__set_autoload(xcheck_prog(a), true);
out:
	return err;
}

/*
 * The in-flight maps hold calls that have entered and not returned: a
 * pageset is in at most one bulk free, decay or commit at a time, a task
 * in one drain, so a few entries a CPU are plenty. Sized by CPU instead
 * of a fixed 4096 and 1024: hash maps are preallocated, and those sizes
 * were most of what pcptop locked (docs/PERFORMANCE.md, "This machine").
 */
#define INFLIGHT_PER_CPU 24 /* 5 zones' pagesets, 4 kinds, nesting */
#define CALLS_PER_CPU 8
#define CALL_MAPS_SPARE 64 /* preempted tasks on PREEMPT_RT */
/* allocations sleep in reclaim: many tasks may be inside at once */
#define LAT_CALLS_PER_CPU 32
#define LAT_CALLS_SPARE 512
/*
 * Stalls in flight, by task: the LRU drops the oldest (a finished
 * compaction's last entry). A common LRU hands each CPU free entries 128
 * at a time (LOCAL_FREE_TARGET, kernel/bpf/bpf_lru_list.c) and evicts
 * live ones when another CPU's local list holds the free ones: sized at
 * 16 a CPU plus 64, the oracle's stalls window (thousands of tasks
 * allocating) lost direct reclaim stalls, and with each CPU's batch on
 * top it lost none (docs/ACCURACY.md, "Figures the code's comments
 * cite").
 */
#define LRU_LOCAL_FREE_TARGET 128
#define STALLS_PER_CPU (16 + LRU_LOCAL_FREE_TARGET)
#define STALLS_SPARE 1024
/*
 * A chunked kernel's flushes in progress, by task (bpf/flush.bpf.h), an
 * LRU too: a fixed 1024 was the eight CPUs' LOCAL_FREE_TARGET batches
 * alone, and an entry evicted between two chunks splits a flush in two.
 * Nothing touches the map elsewhere (flush_chunked, without the commit
 * function probed).
 */
#define FLUSH_RUNS_PER_CPU (16 + LRU_LOCAL_FREE_TARGET)
#define FLUSH_RUNS_SPARE 256

static void size_call_maps(struct pcptop_bpf *skel, bool latency,
			   bool flush_runs)
{
	int cpus = libbpf_num_possible_cpus();

	if (cpus <= 0)
		cpus = 1;
	bpf_map__set_max_entries(skel->maps.inflight,
				 INFLIGHT_PER_CPU * cpus + CALL_MAPS_SPARE);
	bpf_map__set_max_entries(skel->maps.decays,
				 CALLS_PER_CPU * cpus + CALL_MAPS_SPARE);
	bpf_map__set_max_entries(skel->maps.drains,
				 CALLS_PER_CPU * cpus + CALL_MAPS_SPARE);
	bpf_map__set_max_entries(skel->maps.commits,
				 CALLS_PER_CPU * cpus + CALL_MAPS_SPARE);
	bpf_map__set_max_entries(skel->maps.stalls,
				 STALLS_PER_CPU * cpus + STALLS_SPARE);
	bpf_map__set_max_entries(
		skel->maps.flush_runs,
		flush_runs ? FLUSH_RUNS_PER_CPU * cpus + FLUSH_RUNS_SPARE : 1);
	/* without --latency nothing touches them: one entry each */
	bpf_map__set_max_entries(
		skel->maps.lat_calls,
		latency ? LAT_CALLS_PER_CPU * cpus + LAT_CALLS_SPARE : 1);
	bpf_map__set_max_entries(skel->maps.lats,
				 latency ? PCPTOP_NR_LAT_KEYS * PCPTOP_EPOCHS :
					   1);
}

/* the BPF settings the plan's function probes switch on (their knob) */
/*
 * ns a jiffy, from the running kernel's CONFIG_HZ: balance_dirty_pages'
 * pause argument is in jiffies (its event converts it for print). 0 when
 * no config says: the planned pauses are then not counted.
 */
static unsigned long long jiffy_ns(void)
{
	char path[128], val[16], *end;
	struct utsname uts;
	long hz;

	if (kconfig_lookup("/proc/config.gz", "HZ", val, sizeof(val))) {
		if (uname(&uts))
			return 0;
		snprintf(path, sizeof(path), "/boot/config-%s", uts.release);
		if (kconfig_lookup(path, "HZ", val, sizeof(val)))
			return 0;
	}
	hz = strtol(val, &end, 10);
	return hz > 0 && !*end ? NSEC_PER_SEC / hz : 0;
}

static void set_knobs(struct pcptop_bpf *skel, const struct kernel_facts *kf,
		      const struct probe_state probes[NR_PROBES])
{
	int id;

	skel->rodata->latency_on = false;
	skel->rodata->free_high_exact = false;
	/* balance_dirty_pages' shape: where its pause is (compat.bpf.h) */
	if (kf->tp_nargs[PROBE_WAITS] > 0)
		skel->rodata->dirty_tp_nargs = kf->tp_nargs[PROBE_WAITS];
	if (probes[PROBE_WAITS].mode != MODE_NONE)
		skel->rodata->dirty_jiffy_ns = jiffy_ns();
	for (id = 0; id < NR_PROBES; id++) {
		if (!probe_mode_fn(probes[id].mode))
			continue;
		switch (probe_table[id].knob) {
		case KNOB_LATENCY_ON:
			skel->rodata->latency_on = true;
			break;
		case KNOB_FREE_HIGH_EXACT:
			skel->rodata->free_high_exact = true;
			break;
		case KNOB_NONE:
			break;
		}
	}
}

/*
 * Tracepoints as raw_tp twins: without the kernel's BTF, and wherever
 * CO-RE has a file (--btf, the cut BTF), since libbpf 1.1 parses the
 * kernel's whole BTF for any tp_btf program it loads, whatever
 * btf_custom_path says (fentry no longer makes it: fentry_load.h).
 */
static bool want_raw_tp(const struct kernel_facts *kf,
			const struct probe_state probes[NR_PROBES])
{
	if (!kf->kernel_btf)
		return true;
	return kf->core_btf[0] != '\0';
}

/* one open + load + attach of the current plan; 0 or -errno */
static int load_plan(struct attach *a, const struct kernel_facts *kf,
		     const struct attach_opts *o, enum probe_mode *failed)
{
	/* CO-RE against --btf or the kernel's cut BTF: a few KB, not MBs */
	LIBBPF_OPTS(bpf_object_open_opts, oo,
		    .btf_custom_path = kf->core_btf[0] ? kf->core_btf : NULL);
	size_t elf_sz;
	int id, err;

	*failed = MODE_NONE;
	err = fentry_load_register();
	if (err) {
		snprintf(
			a->error, sizeof(a->error),
			"libbpf took no handler for pcptop's fentry sections (%s): a libbpf older than 1.0?",
			errname(err));
		return err;
	}
	fentry_load_reset();
	if (!pcptop_bpf_elf_inflate(&elf_sz)) {
		err = -errno;
		snprintf(
			a->error, sizeof(a->error),
			"the BPF object inside pcptop does not inflate (%s): the binary is damaged, copy it again",
			strerror(-err));
		return err;
	}
	a->skel = pcptop_bpf__open_opts(&oo);
	if (!a->skel) {
		err = -errno;
		pcptop_bpf_elf_release();
		return err;
	}
	a->skel->rodata->run_gap_ns = o->run_gap_ns;
	memcpy((void *)a->skel->rodata->caller_ranges, kf->callers,
	       sizeof(kf->callers[0]) * kf->nr_callers);
	a->skel->rodata->nr_caller_ranges = kf->nr_callers;
	a->skel->rodata->flush_chunked = kf->shape.flush_chunked;
	a->skel->rodata->free_high_rule_set = kf->shape.free_high_rule;
	set_knobs(a->skel, kf, a->probes);
	size_call_maps(a->skel, a->skel->rodata->latency_on,
		       kf->shape.flush_chunked &&
			       !a->skel->rodata->free_high_exact);
	a->cross_check = o->cross_check &&
			 kf->tp_nargs[PROBE_BULK_FREE] >=
				 probe_table[PROBE_BULK_FREE].tp_nargs &&
			 a->probes[PROBE_BULK_FREE].mode != MODE_TRACEPOINT;
	err = set_autoload(a, kf);
	if (!err)
		err = pcptop_bpf__load(a->skel);
	fentry_load_reset();
	/* libbpf is done with the object's bytes once it has loaded them */
	pcptop_bpf_elf_release();
	if (err)
		goto fail;
	load_report_mark("opening and loading the BPF object");
	load_report_verifier(a->skel->obj);

	/*
	 * Every exit before any entry: an exit without its entry is ignored,
	 * but an entry whose exit is not attached yet leaves state behind
	 * for good (an interrupt depth that never returns to 0, a decay that
	 * never ends and claims the pageset's later bulk frees). TCG takes
	 * a second per attach: that window was seen to do both.
	 */
	for (id = 0; id < NR_PROBES; id++) {
		err = attach_probe_end(a, kf, id, true);
		if (err)
			goto fail;
	}
	/* before the entries: a call it sees at all, it sees whole */
	if (a->cross_check) {
		err = attach_prog(a, xcheck_prog(a), MODE_TRACEPOINT,
				  probe_table[PROBE_BULK_FREE].tp, false);
		if (err)
			goto fail;
	}
	for (id = 0; id < NR_PROBES; id++) {
		err = attach_probe_end(a, kf, id, false);
		if (err)
			goto fail;
	}
	load_report_mark("attaching");
	return 0;
fail:
	/* which flavour to give up: the most fragile one in the plan */
	for (id = 0; id < NR_PROBES; id++)
		if (a->probes[id].mode == MODE_FENTRY)
			*failed = MODE_FENTRY;
	if (*failed == MODE_NONE)
		for (id = 0; id < NR_PROBES; id++)
			if (a->probes[id].mode == MODE_KPROBE)
				*failed = MODE_KPROBE;
	detach_all(a);
	return err;
}

static void note_fallback(struct attach *a, const struct attach_opts *o,
			  enum probe_mode failed, int err)
{
	char list[ATTACH_MSG_LEN] = "";
	unsigned int opts = probe_opts_of(o);
	size_t n = 0;
	int id;

	for (id = 0; id < NR_PROBES && n < sizeof(list); id++) {
		const struct probe_desc *d = &probe_table[id];

		/* opt-in probes not asked for: nothing fell back */
		if (d->opt_in && !(opts & d->opt))
			continue;
		n += snprintf(list + n, sizeof(list) - n, "%s%s=%s",
			      n ? ", " : "", probe_table[id].name,
			      probe_mode_name(a->probes[id].mode));
	}
	snprintf(a->fallback, sizeof(a->fallback),
		 "%s refused (%s): falling back to %s", probe_mode_name(failed),
		 errname(err), list);
}

/*
 * Kernels before 5.11 charge BPF maps to RLIMIT_MEMLOCK; libbpf raises it
 * where it can, and where it could not, a refused map looks like EPERM:
 * say which limit to raise.
 */
static void memlock_hint(struct attach *a, int err)
{
	struct rlimit rl;
	size_t n = strlen(a->error);

	if (err != -EPERM || getrlimit(RLIMIT_MEMLOCK, &rl) ||
	    rl.rlim_cur == RLIM_INFINITY)
		return;
	snprintf(
		a->error + n, sizeof(a->error) - n,
		"; kernels before 5.11 charge BPF maps to RLIMIT_MEMLOCK, %llu KiB here: raise it (ulimit -l unlimited)",
		(unsigned long long)rl.rlim_cur / 1024);
}

int attach_open(struct attach *a, const struct attach_opts *o)
{
	struct kernel_facts kf = {};
	struct plan_rules rules;
	enum probe_mode failed = MODE_NONE, first_failed = MODE_NONE;
	int attempt, err, first_err = 0;

	memset(a, 0, sizeof(*a));
	verbose_libbpf = o->verbose;
	load_report_set(o->verbose);
	libbpf_set_print(libbpf_print);
	plan_rules_init(&rules, o);

	if (!kernel_bpf_allowed()) {
		snprintf(
			a->error, sizeof(a->error),
			"not allowed to load BPF programs: run as root (or with CAP_BPF and CAP_PERFMON)");
		return -EPERM;
	}
	load_report_mark(NULL);
	err = kernel_facts_gather(o, &kf, a->error, sizeof(a->error));
	if (err)
		return err;
	snprintf(a->btf_source, sizeof(a->btf_source), "%s", kf.btf_source);
	a->raw_tp = !kf.kernel_btf;
	a->free_high_uncapped = kf.free_high_uncapped;
	a->shape = kf.shape;
	if (!kf.kernel_btf) {
		if (o->want == MODE_FENTRY) {
			snprintf(
				a->error, sizeof(a->error),
				"fentry refused: this kernel has no BTF of its own (%s), which fentry needs; --btf serves kprobe and tracepoint modes",
				VMLINUX_BTF_PATH);
			return -ENOTSUP;
		}
		rules.allow_fentry = false;
		snprintf(rules.fentry_refused, sizeof(rules.fentry_refused),
			 "fentry needs the kernel's own BTF (none at %s)",
			 VMLINUX_BTF_PATH);
	}
	/* refused for a two-instruction program: no need to load the rest */
	if (kf.fentry_err && kf.fentry_err != -ENOENT && rules.allow_fentry &&
	    o->want == MODE_AUTO) {
		first_err = kf.fentry_err;
		first_failed = MODE_FENTRY;
		rules.allow_fentry = false;
		snprintf(rules.fentry_refused, sizeof(rules.fentry_refused),
			 "fentry refused (%s)", errname(first_err));
	}

	for (attempt = 0; attempt < MAX_LOAD_ATTEMPTS; attempt++) {
		attach_plan(&kf, &rules, a->probes);
		a->raw_tp = want_raw_tp(&kf, a->probes);
		/* a program missing from the table is a bug, not a refusal */
		err = progs_check(probe_progs, a->probes, a->raw_tp, a->error,
				  sizeof(a->error));
		if (err)
			return err;
		err = load_plan(a, &kf, o, &failed);
		if (!err)
			break;
		if (!first_err) {
			first_err = err;
			first_failed = failed;
		}
		if (failed == MODE_NONE || o->want == failed) {
			snprintf(
				a->error, sizeof(a->error),
				"%s programs refused (%s)%s%s%s",
				failed == MODE_NONE ? "BPF" :
						      probe_mode_name(failed),
				errname(err), libbpf_last[0] ? ": " : "",
				libbpf_last,
				o->want == MODE_AUTO ?
					"" :
					"; try --mode auto, or -v for libbpf's log");
			memlock_hint(a, err);
			return err;
		}
		if (failed == MODE_FENTRY) {
			rules.allow_fentry = false;
			snprintf(rules.fentry_refused,
				 sizeof(rules.fentry_refused),
				 "fentry refused (%s)", errname(err));
		} else {
			rules.allow_kprobe = false;
			snprintf(rules.kprobe_refused,
				 sizeof(rules.kprobe_refused),
				 "kprobe refused (%s)", errname(err));
		}
	}
	if (err) {
		snprintf(a->error, sizeof(a->error), "could not attach (%s)",
			 strerror(-err));
		return err;
	}
	if (first_err)
		note_fallback(a, o, first_failed, first_err);
	return 0;
}

void attach_close(struct attach *a)
{
	if (a->skel)
		detach_all(a);
}

void attach_set_run_cap(struct attach *a, unsigned long long pages)
{
	if (a->skel)
		a->skel->bss->run_max_pages = pages;
}

void attach_set_scale(struct attach *a, int scale)
{
	if (a->skel)
		a->skel->data->scale_in_force = scale;
}

int attach_read_kernel_int(struct attach *a, unsigned long long addr,
			   int *value)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	if (!a->skel)
		return -EINVAL;
	a->skel->bss->kvar_addr = addr;
	a->skel->bss->kvar_err = 0;
	err = bpf_prog_test_run_opts(bpf_program__fd(a->skel->progs.read_kvar),
				     &topts);
	if (err)
		return -errno;
	if (a->skel->bss->kvar_err)
		return a->skel->bss->kvar_err;
	*value = a->skel->bss->kvar_value;
	return 0;
}

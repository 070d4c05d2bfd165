/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Symbols in /proc/kallsyms: the kprobe targets, and the CIP scale patch's
 * variable and setup handler. The file has 100k+ lines and the kernel
 * builds them as they are read, so every lookup of a run is answered from
 * one pass when kallsyms_prefetch() named them first.
 */
#ifndef PCPTOP_KALLSYMS_H
#define PCPTOP_KALLSYMS_H

#include <stddef.h>

/*
 * Address of a symbol (any type). -ENOENT when absent, -EPERM when it is
 * listed with address 0 (kptr_restrict, not root).
 */
int kallsyms_lookup(const char *path, const char *sym,
		    unsigned long long *addr);

/*
 * Several symbols in one pass: addrs[i] is the address of syms[i], 0 when
 * absent or hidden (or syms[i] NULL). 0 or -errno for the file.
 */
int kallsyms_lookup_many(const char *path, const char *const *syms, int n,
			 unsigned long long *addrs);

/* the text of a symbol: [lo, hi), hi 0 when nothing followed it */
struct kallsyms_range {
	int sym; /* index into the names asked for */
	unsigned long long lo, hi;
};

#define KALLSYMS_MAX_RANGES 64

/*
 * The text of each of syms and of the parts the compiler split off it
 * ("sym.cold", "sym.constprop.0", "sym.isra.0"): a function inlined here
 * and there is in any of them. At most max into out, *found of them; the
 * kernel's own symbols only (a module's are elsewhere). 0 or -errno.
 */
int kallsyms_ranges(const char *path, const char *const *syms, int n,
		    struct kallsyms_range *out, int max, int *found);

/*
 * 0 when the file shows at least one nonzero address, -EPERM when every
 * address reads 0 (kptr_restrict, not root), -ENOENT when it lists
 * nothing. Tells "symbol absent" from "addresses hidden" after an -ENOENT.
 */
int kallsyms_readable(const char *path);

/*
 * Read path once for all of syms (at most KALLSYMS_CACHE_MAX) and answer
 * the lookups above for them, their ranges included, and
 * kallsyms_readable(), from memory until kallsyms_forget(). 0 or -errno.
 */
#define KALLSYMS_CACHE_MAX 48
int kallsyms_prefetch(const char *path, const char *const *syms, int n);

/*
 * The last prefetch's findings as bytes (NULL when there was none), and
 * back: kallsyms_state_set() takes them only for the same file and names,
 * and answers the lookups that follow from them (-ESTALE: another file or
 * other names; -EBADMSG: not such bytes). kallsyms_boot.h keeps them for
 * the rest of a boot.
 */
const void *kallsyms_state(size_t *len);
int kallsyms_state_set(const void *buf, size_t len, const char *path,
		       const char *const *syms, int n);
void kallsyms_forget(void);

#endif /* PCPTOP_KALLSYMS_H */

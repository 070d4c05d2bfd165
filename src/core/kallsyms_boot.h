/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A boot's kallsyms findings, kept for the starts that follow. One pass
 * over /proc/kallsyms costs a start more than anything pcptop itself
 * does on a small board, most on a KALLSYMS_ALL kernel, which lists
 * every variable (docs/PERFORMANCE.md, "Figures the code's comments
 * cite"). The addresses hold
 * until the next boot (KASLR moves them then), so the entry is keyed by
 * the kernel's boot_id and the names asked for, checked by CRC32, and
 * rewritten at the first start of each boot.
 *
 * The entry lives in the boot cache directory (boot_note.h:
 * PCPTOP_BOOT_CACHE=DIR, default /var/cache/pcptop/boot, empty for none).
 */
#ifndef PCPTOP_KALLSYMS_BOOT_H
#define PCPTOP_KALLSYMS_BOOT_H

#include <stddef.h>

/*
 * kallsyms_prefetch(path, syms, n), answered from dir's entry when it
 * was made this boot (boot_id_path's) for the same file and names, else
 * read and kept there. dir NULL: the environment's or the default; ""
 * none. source says which ("cache hit", "cached now", "stale entry
 * rebuilt", ...). 0 or -errno of the read.
 */
int kallsyms_prefetch_boot(const char *path, const char *boot_id_path,
			   const char *dir, const char *const *syms, int n,
			   char *source, size_t source_len);

#endif /* PCPTOP_KALLSYMS_BOOT_H */

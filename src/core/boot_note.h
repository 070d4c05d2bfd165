/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Facts that hold until the next boot, kept for the starts that follow
 * in the boot cache directory (PCPTOP_BOOT_CACHE=DIR, default
 * /var/cache/pcptop/boot, empty for none), beside kallsyms_boot.h's entry. A note is its name and
 * one line of text, valid only with the boot_id it was written under.
 * Only what was seen to work is worth noting: the note saves asking
 * again, and whatever relies on it still fails loudly if the kernel
 * changed its mind (attach_open falls back as it would have).
 */
#ifndef PCPTOP_BOOT_NOTE_H
#define PCPTOP_BOOT_NOTE_H

#include <stdbool.h>

#define BOOT_CACHE_DIR "/var/cache/pcptop/boot"
#define BOOT_CACHE_ENV "PCPTOP_BOOT_CACHE"
#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and its NUL */
#define BOOT_ID_LEN 37

/* the boot_id in path, newline cut: 0 or -errno (-ENODATA when empty) */
int boot_id_read(const char *path, char id[BOOT_ID_LEN]);

/*
 * The boot cache directory, dir or (NULL) the environment's or the
 * default, opened as cachedir_open() does: an fd, or -errno (-ECANCELED
 * when set empty).
 */
int boot_cache_open(const char *dir);

/*
 * Whether note name in dir says text, written under this boot's id
 * (boot_id_path's). dir NULL: the environment's or the default; "" none.
 */
bool boot_note_has(const char *dir, const char *boot_id_path, const char *name,
		   const char *text);

/* keep text as note name in dir for the rest of this boot: 0 or -errno */
int boot_note_set(const char *dir, const char *boot_id_path, const char *name,
		  const char *text);

#endif /* PCPTOP_BOOT_NOTE_H */

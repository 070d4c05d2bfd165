// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop btf-min: the command around kernel/btf_min.c. It loads nothing
 * and needs no root, so it runs on the build host beside pahole.
 */
#include <stdio.h>
#include "btf_min.h"
#include "cli.h"

void btf_min_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop btf-min [--object FILE] KERNEL_BTF OUT\n"
		"\n"
		"Writes OUT, the part of KERNEL_BTF that pcptop reads, for boards whose\n"
		"kernel has no /sys/kernel/btf/vmlinux: a few KB to copy to the board\n"
		"and give to --btf, where the whole BTF is megabytes on flash and costs\n"
		"twice its size in memory while libbpf reads it.\n"
		"\n"
		"  KERNEL_BTF  the board kernel's BTF: raw (pahole --btf_encode_detached,\n"
		"              /sys/kernel/btf/vmlinux) or a vmlinux with a .BTF section\n"
		"  OUT         the file to write (an existing one is kept as OUT.old)\n"
		"\n"
		"  -o, --object FILE  the BPF object to cover (default: this pcptop's own,\n"
		"                     which is for this architecture; for an arm64 board\n"
		"                     on an x86 host: build/arm64/pcptop.bpf.o from\n"
		"                     make ARCH=arm64)\n"
		"  -h, --help         this text\n"
		"\n"
		"OUT holds what bpftool gen min_core_btf keeps for the BPF programs (so\n"
		"bpftool must be installed where this runs), plus the probe functions\n"
		"and tracepoints pcptop's attach plan looks for; their prototypes keep\n"
		"the argument names and count only. With OUT, pcptop runs kprobes and\n"
		"raw tracepoints; fentry needs the kernel's own BTF.\n"
		"\n"
		"Example, on the build host and then on the board:\n"
		"  pahole --btf_encode_detached=board.btf vmlinux\n"
		"  pcptop btf-min --object build/arm64/pcptop.bpf.o board.btf pcptop.btf\n"
		"  pcptop stat --btf /etc/pcptop.btf     (on the board)\n");
}

int cmd_btf_min(int argc, char **argv)
{
	struct btf_min_cli c;
	struct btf_min_opts o = {};
	struct btf_min_result r;
	char msg[BTF_MIN_MSG_LEN];
	int err;

	err = cli_parse_btf_min(argc, argv, &c);
	if (err || c.help) {
		if (c.help)
			btf_min_usage(stdout);
		return cli_status(err);
	}
	o.src = c.src;
	o.out = c.out;
	o.object = c.object;
	err = btf_min_make(&o, &r, msg, sizeof(msg));
	if (err) {
		cli_warn("%s", msg);
		return cli_status(err);
	}
	printf("%s: %zu bytes (from %zu): the CO-RE types, %d functions, %d tracepoints\n",
	       o.out, r.out_bytes, r.src_bytes, r.funcs, r.tracepoints);
	return EXIT_OK;
}

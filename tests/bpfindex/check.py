#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
#
# A BPF source's index of programs (its first comment) against the
# programs its built object holds (llvm-objdump -t: the global functions
# outside .text). A program without its index line fails, by name; a
# raw_tp twin ("r" + a tracepoint program's name, rawtp.bpf.h) is covered
# by its tracepoint's line, and "X_entry, _exit" names X_exit too.
# Usage: check.py SOURCE.bpf.c OBJECT.bpf.o; prints one line per program
# missing and exits 1 if any is.
import re
import subprocess
import sys

src, obj = sys.argv[1:3]
text = open(src).read()
index = text[text.index('/*'):text.index('*/')]
names = set()
for line in index.split('\n'):
    prev = None
    for tok in re.findall(r'[A-Za-z_][A-Za-z0-9_]*', line):
        if tok.startswith('_') and prev and '_' in prev:
            names.add(prev.rsplit('_', 1)[0] + tok)
        else:
            names.add(tok)
            prev = tok
out = subprocess.run(['llvm-objdump', '-t', obj], capture_output=True,
                     text=True, check=True).stdout
progs = []
for line in out.split('\n'):
    f = line.split()
    if len(f) == 6 and f[1] == 'g' and f[2] == 'F' and f[3] != '.text':
        progs.append(f[5])
missing = [p for p in progs
           if p not in names and not (p.startswith('r') and p[1:] in names)]
for p in missing:
    print(f'{src}: program {p} (in {obj}) has no line in the index')
print(f'{len(progs)} programs, {len(missing)} missing from {src}\'s index')
sys.exit(1 if missing or not progs else 0)

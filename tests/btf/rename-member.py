#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a copy of a raw BTF file with one struct member renamed.

Why it exists: no released kernel names zone->lock zone->_lock yet (the
rename is in linux-next only, bpf/compat.bpf.h), so the CO-RE flavour for
the new name is tested against a kernel BTF made to look like one: the
same types and offsets, the member's name alone changed.

Usage: rename-member.py IN.btf STRUCT OLD NEW OUT.btf
"""
import struct
import sys

# bytes after struct btf_type, by kind: fixed, and per vlen entry
EXTRA = {1: (4, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8),
         13: (0, 8), 14: (4, 0), 15: (0, 12), 17: (4, 0), 19: (0, 12)}


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__)
    src, sname, old, new, out = argv[1:]
    data = bytearray(open(src, 'rb').read())
    magic, _ver, _flags, hdr_len = struct.unpack_from('<HBBI', data, 0)
    if magic != 0xeB9F:
        sys.exit(f'{src}: not raw BTF (magic {magic:#x})')
    type_off, type_len, str_off, str_len = struct.unpack_from('<IIII', data, 8)
    types, strs = hdr_len + type_off, hdr_len + str_off
    if strs + str_len != len(data):
        sys.exit(f'{src}: strings are not last: cannot append a name')

    def name(off):
        end = data.index(b'\0', strs + off)
        return data[strs + off:end].decode()

    pos, found = types, 0
    new_off = str_len
    while pos < types + type_len:
        name_off, info = struct.unpack_from('<II', data, pos)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        fixed, each = EXTRA.get(kind, (0, 0))
        if kind == 4 and name(name_off) == sname:
            for i in range(vlen):
                m = pos + 12 + i * 12
                if name(struct.unpack_from('<I', data, m)[0]) == old:
                    struct.pack_into('<I', data, m, new_off)
                    found += 1
        pos += 12 + fixed + each * vlen
    if not found:
        sys.exit(f'{src}: no struct {sname} with a member {old}')
    data += new.encode() + b'\0'
    struct.pack_into('<I', data, 20, str_len + len(new) + 1)
    open(out, 'wb').write(data)
    print(f'{out}: struct {sname}.{old} -> {new} ({found} struct(s))')


if __name__ == '__main__':
    main(sys.argv)

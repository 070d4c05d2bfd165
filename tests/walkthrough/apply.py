#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Puts CONTRIBUTING.md's walk-through code blocks into a tree, as written:
# each block follows a comment
#   <!-- walkthrough NAME FILE after REGEX -->     after the first line REGEX matches
#   <!-- walkthrough NAME FILE before-row KEY -->  before the table row of .key = "KEY"
# Usage: apply.py CONTRIBUTING.md TREE NAME; prints each FILE it changed.
# Exits 1 when a block's place is not found, so the doc must follow the code.
import re
import sys

MARK = re.compile(r'^<!-- walkthrough (\S+) (\S+) (after|before-row) (.*) -->$')


def blocks(doc, name):
    lines = open(doc).read().split('\n')
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m or m.group(1) != name:
            continue
        j = i + 1
        if j >= len(lines) or not lines[j].startswith('```'):
            sys.exit(f'{doc}:{i + 1}: no code block after the walkthrough comment')
        k = j + 1
        while k < len(lines) and lines[k] != '```':
            k += 1
        yield i + 1, m.group(2), m.group(3), m.group(4), lines[j + 1:k]


def place(text, how, arg):
    lines = text.split('\n')
    if how == 'after':
        rx = re.compile(arg)
        for n, line in enumerate(lines):
            if rx.search(line):
                return lines, n + 1
        return lines, -1
    key = re.compile(r'^\t\t\.key = "' + re.escape(arg) + '",$')
    for n, line in enumerate(lines):
        if key.match(line):
            # the row opens on the "\t{" line above its key
            for m in range(n - 1, -1, -1):
                if lines[m] == '\t{':
                    return lines, m
                if not lines[m].startswith('\t\t'):
                    break
    return lines, -1


def main():
    doc, tree, name = sys.argv[1:4]
    found = 0
    for lineno, path, how, arg, code in blocks(doc, name):
        found += 1
        full = f'{tree}/{path}'
        try:
            text = open(full).read()
        except OSError as e:
            sys.exit(f'{doc}:{lineno}: {path}: {e.strerror}')
        lines, at = place(text, how, arg)
        if at < 0:
            sys.exit(f'{doc}:{lineno}: {path}: no place {how} {arg!r}: the code moved, update the example')
        lines[at:at] = code
        open(full, 'w').write('\n'.join(lines))
        print(path)
    if not found:
        sys.exit(f'{doc}: no walkthrough block named {name}')


main()

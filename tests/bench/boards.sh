#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench's board rows: the board checks (the live view on the serial
# console, no sysfs BTF, --btf and btf-min, the BTF cache and a second
# start's peak RSS, issue 19) on the oldest and the newest one-CPU arm64
# kernels, arm64-6.1 (kprobes: arm64 6.1 refuses fentry) and arm64-7.3.
# make test keeps them on arm64-6.12 only, the board's own line (its
# budget, issue 30); these two are the rest of what it proved before.
# A benchmark's run, but its lines are the matrix's checks: it exits 1
# when one fails.
# Usage: tests/bench/boards.sh   (about 6 minutes: two boards side by side)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VMTEST_BOARDS="arm64-6.1 arm64-7.3" VMTEST_OUT=$root/build/bench/boards \
	exec "$root/tests/vm/run.sh" arm64-6.1 arm64-7.3

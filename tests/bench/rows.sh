#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench's matrix rows: the rows of tests/vm/bench-rows, which make
# test leaves out for its budget, with the matrix's own checks. A
# benchmark's run, but its lines are the matrix's checks: it exits 1
# when one fails.
# Usage: tests/bench/rows.sh   (about 5 minutes: two rows side by side)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mapfile -t rows < <(grep -v '^#' "$root/tests/vm/bench-rows")
VMTEST_OUT=$root/build/bench/rows exec "$root/tests/vm/run.sh" "${rows[@]}"

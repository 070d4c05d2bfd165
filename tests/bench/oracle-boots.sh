#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench's oracle boots: those of tests/oracle/bench-boots, which make
# test leaves out for its budget, with the oracle suite's own checks. A
# benchmark's run, but its lines are checks: it exits 1 when one fails.
# Usage: tests/bench/oracle-boots.sh   (about 2 minutes: two side by side)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mapfile -t boots < <(grep -v '^#' "$root/tests/oracle/bench-boots")
VMTEST_OUT=$root/build/bench/oracle exec "$root/tests/oracle/run.sh" "${boots[@]}"

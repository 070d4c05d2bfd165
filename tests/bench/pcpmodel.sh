#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The replay model's speed (src/core/pcpmodel*.c): builds
# tests/bench/pcpmodel_bench.c with the model, the histogram math and the
# unit tests' stream writer, as make builds them (-O2), and prints its
# Markdown table. A benchmark, not a test: no number fails it.
#
# Usage: tests/bench/pcpmodel.sh [BUILD_DIR]   (default build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${1:-build}
cd "$root"
mkdir -p "$B"
${CC:-gcc} ${CFLAGS:--g -O2} -Wall -Wextra -Wno-unused-parameter \
	-Isrc/core -Ibpf -Itests/unit \
	tests/bench/pcpmodel_bench.c tests/unit/pcpmodel_synth.c \
	src/core/pcpmodel_replay.c src/core/pcpmodel_policy.c \
	src/core/pcpmodel_flush.c src/core/pcpmodel_rules.c \
	src/core/pcpmodel_cost.c src/core/hist.c src/core/clock.c \
	-lm -o "$B/pcpmodel_bench"
"$B/pcpmodel_bench"

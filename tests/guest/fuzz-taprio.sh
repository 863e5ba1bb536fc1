#!/bin/bash
# The taprio fuzz suite in the guest, as TAP: build/labfuzz taprio fuzzes
# taprio schedules over netlink with the lab's tracepoints on, while traffic flows (patches 0006, 0008),
# seeded and bounded (LAB_FUZZ_SEED, LAB_FUZZ_ITERATIONS, default 2000, and
# LAB_FUZZ_SECONDS, default 12), then the guest must still answer. See
# tests/fuzz/labfuzz.h and tests/fuzz/taprio.c for what is checked.
set -eu

# shellcheck source=tests/fuzz/guest-lib.sh
. "$LAB_SRC/tests/fuzz/guest-lib.sh"
fuzz_suite taprio 2000 12

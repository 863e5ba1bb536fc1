#!/bin/bash
# The ptp fuzz suite in the guest, as TAP: build/labfuzz ptp fuzzes
# the emulated PTP clock's ioctls and sysfs files (patch 0001),
# seeded and bounded (LAB_FUZZ_SEED, LAB_FUZZ_ITERATIONS, default 8000, and
# LAB_FUZZ_SECONDS, default 12), then the guest must still answer. See
# tests/fuzz/labfuzz.h and tests/fuzz/ptp.c for what is checked.
set -eu

# shellcheck source=tests/fuzz/guest-lib.sh
. "$LAB_SRC/tests/fuzz/guest-lib.sh"
fuzz_suite ptp 8000 12

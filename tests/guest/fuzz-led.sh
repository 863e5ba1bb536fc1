#!/bin/bash
# The led fuzz suite in the guest, as TAP: build/labfuzz led fuzzes
# the LED pattern trigger's pattern, abs_pattern and repeat on a uleds LED,
# seeded and bounded (LAB_FUZZ_SEED, LAB_FUZZ_ITERATIONS, default 1200, and
# LAB_FUZZ_SECONDS, default 12), then the guest must still answer. See
# tests/fuzz/labfuzz.h and tests/fuzz/led.c for what is checked.
set -eu

# shellcheck source=tests/fuzz/guest-lib.sh
. "$LAB_SRC/tests/fuzz/guest-lib.sh"
fuzz_suite led 1200 12

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/fuzz.c: the same seed gives the same sequence
 * (and splitmix64's published first outputs), other seeds another one,
 * ranges keep their bounds and reach both ends, and the edge pickers hit
 * every edge value.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "tap.h"

#define N 4096

LAB_TEST(splitmix64)
{
	struct fuzz_rng a;

	fuzz_seed(&a, 0);
	tap_ok(fuzz_next(&a) == 0xe220a8397b1dcdafULL && fuzz_next(&a) == 0x6e789e6aa1b965f4ULL &&
		       fuzz_next(&a) == 0x06c45d188009454fULL,
	       "seed 0 gives splitmix64's published first three numbers");
}

LAB_TEST(seeds)
{
	uint64_t x[N], y[N];
	bool same = true, differ = false;
	struct fuzz_rng a, b;
	size_t i;

	fuzz_seed(&a, 12345);
	fuzz_seed(&b, 12345);
	for (i = 0; i < N; i++) {
		x[i] = fuzz_next(&a);
		y[i] = fuzz_next(&b);
		same = same && x[i] == y[i];
	}
	tap_ok(same, "the same seed gives the same %d numbers", N);
	fuzz_seed(&a, 12345);
	fuzz_seed(&b, 12345);
	for (i = 0; i < N; i++) {
		x[i] = (uint64_t)fuzz_s64(&a) ^ fuzz_u32(&a) ^ fuzz_below(&a, 7);
		y[i] = (uint64_t)fuzz_s64(&b) ^ fuzz_u32(&b) ^ fuzz_below(&b, 7);
	}
	tap_ok(!memcmp(x, y, sizeof(x)), "the same seed gives the same edge picks and ranges");
	fuzz_seed(&b, 12346);
	for (i = 0; i < N; i++)
		differ = differ || fuzz_next(&b) != x[i];
	tap_ok(differ, "another seed gives another sequence");
}

LAB_TEST(ranges)
{
	bool inside = true, lo = false, hi = false;
	struct fuzz_rng a;
	size_t i;

	fuzz_seed(&a, 7);
	for (i = 0; i < 20000; i++) {
		int64_t v = fuzz_range(&a, -3, 5);

		inside = inside && v >= -3 && v <= 5;
		lo = lo || v == -3;
		hi = hi || v == 5;
	}
	tap_ok(inside, "fuzz_range(-3, 5) stays within -3..5");
	tap_ok(lo && hi, "fuzz_range(-3, 5) reaches both ends");
	tap_eq_int(fuzz_range(&a, 9, 9), 9, "fuzz_range(9, 9) is 9");
	tap_eq_int((long long)fuzz_below(&a, 0), 0, "fuzz_below(0) is 0");
	inside = true;
	for (i = 0; i < 1000; i++) {
		uint32_t u = fuzz_u32_in(&a, UINT32_MAX - 1, UINT32_MAX);

		inside = inside && u >= UINT32_MAX - 1;
	}
	tap_ok(inside, "fuzz_u32_in(UINT32_MAX - 1, UINT32_MAX) stays in range");
}

LAB_TEST(edges)
{
	bool seen_s64[64] = { false }, seen_u32[64] = { false }, hit_all;
	size_t i, j, small = 0;
	struct fuzz_rng a;
	char what[160];

	fuzz_seed(&a, 99);
	for (i = 0; i < 20000; i++) {
		int64_t v = fuzz_s64(&a);
		uint32_t u = fuzz_u32(&a);

		for (j = 0; j < fuzz_n_edges_s64; j++)
			seen_s64[j] = seen_s64[j] || v == fuzz_edges_s64[j];
		for (j = 0; j < fuzz_n_edges_u32; j++)
			seen_u32[j] = seen_u32[j] || u == fuzz_edges_u32[j];
		small += v > -1000 && v < 1000;
	}
	hit_all = true;
	for (j = 0; j < fuzz_n_edges_s64; j++)
		if (!seen_s64[j]) {
			hit_all = false;
			tap_diag("s64 edge %" PRId64 " never picked", fuzz_edges_s64[j]);
		}
	tap_ok(hit_all, "20000 fuzz_s64 picks hit all %zu edges (INT64_MIN, INT64_MAX, 0, -1, KTIME_SEC_MAX ...)",
	       fuzz_n_edges_s64);
	hit_all = true;
	for (j = 0; j < fuzz_n_edges_u32; j++)
		if (!seen_u32[j]) {
			hit_all = false;
			tap_diag("u32 edge %" PRIu32 " never picked", fuzz_edges_u32[j]);
		}
	tap_ok(hit_all, "20000 fuzz_u32 picks hit all %zu edges (0, UINT32_MAX ...)", fuzz_n_edges_u32);
	snprintf(what, sizeof(what), "fuzz_s64 also gives small non-edge numbers (%zu of 20000 in -999..999)",
		 small);
	tap_ok(small > 2000, "%s", what);
	tap_ok(fuzz_n_edges_s64 <= 64 && fuzz_n_edges_u32 <= 64, "the edge tables fit this test's arrays");
	tap_ok(fuzz_fresh_seed() < (1ULL << 53), "a fresh seed is below 2^53 (typed and printed exactly)");
}

LAB_TEST_MAIN()

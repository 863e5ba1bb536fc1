// SPDX-License-Identifier: GPL-2.0
/* Seeded random numbers and edge values for the lab's fuzzers: see fuzz.h. */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

/* 1e9 and KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC): where time types overflow */
#define NS_PER_SEC 1000000000LL
#define KTIME_SEC_MAX_ (INT64_MAX / NS_PER_SEC)

const int64_t fuzz_edges_s64[] = {
	0, 1, -1, 2, -2,
	INT8_MAX, INT8_MAX + 1, UINT8_MAX, UINT8_MAX + 1,
	INT16_MAX, UINT16_MAX, UINT16_MAX + 1,
	INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN, (int64_t)INT32_MIN - 1,
	UINT32_MAX, (int64_t)UINT32_MAX + 1,
	NS_PER_SEC - 1, NS_PER_SEC, NS_PER_SEC + 1, -NS_PER_SEC,
	KTIME_SEC_MAX_ - 1, KTIME_SEC_MAX_, KTIME_SEC_MAX_ + 1, -KTIME_SEC_MAX_,
	INT64_MAX / 2, INT64_MAX - 1, INT64_MAX, INT64_MIN, INT64_MIN + 1,
};
const size_t fuzz_n_edges_s64 = sizeof(fuzz_edges_s64) / sizeof(fuzz_edges_s64[0]);

const uint32_t fuzz_edges_u32[] = {
	0, 1, 2, 50, 59, 60, 64, 100, 255, 256, 1000, 65535, 65536,
	999999999, 1000000000, INT32_MAX, (uint32_t)INT32_MAX + 1, UINT32_MAX - 1, UINT32_MAX,
};
const size_t fuzz_n_edges_u32 = sizeof(fuzz_edges_u32) / sizeof(fuzz_edges_u32[0]);

void fuzz_seed(struct fuzz_rng *g, uint64_t seed)
{
	g->state = seed;
}

/* splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators") */
uint64_t fuzz_next(struct fuzz_rng *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t fuzz_below(struct fuzz_rng *g, uint64_t n)
{
	uint64_t x, limit;

	if (n < 2)
		return 0;
	/* Reject the top part of the range that n does not divide */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = fuzz_next(g);
	while (x >= limit);
	return x % n;
}

int64_t fuzz_range(struct fuzz_rng *g, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)hi - (uint64_t)lo;

	if (hi <= lo)
		return lo;
	if (span == UINT64_MAX)
		return (int64_t)fuzz_next(g);
	return (int64_t)((uint64_t)lo + fuzz_below(g, span + 1));
}

uint32_t fuzz_u32_in(struct fuzz_rng *g, uint32_t lo, uint32_t hi)
{
	return (uint32_t)fuzz_range(g, lo, hi);
}

bool fuzz_chance(struct fuzz_rng *g, unsigned int percent)
{
	return fuzz_below(g, 100) < percent;
}

int64_t fuzz_pick(struct fuzz_rng *g, const int64_t *v, size_t n)
{
	return n ? v[fuzz_below(g, n)] : 0;
}

uint64_t fuzz_bits(struct fuzz_rng *g)
{
	unsigned int bits = 1 + (unsigned int)fuzz_below(g, 64);
	uint64_t x = fuzz_next(g);

	return bits == 64 ? x : x & ((1ULL << bits) - 1);
}

int64_t fuzz_edge_s64(struct fuzz_rng *g)
{
	return fuzz_edges_s64[fuzz_below(g, fuzz_n_edges_s64)];
}

uint32_t fuzz_edge_u32(struct fuzz_rng *g)
{
	return fuzz_edges_u32[fuzz_below(g, fuzz_n_edges_u32)];
}

int64_t fuzz_s64(struct fuzz_rng *g)
{
	int64_t x;

	if (fuzz_chance(g, 50))
		return fuzz_edge_s64(g);
	x = (int64_t)fuzz_bits(g);
	return fuzz_chance(g, 50) ? x : -x;
}

uint32_t fuzz_u32(struct fuzz_rng *g)
{
	if (fuzz_chance(g, 50))
		return fuzz_edge_u32(g);
	return (uint32_t)fuzz_bits(g);
}

uint64_t fuzz_fresh_seed(void)
{
	struct timespec ts;
	struct fuzz_rng g;

	clock_gettime(CLOCK_REALTIME, &ts);
	fuzz_seed(&g, (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec +
			      ((uint64_t)getpid() << 32));
	/* Seeds people can type: below 2^53, printed in decimal */
	return fuzz_next(&g) >> 11;
}

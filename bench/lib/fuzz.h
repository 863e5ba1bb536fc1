/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small pieces every fuzzer of the lab shares: a seeded generator that
 * gives the same numbers on every machine (splitmix64), ranges, and pickers
 * that return an edge value of a type (0, 1, -1, the limits and their
 * neighbours) as often as a random one, so that a few hundred iterations
 * reach the corners where overflow and sign bugs live.
 *
 *	struct fuzz_rng g;
 *	fuzz_seed(&g, seed);
 *	int64_t start = fuzz_s64(&g);			// half edge, half random
 *	uint32_t iv = fuzz_u32_in(&g, 1, 100000);	// uniform, both ends included
 *	if (fuzz_chance(&g, 10)) ...			// 10 % of the time
 *
 * The sequence depends on the seed alone: a run is replayed from its seed.
 */
#ifndef BENCH_FUZZ_H
#define BENCH_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fuzz_rng {
	uint64_t state;
};

void fuzz_seed(struct fuzz_rng *g, uint64_t seed);
/* The next 64 random bits */
uint64_t fuzz_next(struct fuzz_rng *g);
/* Uniform in [0, n) (0 when n is 0), without modulo bias */
uint64_t fuzz_below(struct fuzz_rng *g, uint64_t n);
/* Uniform in [lo, hi], both ends included (lo <= hi) */
int64_t fuzz_range(struct fuzz_rng *g, int64_t lo, int64_t hi);
uint32_t fuzz_u32_in(struct fuzz_rng *g, uint32_t lo, uint32_t hi);
/* True @percent times in 100 */
bool fuzz_chance(struct fuzz_rng *g, unsigned int percent);
/* One of the @n values of @v, uniformly */
int64_t fuzz_pick(struct fuzz_rng *g, const int64_t *v, size_t n);
#define FUZZ_PICK(g, arr) fuzz_pick((g), (arr), sizeof(arr) / sizeof((arr)[0]))

/*
 * Edge values: with probability 1/2 one of the type's edges (see
 * fuzz_edges_s64 and fuzz_edges_u32), else a random value of the type
 * (a random bit width, so that small numbers come up as well as large)
 */
int64_t fuzz_s64(struct fuzz_rng *g);
uint32_t fuzz_u32(struct fuzz_rng *g);
/* Only an edge value */
int64_t fuzz_edge_s64(struct fuzz_rng *g);
uint32_t fuzz_edge_u32(struct fuzz_rng *g);
/* A random value of 1 to 64 random bits: small and large numbers alike */
uint64_t fuzz_bits(struct fuzz_rng *g);

/* The edges themselves (for tests and for callers that add their own) */
extern const int64_t fuzz_edges_s64[];
extern const size_t fuzz_n_edges_s64;
extern const uint32_t fuzz_edges_u32[];
extern const size_t fuzz_n_edges_u32;

/*
 * A seed from the clock and the process, for a run given none (the caller
 * prints it, so that the run can be replayed)
 */
uint64_t fuzz_fresh_seed(void);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * labstat - sample statistics for shell scripts and the report tests.
 *
 * labstat stats [WARMUP]
 *	Reads samples (numbers separated by white space) from stdin, drops the
 *	first WARMUP, prints their summary as JSON: n, mean, median, stddev,
 *	min, max, p99, cv.
 *
 * Exit status 2 on bad input, with the value and the reason on stderr.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const char usage[] =
	"usage: labstat stats [WARMUP]   (samples on stdin)\n";

static void bad(const char *what, const char *val, const char *why)
	__attribute__((noreturn));

static void bad(const char *what, const char *val, const char *why)
{
	fprintf(stderr, "labstat: %s '%s' %s\n", what, val, why);
	exit(2);
}

static double number(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE)
		bad(what, s, "is not a number");
	return v;
}

static size_t count(const char *s, const char *what)
{
	double v = number(s, what);

	if (isnan(v))
		return 0;
	if (v < 0 || v != floor(v) || v > 1e15)
		bad(what, s, "is not a sample count (a whole number >= 0)");
	return (size_t)v;
}

static int cmd_stats(int argc, char **argv)
{
	size_t n = 0, cap = 1024, warmup = 0;
	const double *kept;
	double *x = malloc(cap * sizeof(*x));
	char tok[128];
	struct stats st;
	json_t *j;

	if (argc > 1) {
		fprintf(stderr, "%s", usage);
		return 2;
	}
	if (argc == 1)
		warmup = count(argv[0], "WARMUP");
	while (x && scanf("%127s", tok) == 1) {
		if (n == cap && !(x = realloc(x, (cap *= 2) * sizeof(*x))))
			break;
		x[n++] = number(tok, "sample");
	}
	if (!x) {
		fprintf(stderr, "labstat stats: out of memory\n");
		return 1;
	}
	kept = stats_drop_warmup(x, &n, warmup);
	if (stats_compute(kept, n, &st)) {
		fprintf(stderr, "labstat stats: %s\n", n ? "a sample is not finite"
						       : "no samples left on stdin after warm-up");
		return 2;
	}
	j = json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:o}", "n", (json_int_t)st.n,
		      "mean", st.mean, "median", st.median, "stddev", st.stddev, "min", st.min,
		      "max", st.max, "p99", st.p99, "cv", isfinite(st.cv) ? json_real(st.cv) : json_null());
	if (!j || json_dumpf(j, stdout, JSON_COMPACT | JSON_REAL_PRECISION(15)))
		return 1;
	putchar('\n');
	json_decref(j);
	free(x);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "stats"))
		return cmd_stats(argc - 2, argv + 2);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	fprintf(stderr, "labstat: %s\n%s", argc < 2 ? "no command given" : "unknown command", usage);
	return 2;
}

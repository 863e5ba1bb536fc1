// SPDX-License-Identifier: GPL-2.0
/*
 * labstat - the lab's statistics for shell scripts (bench/compare.sh).
 *
 * labstat welch [MEAN_A SD_A N_A MEAN_B SD_B N_B]
 *	Welch's t-test of B against A, 95 % two-sided. With no numbers, reads
 *	one line of six whitespace-separated numbers per comparison from stdin.
 *	Prints one line per comparison, tab-separated:
 *	    t  df  p  t_crit  yes|no|n/a
 *	"n/a" (with "-" in the other fields) when a size is below 2 or a value
 *	is not finite ("nan" is accepted as input for a missing value).
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
	"usage: labstat welch [MEAN_A SD_A N_A MEAN_B SD_B N_B]   (or lines of six on stdin)\n"
	"       labstat stats [WARMUP]                             (samples on stdin)\n";

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

/* args: mean_a sd_a n_a mean_b sd_b n_b as strings */
static void welch_line(char *const v[6])
{
	struct welch w;

	if (stats_welch(number(v[0], "mean A"), number(v[1], "stddev A"), count(v[2], "n A"),
			number(v[3], "mean B"), number(v[4], "stddev B"), count(v[5], "n B"), &w))
		printf("-\t-\t-\t-\tn/a\n");
	else
		printf("%.6g\t%.6g\t%.6g\t%.6g\t%s\n", w.t, w.df, w.p, w.t_crit,
		       w.significant ? "yes" : "no");
}

static int cmd_welch(int argc, char **argv)
{
	char line[4096], *v[7], *save;
	unsigned long lineno = 0;
	int i;

	if (argc == 6) {
		welch_line(argv);
		return 0;
	}
	if (argc != 0) {
		fprintf(stderr, "labstat welch: expected 6 numbers or none, got %d\n%s", argc, usage);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		for (i = 0, save = NULL; i < 7; i++)
			if (!(v[i] = strtok_r(i ? NULL : line, " \t\n", &save)))
				break;
		if (i != 6) {
			fprintf(stderr, "labstat welch: stdin line %lu: expected 6 numbers, got %s\n",
				lineno, i > 6 ? "more" : i == 0 ? "none" : "fewer");
			return 2;
		}
		welch_line(v);
	}
	return 0;
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
	if (argc >= 2 && !strcmp(argv[1], "welch"))
		return cmd_welch(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "stats"))
		return cmd_stats(argc - 2, argv + 2);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	fprintf(stderr, "labstat: %s\n%s", argc < 2 ? "no command given" : "unknown command", usage);
	return 2;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of routedump report share: the raw CSV files of a run read
 * back (report_read.c), the metrics of summary.json (report.c), the derived
 * CSV files the figures plot (report_derived.c) and targets.json
 * (report_targets.c).
 */
#ifndef ROUTEDUMP_REPORT_H
#define ROUTEDUMP_REPORT_H

#include "output.h"
#include "routedump.h"
#include "stats.h"

/* A row of insert-summary.csv: the step, and its rate as written */
struct rinsert {
	struct insert_run run;
	double rate;		/* routes/s */
};

/* A row of insert.csv: one batch */
struct rbatch {
	int family;
	uint64_t to;
	double rate;		/* routes/s */
};

struct report {
	const char *out;
	struct out *o;
	struct dump_row *dumps;
	size_t ndumps, cap_dumps;
	struct ip_row *ips;
	size_t nips, cap_ips;
	struct rinsert *inserts;
	size_t ninserts, cap_inserts;
	struct rbatch *batches;
	size_t nbatches, cap_batches;

	/* The run's make-up, in the order it ran (sizes and buffer sizes ascending) */
	int nfam, fam[2];
	int nmodes, mode[NMODES];
	int nsizes;
	uint64_t sizes[8];
	int nbufs;
	uint64_t bufs[8];
	size_t buf0;		/* the first --bufsize: the one iproute2 and the targets are judged at */

	char failure[600];
	int write_err;		/* a CSV file that could not be written (named in failure) */
	int json_err;		/* summary.json or targets.json could not be written */
};

/* Read dump.csv, iproute2.csv, insert.csv and insert-summary.csv of r->out: 0, or -1 with r->failure */
int report_read(struct report *r);

/* Statistics of the measured (not warm-up) dumps of one group */
struct agg {
	size_t n;
	struct stats wall, user, sys, bytes, recvmsgs, msgs;
	uint64_t answer, returned, expected;
	char filtered;
	bool done_filtered;
};

int collect(const struct report *r, int family, uint64_t routes, size_t bufsize, int mode, struct agg *a);
int collect_ip(const struct report *r, int family, uint64_t routes, int mode, struct stats *wall,
	       uint64_t *lines);
/* Is there a dump of this group in the run? */
bool have_dumps(const struct report *r, int family, uint64_t routes, size_t bufsize);

/* dump-stats.csv, speedup.csv, iproute2-compare.csv */
int write_derived(struct report *r);
/* targets.json: the targets the workload states, judged against what the run measured */
int write_targets(struct report *r);

/* Note a failure of report itself (the first one is the reason) */
void report_fail(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

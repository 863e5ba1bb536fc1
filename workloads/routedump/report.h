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
#include "interval.h"
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
	struct cpu_row *cpus;
	size_t ncpus, cap_cpus;
	/* the probe pass: the kernel's own insert cost, ns per route per sendmsg, per family [0 v4, 1 v6] */
	double *kins[2];
	size_t nkins[2], cap_kins[2];
	/* the same sendmsgs: the share of the whole sendmsg inside the insert proper */
	double *kshare[2];
	size_t cap_kshare[2];
	bool have_probe;	/* probe-route_insert.csv was there */

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

/*
 * Read dump.csv, iproute2.csv, insert.csv, insert-summary.csv and cpu.csv
 * of r->out (and probe-route_insert.csv, when the probe pass left it): 0,
 * or -1 with r->failure
 */
int report_read(struct report *r);

/* A group of dumps: family, table size, buffer size, selectivity point, mode */
struct group {
	int family;
	uint64_t routes;
	size_t bufsize;
	int point, mode;
};

/* Statistics of the measured (not warm-up) dumps of one group */
struct agg {
	size_t n;
	struct stats wall, bytes, recvmsgs, msgs, ns_ret, ns_walk;
	uint64_t answer, returned, expected, walked;
	char filtered;
	bool done_filtered;
};

/* The columns group_values gives */
enum { V_WALL_MS, V_BYTES, V_ANSWER, V_RECVMSGS, V_MSGS, V_NS_RET, V_NS_WALK, V_WALL_NS, NV };

int collect(const struct report *r, const struct group *g, struct agg *a);
/* Values of column @k of the measured dumps of @g into @x (room for r->ndumps); returns how many */
size_t group_values(const struct report *r, const struct group *g, int k, double *x);
/*
 * The wall time of group @g over that of @den (its legacy_userfilter, or
 * anything), ratio of medians with its bootstrap interval: 0, or -1 when
 * either has no dumps
 */
int wall_ratio(const struct report *r, const struct group *g, const struct group *den, double *ratio,
	       struct ci *ci, size_t *n);
/* The user share of the CPU pass row @c: ticks (the sample) in *ticks, Wilson interval */
double cpu_share(const struct cpu_row *c, size_t *ticks, struct ci *ci);
int collect_ip(const struct report *r, int family, uint64_t routes, int mode, struct stats *wall,
	       uint64_t *lines);
/* The point our dumps of mode @m are compared with ip route show at: 1 %, or the mode's only point */
int ip_point(int m);
/* ip route show's wall times of one filter into @x (room for r->nips); returns how many */
size_t ip_values(const struct report *r, int family, uint64_t routes, int mode, double *x);
/* Is there a dump of this family, size and buffer size in the run? */
bool have_dumps(const struct report *r, int family, uint64_t routes, size_t bufsize);

/* The insert runs of @method (rates, routes/s) into @x (room for r->ninserts); returns how many */
size_t insert_rates(const struct report *r, const char *method, double *x);
/* ns per route of the batches of the ok batched inserts of @family into @x (room for r->nbatches) */
size_t batch_ns(const struct report *r, int family, double *x);
/* ip -batch's rates without its start-up (the median of the empty runs) into @x; returns how many */
size_t ip_net_rates(const struct report *r, double *x);

/* dump-stats.csv, speedup.csv, iproute2-compare.csv, cpu-share.csv */
int write_derived(struct report *r);
/* targets.json: the targets the workload states, judged against what the run measured */
int write_targets(struct report *r);

/* Note a failure of report itself (the first one is the reason) */
void report_fail(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * routedump run: populate IPv4 and IPv6 routes (spread over 100 tables, 3
 * protocols, 3 types, 2 dummy devices) with batched RTM_NEWROUTE, then dump
 * them in every mode, repeated, counting what each dump costs; iproute2
 * runs the same filters as the anchor, and `ip -batch` inserts the same
 * routes as the anchor of the insert rate. Writes the raw CSV files into
 * --out DIR (csv_out.c); `routedump report` makes the summary of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "interval.h"
#include "progress.h"
#include "routedump.h"
#include "timing.h"

/* The buffer sizes swept at --sweep-at routes */
static const size_t sweep_bufs[] = { 8192, 32768, 1048576 };

void bench_fail(struct bench *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!b->failure[0]) {
		vsnprintf(b->failure, sizeof(b->failure), fmt, ap);
		lab_fail("error", "%s", b->failure);
	}
	va_end(ap);
	va_start(ap, fmt);
	fprintf(stderr, "%s: FAILED: ", lab_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ----------------------------------------------------------- options */

struct run_args {
	const char *profile, *out, *routes, *fams, *modes, *bufs, *acks, *iproute2;
	unsigned long long sweep_at, reps, ip_reps, warmup, batch, anchor, hz;
	bool sweep_given, anchor_given;
};

static void profile_of(struct bench *b, const char *profile)
{
	if (!strcmp(profile, "quick")) {
		b->nsizes = 1;
		b->sizes[0] = 10000;
		b->sweep_at = 0;
		b->anchor_insert = 6000;
		b->anchor_reps = 6;
		b->cpu_seconds = 20;
	} else if (!strcmp(profile, "full")) {
		b->nsizes = 2;
		b->sizes[0] = 100000;
		b->sizes[1] = 1000000;
		b->sweep_at = 100000;
		b->anchor_insert = 50000;
		b->anchor_reps = 10;
		b->cpu_seconds = 60;
	} else {
		lab_usage_error("unknown profile '%s': expected quick or full", profile);
	}
}

static void add_size(const char *item, void *arg)
{
	struct bench *b = arg;

	if (b->nsizes == ARRAY_LEN(b->sizes))
		lab_usage_error("too many route counts (--routes): at most %d", ARRAY_LEN(b->sizes));
	b->sizes[b->nsizes] = lab_parse_uint("number of routes (--routes)", item, 1, MAX_ROUTES);
	if (b->nsizes && b->sizes[b->nsizes] <= b->sizes[b->nsizes - 1])
		lab_usage_error("table sizes must ascend: '%s' after '%" PRIu64 "' (--routes)", item,
				b->sizes[b->nsizes - 1]);
	b->nsizes++;
}

static void add_family(const char *item, void *arg)
{
	struct bench *b = arg;
	int f = family_of(item);

	if (b->nfam == 2 || (b->nfam == 1 && b->fam[0] == f))
		lab_usage_error("family '%s' given twice (--family)", item);
	b->fam[b->nfam++] = f;
}

static void add_mode(const char *item, void *arg)
{
	struct bench *b = arg;
	int m = mode_of(item), i;

	for (i = 0; i < b->nmodes; i++)
		if (b->mode[i] == m)
			lab_usage_error("mode '%s' given twice (--modes)", item);
	b->mode[b->nmodes++] = m;
}

static void add_bufsize(const char *item, void *arg)
{
	struct bench *b = arg;

	if (b->nbuf == ARRAY_LEN(b->bufs))
		lab_usage_error("too many buffer sizes (--bufsize): at most %d", ARRAY_LEN(b->bufs));
	b->bufs[b->nbuf++] = bufsize_of("buffer size (--bufsize)", item);
}

/* --acks and --iproute2: words */
static void words_of(struct bench *b, const struct run_args *a)
{
	if (strcmp(a->acks, "all") && strcmp(a->acks, "errors"))
		lab_usage_error("unknown ack mode '%s': expected all or errors", a->acks);
	b->ins.all_acks = !strcmp(a->acks, "all");
	if (!strcmp(a->iproute2, "none"))
		b->iproute2 = 0;
	else if (!strcmp(a->iproute2, "selective"))
		b->iproute2 = 1;
	else if (!strcmp(a->iproute2, "all"))
		b->iproute2 = 2;
	else
		lab_usage_error("unknown iproute2 anchor '%s': expected all, selective or none", a->iproute2);
}

static void configure(struct bench *b, const struct run_args *a)
{
	int i;

	profile_of(b, a->profile);
	if (a->routes) {
		b->nsizes = 0;
		lab_each_item("route counts (--routes)", a->routes, add_size, b);
	}
	lab_each_item("families (--family)", a->fams, add_family, b);
	if (a->modes) {
		lab_each_item("modes (--modes)", a->modes, add_mode, b);
	} else {
		for (i = 0; i < NMODES; i++)
			b->mode[b->nmodes++] = i;
	}
	if (a->bufs)
		lab_each_item("buffer sizes (--bufsize)", a->bufs, add_bufsize, b);
	else
		b->bufs[b->nbuf++] = DEF_BUFSIZE;
	if (a->sweep_given)
		b->sweep_at = a->sweep_at;
	if (a->anchor_given)
		b->anchor_insert = a->anchor;
	words_of(b, a);
	b->out = a->out;
	b->reps = (int)a->reps;
	b->ip_reps = (int)a->ip_reps;
	b->warmup = (int)a->warmup;
	b->ins.batch = a->batch;
	b->hz = (int)a->hz;
	if (b->anchor_insert && b->anchor_insert % (uint64_t)b->anchor_reps)
		lab_usage_error("--anchor-insert %" PRIu64 " is not a multiple of the %d rounds it is split into",
				b->anchor_insert, b->anchor_reps);
}

static void parse_run(int argc, char **argv, struct bench *b)
{
	struct run_args a = { .profile = "quick", .fams = "4,6", .acks = "errors", .iproute2 = "selective",
			      .reps = 10, .ip_reps = 6, .warmup = 1, .batch = DEF_BATCH };
	const struct lab_opt opts[] = {
		LAB_OPT_STR("profile", &a.profile, "quick|full", "the defaults below (quick)", false),
		LAB_OPT_STR("out", &a.out, "DIR", "results folder (its parent must exist)", true),
		LAB_OPT_STR("routes", &a.routes, "N[,N...]",
			    "table sizes per family, ascending (quick 10000; full 100000,1000000)", false),
		LAB_OPT_STR("family", &a.fams, "LIST", "4, 6 or 4,6 (4,6)", false),
		LAB_OPT_STR("modes", &a.modes, "LIST", "dump modes (all): legacy_userfilter, strict_all, "
			    "strict_table, strict_protocol, strict_oif, strict_table_protocol", false),
		LAB_OPT_STR("bufsize", &a.bufs, "B[,B...]", "recvmsg buffer sizes, >= one page (32768)", false),
		{ .name = "sweep-at", .type = LAB_OPT_UINT, .value = &a.sweep_at, .arg = "N", .min = 0,
		  .max = MAX_ROUTES, .given = &a.sweep_given,
		  .help = "table size where 8192,32768,1048576 are swept (full: 100000; quick: none)" },
		LAB_OPT_U64("reps", &a.reps, 1, 1000, "measured dumps per mode and selectivity (10)"),
		LAB_OPT_U64("ip-reps", &a.ip_reps, 1, 1000, "measured runs of ip route show per filter (6: the least n with an interval of the median)"),
		LAB_OPT_U64("warmup", &a.warmup, 0, 100, "dropped dumps before them (1)"),
		LAB_OPT_U64("batch", &a.batch, 4096, 200000, "bytes of RTM_NEWROUTE per sendmsg (32768)"),
		LAB_OPT_U64("hz", &a.hz, 0, 10000, "the kernel's CONFIG_HZ, for the CPU pass (0: no CPU pass)"),
		LAB_OPT_STR("acks", &a.acks, "errors|all",
			    "the kernel answers failed routes and each batch's last (errors), or every route", false),
		LAB_OPT_STR("iproute2", &a.iproute2, "all|selective|none",
			    "ip route show for every filter, only table filters above 100000 routes, or none", false),
		{ .name = "anchor-insert", .type = LAB_OPT_UINT, .value = &a.anchor, .arg = "N", .min = 0,
		  .max = MAX_ROUTES, .given = &a.anchor_given,
		  .help = "routes each side of the like-for-like insert adds: `ip -batch` and ours one route a "
			  "request (quick 6000 in 6 rounds, full 50000 in 10; 0: none)" },
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	configure(b, &a);
}

/* ------------------------------------------------------------ dumps */

/*
 * Which modes run at which selectivity point: at 1, 10 and 50 % every mode
 * with a filter (strict_oif, whose filter is the device, once, at 50 %);
 * at 100 % the filter is no filter: legacy_userfilter keeping every route,
 * and strict_all.
 */
bool mode_at_point(int m, int p)
{
	if (p == POINT_ALL)
		return m == MODE_LEGACY || m == MODE_STRICT_ALL;
	if (m == MODE_STRICT_ALL)
		return false;
	return modes[m].kernel != F_OIF || p == 2;
}

/* The target and the expected answers of point @p */
static int point_expect(const struct bench *b, int family, int p, uint64_t n, struct target *tg, struct expect *e)
{
	*tg = b->tg;
	tg->table = points[p].table;
	tg->proto = points[p].proto;
	*e = (struct expect){ .n = n };
	expected_counts(n, tg, e->exp);
	return foreign_counts(tg, family, e);
}

/*
 * The dumps of one table size and buffer size: fresh sockets (the kernel
 * sizes dump skbs by the largest recvmsg a socket has seen), every point
 * and mode interleaved rep by rep; the first (warm-up) rep verifies the
 * answer route by route.
 */
static int run_group(struct bench *b, int family, size_t bufsize, uint64_t n)
{
	struct target tg[NPOINTS];
	struct expect e[NPOINTS];
	struct nl_sock sk[2];
	int rep, mi, p, rc = 0;

	for (p = 0; p < NPOINTS; p++)
		if (point_expect(b, family, p, n, &tg[p], &e[p])) {
			bench_fail(b, "the %s table does not hold the %" PRIu64 " routes inserted", family_name(family), n);
			return -1;
		}
	if (nl_open(&sk[0], NETLINK_ROUTE, bufsize) || nl_open(&sk[1], NETLINK_ROUTE, bufsize) ||
	    nl_set_strict(&sk[0], false) || nl_set_strict(&sk[1], true))
		return -1;
	fprintf(stderr, "%s: dumping %s, %" PRIu64 " routes, buffer %zu: %d modes at %d points x %d+%d\n", lab_prog,
		family_name(family), n, bufsize, b->nmodes, NPOINTS, b->warmup, b->reps);
	/* without warm-up dumps, one more dump verifies (and is not measured) */
	for (rep = 0; rep < b->warmup + b->reps + (b->warmup == 0); rep++) {
		for (p = 0; p < NPOINTS; p++) {
			for (mi = 0; mi < b->nmodes; mi++) {
				int m = b->mode[mi];
				struct dump_row *d;

				if (!mode_at_point(m, p))
					continue;
				b->dumps = grow(b->dumps, &b->cap_dumps, b->ndumps, sizeof(*b->dumps));
				d = &b->dumps[b->ndumps++];
				memset(d, 0, sizeof(*d));
				progress_add(1);
				if (dump_once(&sk[modes[m].strict], family, m, &tg[p], &e[p], rep == 0, d)) {
					bench_fail(b, "%s dump at %d %% of %" PRIu64 " %s routes (buffer %zu): %s",
						   modes[m].name, points[p].pct, n, family_name(family), bufsize, d->why);
					rc = -1;
				}
				d->point = p;
				d->rep = rep;
				d->warmup = rep < (b->warmup ? b->warmup : 1);
			}
		}
	}
	nl_close(&sk[0]);
	nl_close(&sk[1]);
	return rc;
}

/*
 * The CPU pass of one family: legacy_userfilter (at 1 %) and strict_all
 * dumps, interleaved, until the user share of each mode's CPU time is
 * known to within a Wilson 95 % interval CPU_SHARE_WIDTH wide (the kernel splits CPU
 * time into user and system by sampling once a tick, so the ticks are the
 * sample), or b->cpu_seconds are up. One row per mode into b->cpus.
 */
static void cpu_pass(struct bench *b, int family, uint64_t n)
{
	static const int pm[2][2] = { { MODE_LEGACY, 0 }, { MODE_STRICT_ALL, POINT_ALL } };
	struct cpu_row row[2];
	struct target tg[2];
	struct expect e[2];
	struct nl_sock sk[2];
	uint64_t t0 = mono_ns();
	bool done[2] = { false, false };
	int k;

	if (!b->hz)
		return;
	for (k = 0; k < 2; k++) {
		if (point_expect(b, family, pm[k][1], n, &tg[k], &e[k]) ||
		    nl_open(&sk[k], NETLINK_ROUTE, b->bufs[0]) || nl_set_strict(&sk[k], modes[pm[k][0]].strict)) {
			bench_fail(b, "the CPU pass of %s could not start", family_name(family));
			return;
		}
		row[k] = (struct cpu_row){ .family = family, .routes = n, .mode = pm[k][0], .point = pm[k][1],
					   .hz = b->hz };
	}
	progress_part(0, "dumps", "the CPU pass of %s, %" PRIu64 " routes, at most %.0f s",
		      family_name(family), n, b->cpu_seconds);
	while (!(done[0] && done[1]) && (mono_ns() - t0) / 1e9 < b->cpu_seconds) {
		for (k = 0; k < 2; k++) {
			struct dump_row d = { 0 };
			double tick = 1e6 / b->hz;
			struct ci ci;

			if (done[k])
				continue;
			progress_add(1);
			if (dump_once(&sk[k], family, pm[k][0], &tg[k], &e[k], false, &d)) {
				bench_fail(b, "CPU pass: %s dump of %s: %s", modes[pm[k][0]].name, family_name(family), d.why);
				done[0] = done[1] = true;
				break;
			}
			row[k].dumps++;
			row[k].wall_ns += d.wall_ns;
			row[k].user_us += d.user_us;
			row[k].sys_us += d.sys_us;
			ci_wilson((size_t)llround(row[k].user_us / tick),
				  (size_t)llround((row[k].user_us + row[k].sys_us) / tick), &ci);
			done[k] = row[k].dumps >= 10 && ci.hi - ci.lo <= CPU_SHARE_WIDTH;
		}
	}
	fprintf(stderr, "%s: CPU pass, %s: %" PRIu64 " legacy and %" PRIu64 " strict_all dumps in %.1f s\n", lab_prog,
		family_name(family), row[0].dumps, row[1].dumps, (mono_ns() - t0) / 1e9);
	for (k = 0; k < 2; k++) {
		b->cpus = grow(b->cpus, &b->cap_cpus, b->ncpus, sizeof(*b->cpus));
		b->cpus[b->ncpus++] = row[k];
		nl_close(&sk[k]);
	}
}

/* One `ip route show` of mode @m (or the start-up baseline) into a new row */
static void ip_one(struct bench *b, int family, int m, int rep, const struct target *tg, const struct expect *e)
{
	int f = m == IP_STARTUP ? F_NONE : modes[m].kernel;
	struct ip_row *r;
	int st;

	b->ips = grow(b->ips, &b->cap_ips, b->nips, sizeof(*b->ips));
	r = &b->ips[b->nips++];
	*r = (struct ip_row){ .family = family, .routes = e->n, .mode = m, .rep = rep, .warmup = rep < b->warmup,
			      .expected = m == IP_STARTUP ? 1 : expect_total(e, f) };
	st = ip_dump(family, m, tg, r);
	r->ok = st == 0 && r->lines == r->expected;
	if (!r->ok)
		bench_fail(b, "ip route show for %s (%s, %" PRIu64 " routes): exit %d, %" PRIu64 " lines, expected %" PRIu64,
			   mode_name(m), family_name(family), e->n, st, r->lines, r->expected);
}

/* The modes of `ip route show` at @n routes into @m, its start-up baseline first; their number */
static int ip_modes(const struct bench *b, uint64_t n, int *m)
{
	int mi, k = 0;

	m[k++] = IP_STARTUP;
	for (mi = 0; mi < b->nmodes; mi++) {
		if (b->mode[mi] == MODE_LEGACY)
			continue;	/* iproute2 always sets strict checking */
		if (b->iproute2 == 1 && n > 100000 && !(filter_bits[modes[b->mode[mi]].kernel] & FB_TABLE))
			continue;
		m[k++] = b->mode[mi];
	}
	return k;
}

/* iproute2 at the 1 % point */
static void run_iproute2(struct bench *b, int family, uint64_t n)
{
	int rep, mi, m[NMODES + 1], nm = ip_modes(b, n, m);
	struct target tg;
	struct expect e;

	if (!b->iproute2 || point_expect(b, family, 0, n, &tg, &e))
		return;
	progress_part((uint64_t)(nm * (b->warmup + b->ip_reps)), "runs",
		      "ip route show, %s, %" PRIu64 " routes", family_name(family), n);
	for (rep = 0; rep < b->warmup + b->ip_reps; rep++) {
		for (mi = 0; mi < nm; mi++) {
			ip_one(b, family, m[mi], rep, &tg, &e);
			progress_add(1);
		}
	}
}

/* The dumps of one run_group() */
static uint64_t group_dumps(const struct bench *b)
{
	uint64_t k = 0;
	int mi, p;

	for (p = 0; p < NPOINTS; p++)
		for (mi = 0; mi < b->nmodes; mi++)
			k += mode_at_point(b->mode[mi], p);
	return k * (uint64_t)(b->warmup + b->reps + (b->warmup == 0));
}

/* The buffer sizes swept at @n routes besides the ones asked for */
static int sweep_extra(const struct bench *b, uint64_t n)
{
	size_t k;
	int bi, extra = 0;

	for (k = 0; n == b->sweep_at && k < sizeof(sweep_bufs) / sizeof(sweep_bufs[0]); k++) {
		for (bi = 0; bi < b->nbuf && b->bufs[bi] != sweep_bufs[k]; bi++)
			;
		extra += bi == b->nbuf;
	}
	return extra;
}

/* Every buffer size of one family at one table size, the sweep, the CPU pass, iproute2 */
static int dump_family(struct bench *b, int family, uint64_t n)
{
	size_t k;
	int bi;

	progress_part((uint64_t)(b->nbuf + sweep_extra(b, n)) * group_dumps(b), "dumps",
		      "dumping %s, %" PRIu64 " routes", family_name(family), n);
	for (bi = 0; bi < b->nbuf; bi++)
		if (run_group(b, family, b->bufs[bi], n))
			return -1;
	for (k = 0; n == b->sweep_at && k < sizeof(sweep_bufs) / sizeof(sweep_bufs[0]); k++) {
		for (bi = 0; bi < b->nbuf && b->bufs[bi] != sweep_bufs[k]; bi++)
			;
		if (bi == b->nbuf && run_group(b, family, sweep_bufs[k], n))
			return -1;
	}
	cpu_pass(b, family, n);
	run_iproute2(b, family, n);
	return 0;
}

/* ----------------------------------------------------------- inserts */

static void add_insert(struct bench *b, const struct insert_run *run)
{
	b->inserts = grow(b->inserts, &b->cap_inserts, b->ninserts, sizeof(*b->inserts));
	b->inserts[b->ninserts++] = *run;
}

/* Routes [*cur, n) of @family into the table */
static int insert_step(struct bench *b, struct nl_sock *s, int family, uint64_t *cur, uint64_t n)
{
	struct insert_run run;

	progress_part(n - *cur, "routes", "inserting %s routes %" PRIu64 "..%" PRIu64, family_name(family),
		      *cur, n - 1);
	if (insert_routes(s, family, *cur, n, b->ifindex, &b->ins, &b->batches, &run)) {
		bench_fail(b, "inserting %s routes %" PRIu64 "..%" PRIu64 " failed", family_name(family), *cur, n - 1);
		return -1;
	}
	fprintf(stderr, "%s: %" PRIu64 " %s routes in %.2f s: %.0f routes/s\n", lab_prog, n - *cur,
		family_name(family), run.ns / 1e9, (n - *cur) / (run.ns / 1e9));
	*cur = n;
	add_insert(b, &run);
	return 0;
}

static void anchor_insert(struct bench *b)
{
	uint64_t chunk = b->anchor_insert / (uint64_t)b->anchor_reps;
	struct insert_run *runs = lab_calloc(3 * (size_t)b->anchor_reps, sizeof(*runs), "the anchor");
	int k;

	progress_part((uint64_t)b->anchor_reps, "rounds",
		      "like-for-like insert: ip -batch and ours, %" PRIu64 " IPv4 routes each", chunk);
	if (anchor_inserts(chunk, b->anchor_reps, runs))
		bench_fail(b, "the like-for-like insert failed (%d rounds of %" PRIu64 " routes)", b->anchor_reps, chunk);
	else
		for (k = 0; k < 3 * b->anchor_reps; k++)
			add_insert(b, &runs[k]);
	free(runs);
}

/* ------------------------------------------------------------- set-up */

/* Dummies, the baseline routes, and nothing in the lab's tables yet */
static int setup(struct bench *b, struct nl_sock *s)
{
	int fi;

	if (nl_open(s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_rcvbuf(s, 32 << 20) || setup_dummies(s, b->ifindex)) {
		bench_fail(b, "setup of the dummy devices failed");
		return -1;
	}
	for (fi = 0; fi < b->nfam; fi++)
		if (add_baseline_route(s, b->fam[fi])) {
			bench_fail(b, "the baseline route could not be added");
			return -1;
		}
	b->tg = (struct target){ .table = points[0].table, .proto = points[0].proto, .oif = (uint32_t)b->ifindex[0],
				 .oif_dev = 0 };
	for (fi = 0; fi < b->nfam; fi++) {
		struct expect e = { .n = 0 };

		if (foreign_counts(&b->tg, b->fam[fi], &e)) {
			bench_fail(b, "not a clean start: %s routes in tables %d-%d already, or no dump",
				   family_name(b->fam[fi]), TABLE0, TABLE0 + NTABLES - 1);
			return -1;
		}
	}
	return 0;
}

/* Each table size: insert up to it in every family, then dump; the CSV files after each */
static void measure_sizes(struct bench *b, struct nl_sock *s)
{
	uint64_t cur[2] = { 0, 0 };
	int si, fi;

	for (si = 0; si < b->nsizes && !b->failure[0]; si++) {
		for (fi = 0; fi < b->nfam; fi++)
			if (insert_step(b, s, b->fam[fi], &cur[fi], b->sizes[si]))
				return;
		for (fi = 0; fi < b->nfam; fi++)
			if (dump_family(b, b->fam[fi], b->sizes[si]) || write_csvs(b))
				return;
	}
}

int cmd_run(int argc, char **argv)
{
	struct bench *b = lab_calloc(1, sizeof(*b), "the run");
	struct nl_sock s = { 0 };
	int rc;

	parse_run(argc, argv, b);
	/* inserting and dumping each family at each size, the CPU passes, iproute2, the anchor */
	progress_start(b->nsizes * b->nfam * (2 + (b->hz > 0) + (b->iproute2 > 0)) + (b->anchor_insert > 0));
	/* From here on, things get configured: in our own namespace only */
	if (mkdir(b->out, 0755) && errno != EEXIST)
		lab_die("cannot create %s: %s", b->out, strerror(errno));
	if (private_netns())
		return 1;
	if (!setup(b, &s)) {
		measure_sizes(b, &s);
		if (!b->failure[0] && b->anchor_insert)
			anchor_insert(b);
	}
	write_csvs(b);
	if (s.mnl)
		nl_close(&s);
	rc = b->failure[0] ? 1 : 0;
	if (rc)
		fprintf(stderr, "%s: run failed: %s\n", lab_prog, b->failure);
	return rc;
}

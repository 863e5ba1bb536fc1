// SPDX-License-Identifier: GPL-2.0
/*
 * targets.json: the targets routedump states (judge.c), judged against
 * what the run measured, each on an estimate with its 95 % interval:
 * - at the 1 % point, a strict dump filtered by table in the kernel takes
 *   at most 0.1 of the wall time of a legacy dump filtered in user space
 *   (the same answer; how much it saves follows the lab's layout: the
 *   table asked for holds 1 % of the routes);
 * - an unfiltered strict dump spends at most 0.15 of its CPU time in user
 *   space (the CPU pass: the ticks sampled are the sample);
 * - each of our strict dumps takes no longer than `ip route show` with the
 *   same filter, less ip's start-up (1 % point; strict_all and strict_oif at
 *   their one point);
 * - ours inserting one route a request with an ack each is at least as
 *   fast as `ip -batch` doing the same protocol work (without its start-up);
 * - our batched insert reaches at least 0.8 of the kernel's own insert
 *   rate (the inserting thread's system time over the same insert, no
 *   probe), the gap explained in "why".
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "judge.h"
#include "report.h"

static void target(struct report *r, int id, const char *name, double est, const struct ci *ci, const char *what)
{
	char why[1200], words[300];
	enum target_verdict v = rd_judge(id, est, ci, words, sizeof(words));

	snprintf(why, sizeof(why), "%s; %s", what, words);
	if (out_target(r->o, name, est, rd_targets[id].limit, rd_targets[id].unit, v, why))
		r->json_err = 1;
}

static void strict_table_target(struct report *r, int f, uint64_t n)
{
	struct group g = { f, n, r->buf0, 0, MODE_STRICT_TABLE }, l = { f, n, r->buf0, 0, MODE_LEGACY };
	char name[160], what[400];
	struct agg a, la;
	double ratio;
	struct ci ci;
	size_t k;

	if (collect(r, &l, &la) || collect(r, &g, &a) || wall_ratio(r, &g, &l, &ratio, &ci, &k))
		return;
	snprintf(name, sizeof(name), "strict_table wall / legacy_userfilter wall at 1%% (%s, %" PRIu64 " routes)",
		 family_name(f), n);
	snprintf(what, sizeof(what), "ratio of the medians of %zu and %zu dumps (%.3f and %.3f ms), bootstrap interval; "
		 "the same answer (%" PRIu64 " routes); the table asked for holds 1%% of the routes (%" PRIu64
		 " walked against %" PRIu64 ")", a.n, la.n, a.wall.median, la.wall.median, a.answer, a.walked,
		 la.walked);
	target(r, RT_STRICT_TABLE, name, ratio, &ci, what);
}

static void user_share_target(struct report *r, const struct cpu_row *c)
{
	char name[160], what[400];
	size_t ticks;
	struct ci ci;
	double v;

	if (c->mode != MODE_STRICT_ALL)
		return;
	v = cpu_share(c, &ticks, &ci);
	snprintf(name, sizeof(name), "strict_all user CPU / total CPU (%s, %" PRIu64 " routes)", family_name(c->family),
		 c->routes);
	snprintf(what, sizeof(what), "the CPU pass: %" PRIu64 " dumps, user %.1f ms and system %.1f ms in all, "
		 "%zu ticks at HZ=%d sampled (the kernel splits CPU time by the tick); Wilson interval",
		 c->dumps, c->user_us / 1e3, c->sys_us / 1e3, ticks, c->hz);
	target(r, RT_USER_SHARE, name, v, &ci, what);
}

/*
 * Ours against `ip route show` with the same filter, like for like: ip's
 * start-up (exec, libc, its socket, an empty table's dump: the median of
 * its runs on table 999) is taken off each of its runs, as single_target
 * does for ip -batch; what stays in ip's side is its walk of the answer
 * and its printing of it as text
 */
static void iproute2_target(struct report *r, int f, uint64_t n, int m)
{
	struct group g = { f, n, r->buf0, ip_point(m), m };
	double *x = lab_calloc(r->ndumps + 1, sizeof(*x), "samples"), *y = lab_calloc(r->nips + 1, sizeof(*y), "samples");
	char name[160], what[500];
	size_t nx, ny, ns, i;
	double ratio, startup;
	struct ci ci;

	if (m == MODE_LEGACY)
		goto out;
	snprintf(name, sizeof(name), "%s wall / iproute2 wall (%s, %" PRIu64 " routes)", modes[m].name, family_name(f),
		 n);
	nx = group_values(r, &g, V_WALL_MS, x);
	ns = ip_values(r, f, n, IP_STARTUP, y);
	startup = ns ? stats_median(y, ns) : NAN;
	ny = ip_values(r, f, n, m, y);
	if (!nx || !ny)
		goto out;
	/* every run kept, less the start-up: the median less the start-up's median */
	for (i = 0; i < ny; i++)
		y[i] -= startup;
	if (!ns || !(stats_median(y, ny) > 0) || ci_ratio(x, nx, y, ny, 7 + (uint64_t)m, &ratio, &ci)) {
		ci = (struct ci){ NAN, NAN, "ratio", "none" };
		snprintf(what, sizeof(what), "%s", !ns ? "no runs of ip on an empty table in this run: its start-up "
			 "cannot be taken off, and with it the comparison is not like for like" :
			 "ip's runs took no longer than its start-up (their median): nothing of ip's own dump is left "
			 "to compare with");
		target(r, RT_IPROUTE2, name, NAN, &ci, what);
		goto out;
	}
	snprintf(what, sizeof(what), "ratio of the medians of %zu dumps and %zu runs of ip route show with the same "
		 "filter, each less ip's start-up (%.2f ms, the median of %zu runs on an empty table; its own spread "
		 "is not in the interval), bootstrap interval; ip's side still holds its printing of the routes as "
		 "text", nx, ny, startup, ns);
	target(r, RT_IPROUTE2, name, ratio, &ci, what);
out:
	free(x);
	free(y);
}

/* Ours one route a request against ip -batch, both with an ack per route, without ip's start-up */
static void single_target(struct report *r)
{
	size_t cap = r->ninserts + 1, n, ny;
	double *x = lab_calloc(cap, sizeof(*x), "samples"), *y = lab_calloc(cap, sizeof(*y), "samples");
	double ratio;
	char what[400];
	struct ci ci;

	n = insert_rates(r, "single_ack", x);
	ny = ip_net_rates(r, y);
	if (n && ny && !ci_ratio(x, n, y, ny, 1, &ratio, &ci)) {
		snprintf(what, sizeof(what), "ratio of the median rates of %zu rounds each (ours %.0f routes/s, ip -batch "
			 "%.0f routes/s without its start-up, the median of its runs with an empty file), the same IPv4 "
			 "routes into one namespace, rounds interleaved; bootstrap interval", n < ny ? n : ny,
			 stats_median(x, n), stats_median(y, ny));
		target(r, RT_SINGLE_VS_IP, "insert one route a request / ip -batch (ipv4)", ratio, &ci, what);
	} else {
		ci = (struct ci){ NAN, NAN, "ratio", "none" };
		target(r, RT_SINGLE_VS_IP, "insert one route a request / ip -batch (ipv4)", NAN, &ci,
		       "no like-for-like insert in this run (--anchor-insert 0, or it failed)");
	}
	free(x);
	free(y);
}

/*
 * The batched insert of @f against the kernel's own insert rate, measured
 * with no probe: the kernel's side is the inserting thread's CPU time in
 * the kernel over the measured batched insert itself (getrusage), so ours
 * / the kernel's rate = system time / wall time of the same insert, and its
 * interval Wilson's on the ticks the kernel sampled (system ticks out of
 * the wall's, at the run's HZ). The probe pass's fentry/fexit figures, whose
 * own cost per route was the size of the figure, only explain the gap.
 */
static void kernel_limit_target(struct report *r, int f)
{
	int k = f == AF_INET6, hz = r->ncpus ? r->cpus[0].hz : 0;
	uint64_t routes = 0, user_us = 0, sys_us = 0, wall_ns = 0;
	double ratio, ks, kn, share = NAN;
	char name[160], what[900];
	struct ci ci;
	size_t i;
	int n;

	snprintf(name, sizeof(name), "batched insert rate / the kernel's own insert rate (%s)", family_name(f));
	for (i = 0; i < r->ninserts; i++) {
		const struct insert_run *run = &r->inserts[i].run;

		if (run->family == f && run->ok && !strcmp(run->method, "batch")) {
			routes += run->to - run->from;
			user_us += run->user_us;
			sys_us += run->sys_us;
			wall_ns += run->ns;
		}
	}
	if (!routes || !wall_ns || hz <= 0) {
		ci = (struct ci){ NAN, NAN, "ratio", "none" };
		target(r, RT_KERNEL_LIMIT, name, NAN, &ci, !routes || !wall_ns ? "no batched insert of this "
		       "family in this run" : "no HZ in this run (cpu.csv, the CPU pass): the ticks cannot be counted");
		return;
	}
	kn = round((double)wall_ns * hz / 1e9);
	ks = fmin(round((double)sys_us * hz / 1e6), kn);
	ratio = (double)sys_us * 1e3 / (double)wall_ns;
	ci_wilson((size_t)ks, (size_t)kn, &ci);
	ci.of = "ratio";
	if (r->nkins[k])
		share = stats_median(r->kshare[k], r->nkins[k]);
	n = snprintf(what, sizeof(what), "the kernel's own rate from the inserting thread's system time over the "
		     "measured batched insert itself (no probe): %" PRIu64 " routes in %.1f ms of wall time, %.1f ms "
		     "system, %.1f ms user (getrusage), so ours / the kernel's rate = system / wall time; Wilson "
		     "interval on the %.0f system ticks of the wall's %.0f at HZ=%d. What the rest is: user space "
		     "building the messages (%.0f ns per route) and waiting", routes, wall_ns / 1e6, sys_us / 1e3,
		     user_us / 1e3, ks, kn, hz, user_us * 1e3 / routes);
	if (r->nkins[k] && n > 0 && (size_t)n < sizeof(what))
		snprintf(what + n, sizeof(what) - (size_t)n, "; inside the kernel's side, the probe pass puts "
			 "%.0f%% in the insert proper (%s; the rest the syscall, netlink parsing, the RTNL lock, the "
			 "acks)", 100 * share, f == AF_INET ? "fib_table_insert" : "ip6_route_add");
	target(r, RT_KERNEL_LIMIT, name, ratio, &ci, what);
}

int write_targets(struct report *r)
{
	size_t i;
	int fi, si, mi;

	for (fi = 0; fi < r->nfam; fi++)
		for (si = 0; si < r->nsizes; si++) {
			strict_table_target(r, r->fam[fi], r->sizes[si]);
			for (mi = 0; mi < r->nmodes; mi++)
				iproute2_target(r, r->fam[fi], r->sizes[si], r->mode[mi]);
		}
	for (i = 0; i < r->ncpus; i++)
		user_share_target(r, &r->cpus[i]);
	if (r->ninserts)
		single_target(r);
	for (fi = 0; fi < r->nfam; fi++)
		kernel_limit_target(r, r->fam[fi]);
	return r->json_err ? -1 : 0;
}

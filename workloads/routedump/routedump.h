/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of routedump share: the lab's routes and the filters a
 * dump answers (routes.c), one dump and its checks (dump.c), inserting
 * routes (insert.c), iproute2 as the anchor (iproute2.c), the measurement
 * (run.c) and its raw CSV files (csv_out.c), the summary, derived CSV files
 * and targets (report*.c), and the conformance suite (conform*.c, fuzz.c).
 */
#ifndef ROUTEDUMP_H
#define ROUTEDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include <libmnl/libmnl.h>

#include "nl.h"

/* The lab's routes: 100 tables from TABLE0, numbers above 255 (RTA_TABLE) */
#define TABLE0 1001
#define NTABLES 100
/* protocols of 1 % and 10 % of the routes (RTPROT_STATIC has 50 %, RTPROT_BOOT the rest) */
#define PROTO_P1 201
#define PROTO_P10 202
#define MAX_ROUTES 2000000
#define DEF_BUFSIZE 32768
#define DEF_BATCH 32768
/* the table `routedump dump` looks for: the one of 1 % of the routes */
#define TARGET_TABLE TABLE0

#ifndef AF_MPLS
#define AF_MPLS 28
#endif

#define ARRAY_LEN(a) (int)(sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------- routes.c */

/*
 * Route i of the lab: a pseudo-random but fixed table, protocol, type and
 * device, so any prefix of the sequence has the same make-up.
 */
struct route {
	uint32_t table;
	uint8_t proto;
	uint8_t type;
	int dev;		/* 0: dum0, 1: dum1, -1: none (blackhole, unreachable) */
};

#define FB_TABLE 1
#define FB_PROTO 2
#define FB_OIF 4

/* The filters a dump answers: none, table, protocol, oif, table+protocol */
enum { F_NONE, F_TABLE, F_PROTO, F_OIF, F_TABLE_PROTO, NFILTERS };
extern const unsigned int filter_bits[NFILTERS];
extern const char *const filter_names[NFILTERS];

/*
 * A selectivity point: the table and protocol of about @pct % of the lab's
 * routes (0: any, the 100 % point)
 */
struct point {
	int pct;
	uint32_t table;
	uint8_t proto;
};

#define NPOINTS 4
#define POINT_ALL 3
extern const struct point points[NPOINTS];
/* index into points[] of @pct, -1 when there is none */
int point_by_pct(int pct);

/* What the filters look for: a point's table and protocol (0: any), device dum0 */
struct target {
	uint32_t table;
	uint8_t proto;
	uint32_t oif;		/* ifindex of dum0 */
	int oif_dev;		/* 0 */
};

struct mode {
	const char *name;
	bool strict;
	int kernel;		/* filter sent to the kernel */
	int answer;		/* filter whose answer the mode gives */
};

/* modes[0] is legacy_userfilter, the reference of the speed-ups */
#define NMODES 6
#define MODE_LEGACY 0
#define MODE_STRICT_ALL 1
#define MODE_STRICT_TABLE 2
extern const struct mode modes[NMODES];

/* A route message's fields the counts need */
struct rinfo {
	uint32_t table;
	uint32_t oif;
	uint8_t proto, type, dst_len, family;
	uint8_t dst[16];
};

/* What a dump returned, filter by filter (in the lab's tables, and outside) */
struct counter {
	const struct target *tg;
	uint64_t routes;		/* route messages */
	uint64_t ours;			/* of them in tables TABLE0.. */
	uint64_t match[NFILTERS][2];	/* [filter][0: our tables, 1: others] */
	uint64_t other_msgs;
};

/* What the answers must be at a table size: per filter, the lab's routes and the kernel's own */
struct expect {
	uint64_t n;
	uint64_t exp[NFILTERS];		/* the lab's routes matching each filter */
	uint64_t foreign[NFILTERS];	/* routes outside the lab's tables matching each filter */
};

/* Parsers of command-line values: a usage error naming the value on bad input */
int family_of(const char *s);
int mode_of(const char *s);
size_t bufsize_of(const char *what, const char *s);
const char *family_name(int family);
/* "ipv4"/"ipv6" back to AF_INET/AF_INET6; -1 for anything else */
int family_by_name(const char *s);
/* index into modes[] of @s, -1 when there is none */
int mode_by_name(const char *s);

uint64_t splitmix64(uint64_t x);
void route_of(uint64_t i, struct route *r);
int dst_of(int family, uint64_t i, uint8_t *addr);
bool route_matches(int f, const struct target *tg, uint32_t table, uint8_t proto, uint32_t oif);
void expected_counts(uint64_t n, const struct target *tg, uint64_t *exp);
uint64_t expect_total(const struct expect *e, int f);
bool route_info(const struct nlmsghdr *nlh, struct rinfo *ri);
int count_cb(const struct nlmsghdr *nlh, void *data);

bool in_init_netns(void);
int private_netns(void);
int setup_dummies(struct nl_sock *s, int *ifindex);

/* Room for one more element of @size in @v (capacity *cap, n used) */
void *grow(void *v, size_t *cap, size_t n, size_t size);
uint64_t tv_us(const struct timeval *tv);
double ms(uint64_t ns);

/* ------------------------------------------------------------ dump.c */

struct dump_row {
	int family;
	uint64_t routes;
	size_t bufsize;
	int mode;
	int point;		/* index into points[]: the table and protocol asked for */
	int rep;
	bool warmup;		/* dropped from the statistics; the verifying dump */
	uint64_t wall_ns, user_us, sys_us;
	uint64_t bytes, recvmsgs, msgs;
	uint64_t returned;	/* route messages received */
	uint64_t answer;	/* routes of the mode's answer (after the user filter, if any) */
	uint64_t expected;	/* the answer there must be: the lab's routes plus the kernel's own */
	uint64_t walked;	/* routes the kernel walks: the table asked for, or every table */
	char filtered;		/* 'a': every route message flagged NLM_F_DUMP_FILTERED, 'n': none, 'm': some */
	bool done_filtered;	/* NLMSG_DONE flagged NLM_F_DUMP_FILTERED (a filter was applied) */
	bool ok;
	char why[200];
};

void build_dump(struct nlmsghdr *nlh, int family, int f, const struct target *tg);
int dump_once(struct nl_sock *s, int family, int m, const struct target *tg, const struct expect *e,
	      bool verify, struct dump_row *row);
int foreign_counts(const struct target *tg, int family, struct expect *e);
/* 'a', 'm', 'n' as written in the CSV files: "all", "some", "none" */
const char *flag_str(char f);

/* ---------------------------------------------------------- insert.c */

struct insert_opts {
	size_t batch;
	bool all_acks;
};

struct batch_sample {
	int family;
	uint64_t to;
	uint32_t msgs;
	uint64_t ns;
};

struct insert_run {
	int family;
	/*
	 * "batch" (errors and a final ack), "batch_ack_all"; the like-for-like
	 * pair: "single_ack" (ours, one route per request, an ack each) and
	 * "ip-batch" (`ip -batch`, the same protocol work), and "ip-batch-empty"
	 * (ip -batch of an empty file: its start-up)
	 */
	const char *method;
	int rep;
	uint64_t from, to;
	uint64_t ns;
	uint64_t user_us, sys_us;
	uint64_t sendmsgs, recvmsgs;
	size_t batch;
	bool ok;
};

struct samples {
	struct batch_sample *v;
	size_t n, cap;
};

int insert_routes(struct nl_sock *s, int family, uint64_t from, uint64_t to, const int *ifindex,
		  const struct insert_opts *o, struct samples *smp, struct insert_run *run);
/*
 * The like-for-like anchor: in a namespace of its own, @reps rounds of
 * `ip -batch` with an empty file, `ip -batch` adding @chunk routes and ours
 * adding the next @chunk routes one request and one ack at a time;
 * 3 * @reps runs into @runs. Returns 0 or -1.
 */
int anchor_inserts(uint64_t chunk, int reps, struct insert_run *runs);

/* -------------------------------------------------------- iproute2.c */

/* The iproute2 baseline: start-up and a dump of (almost) nothing */
#define IP_STARTUP (-1)

struct ip_row {
	int family;
	uint64_t routes;
	int mode;		/* a mode, or IP_STARTUP */
	int rep;
	bool warmup;
	uint64_t wall_ns, user_us, sys_us;
	uint64_t lines, expected;
	bool ok;
};

int add_baseline_route(struct nl_sock *s, int family);
int ip_dump(int family, int m, const struct target *tg, struct ip_row *row);
const char *mode_name(int m);
/* index of "startup" or a mode's name, or -2 for none */
int ip_mode_by_name(const char *s);

/* ------------------------------------------------ run.c, csv_out.c */

/*
 * The CPU pass: dumps of one mode repeated until the user share of their
 * CPU time, which the kernel samples once a tick, is known to +-2.5 points
 * (Wilson 95 % interval at most 0.05 wide), or the time is up
 */
struct cpu_row {
	int family;
	uint64_t routes;
	int mode;
	int point;
	uint64_t dumps;
	uint64_t wall_ns, user_us, sys_us;
	int hz;
};

/* the width of the Wilson 95 % interval of the user share the CPU pass runs to (+-0.025) */
#define CPU_SHARE_WIDTH 0.05

bool mode_at_point(int m, int p);

/* The measurement: its configuration and what it measured */
struct bench {
	const char *out;
	int nsizes;
	uint64_t sizes[8];
	int nfam;
	int fam[2];
	int nmodes;
	int mode[NMODES];
	int nbuf;
	size_t bufs[4];
	uint64_t sweep_at;
	int reps, ip_reps, warmup;
	struct insert_opts ins;
	int iproute2;		/* 0 none, 1 selective above 100000 routes, 2 all */
	uint64_t anchor_insert;	/* routes of each side of the like-for-like insert */
	int anchor_reps;
	int hz;			/* the kernel's tick rate; 0: no CPU pass */
	double cpu_seconds;	/* at most this long for the CPU pass of a family */

	struct target tg;
	int ifindex[2];
	struct samples batches;
	struct insert_run *inserts;
	size_t ninserts, cap_inserts;
	struct dump_row *dumps;
	size_t ndumps, cap_dumps;
	struct ip_row *ips;
	size_t nips, cap_ips;
	struct cpu_row *cpus;
	size_t ncpus, cap_cpus;
	char failure[400];
};

void bench_fail(struct bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* insert.csv, insert-summary.csv, dump.csv, iproute2.csv, cpu.csv; a failed write fails @b naming the file */
int write_csvs(struct bench *b);

/* ------------------------------------------------------- the verbs */

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_populate(int argc, char **argv);
int cmd_dump(int argc, char **argv);

#endif

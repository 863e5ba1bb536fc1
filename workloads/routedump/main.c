// SPDX-License-Identifier: GPL-2.0
/*
 * routedump - the route dump lab (issue 6): what NETLINK_GET_STRICT_CHK and
 * the kernel-side route dump filters (table, protocol, type, output device)
 * cost and save at scale, and whether the strict checks behave.
 *
 *   routedump bench [--profile quick|full] --out DIR [options]
 *	Populate IPv4 and IPv6 routes (spread over 100 tables, 3 protocols,
 *	3 types, 2 dummy devices) with batched RTM_NEWROUTE, then dump them in
 *	every mode, repeated, counting what each dump costs; iproute2 runs the
 *	same filters as the anchor. Writes summary.json and CSV files in DIR.
 *   routedump conformance [--fuzz N] [--seed S] [--out DIR]
 *	The strict-checking conformance suite, as TAP.
 *   routedump populate --routes N [--family 4|6] [--batch BYTES]
 *   routedump dump --routes N --mode MODE [--family 4|6] [--bufsize BYTES]
 *	One population or one dump of it, for work by hand.
 *
 * Everything is configured in a network namespace of its own: run it with
 * `ip netns exec NAME`, or in the initial namespace bench and conformance
 * unshare a private one (gone when the program exits). Bad input (a route
 * count, mode, family or buffer size that does not fit) is refused before
 * anything is configured, with exit code 2.
 *
 * All netlink goes through libmnl (bench/nl.h on top of it).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "cli.h"
#include "nl.h"
#include "output.h"
#include "stats.h"
#include "tap.h"
#include "timing.h"

#ifndef AF_MPLS
#define AF_MPLS 28
#endif

/* The lab's routes: 100 tables from TABLE0, numbers above 255 (RTA_TABLE) */
#define TABLE0 1001
#define NTABLES 100
#define PROTO_CUSTOM 200
#define MAX_ROUTES 2000000
#define DEF_BUFSIZE 32768
#define DEF_BATCH 196608

static const char *prog = "routedump";

#define usage_error(...) (lab_prog = prog, lab_usage_error(__VA_ARGS__))

static void usage(void)
{
	printf("usage: %s bench [--profile quick|full] --out DIR [options]\n"
	       "       %s conformance [--fuzz N] [--seed S] [--out DIR]\n"
	       "       %s populate --routes N [--family 4|6] [--batch BYTES] [--acks all|errors]\n"
	       "       %s dump --routes N --mode MODE [--family 4|6] [--bufsize BYTES]\n"
	       "\n"
	       "bench options (defaults from the profile):\n"
	       "  --routes N[,N...]     table sizes per family, ascending (quick 10000; full 100000,1000000)\n"
	       "  --family LIST         4, 6 or 4,6 (4,6)\n"
	       "  --modes LIST          dump modes (all): legacy_userfilter, strict_all, strict_table,\n"
	       "                        strict_protocol, strict_oif, strict_table_protocol\n"
	       "  --bufsize B[,B...]    recvmsg buffer sizes in bytes, >= one page (32768)\n"
	       "  --sweep-at N          table size where the buffer sizes 8192,32768,1048576 are swept\n"
	       "                        (full: 100000; quick: none)\n"
	       "  --reps R              measured dumps per mode (5), after --warmup W dropped ones (1)\n"
	       "  --batch BYTES         bytes of RTM_NEWROUTE per sendmsg (196608)\n"
	       "  --acks errors|all     what the kernel answers: every failed route with its error and\n"
	       "                        the last route of each batch with an ack (errors, the default),\n"
	       "                        or an ack for every route (all); every answer is read and checked\n"
	       "  --iproute2 all|selective|none  iproute2 anchor for every filter, only for the\n"
	       "                        selective ones (table, table+protocol) above 100000 routes, or none\n"
	       "  --anchor-insert N     time `ip -batch` inserting N IPv4 routes (quick 10000, full 100000; 0: no)\n"
	       "\n"
	       "Exit codes: 0 done and every count matched; 1 a mismatch or a failure; 2 bad input.\n",
	       prog, prog, prog, prog);
}

/* ---------------------------------------------------------------- input */

static uint64_t parse_u64(const char *s, const char *what, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!s || !isdigit((unsigned char)*s))
		usage_error("invalid %s '%s': expected a number from %" PRIu64 " to %" PRIu64,
			    what, s ? s : "", min, max);
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		usage_error("invalid %s '%s': expected a number from %" PRIu64 " to %" PRIu64,
			    what, s, min, max);
	return v;
}

/* A comma-separated list into @out (at most @max items); returns the count. */
static int split_list(const char *s, char **out, int max, const char *what)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int n = 0;

	if (!dup)
		exit(1);
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max)
			usage_error("too many values in %s '%s' (at most %d)", what, s, max);
		out[n++] = tok;
	}
	if (!n)
		usage_error("empty %s '%s'", what, s);
	return n;
}

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

static size_t parse_bufsize(const char *s)
{
	uint64_t v = parse_u64(s, "buffer size (--bufsize)", 1, 64 << 20);

	if (v < page_size())
		usage_error("buffer size '%s' is below one page (%zu bytes)", s, page_size());
	return v;
}

static int parse_family(const char *s)
{
	if (!strcmp(s, "4") || !strcmp(s, "ipv4") || !strcmp(s, "inet"))
		return AF_INET;
	if (!strcmp(s, "6") || !strcmp(s, "ipv6") || !strcmp(s, "inet6"))
		return AF_INET6;
	usage_error("unknown family '%s': expected 4 or 6", s);
}

static const char *family_name(int family)
{
	return family == AF_INET ? "ipv4" : "ipv6";
}

/* ------------------------------------------------------------ the routes */

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

static const uint8_t route_protos[4] = { RTPROT_STATIC, RTPROT_STATIC, RTPROT_BOOT, PROTO_CUSTOM };

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void route_of(uint64_t i, struct route *r)
{
	uint64_t h = splitmix64(i);
	unsigned int t = (h >> 16) % 10;

	r->table = TABLE0 + h % NTABLES;
	r->proto = route_protos[(h >> 8) & 3];
	if (t < 8) {
		r->type = RTN_UNICAST;
		r->dev = (h >> 24) & 1;
	} else {
		r->type = t == 8 ? RTN_BLACKHOLE : RTN_UNREACHABLE;
		r->dev = -1;
	}
}

/* Destination of route i: 10.0.0.0 + i /32, or 2001:db8:II:II::/64 */
static int dst_of(int family, uint64_t i, uint8_t *addr)
{
	uint32_t v = htonl((uint32_t)i + (family == AF_INET ? 0x0a000000u : 0));

	if (family == AF_INET) {
		memcpy(addr, &v, 4);
		return 32;
	}
	memset(addr, 0, 16);
	addr[0] = 0x20;
	addr[1] = 0x01;
	addr[2] = 0x0d;
	addr[3] = 0xb8;
	memcpy(addr + 4, &v, 4);
	return 64;
}

/* --------------------------------------------------------------- filters */

#define FB_TABLE 1
#define FB_PROTO 2
#define FB_OIF 4

/* The filters a dump answers: none, table, protocol, oif, table+protocol */
enum { F_NONE, F_TABLE, F_PROTO, F_OIF, F_TABLE_PROTO, NFILTERS };
static const unsigned int filter_bits[NFILTERS] = { 0, FB_TABLE, FB_PROTO, FB_OIF, FB_TABLE | FB_PROTO };
static const char *const filter_names[NFILTERS] = { "none", "table", "protocol", "oif", "table_protocol" };

/* What the filters look for: one table of 100, protocol static, device dum0 */
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

static const struct mode modes[] = {
	{ "legacy_userfilter", false, F_NONE, F_TABLE },
	{ "strict_all", true, F_NONE, F_NONE },
	{ "strict_table", true, F_TABLE, F_TABLE },
	{ "strict_protocol", true, F_PROTO, F_PROTO },
	{ "strict_oif", true, F_OIF, F_OIF },
	{ "strict_table_protocol", true, F_TABLE_PROTO, F_TABLE_PROTO },
};
#define NMODES ((int)(sizeof(modes) / sizeof(modes[0])))

static int parse_mode(const char *s)
{
	int i;

	for (i = 0; i < NMODES; i++)
		if (!strcmp(s, modes[i].name))
			return i;
	usage_error("unknown mode '%s': expected legacy_userfilter, strict_all, strict_table, "
		    "strict_protocol, strict_oif or strict_table_protocol", s);
}

static bool route_matches(int f, const struct target *tg, uint32_t table, uint8_t proto, uint32_t oif)
{
	unsigned int b = filter_bits[f];

	return (!(b & FB_TABLE) || table == tg->table) && (!(b & FB_PROTO) || proto == tg->proto) &&
	       (!(b & FB_OIF) || oif == tg->oif);
}

static bool route_of_matches(int f, const struct target *tg, const struct route *r)
{
	unsigned int b = filter_bits[f];

	return (!(b & FB_TABLE) || r->table == tg->table) && (!(b & FB_PROTO) || r->proto == tg->proto) &&
	       (!(b & FB_OIF) || r->dev == tg->oif_dev);
}

/* Routes [0, n) that match each filter */
static void expected_counts(uint64_t n, const struct target *tg, uint64_t *exp)
{
	struct route r;
	uint64_t i;
	int f;

	memset(exp, 0, NFILTERS * sizeof(*exp));
	for (i = 0; i < n; i++) {
		route_of(i, &r);
		for (f = 0; f < NFILTERS; f++)
			exp[f] += route_of_matches(f, tg, &r);
	}
}

/* --------------------------------------------------------- route parsing */

struct rinfo {
	uint32_t table;
	uint32_t oif;
	uint8_t proto, type, dst_len, family;
	uint8_t dst[16];
};

static int route_attr_cb(const struct nlattr *a, void *data)
{
	struct rinfo *ri = data;
	uint16_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case RTA_TABLE:
		if (len >= 4)
			ri->table = mnl_attr_get_u32(a);
		break;
	case RTA_OIF:
		if (len >= 4)
			ri->oif = mnl_attr_get_u32(a);
		break;
	case RTA_DST:
		memcpy(ri->dst, mnl_attr_get_payload(a), len < 16 ? len : 16);
		break;
	}
	return MNL_CB_OK;
}

/* rinfo of an RTM_NEWROUTE message; false for anything else */
static bool route_info(const struct nlmsghdr *nlh, struct rinfo *ri)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != RTM_NEWROUTE || mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm))
		return false;
	memset(ri, 0, sizeof(*ri));
	ri->table = rtm->rtm_table;
	ri->proto = rtm->rtm_protocol;
	ri->type = rtm->rtm_type;
	ri->dst_len = rtm->rtm_dst_len;
	ri->family = rtm->rtm_family;
	mnl_attr_parse(nlh, sizeof(*rtm), route_attr_cb, ri);
	return true;
}

/* What a dump returned, filter by filter (in the lab's tables, and outside) */
struct counter {
	const struct target *tg;
	uint64_t routes;		/* route messages */
	uint64_t ours;			/* of them in tables TABLE0.. */
	uint64_t match[NFILTERS][2];	/* [filter][0: our tables, 1: others] */
	uint64_t other_msgs;
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct counter *c = data;
	struct rinfo ri;
	bool foreign;
	int f;

	if (!route_info(nlh, &ri)) {
		c->other_msgs++;
		return MNL_CB_OK;
	}
	foreign = ri.table - TABLE0 >= NTABLES;
	c->routes++;
	c->ours += !foreign;
	for (f = 0; f < NFILTERS; f++)
		if (route_matches(f, c->tg, ri.table, ri.proto, ri.oif))
			c->match[f][foreign]++;
	return MNL_CB_OK;
}

/* ------------------------------------------------------------ namespaces */

static bool in_init_netns(void)
{
	struct stat a, b;

	if (stat("/proc/self/ns/net", &a) || stat("/proc/1/ns/net", &b))
		return false;	/* cannot tell: PID 1 is elsewhere */
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/*
 * Bench and conformance configure routes and links: never in the initial
 * namespace. There, a private one is unshared (it goes away with us).
 */
static int private_netns(void)
{
	if (!in_init_netns())
		return 0;
	if (unshare(CLONE_NEWNET)) {
		fprintf(stderr, "%s: unshare(CLONE_NEWNET): %s\n", prog, strerror(errno));
		return -errno;
	}
	fprintf(stderr, "%s: in the initial network namespace: working in a private one\n", prog);
	return 0;
}

/* Two dummy devices, up; returns 0 and their ifindexes */
static int setup_dummies(struct nl_sock *s, int *ifindex)
{
	const char *names[2] = { "dum0", "dum1" };
	int i, idx;

	for (i = 0; i < 2; i++) {
		if (if_nametoindex(names[i])) {
			fprintf(stderr, "%s: %s exists already: not a fresh namespace\n", prog, names[i]);
			return -EEXIST;
		}
		idx = nl_link_add(s, names[i], "dummy");
		if (idx < 0)
			return idx;
		if (nl_link_set(s, idx, true, -1))
			return -EIO;
		ifindex[i] = idx;
	}
	return 0;
}

/* ---------------------------------------------------------------- insert */

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
	const char *method;	/* "batch" (errors and a final ack), "batch_ack_all", "ip-batch" */
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

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 256;
	v = realloc(v, *cap * size);
	if (!v) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	return v;
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

static void build_route(struct nlmsghdr *nlh, int family, uint64_t i, const int *ifindex)
{
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	uint8_t dst[16];
	struct route r;

	route_of(i, &r);
	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_dst_len = (uint8_t)dst_of(family, i, dst);
	rtm->rtm_table = RT_TABLE_UNSPEC;
	rtm->rtm_protocol = r.proto;
	rtm->rtm_type = r.type;
	rtm->rtm_scope = r.dev >= 0 && family == AF_INET ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
	mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, dst);
	mnl_attr_put_u32(nlh, RTA_TABLE, r.table);
	if (r.dev >= 0)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifindex[r.dev]);
}

/*
 * Insert routes [from, to) of @family with batched RTM_NEWROUTE; one sample
 * per batch (time from the end of the previous batch, so building the
 * messages counts). The kernel answers every route that fails (with its
 * extack) and acks the last route of each batch, or, with all_acks, acks
 * every route; every answer is read. Returns 0 when no route failed and
 * every batch was answered to its end (bench checks the count by a dump).
 */
static int insert_routes(struct nl_sock *s, int family, uint64_t from, uint64_t to, const int *ifindex,
			 const struct insert_opts *o, struct samples *smp, struct insert_run *run)
{
	struct nl_batch_stats st = { 0 };
	struct rusage ru0, ru1;
	struct nl_batch b;
	uint64_t i, t0, tb, t, sent = 0;
	int err;

	err = nl_batch_init(&b, s, o->batch, o->all_acks);
	if (err)
		return err;
	memset(run, 0, sizeof(*run));
	run->family = family;
	run->method = o->all_acks ? "batch_ack_all" : "batch";
	run->from = from;
	run->to = to;
	run->batch = o->batch;
	getrusage(RUSAGE_SELF, &ru0);
	t0 = tb = mono_ns();
	for (i = from; i < to || nl_batch_pending(&b); i++) {
		bool full = false;

		if (i < to) {
			build_route(nl_batch_msg(&b, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL), family, i, ifindex);
			full = nl_batch_commit(&b);
		}
		if (full || i + 1 >= to) {
			uint64_t before = st.msgs;

			err = nl_batch_flush(&b, &st);
			if (err)
				break;
			t = mono_ns();
			smp->v = grow(smp->v, &smp->cap, smp->n, sizeof(*smp->v));
			smp->v[smp->n++] = (struct batch_sample){ family, from + st.msgs, (uint32_t)(st.msgs - before),
								  t - tb };
			tb = t;
			sent = st.msgs;
			if (st.errors)
				break;
		}
	}
	run->ns = mono_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	run->user_us = tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime);
	run->sys_us = tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime);
	run->sendmsgs = st.sendmsgs;
	run->recvmsgs = st.recvmsgs;
	nl_batch_free(&b);
	if (err)
		return err;
	if (st.errors) {
		fprintf(stderr, "%s: inserting %s routes: %" PRIu64 " errors, the first: %s \"%s\"\n", prog,
			family_name(family), st.errors, strerror(-st.first_error), st.first_extack);
		return st.first_error;
	}
	if (sent != to - from || (o->all_acks && st.acks != to - from)) {
		fprintf(stderr, "%s: inserting %s routes: %" PRIu64 " sent, %" PRIu64 " acked, expected %" PRIu64 "\n",
			prog, family_name(family), sent, st.acks, to - from);
		return -EPROTO;
	}
	run->ok = true;
	return 0;
}

/* ------------------------------------------------------------------ dump */

struct dump_row {
	int family;
	uint64_t routes;
	size_t bufsize;
	int mode;
	int rep;
	bool warmup;		/* dropped from the statistics; the verifying dump */
	uint64_t wall_ns, user_us, sys_us;
	uint64_t bytes, recvmsgs, msgs;
	uint64_t returned;	/* route messages received */
	uint64_t answer;	/* routes of the mode's answer (after the user filter, if any) */
	uint64_t expected;	/* the answer there must be: the lab's routes plus the kernel's own */
	char filtered;		/* 'a': every route message flagged NLM_F_DUMP_FILTERED, 'n': none, 'm': some */
	bool done_filtered;	/* NLMSG_DONE flagged NLM_F_DUMP_FILTERED (a filter was applied) */
	bool ok;
	char why[200];
};

static void build_dump(struct nlmsghdr *nlh, int family, int f, const struct target *tg)
{
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	unsigned int b = filter_bits[f];

	rtm->rtm_family = (uint8_t)family;
	if (b & FB_PROTO)
		rtm->rtm_protocol = tg->proto;
	if (b & FB_TABLE)
		mnl_attr_put_u32(nlh, RTA_TABLE, tg->table);
	if (b & FB_OIF)
		mnl_attr_put_u32(nlh, RTA_OIF, tg->oif);
}

/*
 * What a measured dump does with each message: as little as its answer
 * needs, so the tool is not what is measured. Kernel-filtered and
 * unfiltered dumps count route messages (the header's type); the legacy
 * dump filters in user space, so it also finds RTA_TABLE (the first
 * attribute of a route message in both families) and compares it.
 */
struct light {
	uint32_t table;
	uint64_t routes, matches;
};

static int light_count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct light *l = data;

	l->routes += nlh->nlmsg_type == RTM_NEWROUTE;
	return MNL_CB_OK;
}

static int light_table_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	struct light *l = data;
	const struct nlattr *a;
	uint32_t table;

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	l->routes++;
	table = rtm->rtm_table;
	mnl_attr_for_each(a, nlh, sizeof(*rtm)) {
		if (mnl_attr_get_type(a) == RTA_TABLE) {
			table = mnl_attr_get_u32(a);
			break;
		}
	}
	l->matches += table == l->table;
	return MNL_CB_OK;
}

/* What the answers must be at a table size: per filter, the lab's routes and the kernel's own */
struct expect {
	uint64_t n;
	uint64_t exp[NFILTERS];		/* the lab's routes matching each filter */
	uint64_t foreign[NFILTERS];	/* routes outside the lab's tables matching each filter */
};

static uint64_t expect_total(const struct expect *e, int f)
{
	return e->exp[f] + e->foreign[f];
}

/*
 * One dump in mode @m. @verify: parse every route and check the answer
 * route by route (every filter the legacy dump can answer; for a kernel
 * filter, that nothing else came back); this is what the warm-up dump
 * does. Otherwise a measured dump: count (see struct light) and check the
 * counts. Either way the answer must be exactly the expected one.
 */
static int dump_once(struct nl_sock *s, int family, int m, const struct target *tg, const struct expect *e,
		     bool verify, struct dump_row *row)
{
	const struct mode *md = &modes[m];
	struct counter c = { .tg = tg };
	struct light l = { .table = tg->table };
	char buf[NL_MSG_MAX], rs[300];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_GETROUTE, NLM_F_DUMP);
	struct rusage ru0, ru1;
	struct nl_reply r;
	uint64_t t0, t1, returned, answer;
	int err, f;

	build_dump(nlh, family, md->kernel, tg);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = mono_ns();
	if (verify)
		err = nl_dump(s, nlh, count_cb, &c, &r);
	else if (md->answer != md->kernel)
		err = nl_dump(s, nlh, light_table_cb, &l, &r);
	else
		err = nl_dump(s, nlh, light_count_cb, &l, &r);
	t1 = mono_ns();
	getrusage(RUSAGE_SELF, &ru1);

	returned = verify ? c.routes : l.routes;
	if (verify)
		answer = c.match[md->answer][0] + c.match[md->answer][1];
	else
		answer = md->answer != md->kernel ? l.matches : l.routes;
	row->family = family;
	row->routes = e->n;
	row->bufsize = s->bufsize;
	row->mode = m;
	row->wall_ns = t1 - t0;
	row->user_us = tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime);
	row->sys_us = tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime);
	row->bytes = r.bytes;
	row->recvmsgs = r.recvmsgs;
	row->msgs = r.msgs;
	row->returned = returned;
	row->answer = answer;
	row->expected = expect_total(e, md->answer);
	row->filtered = r.data_msgs && r.filtered_msgs == r.data_msgs ? 'a' : r.filtered_msgs ? 'm' : 'n';
	row->done_filtered = r.done_filtered;
	row->ok = false;
	if (err) {
		snprintf(row->why, sizeof(row->why), "dump failed: %s", strerror(-err));
		return -1;
	}
	if (r.error) {
		snprintf(row->why, sizeof(row->why), "dump answered %s", nl_reply_str(&r, rs, sizeof(rs)));
		return -1;
	}
	if (returned != expect_total(e, md->kernel)) {
		snprintf(row->why, sizeof(row->why), "%" PRIu64 " routes returned, expected %" PRIu64
			 " (%" PRIu64 " of the lab's, %" PRIu64 " of the kernel's)", returned,
			 expect_total(e, md->kernel), e->exp[md->kernel], e->foreign[md->kernel]);
		return -1;
	}
	if (answer != row->expected) {
		snprintf(row->why, sizeof(row->why), "answer of %" PRIu64 " routes, expected %" PRIu64, answer,
			 row->expected);
		return -1;
	}
	if (verify) {
		if (c.ours != e->exp[md->kernel]) {
			snprintf(row->why, sizeof(row->why), "%" PRIu64 " routes of tables %d-%d returned, expected %" PRIu64,
				 c.ours, TABLE0, TABLE0 + NTABLES - 1, e->exp[md->kernel]);
			return -1;
		}
		if (c.match[md->kernel][0] + c.match[md->kernel][1] != c.routes) {
			snprintf(row->why, sizeof(row->why), "%" PRIu64 " of %" PRIu64 " routes returned do not match the kernel filter %s",
				 c.routes - c.match[md->kernel][0] - c.match[md->kernel][1], c.routes,
				 filter_names[md->kernel]);
			return -1;
		}
		/* The legacy dump can answer every filter in user space: all must be exact */
		for (f = 0; f < NFILTERS; f++) {
			if (md->kernel != F_NONE && f != md->answer)
				continue;
			if (c.match[f][0] != e->exp[f] || c.match[f][1] != e->foreign[f]) {
				snprintf(row->why, sizeof(row->why), "filter %s: %" PRIu64 "+%" PRIu64 " routes, expected %"
					 PRIu64 "+%" PRIu64, filter_names[f], c.match[f][0], c.match[f][1], e->exp[f],
					 e->foreign[f]);
				return -1;
			}
		}
	}
	/*
	 * NLM_F_DUMP_FILTERED: a kernel filter flags every route message and
	 * NLMSG_DONE. A strict dump without a filter still flags the route
	 * messages (exceptions are left out without RTM_F_CLONED), not
	 * NLMSG_DONE; a legacy dump flags nothing.
	 */
	if (md->kernel != F_NONE && ((row->filtered != 'a' && r.data_msgs) || !r.done_filtered)) {
		snprintf(row->why, sizeof(row->why), "NLM_F_DUMP_FILTERED missing on %" PRIu64 " of %" PRIu64
			 " messages, NLMSG_DONE %sflagged", r.data_msgs - r.filtered_msgs, r.data_msgs,
			 r.done_filtered ? "" : "not ");
		return -1;
	}
	if (md->kernel == F_NONE && (r.done_filtered || (!md->strict && r.filtered_msgs))) {
		snprintf(row->why, sizeof(row->why), "NLM_F_DUMP_FILTERED set on an unfiltered dump (NLMSG_DONE %s, %"
			 PRIu64 " route messages)", r.done_filtered ? "yes" : "no", r.filtered_msgs);
		return -1;
	}
	row->ok = true;
	return 0;
}

/* -------------------------------------------------------------- iproute2 */

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

/*
 * Run @argv with stdout into a pipe we count lines of; wall time from fork
 * to exit, CPU times of the child (wait4). Returns the exit status or -1.
 */
static int run_counted(char *const argv[], uint64_t *lines, uint64_t *wall_ns, uint64_t *user_us,
		       uint64_t *sys_us)
{
	struct rusage ru;
	char buf[65536];
	int p[2], status;
	uint64_t t0;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	t0 = mono_ns();
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(p[1], 1);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: exec %s: %s\n", prog, argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	*lines = 0;
	while ((n = read(p[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; i < n; i++)
			*lines += buf[i] == '\n';
	}
	close(p[0]);
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	*wall_ns = mono_ns() - t0;
	*user_us = tv_us(&ru.ru_utime);
	*sys_us = tv_us(&ru.ru_stime);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The baseline table: one blackhole route of protocol 99 in table 999, so
 * that `ip route show table 999` is a run of ip whose dump costs next to
 * nothing (ip's start-up, its link cache, one route). The route is one of
 * the kernel's own as far as the counts go (outside the lab's tables).
 */
#define BASELINE_TABLE 999
#define BASELINE_PROTO 99

static int add_baseline_route(struct nl_sock *s, int family)
{
	static const uint8_t d4[4] = { 192, 0, 2, 0 };
	static const uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xff, 0xff };
	char buf[NL_MSG_MAX], e[300];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	struct nl_reply r;
	int err;

	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_dst_len = family == AF_INET ? 24 : 48;
	rtm->rtm_protocol = BASELINE_PROTO;
	rtm->rtm_type = RTN_BLACKHOLE;
	mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, family == AF_INET ? d4 : d6);
	mnl_attr_put_u32(nlh, RTA_TABLE, BASELINE_TABLE);
	err = nl_transact(s, nlh, NULL, NULL, &r);
	if (err || r.error) {
		fprintf(stderr, "%s: the baseline route: %s\n", prog, err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
		return -1;
	}
	return 0;
}

/*
 * `ip -4|-6 route show ...` for the filter of mode @m; for IP_STARTUP
 * `ip route show table 999` (see add_baseline_route()).
 */
static int ip_dump(int family, int m, const struct target *tg, struct ip_row *row)
{
	char table[16], oif[IF_NAMESIZE], proto[8];
	char *argv[16];
	int a = 0, f = m == IP_STARTUP ? F_NONE : modes[m].kernel;

	if (m == IP_STARTUP) {
		char *startup[] = { "ip", family == AF_INET ? "-4" : "-6", "route", "show", "table", "999", NULL };

		return run_counted(startup, &row->lines, &row->wall_ns, &row->user_us, &row->sys_us);
	}

	snprintf(table, sizeof(table), "%u", tg->table);
	snprintf(proto, sizeof(proto), "%u", tg->proto);
	if (!if_indextoname(tg->oif, oif))
		return -1;
	argv[a++] = "ip";
	argv[a++] = family == AF_INET ? "-4" : "-6";
	argv[a++] = "route";
	argv[a++] = "show";
	argv[a++] = "table";
	argv[a++] = filter_bits[f] & FB_TABLE ? table : "all";
	if (filter_bits[f] & FB_PROTO) {
		argv[a++] = "proto";
		argv[a++] = proto;
	}
	if (filter_bits[f] & FB_OIF) {
		argv[a++] = "dev";
		argv[a++] = oif;
	}
	argv[a] = NULL;
	return run_counted(argv, &row->lines, &row->wall_ns, &row->user_us, &row->sys_us);
}

/*
 * The calibration anchor: `ip -batch` adding @n IPv4 routes, one per line,
 * in a namespace of its own (a child unshares it, so the routes go with the
 * child). The routes are then counted with a dump there.
 */
static int ip_batch_insert(uint64_t n, struct insert_run *run)
{
	char path[] = "/tmp/routedump-batch-XXXXXX";
	int p[2], fd, status, ifindex[2];
	struct insert_run res = { 0 };
	uint64_t i;
	pid_t pid;
	FILE *f;

	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct route r;
		struct in_addr a = { htonl(0x0a000000u + (uint32_t)i) };
		char dst[INET_ADDRSTRLEN];

		route_of(i, &r);
		inet_ntop(AF_INET, &a, dst, sizeof(dst));
		if (r.type == RTN_UNICAST)
			fprintf(f, "route add %s/32 dev dum%d table %u proto %u\n", dst, r.dev, r.table, r.proto);
		else
			fprintf(f, "route add %s %s/32 table %u proto %u\n",
				r.type == RTN_BLACKHOLE ? "blackhole" : "unreachable", dst, r.table, r.proto);
	}
	if (fclose(f)) {
		unlink(path);
		return -1;
	}
	if (pipe(p)) {
		unlink(path);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		unlink(path);
		return -1;
	}
	if (!pid) {
		struct nl_sock s;
		struct counter c = { 0 };
		struct target tg = { 0 };
		char buf[NL_MSG_MAX];
		struct nl_reply r;
		struct rusage ru;
		uint64_t t0;
		pid_t ip;
		int st;

		close(p[0]);
		res.method = "ip-batch";
		res.family = AF_INET;
		res.to = n;
		c.tg = &tg;
		if (unshare(CLONE_NEWNET) || nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || setup_dummies(&s, ifindex))
			_exit(1);
		t0 = mono_ns();
		ip = fork();
		if (!ip) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			execlp("ip", "ip", "-batch", path, (char *)NULL);
			_exit(127);
		}
		if (ip < 0 || wait4(ip, &st, 0, &ru) < 0)
			_exit(1);
		res.ns = mono_ns() - t0;
		res.user_us = tv_us(&ru.ru_utime);
		res.sys_us = tv_us(&ru.ru_stime);
		nl_set_strict(&s, true);
		build_dump(nl_msg(&s, buf, RTM_GETROUTE, NLM_F_DUMP), AF_INET, F_NONE, &tg);
		if (nl_dump(&s, (struct nlmsghdr *)buf, count_cb, &c, &r) || r.error)
			_exit(1);
		res.ok = WIFEXITED(st) && !WEXITSTATUS(st) && c.ours == n;
		if (!res.ok)
			fprintf(stderr, "%s: ip -batch: exit status %d, %" PRIu64 " routes of %" PRIu64 " in the tables\n",
				prog, WIFEXITED(st) ? WEXITSTATUS(st) : -1, c.ours, n);
		if (write(p[1], &res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &res, sizeof(res)) != sizeof(res))
		res.ok = false;
	close(p[0]);
	waitpid(pid, &status, 0);
	unlink(path);
	res.method = "ip-batch";
	*run = res;
	return res.ok ? 0 : -1;
}

/* ---------------------------------------------------------------- output */

struct bench {
	const char *out;
	int nsizes;
	uint64_t sizes[8];
	int nfam;
	int fam[2];
	int nmodes;
	int mode[NMODES];
	int nbuf;
	size_t bufs[8];
	uint64_t sweep_at;
	int reps, warmup;
	struct insert_opts ins;
	int iproute2;		/* 0 none, 1 selective above 100000 routes, 2 all */
	uint64_t anchor_insert;

	struct target tg;
	int ifindex[2];
	struct out *o;
	struct samples batches;
	struct insert_run *inserts;
	size_t ninserts, cap_inserts;
	struct dump_row *dumps;
	size_t ndumps, cap_dumps;
	struct ip_row *ips;
	size_t nips, cap_ips;
	char failure[400];
};

static const char *u64s(uint64_t v, char *buf)
{
	sprintf(buf, "%" PRIu64, v);
	return buf;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static const char *mode_name(int m)
{
	return m == IP_STARTUP ? "startup" : modes[m].name;
}

static void fail(struct bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct bench *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!b->failure[0])
		vsnprintf(b->failure, sizeof(b->failure), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	fprintf(stderr, "%s: FAILED: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static const char *flag_str(char f)
{
	return f == 'a' ? "all" : f == 'm' ? "some" : "none";
}

static int write_csvs(struct bench *b)
{
	struct atomic_file af;
	size_t i;
	int err = 0;

	if (!csv_open(&af, b->out, "insert.csv", "family,routes_to,msgs,seconds,routes_per_s")) {
		for (i = 0; i < b->batches.n; i++) {
			const struct batch_sample *s = &b->batches.v[i];

			fprintf(af.f, "%s,%" PRIu64 ",%u,%.6f,%.1f\n", family_name(s->family), s->to, s->msgs,
				s->ns / 1e9, s->msgs / (s->ns / 1e9));
		}
		err |= atomic_commit(&af);
	}
	if (!csv_open(&af, b->out, "insert-summary.csv",
		      "family,method,routes_from,routes_to,seconds,routes_per_s,user_s,sys_s,batch_bytes,acks,sendmsgs,recvmsgs,ok")) {
		for (i = 0; i < b->ninserts; i++) {
			const struct insert_run *r = &b->inserts[i];
			bool ipb = !strcmp(r->method, "ip-batch");

			fprintf(af.f, "%s,%s,%" PRIu64 ",%" PRIu64 ",%.3f,%.1f,%.3f,%.3f,%zu,%s,%" PRIu64 ",%" PRIu64 ",%d\n",
				family_name(r->family), r->method, r->from, r->to, r->ns / 1e9,
				(r->to - r->from) / (r->ns / 1e9), r->user_us / 1e6, r->sys_us / 1e6, r->batch,
				ipb ? "every" : b->ins.all_acks ? "every" : "errors", r->sendmsgs, r->recvmsgs, r->ok);
		}
		err |= atomic_commit(&af);
	}
	if (!csv_open(&af, b->out, "dump.csv",
		      "family,routes,bufsize,mode,rep,warmup,selectivity,wall_ms,user_ms,sys_ms,bytes,recvmsgs,msgs,"
		      "returned,answer,expected,filtered,done_filtered,ok")) {
		for (i = 0; i < b->ndumps; i++) {
			const struct dump_row *d = &b->dumps[i];

			fprintf(af.f, "%s,%" PRIu64 ",%zu,%s,%d,%d,%.6f,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%d,%d\n",
				family_name(d->family), d->routes, d->bufsize, modes[d->mode].name, d->rep, d->warmup,
				(double)d->expected / d->routes, ms(d->wall_ns), d->user_us / 1e3, d->sys_us / 1e3,
				d->bytes, d->recvmsgs, d->msgs, d->returned, d->answer, d->expected,
				flag_str(d->filtered), d->done_filtered, d->ok);
		}
		err |= atomic_commit(&af);
	}
	if (!csv_open(&af, b->out, "iproute2.csv",
		      "family,routes,mode,rep,warmup,wall_ms,user_ms,sys_ms,lines,expected,ok")) {
		for (i = 0; i < b->nips; i++) {
			const struct ip_row *r = &b->ips[i];

			fprintf(af.f, "%s,%" PRIu64 ",%s,%d,%d,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%d\n",
				family_name(r->family), r->routes, mode_name(r->mode), r->rep, r->warmup,
				ms(r->wall_ns), r->user_us / 1e3, r->sys_us / 1e3, r->lines, r->expected, r->ok);
		}
		err |= atomic_commit(&af);
	}
	return err ? -EIO : 0;
}

/* Statistics of the measured (not warm-up) dumps of one group */
struct agg {
	size_t n;
	struct stats wall, user, sys, bytes, recvmsgs, msgs;
	uint64_t answer, returned, expected;
	char filtered;
	bool done_filtered;
};

static double *xs_buf;
static size_t xs_cap;

static double *xs(size_t n)
{
	if (xs_cap < n) {
		xs_cap = n;
		xs_buf = realloc(xs_buf, xs_cap * sizeof(double));
		if (!xs_buf)
			exit(1);
	}
	return xs_buf;
}

static int collect(struct bench *b, int family, uint64_t routes, size_t bufsize, int mode, struct agg *a)
{
	double *v[6];
	size_t i, n = 0, k, stride = b->ndumps + 1;

	memset(a, 0, sizeof(*a));
	v[0] = xs(6 * stride);
	for (k = 1; k < 6; k++)
		v[k] = v[0] + k * stride;
	for (i = 0; i < b->ndumps; i++) {
		const struct dump_row *d = &b->dumps[i];

		if (d->family != family || d->routes != routes || d->bufsize != bufsize || d->mode != mode ||
		    d->warmup)
			continue;
		v[0][n] = ms(d->wall_ns);
		v[1][n] = d->user_us / 1e3;
		v[2][n] = d->sys_us / 1e3;
		v[3][n] = (double)d->bytes;
		v[4][n] = (double)d->recvmsgs;
		v[5][n] = (double)d->msgs;
		a->answer = d->answer;
		a->returned = d->returned;
		a->expected = d->expected;
		a->filtered = d->filtered;
		a->done_filtered = d->done_filtered;
		n++;
	}
	a->n = n;
	if (!n)
		return -1;
	stats_compute(v[0], n, &a->wall);
	stats_compute(v[1], n, &a->user);
	stats_compute(v[2], n, &a->sys);
	stats_compute(v[3], n, &a->bytes);
	stats_compute(v[4], n, &a->recvmsgs);
	stats_compute(v[5], n, &a->msgs);
	return 0;
}

static int collect_ip(struct bench *b, int family, uint64_t routes, int mode, struct stats *wall, uint64_t *lines)
{
	double *x = xs(b->nips + 1);
	size_t i, n = 0;

	for (i = 0; i < b->nips; i++) {
		const struct ip_row *r = &b->ips[i];

		if (r->family != family || r->routes != routes || r->mode != mode || r->warmup)
			continue;
		x[n++] = ms(r->wall_ns);
		*lines = r->lines;
	}
	if (!n)
		return -1;
	return stats_compute(x, n, wall);
}

/* The dump metrics of one group into summary.json */
static void add_metrics(struct bench *b, int family, uint64_t routes, size_t bufsize)
{
	static const struct {
		const char *name, *unit;
	} mt[] = {
		{ "dump_wall_ms", "ms" },    { "dump_cpu_user_ms", "ms" }, { "dump_cpu_sys_ms", "ms" },
		{ "dump_bytes", "bytes" },   { "dump_routes", "routes" },  { "dump_recvmsgs", "calls" },
		{ "dump_messages", "messages" },
	};
	double *x = malloc((b->ndumps + 1) * sizeof(double));
	char rs[24], bs[24];
	size_t i, n, k;
	int mi;

	if (!x)
		exit(1);
	u64s(routes, rs);
	sprintf(bs, "%zu", bufsize);
	for (mi = 0; mi < b->nmodes; mi++) {
		int m = b->mode[mi];
		const char *params[] = { "mode", modes[m].name, "routes", rs, "family", family_name(family),
					 "bufsize", bs, NULL };

		for (k = 0; k < sizeof(mt) / sizeof(mt[0]); k++) {
			n = 0;
			for (i = 0; i < b->ndumps; i++) {
				const struct dump_row *d = &b->dumps[i];

				if (d->family != family || d->routes != routes || d->bufsize != bufsize ||
				    d->mode != m || d->warmup)
					continue;
				x[n++] = k == 0 ? ms(d->wall_ns) : k == 1 ? d->user_us / 1e3 : k == 2 ? d->sys_us / 1e3 :
					 k == 3 ? (double)d->bytes : k == 4 ? (double)d->answer :
					 k == 5 ? (double)d->recvmsgs : (double)d->msgs;
			}
			out_metric(b->o, mt[k].name, params, mt[k].unit, x, n);
		}
	}
	free(x);
}

/* iproute2_wall_ms (and its start-up baseline), with the params of our dumps at the first buffer size */
static void add_ip_metrics(struct bench *b, int family, uint64_t routes)
{
	double *x = malloc((b->nips + 1) * sizeof(double));
	char rs[24], bs[24];
	size_t i, n;
	int mi;

	if (!x)
		exit(1);
	u64s(routes, rs);
	sprintf(bs, "%zu", b->bufs[0]);
	for (mi = -1; mi < b->nmodes; mi++) {
		int m = mi < 0 ? IP_STARTUP : b->mode[mi];
		const char *params[] = { "mode", mode_name(m), "routes", rs, "family", family_name(family),
					 "bufsize", bs, NULL };

		n = 0;
		for (i = 0; i < b->nips; i++) {
			const struct ip_row *r = &b->ips[i];

			if (r->family == family && r->routes == routes && r->mode == m && !r->warmup)
				x[n++] = ms(r->wall_ns);
		}
		if (n)
			out_metric(b->o, m == IP_STARTUP ? "iproute2_startup_ms" : "iproute2_wall_ms", params, "ms", x, n);
	}
	free(x);
}

static void add_insert_metric(struct bench *b, const struct insert_run *run, size_t first_sample)
{
	char rs[24], bs[24];
	double *x;
	size_t i, n = 0;
	const char *params[] = { "mode", run->method, "routes", u64s(run->to, rs), "family",
				 family_name(run->family), "bufsize", bs, NULL };

	sprintf(bs, "%zu", run->batch);
	if (!strcmp(run->method, "ip-batch")) {
		double rate = (run->to - run->from) / (run->ns / 1e9);

		out_metric(b->o, "iproute2_insert_routes_per_s", params, "routes/s", &rate, 1);
		return;
	}
	x = malloc((b->batches.n + 1) * sizeof(double));
	if (!x)
		exit(1);
	for (i = first_sample; i < b->batches.n; i++)
		x[n++] = b->batches.v[i].msgs / (b->batches.v[i].ns / 1e9);
	out_metric(b->o, "insert_routes_per_s", params, "routes/s", x, n);
	free(x);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct buffer sizes the dumps used, ascending */
static int bufsizes_used(struct bench *b, uint64_t *out, int max)
{
	int n = 0, j;
	size_t i;

	for (i = 0; i < b->ndumps; i++) {
		for (j = 0; j < n && out[j] != b->dumps[i].bufsize; j++)
			;
		if (j == n && n < max)
			out[n++] = b->dumps[i].bufsize;
	}
	qsort(out, n, sizeof(*out), cmp_u64);
	return n;
}

/*
 * The figures' inputs, ordered family, buffer size, mode, table size (so
 * gnuplot draws each mode as one line): medians per group, speed-ups over
 * legacy_userfilter, ours against iproute2; and the targets.
 */
static int write_derived(struct bench *b)
{
	struct atomic_file st, sp, cmp, tgt;
	uint64_t bufs[8];
	int nb, fi, si, bi, mi, err = 0;
	struct agg a, l;

	nb = bufsizes_used(b, bufs, 8);
	if (csv_open(&st, b->out, "dump-stats.csv",
		     "family,routes,bufsize,mode,mode_index,selectivity,n,wall_ms,wall_ms_min,wall_ms_max,wall_ms_stddev,"
		     "user_ms,sys_ms,bytes,answer,returned,recvmsgs,msgs,routes_per_s,bytes_per_answer_route,"
		     "filtered,done_filtered"))
		return -EIO;
	if (csv_open(&sp, b->out, "speedup.csv",
		     "family,routes,bufsize,mode,mode_index,selectivity,legacy_ms,mode_ms,speedup,speedup_min,speedup_max")) {
		atomic_abort(&st);
		return -EIO;
	}
	if (csv_open(&cmp, b->out, "iproute2-compare.csv",
		     "family,routes,mode,mode_index,ours_ms,ours_min,ours_max,ip_ms,ip_min,ip_max,n_ours,n_ip,"
		     "ratio,ip_startup_ms,ip_minus_startup_ms,ratio_minus_startup,ip_lines,answer")) {
		atomic_abort(&st);
		atomic_abort(&sp);
		return -EIO;
	}
	for (fi = 0; fi < b->nfam; fi++) {
		int f = b->fam[fi];

		for (bi = 0; bi < nb; bi++) {
			for (mi = 0; mi < b->nmodes; mi++) {
				int m = b->mode[mi];

				for (si = 0; si < b->nsizes; si++) {
					uint64_t n = b->sizes[si];
					struct stats w, su;
					uint64_t lines = 0, sl;

					if (collect(b, f, n, bufs[bi], m, &a))
						continue;
					fprintf(st.f, "%s,%" PRIu64 ",%" PRIu64 ",%s,%d,%.6f,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%"
						PRIu64 ",%" PRIu64 ",%.1f,%.1f,%.1f,%.2f,%s,%d\n",
						family_name(f), n, bufs[bi], modes[m].name, m, (double)a.expected / n, a.n,
						a.wall.median, a.wall.min, a.wall.max, a.wall.stddev, a.user.median,
						a.sys.median, a.bytes.median, a.answer, a.returned, a.recvmsgs.median,
						a.msgs.median, a.returned / (a.wall.median / 1e3),
						a.answer ? a.bytes.median / a.answer : 0.0, flag_str(a.filtered),
						a.done_filtered);
					if (m != 0 && !collect(b, f, n, bufs[bi], 0, &l))
						fprintf(sp.f, "%s,%" PRIu64 ",%" PRIu64 ",%s,%d,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
							family_name(f), n, bufs[bi], modes[m].name, m,
							(double)a.expected / n, l.wall.median, a.wall.median,
							l.wall.median / a.wall.median, l.wall.min / a.wall.max,
							l.wall.max / a.wall.min);
					if (bufs[bi] != b->bufs[0] || collect_ip(b, f, n, m, &w, &lines))
						continue;
					if (collect_ip(b, f, n, IP_STARTUP, &su, &sl))
						su.median = NAN;
					fprintf(cmp.f, "%s,%" PRIu64 ",%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%"
						PRIu64 ",%" PRIu64 "\n",
						family_name(f), n, modes[m].name, m, a.wall.median, a.wall.min, a.wall.max,
						w.median, w.min, w.max, a.n, w.n, a.wall.median / w.median, su.median,
						w.median - su.median, a.wall.median / (w.median - su.median), lines,
						a.answer);
				}
			}
		}
	}
	err |= atomic_commit(&st);
	err |= atomic_commit(&sp);
	err |= atomic_commit(&cmp);

	/* The targets, where this run measured what they need */
	if (csv_open(&tgt, b->out, "targets.csv", "target,family,routes,value,limit,met,note"))
		return -EIO;
	for (fi = 0; fi < b->nfam; fi++) {
		for (si = 0; si < b->nsizes; si++) {
			int f = b->fam[fi];
			uint64_t n = b->sizes[si];
			size_t bs = b->bufs[0];
			struct stats w, su;
			uint64_t lines;

			if (!collect(b, f, n, bs, 0, &l) && !collect(b, f, n, bs, 2, &a))
				fprintf(tgt.f, "strict_table wall / legacy_userfilter wall,%s,%" PRIu64 ",%.4f,0.1,%s,"
					"medians of %zu and %zu dumps; the same answer (%" PRIu64 " routes)\n",
					family_name(f), n, a.wall.median / l.wall.median,
					a.wall.median <= 0.1 * l.wall.median ? "yes" : "no", a.n, l.n, a.answer);
			if (!collect(b, f, n, bs, 1, &a)) {
				double share = (a.user.median + a.sys.median) > 0 ?
					       a.user.median / (a.user.median + a.sys.median) : 0;

				fprintf(tgt.f, "strict_all user CPU / total CPU,%s,%" PRIu64 ",%.4f,0.15,%s,"
					"medians of %zu dumps (user %.1f ms; system %.1f ms); split sampled by the tick (HZ)\n",
					family_name(f), n, share, share <= 0.15 ? "yes" : "no", a.n, a.user.median,
					a.sys.median);
			}
			if (collect_ip(b, f, n, IP_STARTUP, &su, &lines))
				su.median = NAN;
			for (mi = 0; mi < b->nmodes; mi++) {
				int m = b->mode[mi];

				if (m == 0 || collect(b, f, n, bs, m, &a) || collect_ip(b, f, n, m, &w, &lines))
					continue;
				char rest[96];

				if (w.median - su.median > 0)
					snprintf(rest, sizeof(rest), "%.4f", a.wall.median / (w.median - su.median));
				else
					snprintf(rest, sizeof(rest), "n/a (ip's dump is lost in the start-up's spread)");
				fprintf(tgt.f, "%s wall / iproute2 wall,%s,%" PRIu64 ",%.4f,1,%s,"
					"medians of %zu and %zu; against ip without its start-up (%.1f ms): %s\n",
					modes[m].name, family_name(f), n, a.wall.median / w.median,
					a.wall.median <= w.median ? "yes" : "no", a.n, w.n, su.median, rest);
			}
		}
	}
	{
		const struct insert_run *ip = NULL;
		size_t i;

		for (i = 0; i < b->ninserts; i++)
			if (!strcmp(b->inserts[i].method, "ip-batch") && b->inserts[i].ok)
				ip = &b->inserts[i];
		/* every batched IPv4 insert step against ip -batch (this run) and the calibration */
		for (i = 0; i < b->ninserts; i++) {
			const struct insert_run *r = &b->inserts[i];
			double ours = (r->to - r->from) / (r->ns / 1e9), ipb;

			if (r->family != AF_INET || !r->ok || strncmp(r->method, "batch", 5))
				continue;
			if (ip) {
				ipb = (ip->to - ip->from) / (ip->ns / 1e9);
				fprintf(tgt.f, "insert rate / ip -batch rate (this run),ipv4,%" PRIu64 ",%.2f,10,%s,"
					"ours %.0f routes/s inserting routes %" PRIu64 "-%" PRIu64 "; ip -batch %.0f routes/s "
					"inserting %" PRIu64 " into empty tables\n",
					r->to, ours / ipb, ours >= 10 * ipb ? "yes" : "no", ours, r->from, r->to - 1, ipb,
					ip->to);
			}
			fprintf(tgt.f, "insert rate / ip -batch rate (the issue's 100k in 110 s),ipv4,%" PRIu64 ",%.2f,10,%s,"
				"ours %.0f routes/s inserting routes %" PRIu64 "-%" PRIu64 " against 909 routes/s\n",
				r->to, ours / (100000 / 110.0), ours >= 10 * (100000 / 110.0) ? "yes" : "no", ours,
				r->from, r->to - 1);
		}
	}
	err |= atomic_commit(&tgt);
	return err ? -EIO : 0;
}

/* ----------------------------------------------------------------- bench */

static void parse_profile(struct bench *b, const char *profile)
{
	if (!strcmp(profile, "quick")) {
		b->nsizes = 1;
		b->sizes[0] = 10000;
		b->sweep_at = 0;
		b->anchor_insert = 10000;
	} else if (!strcmp(profile, "full")) {
		b->nsizes = 2;
		b->sizes[0] = 100000;
		b->sizes[1] = 1000000;
		b->sweep_at = 100000;
		b->anchor_insert = 100000;
	} else {
		usage_error("unknown profile '%s': expected quick or full", profile);
	}
}

/*
 * The dumps of one table size and buffer size: fresh sockets (the kernel
 * sizes dump skbs by the largest recvmsg a socket has seen), the modes
 * interleaved rep by rep; the first (warm-up) rep verifies the answer route
 * by route.
 */
static int run_group(struct bench *b, int family, size_t bufsize, const struct expect *e)
{
	struct nl_sock sk[2];
	int rep, mi, rc = 0;

	if (nl_open(&sk[0], NETLINK_ROUTE, bufsize) || nl_open(&sk[1], NETLINK_ROUTE, bufsize) ||
	    nl_set_strict(&sk[0], false) || nl_set_strict(&sk[1], true))
		return -1;
	fprintf(stderr, "%s: dumping %s, %" PRIu64 " routes, buffer %zu: %d modes x %d+%d\n", prog,
		family_name(family), e->n, bufsize, b->nmodes, b->warmup, b->reps);
	/* without warm-up dumps, one more dump verifies (and is not measured) */
	for (rep = 0; rep < b->warmup + b->reps + (b->warmup == 0); rep++) {
		for (mi = 0; mi < b->nmodes; mi++) {
			int m = b->mode[mi];
			struct dump_row *d;

			b->dumps = grow(b->dumps, &b->cap_dumps, b->ndumps, sizeof(*b->dumps));
			d = &b->dumps[b->ndumps++];
			memset(d, 0, sizeof(*d));
			if (dump_once(&sk[modes[m].strict], family, m, &b->tg, e, rep == 0, d)) {
				fail(b, "%s dump of %" PRIu64 " %s routes (buffer %zu): %s", modes[m].name, e->n,
				     family_name(family), bufsize, d->why);
				rc = -1;
			}
			d->rep = rep;
			d->warmup = rep < (b->warmup ? b->warmup : 1);
		}
	}
	nl_close(&sk[0]);
	nl_close(&sk[1]);
	return rc;
}

static int run_iproute2(struct bench *b, int family, const struct expect *e)
{
	int rep, mi, rc = 0;

	if (!b->iproute2)
		return 0;
	fprintf(stderr, "%s: iproute2 anchor, %s, %" PRIu64 " routes\n", prog, family_name(family), e->n);
	for (rep = 0; rep < b->warmup + b->reps; rep++) {
		for (mi = -1; mi < b->nmodes; mi++) {
			int m = mi < 0 ? IP_STARTUP : b->mode[mi];
			int f = m == IP_STARTUP ? F_NONE : modes[m].kernel;
			struct ip_row *r;
			int st;

			if (m == 0)
				continue;	/* iproute2 always sets strict checking */
			if (m != IP_STARTUP && b->iproute2 == 1 && e->n > 100000 && !(filter_bits[f] & FB_TABLE))
				continue;
			b->ips = grow(b->ips, &b->cap_ips, b->nips, sizeof(*b->ips));
			r = &b->ips[b->nips++];
			memset(r, 0, sizeof(*r));
			r->family = family;
			r->routes = e->n;
			r->mode = m;
			r->rep = rep;
			r->warmup = rep < b->warmup;
			r->expected = m == IP_STARTUP ? 1 : expect_total(e, f);
			st = ip_dump(family, m, &b->tg, r);
			r->ok = st == 0 && r->lines == r->expected;
			if (!r->ok) {
				fail(b, "ip route show for %s (%s, %" PRIu64 " routes): exit %d, %" PRIu64 " lines, expected %" PRIu64,
				     mode_name(m), family_name(family), e->n, st, r->lines, r->expected);
				rc = -1;
			}
		}
	}
	return rc;
}

/* Routes outside the lab's tables that each filter matches (the kernel's own) */
static int foreign_counts(const struct target *tg, int family, struct expect *e)
{
	struct counter c = { .tg = tg };
	char buf[NL_MSG_MAX];
	struct nl_sock s;
	struct nl_reply r;
	int f, err;

	if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&s, true))
		return -1;
	build_dump(nl_msg(&s, buf, RTM_GETROUTE, NLM_F_DUMP), family, F_NONE, tg);
	err = nl_dump(&s, (struct nlmsghdr *)buf, count_cb, &c, &r);
	nl_close(&s);
	if (err || r.error)
		return -1;
	for (f = 0; f < NFILTERS; f++)
		e->foreign[f] = c.match[f][1];
	return c.ours == e->n ? 0 : -1;
}

static int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profile", required_argument, NULL, 'p' }, { "out", required_argument, NULL, 'o' },
		{ "routes", required_argument, NULL, 'n' },  { "family", required_argument, NULL, 'f' },
		{ "modes", required_argument, NULL, 'm' },   { "bufsize", required_argument, NULL, 'b' },
		{ "sweep-at", required_argument, NULL, 's' }, { "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },  { "batch", required_argument, NULL, 'B' },
		{ "acks", required_argument, NULL, 'a' },    { "iproute2", required_argument, NULL, 'i' },
		{ "anchor-insert", required_argument, NULL, 'A' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const size_t sweep_bufs[] = { 8192, 32768, 1048576 };
	const char *profile = "quick", *routes = NULL, *fams = "4,6", *mlist = NULL, *blist = NULL;
	const char *sweep = NULL, *anchor = NULL;
	struct bench *b = calloc(1, sizeof(*b));
	uint64_t cur[2] = { 0, 0 };
	struct nl_sock s;
	char *items[16];
	int c, i, fi, si, bi, k;

	if (!b)
		return 1;
	b->reps = 5;
	b->warmup = 1;
	b->ins.batch = DEF_BATCH;
	b->ins.all_acks = false;
	b->iproute2 = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': profile = optarg; break;
		case 'o': b->out = optarg; break;
		case 'n': routes = optarg; break;
		case 'f': fams = optarg; break;
		case 'm': mlist = optarg; break;
		case 'b': blist = optarg; break;
		case 's': sweep = optarg; break;
		case 'r': b->reps = (int)parse_u64(optarg, "repetition count (--reps)", 1, 1000); break;
		case 'w': b->warmup = (int)parse_u64(optarg, "warm-up count (--warmup)", 0, 100); break;
		case 'B': b->ins.batch = parse_u64(optarg, "batch size (--batch)", 4096, 200000); break;
		case 'a':
			if (strcmp(optarg, "all") && strcmp(optarg, "errors"))
				usage_error("unknown ack mode '%s': expected all or errors", optarg);
			b->ins.all_acks = !strcmp(optarg, "all");
			break;
		case 'i':
			if (!strcmp(optarg, "none"))
				b->iproute2 = 0;
			else if (!strcmp(optarg, "selective"))
				b->iproute2 = 1;
			else if (!strcmp(optarg, "all"))
				b->iproute2 = 2;
			else
				usage_error("unknown iproute2 anchor '%s': expected all, selective or none", optarg);
			break;
		case 'A': anchor = optarg; break;
		case 'h': usage(); return 0;
		default: usage_error("bad option for bench");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	parse_profile(b, profile);
	if (routes) {
		b->nsizes = split_list(routes, items, 8, "route counts (--routes)");
		for (i = 0; i < b->nsizes; i++)
			b->sizes[i] = parse_u64(items[i], "number of routes (--routes)", 1, MAX_ROUTES);
	}
	for (i = 1; i < b->nsizes; i++)
		if (b->sizes[i] <= b->sizes[i - 1])
			usage_error("table sizes must ascend: '%" PRIu64 "' after '%" PRIu64 "' (--routes)", b->sizes[i],
				    b->sizes[i - 1]);
	b->nfam = split_list(fams, items, 2, "families (--family)");
	for (i = 0; i < b->nfam; i++)
		b->fam[i] = parse_family(items[i]);
	if (b->nfam == 2 && b->fam[0] == b->fam[1])
		usage_error("family '%s' given twice", items[1]);
	if (mlist) {
		b->nmodes = split_list(mlist, items, NMODES, "modes (--modes)");
		for (i = 0; i < b->nmodes; i++)
			b->mode[i] = parse_mode(items[i]);
	} else {
		b->nmodes = NMODES;
		for (i = 0; i < NMODES; i++)
			b->mode[i] = i;
	}
	if (blist) {
		b->nbuf = split_list(blist, items, 4, "buffer sizes (--bufsize)");
		for (i = 0; i < b->nbuf; i++)
			b->bufs[i] = parse_bufsize(items[i]);
	} else {
		b->nbuf = 1;
		b->bufs[0] = DEF_BUFSIZE;
	}
	if (sweep)
		b->sweep_at = parse_u64(sweep, "sweep table size (--sweep-at)", 0, MAX_ROUTES);
	if (anchor)
		b->anchor_insert = parse_u64(anchor, "number of routes (--anchor-insert)", 0, MAX_ROUTES);
	if (!b->out)
		usage_error("bench needs --out DIR");

	/* From here on, things get configured: in our own namespace only */
	if (private_netns())
		return 1;
	b->o = out_open(b->out, "routedump");
	if (!b->o)
		return 1;
	if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_rcvbuf(&s, 32 << 20) || setup_dummies(&s, b->ifindex)) {
		out_close(b->o, "setup of the dummy devices failed");
		return 1;
	}
	for (fi = 0; fi < b->nfam; fi++)
		if (add_baseline_route(&s, b->fam[fi])) {
			out_close(b->o, "the baseline route could not be added");
			return 1;
		}
	b->tg = (struct target){ .table = TABLE0 + 42, .proto = RTPROT_STATIC, .oif = (uint32_t)b->ifindex[0],
				 .oif_dev = 0 };
	/* A clean start: nothing in the lab's tables */
	for (fi = 0; fi < b->nfam; fi++) {
		struct expect e = { .n = 0 };

		if (foreign_counts(&b->tg, b->fam[fi], &e)) {
			fail(b, "not a clean start: %s routes in tables %d-%d already, or no dump",
			     family_name(b->fam[fi]), TABLE0, TABLE0 + NTABLES - 1);
			goto done;
		}
	}
	for (si = 0; si < b->nsizes && !b->failure[0]; si++) {
		struct expect e = { .n = b->sizes[si] };

		expected_counts(e.n, &b->tg, e.exp);
		for (fi = 0; fi < b->nfam; fi++) {
			struct insert_run run;
			size_t first = b->batches.n;

			fprintf(stderr, "%s: inserting %s routes %" PRIu64 "..%" PRIu64 "\n", prog,
				family_name(b->fam[fi]), cur[fi], e.n - 1);
			if (insert_routes(&s, b->fam[fi], cur[fi], e.n, b->ifindex, &b->ins, &b->batches, &run)) {
				fail(b, "inserting %s routes %" PRIu64 "..%" PRIu64 " failed", family_name(b->fam[fi]),
				     cur[fi], e.n - 1);
				goto done;
			}
			fprintf(stderr, "%s: %" PRIu64 " %s routes in %.2f s: %.0f routes/s\n", prog, e.n - cur[fi],
				family_name(b->fam[fi]), run.ns / 1e9, (e.n - cur[fi]) / (run.ns / 1e9));
			cur[fi] = e.n;
			b->inserts = grow(b->inserts, &b->cap_inserts, b->ninserts, sizeof(*b->inserts));
			b->inserts[b->ninserts++] = run;
			add_insert_metric(b, &run, first);
		}
		for (fi = 0; fi < b->nfam; fi++) {
			int f = b->fam[fi];

			if (foreign_counts(&b->tg, f, &e)) {
				fail(b, "the %s table does not hold the %" PRIu64 " routes inserted", family_name(f), e.n);
				goto done;
			}
			for (bi = 0; bi < b->nbuf; bi++) {
				run_group(b, f, b->bufs[bi], &e);
				add_metrics(b, f, e.n, b->bufs[bi]);
			}
			for (k = 0; e.n == b->sweep_at && k < 3; k++) {
				for (bi = 0; bi < b->nbuf && b->bufs[bi] != sweep_bufs[k]; bi++)
					;
				if (bi < b->nbuf)
					continue;
				run_group(b, f, sweep_bufs[k], &e);
				add_metrics(b, f, e.n, sweep_bufs[k]);
			}
			run_iproute2(b, f, &e);
			add_ip_metrics(b, f, e.n);
			write_csvs(b);
		}
		write_derived(b);
	}
	if (!b->failure[0] && b->anchor_insert) {
		struct insert_run run;

		fprintf(stderr, "%s: anchor: ip -batch with %" PRIu64 " IPv4 routes\n", prog, b->anchor_insert);
		if (ip_batch_insert(b->anchor_insert, &run))
			fail(b, "ip -batch anchor failed (%" PRIu64 " routes)", b->anchor_insert);
		else
			fprintf(stderr, "%s: ip -batch: %" PRIu64 " routes in %.2f s: %.0f routes/s\n", prog,
				b->anchor_insert, run.ns / 1e9, b->anchor_insert / (run.ns / 1e9));
		b->inserts = grow(b->inserts, &b->cap_inserts, b->ninserts, sizeof(*b->inserts));
		b->inserts[b->ninserts++] = run;
		if (run.ok)
			add_insert_metric(b, &run, 0);
	}
done:
	write_csvs(b);
	write_derived(b);
	nl_close(&s);
	out_close(b->o, b->failure[0] ? b->failure : NULL);
	return b->failure[0] ? 1 : 0;
}

/* ------------------------------------------------------ populate / dump */

static int cmd_populate_or_dump(int argc, char **argv, bool dump)
{
	static const struct option opts[] = {
		{ "routes", required_argument, NULL, 'n' }, { "family", required_argument, NULL, 'f' },
		{ "batch", required_argument, NULL, 'B' },  { "acks", required_argument, NULL, 'a' },
		{ "mode", required_argument, NULL, 'm' },   { "bufsize", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 },
	};
	struct insert_opts io = { DEF_BATCH, false };
	int c, family = AF_INET, mode = -1, ifindex[2];
	size_t bufsize = DEF_BUFSIZE;
	uint64_t n = 0;
	struct nl_sock s;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': n = parse_u64(optarg, "number of routes (--routes)", 1, MAX_ROUTES); break;
		case 'f': family = parse_family(optarg); break;
		case 'B': io.batch = parse_u64(optarg, "batch size (--batch)", 4096, 200000); break;
		case 'a':
			if (strcmp(optarg, "all") && strcmp(optarg, "errors"))
				usage_error("unknown ack mode '%s': expected all or errors", optarg);
			io.all_acks = !strcmp(optarg, "all");
			break;
		case 'm': mode = parse_mode(optarg); break;
		case 'b': bufsize = parse_bufsize(optarg); break;
		case 'h': usage(); return 0;
		default: usage_error("bad option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!n)
		usage_error("--routes N is required");
	if (dump && mode < 0)
		usage_error("dump needs --mode");
	if (in_init_netns())
		usage_error("%s configures routes: run it in a network namespace (ip netns exec NAME %s ...)",
			    dump ? "dump" : "populate", prog);
	if (nl_open(&s, NETLINK_ROUTE, bufsize) || nl_set_rcvbuf(&s, 32 << 20))
		return 1;
	if (!dump) {
		struct samples smp = { 0 };
		struct insert_run run;

		if (setup_dummies(&s, ifindex) ||
		    insert_routes(&s, family, 0, n, ifindex, &io, &smp, &run))
			return 1;
		printf("%" PRIu64 " %s routes in %.3f s: %.0f routes/s (%" PRIu64 " sendmsg, %" PRIu64 " recvmsg)\n", n,
		       family_name(family), run.ns / 1e9, n / (run.ns / 1e9), run.sendmsgs, run.recvmsgs);
		return 0;
	} else {
		struct target tg = { .table = TABLE0 + 42, .proto = RTPROT_STATIC, .oif = if_nametoindex("dum0") };
		struct expect e = { .n = n };
		struct dump_row d = { 0 };

		expected_counts(n, &tg, e.exp);
		if (foreign_counts(&tg, family, &e))
			fprintf(stderr, "%s: the namespace does not hold the %" PRIu64 " routes of the lab\n", prog, n);
		nl_set_strict(&s, modes[mode].strict);
		dump_once(&s, family, mode, &tg, &e, false, &d);
		printf("%s %s: %.3f ms wall, %.3f ms user, %.3f ms sys, %" PRIu64 " bytes, %" PRIu64 " recvmsg, %" PRIu64
		       " messages, %" PRIu64 " routes returned, answer %" PRIu64 " (expected %" PRIu64 "), filtered %c: %s\n",
		       modes[mode].name, family_name(family), ms(d.wall_ns), d.user_us / 1e3, d.sys_us / 1e3, d.bytes,
		       d.recvmsgs, d.msgs, d.returned, d.answer, d.expected, d.filtered, d.ok ? "ok" : d.why);
		return d.ok ? 0 : 1;
	}
}

/* ------------------------------------------------------------ conformance */

/* ------------------------------------------------------------ conformance */

/*
 * The strict-checking conformance suite. For every dump the strict-checking
 * series (Linux 4.20) changed, a table of what a strict dump request must
 * look like: the family header, each field that must be zero, and an
 * attribute the dump does not take. The expected extack messages are the
 * 6.1 sources' (net/core/rtnetlink.c, net/ipv4/devinet.c, fib_frontend.c,
 * ipmr.c, net/ipv6/addrconf.c, addrlabel.c, ip6_fib.c, net/core/neighbour.c,
 * fib_rules.c, net_namespace.c, net/bridge/br_mdb.c, net/mpls/af_mpls.c);
 * NL_SET_ERR_MSG_MOD prefixes the module's name ("ipv6: ", "bridge: ",
 * "mpls_router: ").
 */
struct field {
	const char *name;
	uint8_t off, size;
	uint32_t val;
	const char *msg;
};

struct dcase {
	const char *name;
	uint16_t type;
	uint8_t family;
	uint8_t hdrlen;
	const struct field *fields;
	int nfields;
	const char *short_msg;		/* NULL: the header is one byte, nothing shorter reaches the dump */
	uint16_t attr;
	uint8_t attr_len;
	const char *attr_name;
	const char *attr_msg;
	/* strict off: what the legacy path does with the malformed requests */
	int legacy_short_err;
	const char *legacy_short_msg;
	const char *legacy_short_why;
	int legacy_attr_err;
	const char *legacy_attr_msg;
	const char *legacy_attr_why;
	void (*fix)(uint8_t *hdr);	/* make the header valid beyond the family */
};

#define MSG_LINK_VALUES "Invalid values in header for link dump request"
static const struct field link_fields[] = {
	{ "__ifi_pad", 1, 1, 1, MSG_LINK_VALUES },
	{ "ifi_type", 2, 2, 1, MSG_LINK_VALUES },
	{ "ifi_flags", 8, 4, IFF_UP, MSG_LINK_VALUES },
	{ "ifi_change", 12, 4, IFF_UP, MSG_LINK_VALUES },
	{ "ifi_index", 4, 4, 1, "Filter by device index not supported for link dumps" },
};
#define IFI_FIELDS(msg)                                                                                     \
	{ "__ifi_pad", 1, 1, 1, msg }, { "ifi_type", 2, 2, 1, msg }, { "ifi_flags", 8, 4, IFF_UP, msg },    \
	{ "ifi_change", 12, 4, IFF_UP, msg }, { "ifi_index", 4, 4, 1, msg }
static const struct field link6_fields[] = { IFI_FIELDS("ipv6: Invalid values in header for dump request") };
static const struct field linkmr_fields[] = { IFI_FIELDS("Invalid values in header for ipmr link dump request") };
static const struct field brlink_fields[] = { IFI_FIELDS("Invalid values in header for bridge link dump request") };
#define IFA_FIELDS(msg) { "ifa_prefixlen", 1, 1, 24, msg }, { "ifa_flags", 2, 1, 1, msg }, { "ifa_scope", 3, 1, 1, msg }
static const struct field addr4_fields[] = { IFA_FIELDS("ipv4: Invalid values in header for address dump request") };
static const struct field addr6_fields[] = { IFA_FIELDS("ipv6: Invalid values in header for address dump request") };
#define MSG_LBL "ipv6: Invalid values in header for address label dump request"
static const struct field addrlbl_fields[] = {
	{ "__ifal_reserved", 1, 1, 1, MSG_LBL }, { "ifal_prefixlen", 2, 1, 64, MSG_LBL },
	{ "ifal_flags", 3, 1, 1, MSG_LBL },	  { "ifal_index", 4, 4, 1, MSG_LBL },
	{ "ifal_seq", 8, 4, 1, MSG_LBL },
};
#define MSG_FIB "Invalid values in header for FIB dump request"
static const struct field route_fields[] = {
	{ "rtm_dst_len", 1, 1, 8, MSG_FIB },
	{ "rtm_src_len", 2, 1, 8, MSG_FIB },
	{ "rtm_tos", 3, 1, 4, MSG_FIB },
	{ "rtm_scope", 6, 1, RT_SCOPE_LINK, MSG_FIB },
	{ "rtm_flags", 8, 4, RTM_F_NOTIFY, "Invalid flags for FIB dump request" },
};
#define MSG_STATS "Invalid values in header for stats dump request"
static const struct field stats_fields[] = {
	{ "pad1", 1, 1, 1, MSG_STATS },
	{ "pad2", 2, 2, 1, MSG_STATS },
	{ "ifindex", 4, 4, 1, MSG_STATS },
	{ "filter_mask", 8, 4, 1u << 31, "Invalid stats requested through filter mask" },
};
#define MSG_NEIGH "Invalid values in header for neighbor dump request"
static const struct field neigh_fields[] = {
	{ "ndm_pad1", 1, 1, 1, MSG_NEIGH },
	{ "ndm_pad2", 2, 2, 1, MSG_NEIGH },
	{ "ndm_ifindex", 4, 4, 1, MSG_NEIGH },
	{ "ndm_state", 8, 2, NUD_PERMANENT, MSG_NEIGH },
	{ "ndm_flags", 10, 1, NTF_USE, "Invalid flags in header for neighbor dump request" },
	{ "ndm_type", 11, 1, RTN_UNICAST, MSG_NEIGH },
};
#define MSG_NTBL "Invalid values in header for neighbor table dump request"
static const struct field neightbl_fields[] = {
	{ "ndtm_pad1", 1, 1, 1, MSG_NTBL },
	{ "ndtm_pad2", 2, 2, 1, MSG_NTBL },
};
#define MSG_RULE "Invalid values in header for fib rule dump request"
static const struct field rule_fields[] = {
	{ "dst_len", 1, 1, 8, MSG_RULE }, { "src_len", 2, 1, 8, MSG_RULE }, { "tos", 3, 1, 4, MSG_RULE },
	{ "table", 4, 1, 100, MSG_RULE }, { "res1", 5, 1, 1, MSG_RULE },    { "res2", 6, 1, 1, MSG_RULE },
	{ "action", 7, 1, FR_ACT_TO_TBL, MSG_RULE }, { "flags", 8, 4, FIB_RULE_INVERT, MSG_RULE },
};
static const struct field mdb_fields[] = {
	{ "ifindex", 4, 4, 1, "bridge: Filtering by device index is not supported for mdb dump request" },
};
#define MSG_FDB "Invalid values in header for fdb dump request"
static const struct field fdb_fields[] = {
	{ "ndm_pad1", 1, 1, 1, MSG_FDB },
	{ "ndm_pad2", 2, 2, 1, MSG_FDB },
	{ "ndm_state", 8, 2, NUD_PERMANENT, MSG_FDB },
	{ "ndm_flags", 10, 1, NTF_SELF, MSG_FDB },
	{ "ndm_type", 11, 1, RTN_UNICAST, MSG_FDB },
};

static void stats_fix(uint8_t *hdr)
{
	uint32_t mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);

	memcpy(hdr + offsetof(struct if_stats_msg, filter_mask), &mask, 4);
}

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
#define MSG_ROUTE_SHORT "Invalid header for FIB dump request"
#define MSG_ROUTE_ATTR "Unsupported attribute in dump request"
#define ROUTE_CASE(nm, fam)                                                                                    \
	{ nm, RTM_GETROUTE, fam, sizeof(struct rtmsg), route_fields, N(route_fields), MSG_ROUTE_SHORT, RTA_DST, \
	  4, "RTA_DST", MSG_ROUTE_ATTR, 0, NULL, NULL, 0, NULL, NULL, NULL }

static const struct dcase dcases[] = {
	{ "RTM_GETLINK", RTM_GETLINK, AF_UNSPEC, sizeof(struct ifinfomsg), link_fields, N(link_fields),
	  "Invalid header for link dump", IFLA_MTU, 4, "IFLA_MTU", "Unsupported attribute in link dump request",
	  0, NULL, "as the rtgenmsg-sized request of iproute2 < 3.9 needs", 0, NULL, NULL, NULL },
	{ "RTM_GETLINK/inet6", RTM_GETLINK, AF_INET6, sizeof(struct ifinfomsg), link6_fields, N(link6_fields),
	  "ipv6: Invalid header for link dump request", IFLA_MTU, 4, "IFLA_MTU", "ipv6: Invalid data after header",
	  0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETLINK/ipmr", RTM_GETLINK, RTNL_FAMILY_IPMR, sizeof(struct ifinfomsg), linkmr_fields,
	  N(linkmr_fields), "ipv4: Invalid header for ipmr link dump", IFLA_MTU, 4, "IFLA_MTU",
	  "Invalid data after header in ipmr link dump", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETLINK/bridge", RTM_GETLINK, AF_BRIDGE, sizeof(struct ifinfomsg), brlink_fields,
	  N(brlink_fields), "Invalid header for bridge link dump", IFLA_MTU, 4, "IFLA_MTU",
	  "Unsupported attribute in bridge link dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETADDR/inet", RTM_GETADDR, AF_INET, sizeof(struct ifaddrmsg), addr4_fields, N(addr4_fields),
	  "ipv4: Invalid header for address dump request", IFA_LOCAL, 4, "IFA_LOCAL",
	  "ipv4: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETADDR/inet6", RTM_GETADDR, AF_INET6, sizeof(struct ifaddrmsg), addr6_fields, N(addr6_fields),
	  "ipv6: Invalid header for address dump request", IFA_LOCAL, 16, "IFA_LOCAL",
	  "ipv6: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETMULTICAST/inet6", RTM_GETMULTICAST, AF_INET6, sizeof(struct ifaddrmsg), addr6_fields,
	  N(addr6_fields), "ipv6: Invalid header for address dump request", IFA_LOCAL, 16, "IFA_LOCAL",
	  "ipv6: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETANYCAST/inet6", RTM_GETANYCAST, AF_INET6, sizeof(struct ifaddrmsg), addr6_fields,
	  N(addr6_fields), "ipv6: Invalid header for address dump request", IFA_LOCAL, 16, "IFA_LOCAL",
	  "ipv6: Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETADDRLABEL/inet6", RTM_GETADDRLABEL, AF_INET6, sizeof(struct ifaddrlblmsg), addrlbl_fields,
	  N(addrlbl_fields), "ipv6: Invalid header for address label dump request", IFAL_LABEL, 4, "IFAL_LABEL",
	  "ipv6: Invalid data after header for address label dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	ROUTE_CASE("RTM_GETROUTE/inet", AF_INET),
	ROUTE_CASE("RTM_GETROUTE/inet6", AF_INET6),
	ROUTE_CASE("RTM_GETROUTE/mpls", AF_MPLS),
	ROUTE_CASE("RTM_GETROUTE/ipmr", RTNL_FAMILY_IPMR),
	ROUTE_CASE("RTM_GETROUTE/ip6mr", RTNL_FAMILY_IP6MR),
	{ "RTM_GETSTATS", RTM_GETSTATS, AF_UNSPEC, sizeof(struct if_stats_msg), stats_fields, N(stats_fields),
	  "Invalid header for stats dump", IFLA_STATS_SET_OFFLOAD_XSTATS_L3_STATS, 1,
	  "IFLA_STATS_SET_OFFLOAD_XSTATS_L3_STATS", "Unsupported attribute",
	  -EINVAL, "Invalid header for stats dump",
	  "not tolerated: rtnl_valid_stats_req() checks the length whatever the socket says",
	  -EINVAL, "Unsupported attribute",
	  "not tolerated: rtnl_stats_get_parse() parses attributes strictly whatever the socket says", stats_fix },
	{ "RTM_GETNEIGH/inet", RTM_GETNEIGH, AF_INET, sizeof(struct ndmsg), neigh_fields, N(neigh_fields),
	  "Invalid header for neighbor dump request", NDA_DST, 4, "NDA_DST",
	  "Unsupported attribute in neighbor dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNEIGHTBL", RTM_GETNEIGHTBL, AF_UNSPEC, sizeof(struct ndtmsg), neightbl_fields,
	  N(neightbl_fields), "Invalid header for neighbor table dump request", NDTA_THRESH1, 4, "NDTA_THRESH1",
	  "Invalid data after header in neighbor table dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNSID", RTM_GETNSID, AF_UNSPEC, sizeof(struct rtgenmsg), NULL, 0, NULL, NETNSA_PID, 4,
	  "NETNSA_PID", "Unsupported attribute in dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETRULE/inet", RTM_GETRULE, AF_INET, sizeof(struct fib_rule_hdr), rule_fields, N(rule_fields),
	  "Invalid header for fib rule dump request", FRA_PRIORITY, 4, "FRA_PRIORITY",
	  "Invalid data after header in fib rule dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNETCONF/inet", RTM_GETNETCONF, AF_INET, sizeof(struct netconfmsg), NULL, 0, NULL,
	  NETCONFA_IFINDEX, 4, "NETCONFA_IFINDEX", "ipv4: Invalid data after header in netconf dump request", 0,
	  NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNETCONF/inet6", RTM_GETNETCONF, AF_INET6, sizeof(struct netconfmsg), NULL, 0, NULL,
	  NETCONFA_IFINDEX, 4, "NETCONFA_IFINDEX", "ipv6: Invalid data after header in netconf dump request", 0,
	  NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNETCONF/mpls", RTM_GETNETCONF, AF_MPLS, sizeof(struct netconfmsg), NULL, 0, NULL,
	  NETCONFA_IFINDEX, 4, "NETCONFA_IFINDEX", "mpls_router: Invalid data after header in netconf dump request",
	  0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETMDB/bridge", RTM_GETMDB, AF_BRIDGE, sizeof(struct br_port_msg), mdb_fields, N(mdb_fields),
	  "bridge: Invalid header for mdb dump request", MDBA_MDB, 4, "MDBA_MDB",
	  "Invalid data after header in mdb dump request", 0, NULL, NULL, 0, NULL, NULL, NULL },
	{ "RTM_GETNEIGH/bridge (fdb)", RTM_GETNEIGH, AF_BRIDGE, sizeof(struct ndmsg), fdb_fields, N(fdb_fields),
	  "Invalid header for fdb dump request", NDA_DST, 4, "NDA_DST", "Unsupported attribute in fdb dump request",
	  -EINVAL, "Invalid header length",
	  "not tolerated: the legacy fdb dump takes an ndmsg or an ifinfomsg, nothing shorter", 0, NULL, NULL, NULL },
};
#define NDCASES N(dcases)

enum variant { V_OK, V_SHORT, V_FIELD, V_ATTR };

/* A dump request of case @d, valid, or malformed by @v (field @k) */
static struct nlmsghdr *case_request(struct nl_sock *s, void *buf, const struct dcase *d, enum variant v, int k)
{
	struct nlmsghdr *nlh = nl_msg(s, buf, d->type, NLM_F_DUMP);
	uint8_t *hdr = mnl_nlmsg_put_extra_header(nlh, d->hdrlen);

	hdr[0] = d->family;
	if (d->fix)
		d->fix(hdr);
	switch (v) {
	case V_OK:
		break;
	case V_SHORT:
		/* the rtgenmsg of old requests: the family byte only */
		nlh->nlmsg_len = NLMSG_HDRLEN + 1;
		break;
	case V_FIELD: {
		const struct field *f = &d->fields[k];

		if (f->size == 1)
			hdr[f->off] = (uint8_t)f->val;
		else if (f->size == 2)
			memcpy(hdr + f->off, &(uint16_t){ (uint16_t)f->val }, 2);
		else
			memcpy(hdr + f->off, &f->val, 4);
		break;
	}
	case V_ATTR: {
		uint8_t payload[16] = { 0 };

		if (d->attr_len == 4)
			memcpy(payload, &(uint32_t){ 1 }, 4);
		else
			payload[0] = 1;
		mnl_attr_put(nlh, d->attr, d->attr_len, payload);
		break;
	}
	}
	return nlh;
}

/* Send a request and read its whole answer; reopens the socket when the answer was not clean */
static int ask(struct nl_sock *s, const struct nlmsghdr *nlh, size_t len, mnl_cb_t cb, void *data,
	       struct nl_reply *r)
{
	int err = nl_send_raw(s, nlh, len);

	if (!err)
		err = nl_recv(s, nlh->nlmsg_seq, cb, data, r, 10000);
	if (err) {
		int strict = 0;

		nl_getopt(s, NETLINK_GET_STRICT_CHK, &strict);
		nl_close(s);
		if (nl_open(s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(s, strict))
			tap_bail("cannot reopen the netlink socket");
	}
	return err;
}

static const char *errname(int err, char *buf, size_t len)
{
	const char *n = err ? strerrorname_np(-err) : "ok";

	snprintf(buf, len, "%s", n ? n : "unknown error");
	return buf;
}

/*
 * One request against its expectation: @exp_err 0 = a dump that ends
 * cleanly, else that error with the extack message @exp_msg (NULL: any).
 * The answer, extack included, is printed in the TAP line.
 */
static bool expect(struct nl_sock *s, const struct nlmsghdr *nlh, int exp_err, const char *exp_msg,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static bool expect(struct nl_sock *s, const struct nlmsghdr *nlh, int exp_err, const char *exp_msg,
		   const char *fmt, ...)
{
	char what[300], got[300], want[300], e1[32];
	struct nl_reply r;
	va_list ap;
	bool pass;
	int err;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err = ask(s, nlh, nlh->nlmsg_len, NULL, NULL, &r);
	if (err)
		return tap_fail(what, "no clean answer: %s", strerror(-err));
	if (r.error == 0 && r.end == NLMSG_DONE)
		snprintf(got, sizeof(got), "a dump of %" PRIu64 " messages", r.data_msgs);
	else
		nl_reply_str(&r, got, sizeof(got));
	if (!exp_err) {
		pass = r.error == 0 && r.end == NLMSG_DONE;
		snprintf(want, sizeof(want), "a dump");
	} else {
		pass = r.error == exp_err && (!exp_msg || !strcmp(r.extack, exp_msg));
		if (exp_msg)
			snprintf(want, sizeof(want), "%s \"%s\"", errname(exp_err, e1, sizeof(e1)), exp_msg);
		else
			snprintf(want, sizeof(want), "%s", errname(exp_err, e1, sizeof(e1)));
	}
	if (pass)
		return tap_ok(true, "%s: %s", what, got);
	return tap_fail(what, "expected %s, got %s", want, got);
}

static void suite_dump_checks(struct nl_sock *strict, struct nl_sock *legacy)
{
	char buf[NL_MSG_MAX];
	int i, k;

	for (i = 0; i < NDCASES; i++) {
		const struct dcase *d = &dcases[i];

		tap_diag("%s (family %u, %u-byte header)", d->name, d->family, d->hdrlen);
		/* strict on */
		expect(strict, case_request(strict, buf, d, V_OK, 0), 0, NULL,
		       "%s strict: the correct header dumps fine", d->name);
		if (d->short_msg)
			expect(strict, case_request(strict, buf, d, V_SHORT, 0), -EINVAL, d->short_msg,
			       "%s strict: a short header (1 byte) is rejected", d->name);
		for (k = 0; k < d->nfields; k++)
			expect(strict, case_request(strict, buf, d, V_FIELD, k), -EINVAL, d->fields[k].msg,
			       "%s strict: %s=%u is rejected", d->name, d->fields[k].name, d->fields[k].val);
		expect(strict, case_request(strict, buf, d, V_ATTR, 0), -EINVAL, d->attr_msg,
		       "%s strict: attribute %s is rejected", d->name, d->attr_name);
		/* strict off: the legacy behaviour */
		expect(legacy, case_request(legacy, buf, d, V_OK, 0), 0, NULL,
		       "%s legacy: the correct header dumps fine", d->name);
		if (d->short_msg)
			expect(legacy, case_request(legacy, buf, d, V_SHORT, 0), d->legacy_short_err,
			       d->legacy_short_msg, "%s legacy: a short header (1 byte) %s%s%s", d->name,
			       d->legacy_short_err ? "is " : "is tolerated",
			       d->legacy_short_err ? d->legacy_short_why : d->legacy_short_why ? ", " : "",
			       !d->legacy_short_err && d->legacy_short_why ? d->legacy_short_why : "");
		for (k = 0; k < d->nfields; k++)
			expect(legacy, case_request(legacy, buf, d, V_FIELD, k), 0, NULL,
			       "%s legacy: %s=%u is tolerated", d->name, d->fields[k].name, d->fields[k].val);
		expect(legacy, case_request(legacy, buf, d, V_ATTR, 0), d->legacy_attr_err, d->legacy_attr_msg,
		       "%s legacy: attribute %s is %s", d->name, d->attr_name,
		       d->legacy_attr_err ? d->legacy_attr_why : "tolerated (ignored)");
	}
}

/* The old iproute2 link dump: rtgenmsg plus IFLA_EXT_MASK */
static void suite_old_link_dump(struct nl_sock *strict, struct nl_sock *legacy)
{
	char buf[NL_MSG_MAX];
	struct nl_sock *s;
	int i;

	for (i = 0; i < 2; i++) {
		struct nlmsghdr *nlh;
		struct rtgenmsg *g;

		s = i ? strict : legacy;
		nlh = nl_msg(s, buf, RTM_GETLINK, NLM_F_DUMP);
		g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
		g->rtgen_family = AF_UNSPEC;
		mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_VF);
		if (i)
			expect(s, nlh, -EINVAL, "Invalid header for link dump",
			       "RTM_GETLINK strict: the old rtgenmsg + IFLA_EXT_MASK link dump is rejected");
		else
			expect(s, nlh, 0, NULL,
			       "RTM_GETLINK legacy: the old rtgenmsg + IFLA_EXT_MASK link dump of iproute2 < 3.9 works");
	}
}

static void suite_sockopt(void)
{
	struct nl_sock s;
	int v = -1;

	if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE))
		tap_bail("no netlink socket");
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 0, "getsockopt(NETLINK_GET_STRICT_CHK) of a new socket reads 0");
	nl_set_strict(&s, true);
	v = -1;
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 1, "getsockopt(NETLINK_GET_STRICT_CHK) reads back 1 after setting 1");
	nl_set_strict(&s, false);
	v = -1;
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 0, "getsockopt(NETLINK_GET_STRICT_CHK) reads back 0 after setting 0");
	nl_setopt(&s, NETLINK_GET_STRICT_CHK, 7);
	v = -1;
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 1, "getsockopt(NETLINK_GET_STRICT_CHK) reads 1 after setting 7 (a boolean)");
	nl_close(&s);
}

static void suite_stats_mask(struct nl_sock *strict, struct nl_sock *legacy)
{
	char buf[NL_MSG_MAX];
	int i;

	for (i = 0; i < 2; i++) {
		struct nl_sock *s = i ? legacy : strict;
		struct nlmsghdr *nlh = nl_msg(s, buf, RTM_GETSTATS, NLM_F_DUMP);
		struct if_stats_msg *m = mnl_nlmsg_put_extra_header(nlh, sizeof(*m));

		m->family = AF_UNSPEC;
		expect(s, nlh, -EINVAL, "Filter mask must be set for stats dump",
		       "RTM_GETSTATS %s: filter_mask 0 is rejected", i ? "legacy" : "strict");
	}
}

/* Route filters: the lab's small route set in two tables */
struct rset {
	struct rinfo *v;
	size_t n, cap;
};

static int collect_cb(const struct nlmsghdr *nlh, void *data)
{
	struct rset *rs = data;
	struct rinfo ri;

	if (!route_info(nlh, &ri))
		return MNL_CB_OK;
	rs->v = grow(rs->v, &rs->cap, rs->n, sizeof(*rs->v));
	rs->v[rs->n++] = ri;
	return MNL_CB_OK;
}

static int rinfo_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct rinfo));
}

struct rfilter {
	const char *name;
	bool rtm_table;		/* the table in rtm_table (else RTA_TABLE) */
	uint32_t table;
	uint8_t proto, type;
	int oif;		/* index into the devices, -1 none */
};

static bool rfilter_match(const struct rfilter *f, const struct rinfo *ri, const int *ifx)
{
	return (!f->table || ri->table == f->table) && (!f->proto || ri->proto == f->proto) &&
	       (!f->type || ri->type == f->type) && (f->oif < 0 || ri->oif == (uint32_t)ifx[f->oif]);
}

static struct nlmsghdr *rfilter_request(struct nl_sock *s, void *buf, int family, const struct rfilter *f,
					const int *ifx)
{
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_GETROUTE, NLM_F_DUMP);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_protocol = f->proto;
	rtm->rtm_type = f->type;
	if (f->table && f->rtm_table)
		rtm->rtm_table = (uint8_t)f->table;
	else if (f->table)
		mnl_attr_put_u32(nlh, RTA_TABLE, f->table);
	if (f->oif >= 0)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifx[f->oif]);
	return nlh;
}

/* The conformance route set: tables 100 and 1000, protocols static and boot, 4 kinds */
static int add_conf_routes(struct nl_sock *s, int family, const int *ifx, size_t *count)
{
	static const uint32_t tables[2] = { 100, 1000 };
	static const uint8_t protos[2] = { RTPROT_STATIC, RTPROT_BOOT };
	char buf[NL_MSG_MAX];
	int t, p, k, n = 0;

	for (t = 0; t < 2; t++)
		for (p = 0; p < 2; p++)
			for (k = 0; k < 4; k++) {
				struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
				struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
				uint8_t dst[16] = { 0 };
				struct nl_reply r;
				char e[300];

				n++;
				rtm->rtm_family = (uint8_t)family;
				rtm->rtm_protocol = protos[p];
				rtm->rtm_type = k < 2 ? RTN_UNICAST : k == 2 ? RTN_BLACKHOLE : RTN_UNREACHABLE;
				rtm->rtm_scope = k < 2 && family == AF_INET ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
				if (family == AF_INET) {
					dst[0] = 198;
					dst[1] = 51;
					dst[2] = 100;
					dst[3] = (uint8_t)n;
					rtm->rtm_dst_len = 32;
				} else {
					dst[0] = 0x20;
					dst[1] = 0x01;
					dst[2] = 0x0d;
					dst[3] = 0xb8;
					dst[5] = 0x64;
					dst[15] = (uint8_t)n;
					rtm->rtm_dst_len = 128;
				}
				mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, dst);
				mnl_attr_put_u32(nlh, RTA_TABLE, tables[t]);
				if (k < 2)
					mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifx[k]);
				if (nl_transact(s, nlh, NULL, NULL, &r) || r.error) {
					fprintf(stderr, "%s: adding a conformance route: %s\n", prog,
						nl_reply_str(&r, e, sizeof(e)));
					return -1;
				}
			}
	*count = (size_t)n;
	return 0;
}

static void suite_route_filters(struct nl_sock *strict, struct nl_sock *legacy, const int *ifx)
{
	static const struct rfilter filters[] = {
		{ "table 100 (rtm_table)", true, 100, 0, 0, -1 },
		{ "table 1000 (RTA_TABLE)", false, 1000, 0, 0, -1 },
		{ "protocol boot (rtm_protocol)", false, 0, RTPROT_BOOT, 0, -1 },
		{ "type blackhole (rtm_type)", false, 0, 0, RTN_BLACKHOLE, -1 },
		{ "type unreachable (rtm_type)", false, 0, 0, RTN_UNREACHABLE, -1 },
		{ "device dum2 (RTA_OIF)", false, 0, 0, 0, 1 },
		{ "table 1000 + protocol static", false, 1000, RTPROT_STATIC, 0, -1 },
		{ "table 100 + type unreachable", true, 100, 0, RTN_UNREACHABLE, -1 },
		{ "device dum0 + protocol boot", false, 0, RTPROT_BOOT, 0, 0 },
		{ "table 1000 + protocol boot + type unicast + device dum0", false, 1000, RTPROT_BOOT, RTN_UNICAST, 0 },
	};
	static const int fams[2] = { AF_INET, AF_INET6 };
	char buf[NL_MSG_MAX], e[300];
	int fi, i;

	for (fi = 0; fi < 2; fi++) {
		int family = fams[fi];
		const char *fn = family_name(family);
		struct rset all = { 0 };
		struct rfilter none = { "none", false, 0, 0, 0, -1 };
		struct nlmsghdr *nlh;
		struct nl_reply r;
		size_t ours = 0, j;
		int err;

		if (add_conf_routes(strict, family, ifx, &ours)) {
			tap_fail("route filters", "%s routes could not be added", fn);
			continue;
		}
		tap_diag("route filters, %s: %zu routes in tables 100 and 1000", fn, ours);
		nlh = rfilter_request(strict, buf, family, &none, ifx);
		err = ask(strict, nlh, nlh->nlmsg_len, collect_cb, &all, &r);
		if (err || r.error) {
			tap_fail("route filters", "the unfiltered %s dump failed: %s", fn,
				 err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
			continue;
		}
		/*
		 * A strict dump without RTM_F_CLONED leaves the exceptions out, and
		 * fn_trie_dump_leaf() / rt6_dump_route() flag the route messages
		 * NLM_F_DUMP_FILTERED for that; NLMSG_DONE carries the flag only when
		 * a filter was asked for (cb->answer_flags).
		 */
		tap_ok(!r.done_filtered,
		       "RTM_GETROUTE/%s strict, no filter: %zu routes, NLMSG_DONE not flagged NLM_F_DUMP_FILTERED "
		       "(the route messages are, %" PRIu64 " of %" PRIu64 ": exceptions are left out)",
		       fn, all.n, r.filtered_msgs, r.data_msgs);
		qsort(all.v, all.n, sizeof(*all.v), rinfo_cmp);
		for (i = 0; i < N(filters); i++) {
			const struct rfilter *f = &filters[i];
			struct rset got = { 0 }, want = { 0 };
			size_t ours_match = 0;

			for (j = 0; j < all.n; j++)
				if (rfilter_match(f, &all.v[j], ifx)) {
					want.v = grow(want.v, &want.cap, want.n, sizeof(*want.v));
					want.v[want.n++] = all.v[j];
					ours_match += all.v[j].table == 100 || all.v[j].table == 1000;
				}
			nlh = rfilter_request(strict, buf, family, f, ifx);
			err = ask(strict, nlh, nlh->nlmsg_len, collect_cb, &got, &r);
			if (err || r.error) {
				tap_fail("route filter", "RTM_GETROUTE/%s strict, filter %s: %s", fn, f->name,
					 err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
			} else {
				bool same;

				qsort(got.v, got.n, sizeof(*got.v), rinfo_cmp);
				same = got.n == want.n && !memcmp(got.v, want.v, got.n * sizeof(*got.v));
				if (same && ours_match && r.filtered_msgs == r.data_msgs && r.done_filtered)
					tap_ok(true, "RTM_GETROUTE/%s strict, filter %s: exactly the %zu matching routes "
						     "(%zu of the lab's), all flagged NLM_F_DUMP_FILTERED", fn, f->name,
					       got.n, ours_match);
				else
					tap_fail("route filter",
						 "RTM_GETROUTE/%s strict, filter %s: expected the %zu matching routes "
						 "(%zu of the lab's) flagged NLM_F_DUMP_FILTERED, got %zu routes%s, "
						 "%" PRIu64 " of %" PRIu64 " messages flagged, NLMSG_DONE %sflagged",
						 fn, f->name, want.n, ours_match, got.n, same ? " (the same)" : " (not the same)",
						 r.filtered_msgs, r.data_msgs, r.done_filtered ? "" : "not ");
			}
			free(got.v);
			free(want.v);
		}
		/* a table that does not exist, a device that does not exist */
		{
			struct rfilter f = { "table 4242", false, 4242, 0, 0, -1 };
			char msg[64];

			snprintf(msg, sizeof(msg), "%s: FIB table does not exist", family == AF_INET ? "ipv4" : "ipv6");
			expect(strict, rfilter_request(strict, buf, family, &f, ifx), -ENOENT, msg,
			       "RTM_GETROUTE/%s strict, filter on a table that does not exist", fn);
		}
		{
			struct nlmsghdr *nlh = nl_msg(strict, buf, RTM_GETROUTE, NLM_F_DUMP);
			struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

			rtm->rtm_family = (uint8_t)family;
			mnl_attr_put_u32(nlh, RTA_OIF, 99999);
			expect(strict, nlh, -ENODEV, NULL, "RTM_GETROUTE/%s strict, filter on a device that does not exist",
			       fn);
		}
		/* strict off: the filters are not looked at */
		{
			struct rfilter f = { "protocol boot + table 100", true, 100, RTPROT_BOOT, 0, -1 };
			struct rset got = { 0 };

			nlh = rfilter_request(legacy, buf, family, &f, ifx);
			err = ask(legacy, nlh, nlh->nlmsg_len, collect_cb, &got, &r);
			if (err || r.error)
				tap_fail("legacy route dump", "%s: %s", fn,
					 err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
			else
				tap_ok(got.n == all.n && r.filtered_msgs == 0,
				       "RTM_GETROUTE/%s legacy: rtm_table and rtm_protocol are ignored, the full dump "
				       "comes back (%zu routes, expected %zu), not flagged (%" PRIu64 " flagged)",
				       fn, got.n, all.n, r.filtered_msgs);
			free(got.v);
		}
		free(all.v);
	}
}

/* ------------------------------------------------------------------ fuzz */

struct rng {
	uint64_t s;
};

static uint32_t rndn(struct rng *g, uint32_t n)
{
	return (uint32_t)(splitmix64(g->s++) % n);
}

struct fuzz_stats {
	uint64_t dumps, dump_errors, errors, acks, timeouts, bad;
	uint64_t max_ns;
	uint64_t errno_count[4096];
	uint64_t mutations[8];
};

/*
 * A valid dump request of a random case, then 1 to 3 mutations: header
 * bytes, bit flips, attributes of random type and length, attributes with a
 * corrupt length, truncation, trailing bytes inside the message, trailing
 * bytes after it (fewer than a message header), the family byte. The
 * message type and flags are left alone (a dump request, with NLM_F_ACK so
 * that even an ignored request gets an answer). Returns the bytes to send.
 */
static size_t fuzz_request(struct rng *g, struct nl_sock *s, uint8_t *buf, size_t cap, struct fuzz_stats *fs)
{
	static const uint8_t families[] = { AF_UNSPEC, AF_INET, AF_INET6, AF_BRIDGE, AF_MPLS,
					    RTNL_FAMILY_IPMR, RTNL_FAMILY_IP6MR, AF_PACKET };
	const struct dcase *d = &dcases[rndn(g, NDCASES)];
	struct nlmsghdr *nlh;
	size_t extra = 0, i;
	int k = 1 + (int)rndn(g, 3);

	memset(buf, 0, cap);
	nlh = case_request(s, buf, d, V_OK, 0);
	nlh->nlmsg_flags |= NLM_F_ACK;
	while (k--) {
		uint32_t m = rndn(g, 8);
		uint8_t payload[48];
		struct nlattr *a;
		size_t plen;

		if (nlh->nlmsg_len + 64 + 16 > cap)
			break;
		fs->mutations[m]++;
		for (i = 0; i < sizeof(payload); i++)
			payload[i] = (uint8_t)rndn(g, 256);
		switch (m) {
		case 0:	/* a header byte */
			if (d->hdrlen > 1)
				((uint8_t *)mnl_nlmsg_get_payload(nlh))[1 + rndn(g, d->hdrlen - 1)] = payload[0];
			break;
		case 1:	/* a bit of the header */
			((uint8_t *)mnl_nlmsg_get_payload(nlh))[rndn(g, d->hdrlen)] ^= (uint8_t)(1u << rndn(g, 8));
			break;
		case 2:	/* an attribute of random type and length */
			plen = rndn(g, 24);
			mnl_attr_put(nlh, (uint16_t)rndn(g, 64), plen, payload);
			break;
		case 3:	/* an attribute whose length is wrong */
			a = mnl_nlmsg_get_payload_tail(nlh);
			plen = rndn(g, 16);
			mnl_attr_put(nlh, (uint16_t)rndn(g, 64), plen, payload);
			a->nla_len = (uint16_t)rndn(g, 64);
			break;
		case 4:	/* truncated: down to the message header alone */
			nlh->nlmsg_len = NLMSG_HDRLEN + rndn(g, nlh->nlmsg_len - NLMSG_HDRLEN + 1);
			break;
		case 5:	/* trailing bytes inside the message, unaligned */
			plen = 1 + rndn(g, 7);
			memcpy((uint8_t *)nlh + nlh->nlmsg_len, payload, plen);
			nlh->nlmsg_len += plen;
			break;
		case 6:	/* trailing bytes after the message: too few for another one */
			extra = 1 + rndn(g, NLMSG_HDRLEN - 1);
			break;
		case 7:	/* the family */
			((uint8_t *)mnl_nlmsg_get_payload(nlh))[0] =
				rndn(g, 4) ? families[rndn(g, sizeof(families))] : payload[1];
			break;
		}
	}
	for (i = 0; i < extra; i++)
		buf[nlh->nlmsg_len + i] = (uint8_t)rndn(g, 256);
	return nlh->nlmsg_len + extra;
}

/* Kernel log lines since @fd was opened that show trouble */
static int kmsg_trouble(int fd, char *first, size_t len)
{
	static const char *const bad[] = { "WARNING:", "BUG:", "Oops", "Call Trace", "general protection",
					   "stall", "Kernel panic" };
	char rec[2048];
	int n = 0;
	ssize_t r;
	size_t i;

	first[0] = 0;
	for (;;) {
		r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0) {
			if (errno == EPIPE || errno == EINTR)
				continue;
			break;
		}
		if (r == 0)
			break;
		rec[r] = 0;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (strstr(rec, bad[i])) {
				char *msg = strchr(rec, ';');

				if (!n++)
					snprintf(first, len, "%.400s", msg ? msg + 1 : rec);
				break;
			}
	}
	if (first[0] && first[strlen(first) - 1] == '\n')
		first[strlen(first) - 1] = 0;
	return n;
}

static void suite_fuzz(uint64_t count, uint64_t seed, const char *out)
{
	struct fuzz_stats *fs = calloc(1, sizeof(*fs));
	struct rng g = { seed };
	uint8_t buf[1024];
	char first[512], e[300];
	struct nl_sock s;
	int kfd, trouble = -1;
	uint64_t i, t0, t_all;
	bool clean = true;

	if (!fs || nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&s, true))
		tap_bail("fuzz: no socket");
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	tap_diag("fuzz: %" PRIu64 " mutated dump requests with strict checking, seed %" PRIu64
		 " (replay: routedump conformance --fuzz %" PRIu64 " --seed %" PRIu64 ")", count, seed, count, seed);
	t_all = mono_ns();
	for (i = 0; i < count; i++) {
		size_t len = fuzz_request(&g, &s, buf, sizeof(buf), fs);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		struct nl_reply r;
		uint64_t dt;
		int err;

		t0 = mono_ns();
		err = nl_send_raw(&s, buf, len);
		if (!err)
			err = nl_recv(&s, nlh->nlmsg_seq, NULL, NULL, &r, 10000);
		dt = mono_ns() - t0;
		if (dt > fs->max_ns)
			fs->max_ns = dt;
		if (err) {
			if (err == -ETIMEDOUT)
				fs->timeouts++;
			else
				fs->bad++;
			if (clean) {
				char hex[3 * 200 + 1] = "";
				size_t j;

				for (j = 0; j < len && j < 200; j++)
					sprintf(hex + 3 * j, "%02x ", buf[j]);
				tap_diag("fuzz request %" PRIu64 " got no clean answer (%s): %s", i, strerror(-err), hex);
			}
			clean = false;
			nl_close(&s);
			if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&s, true))
				tap_bail("fuzz: cannot reopen the socket");
			continue;
		}
		if (r.error < -4095 || r.error > 0) {
			fs->bad++;
			clean = false;
			tap_diag("fuzz request %" PRIu64 ": error value %d is not an errno", i, r.error);
			continue;
		}
		fs->errno_count[-r.error]++;
		if (r.end == NLMSG_DONE)
			r.error ? fs->dump_errors++ : fs->dumps++;
		else
			r.error ? fs->errors++ : fs->acks++;
	}
	t_all = mono_ns() - t_all;
	tap_ok(clean && !fs->timeouts && !fs->bad,
	       "fuzz: %" PRIu64 " mutated requests (seed %" PRIu64 "): every answer a dump or a clean error: %" PRIu64
	       " dumps, %" PRIu64 " dump errors, %" PRIu64 " errors, %" PRIu64 " acks (request ignored), %" PRIu64
	       " timeouts, %" PRIu64 " bad answers; slowest %.1f ms",
	       count, seed, fs->dumps, fs->dump_errors, fs->errors, fs->acks, fs->timeouts, fs->bad, ms(fs->max_ns));
	{
		char line[1024] = "";
		int j;

		for (j = 0; j < 4096; j++)
			if (fs->errno_count[j])
				snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s:%" PRIu64,
					 errname(-j, e, sizeof(e)), fs->errno_count[j]);
		tap_diag("fuzz answers by errno:%s", line);
	}
	if (kfd >= 0) {
		trouble = kmsg_trouble(kfd, first, sizeof(first));
		close(kfd);
		if (trouble)
			tap_fail("fuzz: the kernel log shows no WARNING, BUG or Oops", "%d lines, the first: %s", trouble,
				 first);
		else
			tap_ok(true, "fuzz: the kernel log shows no WARNING, BUG or Oops");
	} else {
		tap_skip("/dev/kmsg cannot be read", "fuzz: the kernel log shows no WARNING, BUG or Oops");
	}
	{
		struct nlmsghdr *nlh = case_request(&s, buf, &dcases[0], V_OK, 0);
		struct nl_reply r;
		int err;

		t0 = mono_ns();
		err = nl_send_raw(&s, buf, nlh->nlmsg_len);
		if (!err)
			err = nl_recv(&s, nlh->nlmsg_seq, NULL, NULL, &r, 5000);
		t0 = mono_ns() - t0;
		tap_ok(!err && !r.error && t0 < 5 * NSEC_PER_SEC,
		       "fuzz: the guest stays responsive: a link dump afterwards answers in %.1f ms (%s)", ms(t0),
		       err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
	}
	if (out) {
		struct atomic_file af;

		if (!csv_open(&af, out, "fuzz.csv",
			      "seed,count,dumps,dump_errors,errors,acks,timeouts,bad,max_ms,seconds,kernel_log_trouble")) {
			fprintf(af.f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%.3f,%.3f,%d\n",
				seed, count, fs->dumps, fs->dump_errors, fs->errors, fs->acks, fs->timeouts, fs->bad,
				ms(fs->max_ns), t_all / 1e9, trouble);
			atomic_commit(&af);
		}
		if (!csv_open(&af, out, "fuzz-errno.csv", "errno,name,count")) {
			int j;

			for (j = 0; j < 4096; j++)
				if (fs->errno_count[j])
					fprintf(af.f, "%d,%s,%" PRIu64 "\n", j, errname(-j, e, sizeof(e)),
						fs->errno_count[j]);
			atomic_commit(&af);
		}
	}
	nl_close(&s);
	free(fs);
}

static int cmd_conformance(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fuzz", required_argument, NULL, 'z' }, { "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },  { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t fuzz = 2000, seed = 0;
	bool have_seed = false;
	const char *out = NULL;
	struct nl_sock strict, legacy;
	int c, ifx[2], br, port;
	uint64_t t0, t_start = mono_ns();

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'z': fuzz = parse_u64(optarg, "fuzz count (--fuzz)", 0, 100000000); break;
		case 's':
			seed = parse_u64(optarg, "seed (--seed)", 0, UINT64_MAX);
			have_seed = true;
			break;
		case 'o': out = optarg; break;
		case 'h': usage(); return 0;
		default: usage_error("bad option for conformance");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!have_seed)
		seed = real_ns() ^ (uint64_t)getpid();
	if (out && mkdir(out, 0755) && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
		return 1;
	}
	if (private_netns())
		return 1;

	tap_diag("routedump conformance: strict checking of dump requests (NETLINK_GET_STRICT_CHK), seed %" PRIu64,
		 seed);
	if (nl_open(&strict, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&strict, true) ||
	    nl_open(&legacy, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&legacy, false))
		tap_bail("no netlink sockets");
	/* The namespace: lo, two dummies for routes, a bridge with a dummy port */
	{
		uint8_t a4[4] = { 192, 0, 2, 1 }, a6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };

		a6[15] = 1;
		if (nl_link_set(&strict, 1, true, -1) || (ifx[0] = nl_link_add(&strict, "dum0", "dummy")) < 0 ||
		    (ifx[1] = nl_link_add(&strict, "dum2", "dummy")) < 0 || (br = nl_link_add(&strict, "br0", "bridge")) < 0 ||
		    (port = nl_link_add(&strict, "dum1", "dummy")) < 0 || nl_link_set(&strict, ifx[0], true, -1) ||
		    nl_link_set(&strict, ifx[1], true, -1) || nl_link_set(&strict, port, true, br) ||
		    nl_link_set(&strict, br, true, -1) || nl_addr_add(&strict, AF_INET, ifx[0], a4, 24) ||
		    nl_addr_add(&strict, AF_INET6, ifx[0], a6, 64))
			tap_bail("setting up the namespace failed (see stderr)");
	}
	tap_diag("set-up: %.1f s", (mono_ns() - t_start) / 1e9);
	t0 = mono_ns();
	suite_sockopt();
	suite_dump_checks(&strict, &legacy);
	suite_old_link_dump(&strict, &legacy);
	suite_stats_mask(&strict, &legacy);
	tap_diag("dump checks: %.1f s", (mono_ns() - t0) / 1e9);
	t0 = mono_ns();
	suite_route_filters(&strict, &legacy, ifx);
	tap_diag("route filters: %.1f s", (mono_ns() - t0) / 1e9);
	t0 = mono_ns();
	if (fuzz)
		suite_fuzz(fuzz, seed, out);
	tap_diag("fuzz: %.1f s", (mono_ns() - t0) / 1e9);
	nl_close(&strict);
	nl_close(&legacy);
	return tap_finish();
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		usage_error("a command is needed: bench, conformance, populate or dump");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage();
		return 0;
	}
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "conformance"))
		return cmd_conformance(argc - 1, argv + 1);
	if (!strcmp(argv[1], "populate"))
		return cmd_populate_or_dump(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "dump"))
		return cmd_populate_or_dump(argc - 1, argv + 1, true);
	usage_error("unknown command '%s': expected bench, conformance, populate or dump", argv[1]);
}

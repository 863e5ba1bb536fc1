// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's routes and what the filters of a dump must answer: route i's
 * table, protocol, type and device; the dump modes and their filters; the
 * counts a dump of routes [0, n) must give; parsing a route message; the
 * network namespace and the dummy devices the routes point at.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "routedump.h"

const unsigned int filter_bits[NFILTERS] = { 0, FB_TABLE, FB_PROTO, FB_OIF, FB_TABLE | FB_PROTO };
const char *const filter_names[NFILTERS] = { "none", "table", "protocol", "oif", "table_protocol" };

const struct mode modes[NMODES] = {
	{ "legacy_userfilter", false, F_NONE, F_TABLE },
	{ "strict_all", true, F_NONE, F_NONE },
	{ "strict_table", true, F_TABLE, F_TABLE },
	{ "strict_protocol", true, F_PROTO, F_PROTO },
	{ "strict_oif", true, F_OIF, F_OIF },
	{ "strict_table_protocol", true, F_TABLE_PROTO, F_TABLE_PROTO },
};

/*
 * The selectivity points: the table and the protocol a filter asks for so
 * that about 1 %, 10 % and 50 % of the lab's routes match (route_of puts
 * that share of the routes there); at 100 % the filter is no filter (the
 * kernel reads table 0 and protocol 0 as "any"), so there the strict dump
 * is strict_all.
 */
const struct point points[NPOINTS] = {
	{ 1, TABLE0, PROTO_P1 },
	{ 10, TABLE0 + 1, PROTO_P10 },
	{ 50, TABLE0 + 2, RTPROT_STATIC },
	{ 100, 0, 0 },
};

int point_by_pct(int pct)
{
	int i;

	for (i = 0; i < NPOINTS; i++)
		if (points[i].pct == pct)
			return i;
	return -1;
}

/* ------------------------------------------------------------ input */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

size_t bufsize_of(const char *what, const char *s)
{
	size_t v = lab_parse_uint(what, s, 1, 64 << 20);

	if (v < page_size())
		lab_usage_error("%s '%s' is below one page (%zu bytes)", what, s, page_size());
	return v;
}

int family_by_name(const char *s)
{
	if (!strcmp(s, "4") || !strcmp(s, "ipv4") || !strcmp(s, "inet"))
		return AF_INET;
	if (!strcmp(s, "6") || !strcmp(s, "ipv6") || !strcmp(s, "inet6"))
		return AF_INET6;
	return -1;
}

int family_of(const char *s)
{
	int f = family_by_name(s);

	if (f < 0)
		lab_usage_error("unknown family '%s': expected 4 or 6", s);
	return f;
}

const char *family_name(int family)
{
	return family == AF_INET ? "ipv4" : "ipv6";
}

int mode_by_name(const char *s)
{
	int i;

	for (i = 0; i < NMODES; i++)
		if (!strcmp(s, modes[i].name))
			return i;
	return -1;
}

int mode_of(const char *s)
{
	int m = mode_by_name(s);

	if (m < 0)
		lab_usage_error("unknown mode '%s': expected legacy_userfilter, strict_all, strict_table, "
				"strict_protocol, strict_oif or strict_table_protocol", s);
	return m;
}

/* ------------------------------------------------------------ routes */

uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* 0.1 % steps: 1 % to the first value, 10 % to the second, 50 % to the third, the rest to the last */
static int share_of(uint64_t h)
{
	unsigned int k = h % 1000;

	return k < 10 ? 0 : k < 110 ? 1 : k < 610 ? 2 : 3;
}

void route_of(uint64_t i, struct route *r)
{
	static const uint8_t protos[4] = { PROTO_P1, PROTO_P10, RTPROT_STATIC, RTPROT_BOOT };
	uint64_t h = splitmix64(i), hp = splitmix64(h ^ 1), ht = splitmix64(h ^ 2);
	int ts = share_of(h);
	unsigned int t = ht % 10;

	/* tables TABLE0 .. TABLE0+2 hold 1, 10 and 50 %; the other 97 share 39 % */
	r->table = ts < 3 ? (uint32_t)(TABLE0 + ts) : (uint32_t)(TABLE0 + 3 + (h >> 32) % (NTABLES - 3));
	r->proto = protos[share_of(hp)];
	if (t < 8) {
		r->type = RTN_UNICAST;
		r->dev = (ht >> 32) & 1;
	} else {
		r->type = t == 8 ? RTN_BLACKHOLE : RTN_UNREACHABLE;
		r->dev = -1;
	}
}

/* Destination of route i: 10.0.0.0 + i /32, or 2001:db8:II:II::/64 */
int dst_of(int family, uint64_t i, uint8_t *addr)
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

bool route_matches(int f, const struct target *tg, uint32_t table, uint8_t proto, uint32_t oif)
{
	unsigned int b = filter_bits[f];

	/* table 0 and protocol 0 are "any", as for the kernel */
	return (!(b & FB_TABLE) || !tg->table || table == tg->table) &&
	       (!(b & FB_PROTO) || !tg->proto || proto == tg->proto) && (!(b & FB_OIF) || oif == tg->oif);
}

static bool route_of_matches(int f, const struct target *tg, const struct route *r)
{
	unsigned int b = filter_bits[f];

	return (!(b & FB_TABLE) || !tg->table || r->table == tg->table) &&
	       (!(b & FB_PROTO) || !tg->proto || r->proto == tg->proto) && (!(b & FB_OIF) || r->dev == tg->oif_dev);
}

/* Routes [0, n) that match each filter */
void expected_counts(uint64_t n, const struct target *tg, uint64_t *exp)
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

uint64_t expect_total(const struct expect *e, int f)
{
	return e->exp[f] + e->foreign[f];
}

/* ---------------------------------------------------- route messages */

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
bool route_info(const struct nlmsghdr *nlh, struct rinfo *ri)
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

/* A dump callback: counts into struct counter, filter by filter */
int count_cb(const struct nlmsghdr *nlh, void *data)
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

/* -------------------------------------------------------- namespaces */

bool in_init_netns(void)
{
	struct stat a, b;

	if (stat("/proc/self/ns/net", &a) || stat("/proc/1/ns/net", &b))
		return false;	/* cannot tell: PID 1 is elsewhere */
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/*
 * run and conform configure routes and links: never in the initial
 * namespace. There, a private one is unshared (it goes away with us).
 */
int private_netns(void)
{
	if (!in_init_netns())
		return 0;
	if (unshare(CLONE_NEWNET)) {
		int err = errno;

		fprintf(stderr, "%s: unshare(CLONE_NEWNET): %s\n", lab_prog, strerror(err));
		return -err;
	}
	fprintf(stderr, "%s: in the initial network namespace: working in a private one\n", lab_prog);
	return 0;
}

/* Two dummy devices, up; returns 0 and their ifindexes */
int setup_dummies(struct nl_sock *s, int *ifindex)
{
	const char *names[2] = { "dum0", "dum1" };
	int i, idx;

	for (i = 0; i < 2; i++) {
		if (if_nametoindex(names[i])) {
			fprintf(stderr, "%s: %s exists already: not a fresh namespace\n", lab_prog, names[i]);
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

/* ------------------------------------------------------------- small */

void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 256;
	return lab_realloc(v, *cap, size, "routedump's tables");
}

uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

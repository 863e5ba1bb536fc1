// SPDX-License-Identifier: GPL-2.0
/*
 * The route filters of strict dumps, in the conformance suite: a small set
 * of routes in tables 100 and 1000, dumped unfiltered and with each filter
 * (table in rtm_table or RTA_TABLE, protocol, type, device, and
 * combinations); a filtered dump must give exactly the routes that match,
 * flagged NLM_F_DUMP_FILTERED. A table or device that does not exist is an
 * error; with strict checking off the filters are not looked at.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "conform.h"
#include "tap.h"

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
/* Conformance route @n (1..16): table @t, protocol @p, kind @k (unicast on ifx[0], ifx[1], blackhole, unreachable) */
static int add_conf_route(struct nl_sock *s, int family, const int *ifx, int n, uint32_t table, uint8_t proto,
			  int k)
{
	char buf[NL_MSG_MAX], e[300];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	uint8_t d4[4] = { 198, 51, 100, (uint8_t)n };
	uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0x64 };
	struct nl_reply r;
	int err;

	d6[15] = (uint8_t)n;
	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_protocol = proto;
	rtm->rtm_type = k < 2 ? RTN_UNICAST : k == 2 ? RTN_BLACKHOLE : RTN_UNREACHABLE;
	rtm->rtm_scope = k < 2 && family == AF_INET ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
	rtm->rtm_dst_len = family == AF_INET ? 32 : 128;
	mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, family == AF_INET ? d4 : d6);
	mnl_attr_put_u32(nlh, RTA_TABLE, table);
	if (k < 2)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifx[k]);
	err = nl_transact(s, nlh, NULL, NULL, &r);
	if (err || r.error) {
		fprintf(stderr, "%s: adding a conformance route: %s\n", lab_prog,
			err ? lab_errname(err) : nl_reply_str(&r, e, sizeof(e)));
		return -1;
	}
	return 0;
}

/* The conformance route set: tables 100 and 1000, protocols static and boot, 4 kinds */
static int add_conf_routes(struct nl_sock *s, int family, const int *ifx, size_t *count)
{
	static const uint32_t tables[2] = { 100, 1000 };
	static const uint8_t protos[2] = { RTPROT_STATIC, RTPROT_BOOT };
	int t, p, k, n = 0;

	for (t = 0; t < 2; t++)
		for (p = 0; p < 2; p++)
			for (k = 0; k < 4; k++)
				if (add_conf_route(s, family, ifx, ++n, tables[t], protos[p], k))
					return -1;
	*count = (size_t)n;
	return 0;
}

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

/* One filter against the unfiltered dump @all (sorted): exactly its routes, all flagged */
static void check_filter(struct nl_sock *strict, int family, const struct rfilter *f, const struct rset *all,
			 const int *ifx)
{
	const char *fn = family_name(family);
	struct rset got = { 0 }, want = { 0 };
	char buf[NL_MSG_MAX], e[300];
	size_t ours_match = 0, j;
	struct nlmsghdr *nlh;
	struct nl_reply r;
	bool same;
	int err;

	for (j = 0; j < all->n; j++)
		if (rfilter_match(f, &all->v[j], ifx)) {
			want.v = grow(want.v, &want.cap, want.n, sizeof(*want.v));
			want.v[want.n++] = all->v[j];
			ours_match += all->v[j].table == 100 || all->v[j].table == 1000;
		}
	nlh = rfilter_request(strict, buf, family, f, ifx);
	err = ask(strict, nlh, nlh->nlmsg_len, collect_cb, &got, &r);
	if (err || r.error) {
		tap_fail("route filter", "RTM_GETROUTE/%s strict, filter %s: %s", fn, f->name,
			 err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
		goto out;
	}
	qsort(got.v, got.n, sizeof(*got.v), rinfo_cmp);
	same = got.n == want.n && (!got.n || !memcmp(got.v, want.v, got.n * sizeof(*got.v)));
	if (same && ours_match && r.filtered_msgs == r.data_msgs && r.done_filtered)
		tap_ok(true, "RTM_GETROUTE/%s strict, filter %s: exactly the %zu matching routes "
			     "(%zu of the lab's), all flagged NLM_F_DUMP_FILTERED", fn, f->name, got.n, ours_match);
	else
		tap_fail("route filter",
			 "RTM_GETROUTE/%s strict, filter %s: expected the %zu matching routes "
			 "(%zu of the lab's) flagged NLM_F_DUMP_FILTERED, got %zu routes%s, "
			 "%" PRIu64 " of %" PRIu64 " messages flagged, NLMSG_DONE %sflagged",
			 fn, f->name, want.n, ours_match, got.n, same ? " (the same)" : " (not the same)",
			 r.filtered_msgs, r.data_msgs, r.done_filtered ? "" : "not ");
out:
	free(got.v);
	free(want.v);
}

/* A table that does not exist, a device that does not exist: errors */
static void check_missing(struct nl_sock *strict, int family, const int *ifx)
{
	const char *fn = family_name(family);
	struct rfilter f = { "table 4242", false, 4242, 0, 0, -1 };
	char buf[NL_MSG_MAX], msg[64];
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;

	snprintf(msg, sizeof(msg), "%s: FIB table does not exist", family == AF_INET ? "ipv4" : "ipv6");
	expect(strict, rfilter_request(strict, buf, family, &f, ifx), -ENOENT, msg,
	       "RTM_GETROUTE/%s strict, filter on a table that does not exist", fn);
	nlh = nl_msg(strict, buf, RTM_GETROUTE, NLM_F_DUMP);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (uint8_t)family;
	mnl_attr_put_u32(nlh, RTA_OIF, 99999);
	expect(strict, nlh, -ENODEV, NULL, "RTM_GETROUTE/%s strict, filter on a device that does not exist", fn);
}

/* Strict off: the filters are not looked at, the full dump comes back */
static void check_legacy(struct nl_sock *legacy, int family, const struct rset *all, const int *ifx)
{
	struct rfilter f = { "protocol boot + table 100", true, 100, RTPROT_BOOT, 0, -1 };
	const char *fn = family_name(family);
	char buf[NL_MSG_MAX], e[300];
	struct rset got = { 0 };
	struct nlmsghdr *nlh;
	struct nl_reply r;
	int err;

	nlh = rfilter_request(legacy, buf, family, &f, ifx);
	err = ask(legacy, nlh, nlh->nlmsg_len, collect_cb, &got, &r);
	if (err || r.error)
		tap_fail("legacy route dump", "%s: %s", fn, err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
	else
		tap_ok(got.n == all->n && r.filtered_msgs == 0,
		       "RTM_GETROUTE/%s legacy: rtm_table and rtm_protocol are ignored, the full dump "
		       "comes back (%zu routes, expected %zu), not flagged (%" PRIu64 " flagged)",
		       fn, got.n, all->n, r.filtered_msgs);
	free(got.v);
}

/* The unfiltered strict dump of @family into @all (sorted): 0, or -1 after a TAP failure */
static int dump_all(struct nl_sock *strict, int family, const int *ifx, struct rset *all)
{
	struct rfilter none = { "none", false, 0, 0, 0, -1 };
	const char *fn = family_name(family);
	char buf[NL_MSG_MAX], e[300];
	struct nlmsghdr *nlh;
	struct nl_reply r;
	int err;

	nlh = rfilter_request(strict, buf, family, &none, ifx);
	err = ask(strict, nlh, nlh->nlmsg_len, collect_cb, all, &r);
	if (err || r.error) {
		tap_fail("route filters", "the unfiltered %s dump failed: %s", fn,
			 err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
		return -1;
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
	       fn, all->n, r.filtered_msgs, r.data_msgs);
	qsort(all->v, all->n, sizeof(*all->v), rinfo_cmp);
	return 0;
}

void suite_route_filters(struct nl_sock *strict, struct nl_sock *legacy, const int *ifx)
{
	static const int fams[2] = { AF_INET, AF_INET6 };
	int fi, i;

	for (fi = 0; fi < 2; fi++) {
		int family = fams[fi];
		struct rset all = { 0 };
		size_t ours = 0;

		if (add_conf_routes(strict, family, ifx, &ours)) {
			tap_fail("route filters", "%s routes could not be added", family_name(family));
			continue;
		}
		tap_diag("route filters, %s: %zu routes in tables 100 and 1000", family_name(family), ours);
		if (dump_all(strict, family, ifx, &all))
			continue;
		for (i = 0; i < ARRAY_LEN(filters); i++)
			check_filter(strict, family, &filters[i], &all, ifx);
		check_missing(strict, family, ifx);
		check_legacy(legacy, family, &all, ifx);
		free(all.v);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * One route dump in a mode, what it cost (wall and CPU time, bytes,
 * recvmsg calls, messages) and whether its answer is exactly the expected
 * one; the routes outside the lab's tables each filter matches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "routedump.h"
#include "timing.h"

void build_dump(struct nlmsghdr *nlh, int family, int f, const struct target *tg)
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

const char *flag_str(char f)
{
	return f == 'a' ? "all" : f == 'm' ? "some" : "none";
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
	l->matches += !l->table || table == l->table;	/* table 0: any */
	return MNL_CB_OK;
}

/* The counts of one dump: route by route (verify) or light */
struct tally {
	struct counter c;
	struct light l;
	struct nl_reply r;
	int err;
};

/* Send the dump of mode @m, read it to the end, and time it into @row */
static void measure(struct nl_sock *s, int family, int m, const struct target *tg, bool verify,
		    struct tally *t, struct dump_row *row)
{
	const struct mode *md = &modes[m];
	char buf[NL_MSG_MAX];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_GETROUTE, NLM_F_DUMP);
	struct rusage ru0, ru1;
	uint64_t t0, t1;

	t->c.tg = tg;
	t->l.table = tg->table;
	build_dump(nlh, family, md->kernel, tg);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = mono_ns();
	if (verify)
		t->err = nl_dump(s, nlh, count_cb, &t->c, &t->r);
	else if (md->answer != md->kernel)
		t->err = nl_dump(s, nlh, light_table_cb, &t->l, &t->r);
	else
		t->err = nl_dump(s, nlh, light_count_cb, &t->l, &t->r);
	t1 = mono_ns();
	getrusage(RUSAGE_SELF, &ru1);
	row->wall_ns = t1 - t0;
	row->user_us = tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime);
	row->sys_us = tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime);
}

static void fill_row(const struct tally *t, int family, int m, const struct target *tg, const struct expect *e,
		     bool verify, size_t bufsize, struct dump_row *row)
{
	const struct mode *md = &modes[m];
	const struct nl_reply *r = &t->r;

	row->family = family;
	row->routes = e->n;
	row->bufsize = bufsize;
	row->mode = m;
	row->bytes = r->bytes;
	row->recvmsgs = r->recvmsgs;
	row->msgs = r->msgs;
	row->returned = verify ? t->c.routes : t->l.routes;
	if (verify)
		row->answer = t->c.match[md->answer][0] + t->c.match[md->answer][1];
	else
		row->answer = md->answer != md->kernel ? t->l.matches : t->l.routes;
	row->expected = expect_total(e, md->answer);
	/* a table filter walks that table only (inet_dump_fib, inet6_dump_fib); any other filter every table */
	row->walked = expect_total(e, filter_bits[md->kernel] & FB_TABLE && tg->table ? F_TABLE : F_NONE);
	row->filtered = r->data_msgs && r->filtered_msgs == r->data_msgs ? 'a' : r->filtered_msgs ? 'm' : 'n';
	row->done_filtered = r->done_filtered;
	row->ok = false;
}

/* The counts every dump must give: 0 or -1 with row->why */
static int check_counts(const struct tally *t, int m, const struct expect *e, struct dump_row *row)
{
	const struct mode *md = &modes[m];
	char rs[300];

	if (t->err) {
		snprintf(row->why, sizeof(row->why), "dump failed: %s", strerror(-t->err));
		return -1;
	}
	if (t->r.error) {
		snprintf(row->why, sizeof(row->why), "dump answered %s", nl_reply_str(&t->r, rs, sizeof(rs)));
		return -1;
	}
	if (row->returned != expect_total(e, md->kernel)) {
		snprintf(row->why, sizeof(row->why), "%" PRIu64 " routes returned, expected %" PRIu64
			 " (%" PRIu64 " of the lab's, %" PRIu64 " of the kernel's)", row->returned,
			 expect_total(e, md->kernel), e->exp[md->kernel], e->foreign[md->kernel]);
		return -1;
	}
	if (row->answer != row->expected) {
		snprintf(row->why, sizeof(row->why), "answer of %" PRIu64 " routes, expected %" PRIu64, row->answer,
			 row->expected);
		return -1;
	}
	return 0;
}

/* The verifying dump, route by route: 0 or -1 with row->why */
static int check_routes(const struct counter *c, int m, const struct expect *e, struct dump_row *row)
{
	const struct mode *md = &modes[m];
	int f;

	if (c->ours != e->exp[md->kernel]) {
		snprintf(row->why, sizeof(row->why), "%" PRIu64 " routes of tables %d-%d returned, expected %" PRIu64,
			 c->ours, TABLE0, TABLE0 + NTABLES - 1, e->exp[md->kernel]);
		return -1;
	}
	if (c->match[md->kernel][0] + c->match[md->kernel][1] != c->routes) {
		snprintf(row->why, sizeof(row->why), "%" PRIu64 " of %" PRIu64 " routes returned do not match the kernel filter %s",
			 c->routes - c->match[md->kernel][0] - c->match[md->kernel][1], c->routes,
			 filter_names[md->kernel]);
		return -1;
	}
	/* The legacy dump can answer every filter in user space: all must be exact */
	for (f = 0; f < NFILTERS; f++) {
		if (md->kernel != F_NONE && f != md->answer)
			continue;
		if (c->match[f][0] != e->exp[f] || c->match[f][1] != e->foreign[f]) {
			snprintf(row->why, sizeof(row->why), "filter %s: %" PRIu64 "+%" PRIu64 " routes, expected %"
				 PRIu64 "+%" PRIu64, filter_names[f], c->match[f][0], c->match[f][1], e->exp[f],
				 e->foreign[f]);
			return -1;
		}
	}
	return 0;
}

/*
 * NLM_F_DUMP_FILTERED: a kernel filter flags every route message and
 * NLMSG_DONE. A strict dump without a filter still flags the route
 * messages (exceptions are left out without RTM_F_CLONED), not
 * NLMSG_DONE; a legacy dump flags nothing.
 */
static int check_flags(const struct nl_reply *r, int m, struct dump_row *row)
{
	const struct mode *md = &modes[m];

	if (md->kernel != F_NONE && ((row->filtered != 'a' && r->data_msgs) || !r->done_filtered)) {
		snprintf(row->why, sizeof(row->why), "NLM_F_DUMP_FILTERED missing on %" PRIu64 " of %" PRIu64
			 " messages, NLMSG_DONE %sflagged", r->data_msgs - r->filtered_msgs, r->data_msgs,
			 r->done_filtered ? "" : "not ");
		return -1;
	}
	if (md->kernel == F_NONE && (r->done_filtered || (!md->strict && r->filtered_msgs))) {
		snprintf(row->why, sizeof(row->why), "NLM_F_DUMP_FILTERED set on an unfiltered dump (NLMSG_DONE %s, %"
			 PRIu64 " route messages)", r->done_filtered ? "yes" : "no", r->filtered_msgs);
		return -1;
	}
	return 0;
}

/*
 * One dump in mode @m. @verify: parse every route and check the answer
 * route by route (every filter the legacy dump can answer; for a kernel
 * filter, that nothing else came back); this is what the warm-up dump
 * does. Otherwise a measured dump: count (see struct light) and check the
 * counts. Either way the answer must be exactly the expected one.
 */
int dump_once(struct nl_sock *s, int family, int m, const struct target *tg, const struct expect *e,
	      bool verify, struct dump_row *row)
{
	struct tally t;

	memset(&t, 0, sizeof(t));
	measure(s, family, m, tg, verify, &t, row);
	fill_row(&t, family, m, tg, e, verify, s->bufsize, row);
	if (check_counts(&t, m, e, row) || (verify && check_routes(&t.c, m, e, row)) ||
	    check_flags(&t.r, m, row))
		return -1;
	row->ok = true;
	return 0;
}

/* Routes outside the lab's tables that each filter matches (the kernel's own) */
int foreign_counts(const struct target *tg, int family, struct expect *e)
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

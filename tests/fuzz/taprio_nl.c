// SPDX-License-Identifier: GPL-2.0
/*
 * The taprio suite's plumbing: the veth pair it fuzzes on, its requests over
 * rtnetlink (libmnl), the root qdisc read back, and the trace buffer.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>

#include "cli.h"
#include "taprio_fuzz.h"
#include "timing.h"
#include "tracefs.h"

int64_t tz_tai_now(void)
{
	return (int64_t)tai_ns();
}

int tz_make_dev(struct tz_ctx *t)
{
	struct nlmsghdr *h = nl_msg(&t->nl, t->buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(h, sizeof(*ifm)), *peer;
	struct nlattr *li, *data, *pe;
	struct nl_reply r;
	struct in_addr a;
	int err, peer_index;

	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(h, IFLA_IFNAME, TZ_DEV);
	mnl_attr_put_u32(h, IFLA_NUM_TX_QUEUES, TZ_NTXQ);
	mnl_attr_put_u32(h, IFLA_NUM_RX_QUEUES, TZ_NTXQ);
	li = mnl_attr_nest_start(h, IFLA_LINKINFO);
	mnl_attr_put_strz(h, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(h, IFLA_INFO_DATA);
	pe = mnl_attr_nest_start(h, VETH_INFO_PEER);
	peer = mnl_nlmsg_put_extra_header(h, sizeof(*peer));
	peer->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(h, IFLA_IFNAME, TZ_PEER);
	mnl_attr_put_u32(h, IFLA_NUM_TX_QUEUES, TZ_NTXQ);
	mnl_attr_put_u32(h, IFLA_NUM_RX_QUEUES, TZ_NTXQ);
	mnl_attr_nest_end(h, pe);
	mnl_attr_nest_end(h, data);
	mnl_attr_nest_end(h, li);
	err = nl_transact(&t->nl, h, NULL, NULL, &r);
	if (!err)
		err = r.error;
	if (err)
		return err;
	t->ifindex = (int)if_nametoindex(TZ_DEV);
	peer_index = (int)if_nametoindex(TZ_PEER);
	if (!t->ifindex || !peer_index)
		return -ENODEV;
	err = nl_link_set(&t->nl, peer_index, true, -1);
	if (!err)
		err = nl_link_set(&t->nl, t->ifindex, true, -1);
	inet_pton(AF_INET, "198.51.100.1", &a);
	return err ? err : nl_addr_add(&t->nl, AF_INET, t->ifindex, &a, 24);
}

/* (the peer goes with it) */
void tz_del_dev(struct tz_ctx *t)
{
	struct nlmsghdr *h = nl_msg(&t->nl, t->buf, RTM_DELLINK, 0);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(h, sizeof(*ifm));
	struct nl_reply r;

	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = t->ifindex;
	nl_transact(&t->nl, h, NULL, NULL, &r);
}

/* "7 (expanded: 1408)" before the buffer's first use: 1408 */
long tz_trace_buffer_kb(void)
{
	char line[128] = "";
	const char *p;
	int err = tracefs_read("buffer_size_kb", line, sizeof(line));

	if (err && err != -EIO)
		return -1;
	p = strstr(line, "expanded: ");
	return p ? atol(p + 10) : atol(line);
}

/* Calls @fn with each line of the trace buffer that contains @text */
static long trace_lines(const char *text, void (*fn)(const char *line, void *arg), void *arg)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(TRACEFS "/trace", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, text)) {
			n++;
			if (fn)
				fn(line, arg);
		}
	fclose(f);
	return n;
}

long tz_trace_count(const char *text)
{
	return trace_lines(text, NULL, NULL);
}

static void add_skipped(const char *line, void *arg)
{
	const char *p = strstr(line, " skipped=");

	if (p)
		*(long long *)arg += atoll(p + 9);
}

long long tz_trace_skipped(void)
{
	long long sum = 0;

	trace_lines("taprio_advance:", add_skipped, &sum);
	return sum;
}

struct nlmsghdr *tz_build(struct tz_ctx *t, const struct tz_sched *s, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *h;
	struct tcmsg *tcm;
	struct nlattr *opts, *list, *e;
	size_t i;

	memset(t->buf, 0, 256);
	h = nl_msg(&t->nl, t->buf, type, flags);
	tcm = mnl_nlmsg_put_extra_header(h, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = t->ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(h, TCA_KIND, "taprio");
	if (type == RTM_DELQDISC || !s)
		return h;
	opts = mnl_attr_nest_start(h, TCA_OPTIONS);
	if (s->priomap)
		mnl_attr_put(h, TCA_TAPRIO_ATTR_PRIOMAP, sizeof(s->q), &s->q);
	if (s->has_clockid)
		mnl_attr_put_u32(h, TCA_TAPRIO_ATTR_SCHED_CLOCKID, (uint32_t)s->clockid);
	if (s->has_base)
		mnl_attr_put_u64(h, TCA_TAPRIO_ATTR_SCHED_BASE_TIME, (uint64_t)s->base);
	if (s->junk == 1) {
		struct nlattr *se = mnl_attr_nest_start(h, TCA_TAPRIO_ATTR_SCHED_SINGLE_ENTRY);

		mnl_attr_put_u32(h, TCA_TAPRIO_SCHED_ENTRY_INTERVAL, 100000);
		mnl_attr_nest_end(h, se);
	}
	if (s->has_list) {
		list = mnl_attr_nest_start(h, TCA_TAPRIO_ATTR_SCHED_ENTRY_LIST);
		for (i = 0; i < s->n; i++) {
			e = mnl_attr_nest_start(h, TCA_TAPRIO_SCHED_ENTRY);
			if (s->e[i].has_cmd)
				mnl_attr_put_u8(h, TCA_TAPRIO_SCHED_ENTRY_CMD, s->e[i].cmd);
			if (s->e[i].has_mask)
				mnl_attr_put_u32(h, TCA_TAPRIO_SCHED_ENTRY_GATE_MASK, s->e[i].mask);
			if (s->e[i].has_iv)
				mnl_attr_put_u32(h, TCA_TAPRIO_SCHED_ENTRY_INTERVAL, s->e[i].iv);
			mnl_attr_nest_end(h, e);
		}
		if (s->junk == 2)
			mnl_attr_put_u32(h, TCA_TAPRIO_SCHED_UNSPEC, 7);
		mnl_attr_nest_end(h, list);
	}
	if (s->has_cycle)
		mnl_attr_put_u64(h, TCA_TAPRIO_ATTR_SCHED_CYCLE_TIME, (uint64_t)s->cycle);
	if (s->has_ext)
		mnl_attr_put_u64(h, TCA_TAPRIO_ATTR_SCHED_CYCLE_TIME_EXTENSION, (uint64_t)s->ext);
	if (s->has_flags)
		mnl_attr_put_u32(h, TCA_TAPRIO_ATTR_FLAGS, s->flags);
	if (s->has_txdelay)
		mnl_attr_put_u32(h, TCA_TAPRIO_ATTR_TXTIME_DELAY, s->txdelay);
	if (s->junk == 3)
		mnl_attr_put_u32(h, 200, 0xdeadbeef);
	mnl_attr_nest_end(h, opts);
	return h;
}

int tz_send(struct tz_ctx *t, struct nlmsghdr *h, char *extack, size_t len)
{
	struct nl_reply r;
	int err = nl_transact(&t->nl, h, NULL, NULL, &r);

	if (!err)
		err = r.error;
	if (extack)
		snprintf(extack, len, "%s", r.extack);
	return err;
}

void tz_delete(struct tz_ctx *t)
{
	tz_send(t, tz_build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
}

void tz_sane(struct tz_sched *s, int64_t base, uint32_t iv)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->priomap = true;
	s->q.num_tc = 3;
	for (i = 0; i < 16; i++)
		s->q.prio_tc_map[i] = (uint8_t)(i % 3);
	s->q.count[0] = 1, s->q.offset[0] = 0;
	s->q.count[1] = 1, s->q.offset[1] = 1;
	s->q.count[2] = TZ_NTXQ - 2, s->q.offset[2] = 2;
	s->has_clockid = true;
	s->clockid = CLOCK_TAI;
	s->has_base = true;
	s->base = base;
	s->has_list = true;
	s->n = 3;
	for (i = 0; i < 3; i++) {
		s->e[i].has_cmd = s->e[i].has_mask = s->e[i].has_iv = true;
		s->e[i].cmd = TC_TAPRIO_CMD_SET_GATES;
		s->e[i].mask = 1U << i;
		s->e[i].iv = iv;
	}
}

struct kind_ans {
	int ifindex;
	char kind[32];
};

static int kind_cb(const struct nlmsghdr *h, void *data)
{
	struct kind_ans *a = data;
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(h);
	const struct nlattr *attr;

	if (tcm->tcm_ifindex != a->ifindex || tcm->tcm_parent != TC_H_ROOT)
		return MNL_CB_OK;
	mnl_attr_for_each(attr, h, sizeof(*tcm))
		if (mnl_attr_get_type(attr) == TCA_KIND)
			snprintf(a->kind, sizeof(a->kind), "%s", mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

int tz_root_kind(struct tz_ctx *t, char *kind, size_t len)
{
	struct kind_ans a = { .ifindex = t->ifindex };
	struct nlmsghdr *h = nl_msg(&t->nl, t->buf, RTM_GETQDISC, NLM_F_DUMP);
	struct tcmsg *tcm = mnl_nlmsg_put_extra_header(h, sizeof(*tcm));
	struct nl_reply r;
	int err;

	tcm->tcm_family = AF_UNSPEC;
	err = nl_dump(&t->nl, h, kind_cb, &a, &r);
	if (!err)
		err = r.error;
	snprintf(kind, len, "%s", a.kind);
	return err;
}

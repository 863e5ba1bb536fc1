// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/nl.c on the host: sockets, strict checking, dumps with
 * their counts, errors with extack, requests, batches, the receive timeout.
 * Only read-only requests (link dumps and gets): nothing on the host changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <net/if.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nl.h"
#include "tap.h"

static int count_links(const struct nlmsghdr *nlh, void *data)
{
	unsigned int *n = data;

	*n += nlh->nlmsg_type == RTM_NEWLINK;
	return MNL_CB_OK;
}

static struct nlmsghdr *link_dump(struct nl_sock *s, void *buf)
{
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_GETLINK, NLM_F_DUMP);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	ifm->ifi_family = AF_UNSPEC;
	return nlh;
}

static struct nlmsghdr *link_get(struct nlmsghdr *nlh, int ifindex)
{
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = ifindex;
	return nlh;
}

/*
 * A route netlink socket with a 32 KiB receive buffer, checking strictly
 * when @strict (the test bails out without it)
 */
static void open_route(struct nl_sock *s, bool strict)
{
	if (nl_open(s, NETLINK_ROUTE, 32768))
		tap_bail("no netlink socket");
	if (strict)
		nl_set_strict(s, true);
}

LAB_TEST(options)
{
	struct nl_sock s;
	int v = -1;

	open_route(&s, false);
	tap_eq_int(nl_set_bufsize(&s, 1024), -EINVAL, "a receive buffer below 4096 bytes is refused");
	tap_eq_int(s.bufsize, 32768, "the receive buffer stays as it was");
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 0, "a new socket does not check strictly");
	nl_set_strict(&s, true);
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 1, "nl_set_strict(true) reads back as 1");
	nl_close(&s);
}

/* dumps and requests, their answers and errors */
LAB_TEST(requests)
{
	char buf[NL_MSG_MAX], rs[300];
	unsigned int links = 0;
	struct nlmsghdr *nlh;
	struct nl_reply r;
	struct nl_sock s;
	int err;

	open_route(&s, true);
	nlh = link_dump(&s, buf);
	err = nl_dump(&s, nlh, count_links, &links, &r);
	tap_ok(!err && !r.error && r.end == NLMSG_DONE, "a link dump ends with NLMSG_DONE and no error (%s)",
	       err ? strerror(-err) : nl_reply_str(&r, rs, sizeof(rs)));
	tap_ok(links >= 1 && links == r.data_msgs,
	       "the callback saw every link message (%u links, %llu data messages)", links,
	       (unsigned long long)r.data_msgs);
	tap_ok(r.msgs == r.data_msgs + 1 && r.bytes > 0 && r.recvmsgs >= 1,
	       "counts: %llu messages (NLMSG_DONE included), %llu bytes, %llu recvmsg",
	       (unsigned long long)r.msgs, (unsigned long long)r.bytes, (unsigned long long)r.recvmsgs);

	/* a malformed strict dump: the error and its extack message, from NLMSG_DONE */
	nlh = link_dump(&s, buf);
	((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_type = 1;
	err = nl_dump(&s, nlh, NULL, NULL, &r);
	tap_ok(!err && r.error == -EINVAL && r.end == NLMSG_DONE &&
	       !strcmp(r.extack, "Invalid values in header for link dump request"),
	       "a strict link dump with ifi_type set fails in NLMSG_DONE with its extack: %s",
	       err ? strerror(-err) : nl_reply_str(&r, rs, sizeof(rs)));

	/* a request: its answer, then the ack */
	links = 0;
	nlh = link_get(nl_msg(&s, buf, RTM_GETLINK, 0), (int)if_nametoindex("lo"));
	err = nl_transact(&s, nlh, count_links, &links, &r);
	tap_ok(!err && !r.error && r.end == NLMSG_ERROR && links == 1,
	       "nl_transact: a get of lo answers one link, then an ack (%s, %u links)",
	       err ? strerror(-err) : nl_reply_str(&r, rs, sizeof(rs)), links);
	nlh = link_get(nl_msg(&s, buf, RTM_GETLINK, 0), 0x7ffffff0);
	err = nl_transact(&s, nlh, NULL, NULL, &r);
	tap_ok(!err && r.error == -ENODEV && r.end == NLMSG_ERROR,
	       "nl_transact: a get of a link that does not exist is answered ENODEV (%s)",
	       err ? strerror(-err) : nl_reply_str(&r, rs, sizeof(rs)));
	nl_close(&s);
}

/* batches: every ack read, errors counted */
LAB_TEST(batches)
{
	struct nl_batch_stats st = { 0 };
	struct nl_batch b;
	struct nl_sock s;
	int i;

	open_route(&s, true);
	nl_set_rcvbuf(&s, 1 << 20);
	if (nl_batch_init(&b, &s, 4096, true))
		tap_bail("no batch");
	for (i = 0; i < 200; i++) {
		link_get(nl_batch_msg(&b, RTM_GETLINK, 0), i == 7 ? 0x7ffffff0 : (int)if_nametoindex("lo"));
		if (nl_batch_commit(&b))
			nl_batch_flush(&b, &st);
	}
	nl_batch_flush(&b, &st);
	tap_ok(st.msgs == 200 && st.acks == 199 && st.errors == 1 && st.first_error == -ENODEV,
	       "a batch of 200 gets in %llu sendmsg: 199 acks, 1 error ENODEV (got %llu acks, %llu errors, first %d)",
	       (unsigned long long)st.sendmsgs, (unsigned long long)st.acks, (unsigned long long)st.errors,
	       st.first_error);
	tap_ok(st.sendmsgs > 1, "the batch limit (4096 bytes) split the batch (%llu sendmsg)",
	       (unsigned long long)st.sendmsgs);
	nl_batch_free(&b);

	memset(&st, 0, sizeof(st));
	if (nl_batch_init(&b, &s, 65536, false))
		tap_bail("no batch");
	for (i = 0; i < 50; i++) {
		link_get(nl_batch_msg(&b, RTM_GETLINK, 0), i == 3 ? 0x7ffffff0 : (int)if_nametoindex("lo"));
		nl_batch_commit(&b);
	}
	nl_batch_flush(&b, &st);
	tap_ok(st.msgs == 50 && st.acks == 1 && st.errors == 1 && st.sendmsgs == 1,
	       "errors-only batch: one sendmsg, the error and one final ack (got %llu acks, %llu errors)",
	       (unsigned long long)st.acks, (unsigned long long)st.errors);
	nl_batch_free(&b);
	nl_close(&s);
}

/* nothing asked, nothing comes: the timeout */
LAB_TEST(timeout)
{
	struct nl_reply r;
	struct nl_sock s;

	open_route(&s, false);
	tap_eq_int(nl_recv(&s, s.seq + 1000, NULL, NULL, &r, 100), -ETIMEDOUT,
		   "nl_recv gives up after its timeout when no answer comes");
	nl_close(&s);
}

LAB_TEST_MAIN()

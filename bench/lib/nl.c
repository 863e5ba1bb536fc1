// SPDX-License-Identifier: GPL-2.0
/* A thin layer over libmnl: requests, dumps with counts, batches; see nl.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

int nl_set_bufsize(struct nl_sock *s, size_t bufsize)
{
	char *buf;

	if (bufsize < 4096) {
		fprintf(stderr, "nl: receive buffer of %zu bytes is below 4096\n", bufsize);
		return -EINVAL;
	}
	buf = realloc(s->buf, bufsize);
	if (!buf)
		return -ENOMEM;
	s->buf = buf;
	s->bufsize = bufsize;
	return 0;
}

int nl_setopt(struct nl_sock *s, int opt, int val)
{
	if (setsockopt(mnl_socket_get_fd(s->mnl), SOL_NETLINK, opt, &val, sizeof(val)) < 0) {
		int err = -errno;

		fprintf(stderr, "nl: setsockopt(SOL_NETLINK, %d, %d): %s\n", opt, val, strerror(errno));
		return err;
	}
	return 0;
}

int nl_getopt(struct nl_sock *s, int opt, int *val)
{
	socklen_t len = sizeof(*val);

	if (getsockopt(mnl_socket_get_fd(s->mnl), SOL_NETLINK, opt, val, &len) < 0) {
		int err = -errno;

		fprintf(stderr, "nl: getsockopt(SOL_NETLINK, %d): %s\n", opt, strerror(errno));
		return err;
	}
	return 0;
}

int nl_set_strict(struct nl_sock *s, bool on)
{
	return nl_setopt(s, NETLINK_GET_STRICT_CHK, on);
}

int nl_set_rcvbuf(struct nl_sock *s, int bytes)
{
	int fd = mnl_socket_get_fd(s->mnl);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) == 0)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes)) == 0)
		return 0;
	fprintf(stderr, "nl: SO_RCVBUF %d: %s\n", bytes, strerror(errno));
	return -errno;
}

int nl_open(struct nl_sock *s, int bus, size_t bufsize)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->mnl = mnl_socket_open(bus);
	if (!s->mnl) {
		err = -errno;
		fprintf(stderr, "nl: socket(AF_NETLINK, %d): %s\n", bus, strerror(errno));
		return err;
	}
	if (mnl_socket_bind(s->mnl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		fprintf(stderr, "nl: bind: %s\n", strerror(errno));
		goto fail;
	}
	s->portid = mnl_socket_get_portid(s->mnl);
	s->seq = (unsigned int)getpid() << 12;
	err = nl_setopt(s, NETLINK_EXT_ACK, 1);
	if (!err)
		err = nl_setopt(s, NETLINK_CAP_ACK, 1);
	if (!err)
		err = nl_set_bufsize(s, bufsize);
	if (!err)
		return 0;
fail:
	nl_close(s);
	return err;
}

void nl_close(struct nl_sock *s)
{
	if (s->mnl)
		mnl_socket_close(s->mnl);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

struct nlmsghdr *nl_msg(struct nl_sock *s, void *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++s->seq;
	return nlh;
}

int nl_send_raw(struct nl_sock *s, const void *buf, size_t len)
{
	if (mnl_socket_sendto(s->mnl, buf, len) < 0) {
		int err = -errno;

		fprintf(stderr, "nl: sendto (%zu bytes): %s\n", len, strerror(errno));
		return err;
	}
	return 0;
}

/* The extack attributes of an NLMSG_ERROR or NLMSG_DONE message */
static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_reply *r = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(r->extack, sizeof(r->extack), "%s", mnl_attr_get_str(attr));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			r->extack_offs = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

struct recv_ctx {
	struct nl_reply *r;
	mnl_cb_t cb;
	void *data;
	bool cb_failed;
};

static int ctl_error(const struct nlmsghdr *nlh, void *data)
{
	struct recv_ctx *c = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);

	c->r->msgs++;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e)) {
		c->r->error = -EBADMSG;
		c->r->end = NLMSG_ERROR;
		return MNL_CB_STOP;
	}
	c->r->error = e->error;
	c->r->end = NLMSG_ERROR;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && mnl_nlmsg_get_payload_len(nlh) > off)
		mnl_attr_parse(nlh, off, extack_attr_cb, c->r);
	return MNL_CB_STOP;
}

static int ctl_done(const struct nlmsghdr *nlh, void *data)
{
	struct recv_ctx *c = data;
	int32_t err = 0;

	c->r->msgs++;
	c->r->end = NLMSG_DONE;
	c->r->done_filtered = nlh->nlmsg_flags & NLM_F_DUMP_FILTERED;
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(err)) {
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
		if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
		    mnl_nlmsg_get_payload_len(nlh) > sizeof(err))
			mnl_attr_parse(nlh, sizeof(err), extack_attr_cb, c->r);
	}
	c->r->error = err;
	return MNL_CB_STOP;
}

static int ctl_other(const struct nlmsghdr *nlh, void *data)
{
	struct recv_ctx *c = data;

	(void)nlh;
	c->r->msgs++;
	return MNL_CB_OK;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct recv_ctx *c = data;
	int ret = MNL_CB_OK;

	c->r->msgs++;
	c->r->data_msgs++;
	if (nlh->nlmsg_flags & NLM_F_DUMP_FILTERED)
		c->r->filtered_msgs++;
	if (c->cb) {
		ret = c->cb(nlh, c->data);
		if (ret == MNL_CB_ERROR)
			c->cb_failed = true;
	}
	return ret;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = ctl_other,
	[NLMSG_ERROR] = ctl_error,
	[NLMSG_DONE] = ctl_done,
	[NLMSG_OVERRUN] = ctl_other,
};

int nl_recv(struct nl_sock *s, unsigned int seq, mnl_cb_t cb, void *data,
	    struct nl_reply *r, int timeout_ms)
{
	struct recv_ctx c = { .r = r, .cb = cb, .data = data };
	int fd = mnl_socket_get_fd(s->mnl);
	ssize_t n;
	int ret;

	memset(r, 0, sizeof(*r));
	r->extack_offs = -1;
	for (;;) {
		if (timeout_ms > 0) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			ret = poll(&p, 1, timeout_ms);
			if (ret == 0)
				return -ETIMEDOUT;
			if (ret < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
		}
		n = mnl_socket_recvfrom(s->mnl, s->buf, s->bufsize);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* libmnl reports MSG_TRUNC as ENOSPC */
			return errno == ENOSPC ? -EMSGSIZE : -errno;
		}
		r->recvmsgs++;
		r->bytes += n;
		ret = mnl_cb_run2(s->buf, n, seq, s->portid, data_cb, &c, ctl_cbs, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_STOP) {
			if (r->end)
				return 0;
			return -ECANCELED;	/* a callback stopped the dump early */
		}
		if (ret < 0) {
			if (c.cb_failed)
				return -ECANCELED;
			return errno == ESRCH || errno == EPROTO ? -EPROTO : -errno;
		}
	}
}

int nl_dump(struct nl_sock *s, const struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
	    struct nl_reply *r)
{
	int err = nl_send_raw(s, nlh, nlh->nlmsg_len);

	if (err)
		return err;
	return nl_recv(s, nlh->nlmsg_seq, cb, data, r, 0);
}

int nl_transact(struct nl_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		struct nl_reply *r)
{
	nlh->nlmsg_flags |= NLM_F_ACK;
	return nl_dump(s, nlh, cb, data, r);
}

const char *nl_reply_str(const struct nl_reply *r, char *buf, size_t len)
{
	if (!r->error)
		snprintf(buf, len, "ok");
	else if (r->extack[0])
		snprintf(buf, len, "%s \"%s\"", strerrorname_np(-r->error) ?: "?", r->extack);
	else
		snprintf(buf, len, "%s (no extack)", strerrorname_np(-r->error) ?: "?");
	return buf;
}

/* Batches */

int nl_batch_init(struct nl_batch *b, struct nl_sock *s, size_t limit, bool all_acks)
{
	memset(b, 0, sizeof(*b));
	/* libmnl's batch may overrun the limit by one message: room for it */
	b->buf = malloc(limit + NL_MSG_MAX);
	if (!b->buf)
		return -ENOMEM;
	b->mb = mnl_nlmsg_batch_start(b->buf, limit);
	if (!b->mb) {
		free(b->buf);
		return -ENOMEM;
	}
	b->s = s;
	b->limit = limit;
	b->all_acks = all_acks;
	b->first_seq = s->seq + 1;
	return 0;
}

void nl_batch_free(struct nl_batch *b)
{
	if (b->mb)
		mnl_nlmsg_batch_stop(b->mb);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

struct nlmsghdr *nl_batch_msg(struct nl_batch *b, uint16_t type, uint16_t flags)
{
	/* libmnl zeroes the headers and the attributes' padding as they are put */
	return nl_msg(b->s, mnl_nlmsg_batch_current(b->mb), type, flags | (b->all_acks ? NLM_F_ACK : 0));
}

int nl_batch_commit(struct nl_batch *b)
{
	if (mnl_nlmsg_batch_next(b->mb)) {
		b->count++;
		return 0;
	}
	b->carried = true;	/* did not fit: it goes out with the next batch */
	return 1;
}

unsigned int nl_batch_pending(const struct nl_batch *b)
{
	return b->count;
}

struct ack_ctx {
	struct nl_batch_stats *st;
	unsigned int first, last;
	bool last_answered;
};

static int batch_ack_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ack_ctx *c = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct nl_reply r = { .extack_offs = -1 };
	size_t off = sizeof(*e);

	if (nlh->nlmsg_type != NLMSG_ERROR || mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
		return MNL_CB_OK;
	if (nlh->nlmsg_seq - c->first > c->last - c->first)
		return MNL_CB_OK;	/* not ours */
	if (e->error) {
		c->st->errors++;
		if (!c->st->first_error) {
			c->st->first_error = e->error;
			if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
				off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
			if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && mnl_nlmsg_get_payload_len(nlh) > off)
				mnl_attr_parse(nlh, off, extack_attr_cb, &r);
			snprintf(c->st->first_extack, sizeof(c->st->first_extack), "%s", r.extack);
		}
	} else {
		c->st->acks++;
	}
	if (nlh->nlmsg_seq == c->last)
		c->last_answered = true;
	return MNL_CB_OK;
}

int nl_batch_flush(struct nl_batch *b, struct nl_batch_stats *st)
{
	static mnl_cb_t ack_cbs[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = batch_ack_cb };
	struct ack_ctx c = { .st = st };
	uint64_t answers0 = st->acks + st->errors, want;
	struct nlmsghdr *last = NULL, *nlh;
	size_t len = mnl_nlmsg_batch_size(b->mb);
	int rest = (int)len;
	ssize_t n;
	int err;

	if (!b->count)
		goto reset;
	/* The last message of the batch: it always asks for an ack */
	for (nlh = mnl_nlmsg_batch_head(b->mb); mnl_nlmsg_ok(nlh, rest); nlh = mnl_nlmsg_next(nlh, &rest))
		last = nlh;
	last->nlmsg_flags |= NLM_F_ACK;
	c.first = b->first_seq;
	c.last = last->nlmsg_seq;
	want = b->all_acks ? b->count : 1;

	err = nl_send_raw(b->s, mnl_nlmsg_batch_head(b->mb), len);
	if (err)
		return err;
	st->sendmsgs++;
	st->msgs += b->count;
	/*
	 * Every message is answered in order (an ack, or an error even without
	 * NLM_F_ACK): done when the last one is answered and, with all acks,
	 * when every message has an answer.
	 */
	while (!c.last_answered || (b->all_acks && st->acks + st->errors - answers0 < want)) {
		n = mnl_socket_recvfrom(b->s->mnl, b->s->buf, b->s->bufsize);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			fprintf(stderr, "nl: reading the acks of a batch of %u: %s\n", b->count,
				strerror(errno));
			return err;
		}
		st->recvmsgs++;
		if (mnl_cb_run2(b->s->buf, n, 0, b->s->portid, NULL, &c, ack_cbs, NLMSG_MIN_TYPE) < 0) {
			err = -errno;
			fprintf(stderr, "nl: bad ack in a batch: %s\n", strerror(errno));
			return err;
		}
	}
reset:
	mnl_nlmsg_batch_reset(b->mb);
	if (b->carried) {
		b->count = 1;
		b->first_seq = ((struct nlmsghdr *)mnl_nlmsg_batch_head(b->mb))->nlmsg_seq;
		b->carried = false;
	} else {
		b->count = 0;
		b->first_seq = b->s->seq + 1;
	}
	return 0;
}

/* Links and addresses */

static int report(const char *what, int err, const struct nl_reply *r)
{
	char buf[300];

	if (err) {
		fprintf(stderr, "nl: %s: %s\n", what, strerror(-err));
		return err;
	}
	if (r->error) {
		fprintf(stderr, "nl: %s: %s\n", what, nl_reply_str(r, buf, sizeof(buf)));
		return r->error;
	}
	return 0;
}

int nl_link_add(struct nl_sock *s, const char *name, const char *kind)
{
	char buf[NL_MSG_MAX], what[64];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	struct nlattr *li;
	struct nl_reply r;
	unsigned int idx;
	int err;

	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, kind);
	mnl_attr_nest_end(nlh, li);
	snprintf(what, sizeof(what), "add %s link %s", kind, name);
	err = report(what, nl_transact(s, nlh, NULL, NULL, &r), &r);
	if (err)
		return err;
	idx = if_nametoindex(name);
	if (!idx) {
		fprintf(stderr, "nl: %s: no ifindex after creation\n", name);
		return -ENODEV;
	}
	return (int)idx;
}

int nl_link_set(struct nl_sock *s, int ifindex, bool up, int master)
{
	char buf[NL_MSG_MAX], what[64];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWLINK, 0);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	struct nl_reply r;

	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = ifindex;
	ifm->ifi_change = IFF_UP;
	ifm->ifi_flags = up ? IFF_UP : 0;
	if (master >= 0)
		mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)master);
	snprintf(what, sizeof(what), "set link %d %s", ifindex, up ? "up" : "down");
	return report(what, nl_transact(s, nlh, NULL, NULL, &r), &r);
}

int nl_addr_add(struct nl_sock *s, int family, int ifindex, const void *addr, int prefixlen)
{
	char buf[NL_MSG_MAX], what[64];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	size_t alen = family == AF_INET ? 4 : 16;
	struct nl_reply r;

	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_prefixlen = (uint8_t)prefixlen;
	ifa->ifa_index = (uint32_t)ifindex;
	ifa->ifa_flags = family == AF_INET6 ? IFA_F_NODAD : 0;
	mnl_attr_put(nlh, IFA_LOCAL, alen, addr);
	mnl_attr_put(nlh, IFA_ADDRESS, alen, addr);
	snprintf(what, sizeof(what), "add address on link %d", ifindex);
	return report(what, nl_transact(s, nlh, NULL, NULL, &r), &r);
}

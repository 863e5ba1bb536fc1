/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thin layer over libmnl for the lab's netlink workloads: a socket with
 * extended acks, requests answered by an ack or an error (with the extack
 * message), dumps read to the end while counting what they cost (bytes,
 * recvmsg calls, messages, NLM_F_DUMP_FILTERED), and batches of many
 * messages per sendmsg with every ack checked. All message building and
 * parsing is libmnl's; nothing here formats netlink by hand.
 *
 *	struct nl_sock s;
 *	struct nl_reply r;
 *	char req[NL_MSG_MAX];
 *	struct nlmsghdr *nlh = nl_msg(&s, req, RTM_GETROUTE, NLM_F_DUMP);
 *	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
 *
 *	rtm->rtm_family = AF_INET;
 *	nl_open(&s, NETLINK_ROUTE, 32768);
 *	nl_set_strict(&s, true);
 *	nl_dump(&s, nlh, route_cb, &counts, &r);   // r.error, r.extack, r.msgs ...
 *
 * Errors: functions return 0 or -errno. A netlink error answer is not a
 * function error: it is reported in struct nl_reply (error, extack), and
 * the function returns 0. Socket failures are printed on stderr.
 */
#ifndef BENCH_NL_H
#define BENCH_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

/* The largest request the helpers build (one message) */
#define NL_MSG_MAX 8192

struct nl_sock {
	struct mnl_socket *mnl;
	unsigned int portid;
	unsigned int seq;
	char *buf;		/* receive buffer */
	size_t bufsize;		/* its size: the length given to every recvmsg */
};

/* What came back for one request. */
struct nl_reply {
	int error;		/* 0, or the negative errno of NLMSG_ERROR / NLMSG_DONE */
	char extack[256];	/* NLMSGERR_ATTR_MSG, "" when the kernel sent none */
	int64_t extack_offs;	/* NLMSGERR_ATTR_OFFS (bad attribute offset), or -1 */
	int end;		/* NLMSG_DONE, NLMSG_ERROR, or 0 when the reply did not end */
	uint64_t bytes;		/* bytes received */
	uint64_t recvmsgs;	/* recvmsg calls */
	uint64_t msgs;		/* netlink messages received, NLMSG_DONE included */
	uint64_t data_msgs;	/* messages that were not NLMSG_DONE or NLMSG_ERROR */
	uint64_t filtered_msgs;	/* data messages flagged NLM_F_DUMP_FILTERED */
	bool done_filtered;	/* NLMSG_DONE carried NLM_F_DUMP_FILTERED */
};

/*
 * nl_open - open and bind a netlink socket of @bus with NETLINK_EXT_ACK and
 * NETLINK_CAP_ACK set, and a receive buffer of @bufsize bytes (the length
 * passed to every recvmsg; at least 4096).
 */
int nl_open(struct nl_sock *s, int bus, size_t bufsize);
void nl_close(struct nl_sock *s);
/* The recvmsg length: @bufsize bytes from now on. */
int nl_set_bufsize(struct nl_sock *s, size_t bufsize);
/* setsockopt / getsockopt at SOL_NETLINK with an int value */
int nl_setopt(struct nl_sock *s, int opt, int val);
int nl_getopt(struct nl_sock *s, int opt, int *val);
/* NETLINK_GET_STRICT_CHK on or off */
int nl_set_strict(struct nl_sock *s, bool on);
/* SO_RCVBUFFORCE (root) or else SO_RCVBUF of @bytes: room for many acks */
int nl_set_rcvbuf(struct nl_sock *s, int bytes);

/*
 * nl_msg - start a request in @buf (NL_MSG_MAX bytes or more):
 * header of @type with NLM_F_REQUEST | @flags and the next sequence number.
 * Add the family header with mnl_nlmsg_put_extra_header() and attributes
 * with mnl_attr_put*().
 */
struct nlmsghdr *nl_msg(struct nl_sock *s, void *buf, uint16_t type, uint16_t flags);

/*
 * nl_send_raw - send @len bytes as they are (for malformed requests: the
 * first message's nlmsg_seq is what the replies will carry).
 */
int nl_send_raw(struct nl_sock *s, const void *buf, size_t len);

/*
 * nl_recv - read the answer to sequence @seq until NLMSG_DONE or
 * NLMSG_ERROR: data messages go to @cb (may be NULL), counts and the error
 * with its extack into @r. @timeout_ms > 0: give up with -ETIMEDOUT when
 * nothing arrives for that long. Returns 0 or -errno (socket error, a
 * truncated message: -EMSGSIZE, a message of another sequence: -EPROTO, a
 * dump interrupted by a change: -EINTR, a callback error: -ECANCELED).
 */
int nl_recv(struct nl_sock *s, unsigned int seq, mnl_cb_t cb, void *data,
	    struct nl_reply *r, int timeout_ms);

/* nl_dump - send @nlh (NLM_F_DUMP set by the caller) and nl_recv() it. */
int nl_dump(struct nl_sock *s, const struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
	    struct nl_reply *r);

/*
 * nl_transact - send @nlh with NLM_F_ACK added and wait for its ack or
 * error; data messages (a get's answer) go to @cb. Returns 0 or -errno;
 * the netlink answer is in @r (r->error).
 */
int nl_transact(struct nl_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		struct nl_reply *r);

/* nl_strerror - "EINVAL \"message\"" style text of a reply's error. */
const char *nl_reply_str(const struct nl_reply *r, char *buf, size_t len);

/*
 * A batch: many requests in one sendmsg, each with NLM_F_ACK, all acks
 * read and checked by nl_batch_flush().
 *
 *	nl_batch_init(&b, &s, 65536);
 *	for (...) {
 *		nlh = nl_batch_msg(&b, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
 *		... build the message at nlh ...
 *		if (nl_batch_commit(&b))       // full: send what is there
 *			nl_batch_flush(&b, &st);
 *	}
 *	nl_batch_flush(&b, &st);
 */
struct nl_batch {
	struct nl_sock *s;
	struct mnl_nlmsg_batch *mb;
	char *buf;
	size_t limit;
	unsigned int first_seq;	/* sequence of the first message not yet sent */
	unsigned int count;	/* committed messages not yet sent */
	bool carried;		/* the message at the current slot waits for the next batch */
	bool all_acks;		/* NLM_F_ACK on every message, else errors only + a final ack */
};

struct nl_batch_stats {
	uint64_t msgs;		/* messages sent */
	uint64_t sendmsgs;	/* sendmsg calls */
	uint64_t recvmsgs;	/* recvmsg calls for the acks */
	uint64_t acks;		/* positive acks */
	uint64_t errors;	/* error answers */
	int first_error;	/* negative errno of the first error answer */
	char first_extack[256];
};

/* @limit: bytes per sendmsg (at most the socket's send buffer). */
int nl_batch_init(struct nl_batch *b, struct nl_sock *s, size_t limit, bool all_acks);
void nl_batch_free(struct nl_batch *b);
/* The next message's header (NLM_F_REQUEST | @flags, and NLM_F_ACK when all acks). */
struct nlmsghdr *nl_batch_msg(struct nl_batch *b, uint16_t type, uint16_t flags);
/* Add the message built at nl_batch_msg(): 1 when the batch is full and must be flushed. */
int nl_batch_commit(struct nl_batch *b);
/* Messages waiting to be sent. */
unsigned int nl_batch_pending(const struct nl_batch *b);
/* Send the committed messages and read every ack; counts add up in @st. */
int nl_batch_flush(struct nl_batch *b, struct nl_batch_stats *st);

/*
 * Links for the lab's namespaces: nl_link_add() creates @name of @kind
 * ("dummy", "bridge") and returns its ifindex (> 0) or -errno;
 * nl_link_set() sets it up or down and, when @master >= 0, its master
 * (0: none). Errors print the extack message on stderr.
 */
int nl_link_add(struct nl_sock *s, const char *name, const char *kind);
int nl_link_set(struct nl_sock *s, int ifindex, bool up, int master);
/* Add address @addr (4 or 16 bytes by @family) / @prefixlen on @ifindex. */
int nl_addr_add(struct nl_sock *s, int family, int ifindex, const void *addr, int prefixlen);

#endif

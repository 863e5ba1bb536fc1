// SPDX-License-Identifier: GPL-2.0
/*
 * Inserting the lab's routes: ours, batched RTM_NEWROUTE with every answer
 * read; and the calibration anchor, `ip -batch` adding the same IPv4
 * routes in a namespace of its own.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "routedump.h"
#include "timing.h"

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

static void add_sample(struct samples *smp, int family, uint64_t to, uint64_t msgs, uint64_t ns)
{
	smp->v = grow(smp->v, &smp->cap, smp->n, sizeof(*smp->v));
	smp->v[smp->n++] = (struct batch_sample){ family, to, (uint32_t)msgs, ns };
}

/* Send the batches of routes [run->from, run->to); one sample per batch */
static int send_batches(struct nl_batch *b, const int *ifindex, struct samples *smp, struct insert_run *run,
			struct nl_batch_stats *st, uint64_t *sent)
{
	uint64_t i, tb = mono_ns(), t, before;
	int err = 0;

	for (i = run->from; i < run->to || nl_batch_pending(b); i++) {
		bool full = false;

		if (i < run->to) {
			build_route(nl_batch_msg(b, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL), run->family, i,
				    ifindex);
			full = nl_batch_commit(b);
		}
		if (!full && i + 1 < run->to)
			continue;
		before = st->msgs;
		err = nl_batch_flush(b, st);
		if (err)
			break;
		t = mono_ns();
		add_sample(smp, run->family, run->from + st->msgs, st->msgs - before, t - tb);
		tb = t;
		*sent = st->msgs;
		if (st->errors)
			break;
	}
	return err;
}

/*
 * Insert routes [from, to) of @family with batched RTM_NEWROUTE; one sample
 * per batch (time from the end of the previous batch, so building the
 * messages counts). The kernel answers every route that fails (with its
 * extack) and acks the last route of each batch, or, with all_acks, acks
 * every route; every answer is read. Returns 0 when no route failed and
 * every batch was answered to its end (run checks the count by a dump).
 */
int insert_routes(struct nl_sock *s, int family, uint64_t from, uint64_t to, const int *ifindex,
		  const struct insert_opts *o, struct samples *smp, struct insert_run *run)
{
	struct nl_batch_stats st = { 0 };
	struct rusage ru0, ru1;
	struct nl_batch b;
	uint64_t t0, sent = 0;
	int err;

	err = nl_batch_init(&b, s, o->batch, o->all_acks);
	if (err)
		return err;
	*run = (struct insert_run){ .family = family, .method = o->all_acks ? "batch_ack_all" : "batch",
				    .from = from, .to = to, .batch = o->batch };
	getrusage(RUSAGE_SELF, &ru0);
	t0 = mono_ns();
	err = send_batches(&b, ifindex, smp, run, &st, &sent);
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
		fprintf(stderr, "%s: inserting %s routes: %" PRIu64 " errors, the first: %s \"%s\"\n", lab_prog,
			family_name(family), st.errors, lab_errname(st.first_error), st.first_extack);
		return st.first_error;
	}
	if (sent != to - from || (o->all_acks && st.acks != to - from)) {
		fprintf(stderr, "%s: inserting %s routes: %" PRIu64 " sent, %" PRIu64 " acked, expected %" PRIu64 "\n",
			lab_prog, family_name(family), sent, st.acks, to - from);
		return -EPROTO;
	}
	run->ok = true;
	return 0;
}

/* ------------------------------------------------------------ ip -batch */

/* The first @n IPv4 routes of the lab as `ip -batch` lines into @path (made by mkstemp) */
static int write_batch_file(char *path, uint64_t n)
{
	int fd = mkstemp(path);
	uint64_t i;
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: %s: %s\n", lab_prog, path, strerror(errno));
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
		fprintf(stderr, "%s: cannot write %s: %s\n", lab_prog, path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

/* Count the lab's IPv4 routes in this namespace: -1 when the dump fails */
static int64_t count_ours(struct nl_sock *s)
{
	struct target tg = { 0 };
	struct counter c = { .tg = &tg };
	char buf[NL_MSG_MAX];
	struct nl_reply r;

	nl_set_strict(s, true);
	build_dump(nl_msg(s, buf, RTM_GETROUTE, NLM_F_DUMP), AF_INET, F_NONE, &tg);
	if (nl_dump(s, (struct nlmsghdr *)buf, count_cb, &c, &r) || r.error)
		return -1;
	return (int64_t)c.ours;
}

/* The child: a namespace of its own, dummies, `ip -batch PATH` timed, its routes counted */
static void __attribute__((noreturn)) batch_child(const char *path, uint64_t n, int wfd)
{
	struct insert_run res = { .method = "ip-batch", .family = AF_INET, .to = n };
	int ifindex[2], st;
	struct nl_sock s;
	struct rusage ru;
	int64_t ours;
	uint64_t t0;
	pid_t ip;

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
	ours = count_ours(&s);
	if (ours < 0)
		_exit(1);
	res.ok = WIFEXITED(st) && !WEXITSTATUS(st) && (uint64_t)ours == n;
	if (!res.ok)
		fprintf(stderr, "%s: ip -batch: exit status %d, %" PRId64 " routes of %" PRIu64 " in the tables\n",
			lab_prog, WIFEXITED(st) ? WEXITSTATUS(st) : -1, ours, n);
	if (write(wfd, &res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

/*
 * The calibration anchor: `ip -batch` adding @n IPv4 routes, one per line,
 * in a namespace of its own (a child unshares it, so the routes go with the
 * child). The routes are then counted with a dump there.
 */
int ip_batch_insert(uint64_t n, struct insert_run *run)
{
	char path[] = "/tmp/routedump-batch-XXXXXX";
	struct insert_run res = { 0 };
	int p[2], status;
	pid_t pid;

	if (write_batch_file(path, n))
		return -1;
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
		close(p[0]);
		batch_child(path, n, p[1]);
	}
	close(p[1]);
	if (read(p[0], &res, sizeof(res)) != sizeof(res))
		res.ok = false;
	close(p[0]);
	waitpid(pid, &status, 0);
	unlink(path);
	res.method = "ip-batch";
	res.family = AF_INET;
	res.to = n;
	*run = res;
	return res.ok ? 0 : -1;
}

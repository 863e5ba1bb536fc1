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
#include "progress.h"
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
		*sent = st->msgs;
		progress_set(st->msgs);
		/* the progress line, if one was printed, is not the next batch's time */
		tb = mono_ns();
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

/* ------------------------------------------------- the like-for-like anchor */

/* IPv4 routes [from, to) of the lab as `ip -batch` lines into @path (made by mkstemp) */
static int write_batch_file(char *path, uint64_t from, uint64_t to)
{
	int fd = mkstemp(path);
	uint64_t i;
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: %s: %s\n", lab_prog, path, strerror(errno));
		return -1;
	}
	for (i = from; i < to; i++) {
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

/* `ip -batch` adding routes [run->from, run->to) (none: its start-up), timed into @run */
static int ip_batch_run(struct insert_run *run)
{
	char path[] = "/tmp/routedump-batch-XXXXXX";
	struct rusage ru;
	uint64_t t0;
	pid_t ip;
	int st;

	if (write_batch_file(path, run->from, run->to))
		return -1;
	t0 = mono_ns();
	ip = fork();
	if (!ip) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execlp("ip", "ip", "-batch", path, (char *)NULL);
		_exit(127);
	}
	if (ip < 0 || wait4(ip, &st, 0, &ru) < 0) {
		unlink(path);
		return -1;
	}
	run->ns = mono_ns() - t0;
	unlink(path);
	run->user_us = tv_us(&ru.ru_utime);
	run->sys_us = tv_us(&ru.ru_stime);
	run->ok = WIFEXITED(st) && !WEXITSTATUS(st);
	if (!run->ok)
		fprintf(stderr, "%s: ip -batch of routes %" PRIu64 "..%" PRIu64 ": exit status %d\n", lab_prog,
			run->from, run->to, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return run->ok ? 0 : -1;
}

/* Ours, like ip: routes [run->from, run->to), one request each, waiting for each ack */
static int single_run(struct nl_sock *s, const int *ifindex, struct insert_run *run)
{
	char buf[NL_MSG_MAX], rs[300];
	struct rusage ru0, ru1;
	struct nl_reply r;
	uint64_t i, t0;

	getrusage(RUSAGE_SELF, &ru0);
	t0 = mono_ns();
	for (i = run->from; i < run->to; i++) {
		struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);

		build_route(nlh, AF_INET, i, ifindex);
		if (nl_transact(s, nlh, NULL, NULL, &r) || r.error) {
			fprintf(stderr, "%s: single insert of route %" PRIu64 ": %s\n", lab_prog, i,
				nl_reply_str(&r, rs, sizeof(rs)));
			return -1;
		}
		run->sendmsgs++;
		run->recvmsgs++;
	}
	run->ns = mono_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	run->user_us = tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime);
	run->sys_us = tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime);
	run->ok = true;
	return 0;
}

/* The child: a namespace of its own, dummies, the rounds, the routes counted; the runs into @wfd */
static void __attribute__((noreturn)) anchor_child(uint64_t chunk, int reps, int wfd)
{
	struct insert_run *runs = calloc(3 * (size_t)reps, sizeof(*runs));
	int ifindex[2], k, bad = 0;
	struct nl_sock s;
	int64_t ours;

	if (!runs || unshare(CLONE_NEWNET) || nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) ||
	    setup_dummies(&s, ifindex))
		_exit(1);
	for (k = 0; k < reps && !bad; k++) {
		struct insert_run *e = &runs[3 * k], *ip = e + 1, *one = e + 2;
		uint64_t at = 2 * chunk * (uint64_t)k;

		*e = (struct insert_run){ .family = AF_INET, .method = "ip-batch-empty", .rep = k, .from = at,
					  .to = at };
		*ip = (struct insert_run){ .family = AF_INET, .method = "ip-batch", .rep = k, .from = at,
					   .to = at + chunk };
		*one = (struct insert_run){ .family = AF_INET, .method = "single_ack", .rep = k,
					    .from = at + chunk, .to = at + 2 * chunk };
		bad = ip_batch_run(e) || ip_batch_run(ip) || single_run(&s, ifindex, one);
		progress_set((uint64_t)k + 1);
	}
	ours = count_ours(&s);
	if (!bad && ours != (int64_t)(2 * chunk * (uint64_t)reps)) {
		fprintf(stderr, "%s: like-for-like insert: %" PRId64 " routes in the tables, expected %" PRIu64 "\n",
			lab_prog, ours, 2 * chunk * (uint64_t)reps);
		bad = 1;
	}
	if (bad)
		_exit(1);
	if (write(wfd, runs, 3 * (size_t)reps * sizeof(*runs)) != (ssize_t)(3 * (size_t)reps * sizeof(*runs)))
		_exit(1);
	_exit(0);
}

int anchor_inserts(uint64_t chunk, int reps, struct insert_run *runs)
{
	size_t len = 3 * (size_t)reps * sizeof(*runs), got = 0;
	int p[2], status, k;
	ssize_t n;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(p[0]);
		anchor_child(chunk, reps, p[1]);
	}
	close(p[1]);
	while (got < len && (n = read(p[0], (char *)runs + got, len - got)) > 0)
		got += (size_t)n;
	close(p[0]);
	waitpid(pid, &status, 0);
	if (got != len || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	/* the method names point into the child's copy of this program: the same strings here */
	for (k = 0; k < 3 * reps; k++)
		runs[k].method = k % 3 == 0 ? "ip-batch-empty" : k % 3 == 1 ? "ip-batch" : "single_ack";
	return 0;
}

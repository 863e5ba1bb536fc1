// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz of the conformance suite: mutated dump requests with strict
 * checking on; every answer must be a dump or a clean error, the kernel log
 * must stay free of warnings, and the kernel must stay responsive. Its
 * counts go to fuzz.csv and fuzz-errno.csv when conform has --out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "cli.h"
#include "conform.h"
#include "output.h"
#include "tap.h"
#include "timing.h"

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
	const struct dcase *d = &dcases[rndn(g, ndcases)];
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


static void reopen(struct nl_sock *s)
{
	nl_close(s);
	if (nl_open(s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(s, true))
		tap_bail("fuzz: cannot reopen the socket");
}

/* The first request without a clean answer, in hex, as a diagnostic */
static void diag_request(uint64_t i, int err, const uint8_t *buf, size_t len)
{
	char hex[3 * 200 + 1] = "";
	size_t j;

	for (j = 0; j < len && j < 200; j++)
		sprintf(hex + 3 * j, "%02x ", buf[j]);
	tap_diag("fuzz request %" PRIu64 " got no clean answer (%s): %s", i, strerror(-err), hex);
}

/* Request @i: send, read its answer, count it; false when the answer was not clean */
static bool fuzz_one(struct rng *g, struct nl_sock *s, uint64_t i, struct fuzz_stats *fs, bool first_bad)
{
	uint8_t buf[1024];
	size_t len = fuzz_request(g, s, buf, sizeof(buf), fs);
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nl_reply r;
	uint64_t t0 = mono_ns(), dt;
	int err;

	err = nl_send_raw(s, buf, len);
	if (!err)
		err = nl_recv(s, nlh->nlmsg_seq, NULL, NULL, &r, 10000);
	dt = mono_ns() - t0;
	if (dt > fs->max_ns)
		fs->max_ns = dt;
	if (err) {
		*(err == -ETIMEDOUT ? &fs->timeouts : &fs->bad) += 1;
		if (first_bad)
			diag_request(i, err, buf, len);
		reopen(s);
		return false;
	}
	if (r.error < -4095 || r.error > 0) {
		fs->bad++;
		tap_diag("fuzz request %" PRIu64 ": error value %d is not an errno", i, r.error);
		return false;
	}
	fs->errno_count[-r.error]++;
	if (r.end == NLMSG_DONE)
		*(r.error ? &fs->dump_errors : &fs->dumps) += 1;
	else
		*(r.error ? &fs->errors : &fs->acks) += 1;
	return true;
}

static void diag_errnos(const struct fuzz_stats *fs)
{
	char line[1024] = "";
	int j;

	for (j = 0; j < 4096; j++)
		if (fs->errno_count[j])
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s:%" PRIu64,
				 err_or_ok(j), fs->errno_count[j]);
	tap_diag("fuzz answers by errno:%s", line);
}

/* The kernel log since @kfd was opened; returns the lines of trouble, -1 when unread */
static int check_kmsg(int kfd)
{
	char first[512];
	int trouble;

	if (kfd < 0) {
		tap_skip("/dev/kmsg cannot be read", "fuzz: the kernel log shows no WARNING, BUG or Oops");
		return -1;
	}
	trouble = kmsg_trouble(kfd, first, sizeof(first));
	close(kfd);
	if (trouble)
		tap_fail("fuzz: the kernel log shows no WARNING, BUG or Oops", "%d lines, the first: %s", trouble,
			 first);
	else
		tap_ok(true, "fuzz: the kernel log shows no WARNING, BUG or Oops");
	return trouble;
}

static void check_responsive(struct nl_sock *s)
{
	uint8_t buf[1024];
	struct nlmsghdr *nlh = case_request(s, buf, &dcases[0], V_OK, 0);
	struct nl_reply r;
	char e[300];
	uint64_t t0;
	int err;

	t0 = mono_ns();
	err = nl_send_raw(s, buf, nlh->nlmsg_len);
	if (!err)
		err = nl_recv(s, nlh->nlmsg_seq, NULL, NULL, &r, 5000);
	t0 = mono_ns() - t0;
	tap_ok(!err && !r.error && t0 < 5 * NSEC_PER_SEC,
	       "fuzz: the guest stays responsive: a link dump afterwards answers in %.1f ms (%s)", ms(t0),
	       err ? strerror(-err) : nl_reply_str(&r, e, sizeof(e)));
}

static int write_fuzz(const char *out, const struct fuzz_stats *fs, uint64_t seed, uint64_t count,
		      uint64_t ns, int trouble)
{
	struct atomic_file af;
	int err;

	err = csv_open(&af, out, "fuzz.csv",
		       "seed,count,dumps,dump_errors,errors,acks,timeouts,bad,max_ms,seconds,kernel_log_trouble");
	if (err)
		return err;
	fprintf(af.f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%.3f,%.3f,%d\n",
		seed, count, fs->dumps, fs->dump_errors, fs->errors, fs->acks, fs->timeouts, fs->bad,
		ms(fs->max_ns), ns / 1e9, trouble);
	return atomic_commit(&af);
}

static int write_fuzz_errno(const char *out, const struct fuzz_stats *fs)
{
	struct atomic_file af;
	int err, j;

	err = csv_open(&af, out, "fuzz-errno.csv", "errno,name,count");
	if (err)
		return err;
	for (j = 0; j < 4096; j++)
		if (fs->errno_count[j])
			fprintf(af.f, "%d,%s,%" PRIu64 "\n", j, err_or_ok(j), fs->errno_count[j]);
	return atomic_commit(&af);
}

/* fuzz.csv and fuzz-errno.csv into @out: a failed write is a failed test naming the file */
static void write_fuzz_files(const char *out, const struct fuzz_stats *fs, uint64_t seed, uint64_t count,
			     uint64_t ns, int trouble)
{
	int err = write_fuzz(out, fs, seed, count, ns, trouble);

	if (err)
		tap_fail("fuzz: its counts are written", "cannot write %s/fuzz.csv: %s", out, lab_errname(err));
	else if ((err = write_fuzz_errno(out, fs)))
		tap_fail("fuzz: its counts are written", "cannot write %s/fuzz-errno.csv: %s", out,
			 lab_errname(err));
	else
		tap_ok(true, "fuzz: its counts are written to %s/fuzz.csv and fuzz-errno.csv", out);
}

void suite_fuzz(uint64_t count, uint64_t seed, const char *out)
{
	struct fuzz_stats *fs = lab_calloc(1, sizeof(*fs), "the fuzz counts");
	struct rng g = { seed };
	bool clean = true;
	struct nl_sock s;
	uint64_t i, t_all;
	int kfd, trouble;

	if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&s, true))
		tap_bail("fuzz: no socket");
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	tap_diag("fuzz: %" PRIu64 " mutated dump requests with strict checking, seed %" PRIu64
		 " (replay: routedump conform --fuzz %" PRIu64 " --seed %" PRIu64 ")", count, seed, count, seed);
	t_all = mono_ns();
	for (i = 0; i < count; i++)
		clean &= fuzz_one(&g, &s, i, fs, clean);
	t_all = mono_ns() - t_all;
	tap_ok(clean && !fs->timeouts && !fs->bad,
	       "fuzz: %" PRIu64 " mutated requests (seed %" PRIu64 "): every answer a dump or a clean error: %" PRIu64
	       " dumps, %" PRIu64 " dump errors, %" PRIu64 " errors, %" PRIu64 " acks (request ignored), %" PRIu64
	       " timeouts, %" PRIu64 " bad answers; slowest %.1f ms",
	       count, seed, fs->dumps, fs->dump_errors, fs->errors, fs->acks, fs->timeouts, fs->bad, ms(fs->max_ns));
	diag_errnos(fs);
	trouble = check_kmsg(kfd);
	check_responsive(&s);
	if (out)
		write_fuzz_files(out, fs, seed, count, t_all, trouble);
	nl_close(&s);
	free(fs);
}

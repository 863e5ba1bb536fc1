// SPDX-License-Identifier: GPL-2.0
/*
 * run: the measurement. The schedule configured on the device, a sender per
 * traffic class (its priority by the map) sends packets at a rate, each
 * timestamped at wake-up, at the qdisc (SCHED), at the driver (software TX)
 * and at the receiver in the rx namespace; PHC - CLOCK_TAI sampled meanwhile.
 * The files are written by run_files.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "cli.h"
#include "phc.h"
#include "taprio.h"
#include "timing.h"

#define PKT_MAGIC 0x54415052u	/* "TAPR" */

struct pkt_hdr {
	uint32_t magic;
	uint16_t tc;
	uint16_t size;
	uint32_t seq;
	uint32_t pad;
	int64_t wake_ns;
};

static int64_t pct_to_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* Read the TX timestamps waiting on @fd's error queue into @rec */
static void drain_errqueue(int fd, struct prec *rec, size_t count, int64_t tai_off)
{
	for (;;) {
		char ctrl[512];
		struct msghdr m = { .msg_control = ctrl, .msg_controllen = sizeof(ctrl) };
		struct scm_timestamping *tss = NULL;
		struct sock_extended_err *ee = NULL;
		struct cmsghdr *c;

		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPING)
				tss = (struct scm_timestamping *)CMSG_DATA(c);
			else if ((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
				 (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR))
				ee = (struct sock_extended_err *)CMSG_DATA(c);
		}
		if (!tss || !ee || ee->ee_origin != SO_EE_ORIGIN_TIMESTAMPING ||
		    ee->ee_data >= count)
			continue;
		if (ee->ee_info == SCM_TSTAMP_SCHED)
			rec[ee->ee_data].sched = pct_to_ns(&tss->ts[0]) + tai_off;
		else if (ee->ee_info == SCM_TSTAMP_SND)
			rec[ee->ee_data].tx = pct_to_ns(&tss->ts[0]) + tai_off;
	}
}

struct sender_arg {
	struct run *r;
	int tc;
};

/* --errqueue-thread: a second thread reads the TX timestamps, as isochron does */
struct errq_arg {
	int fd;
	struct prec *rec;
	size_t count;
	int64_t tai_off;
	volatile bool stop;
};

static void *errq_reader(void *p)
{
	struct errq_arg *a = p;

	while (!a->stop) {
		struct pollfd pfd = { .fd = a->fd, .events = 0 };

		/* POLLERR: the error queue has a timestamp */
		if (poll(&pfd, 1, 100) > 0)
			drain_errqueue(a->fd, a->rec, a->count, a->tai_off);
	}
	drain_errqueue(a->fd, a->rec, a->count, a->tai_off);
	return NULL;
}

static void *sender(void *p)
{
	struct sender_arg *a = p;
	struct run *r = a->r;
	struct prec *rec = r->rec[a->tc];
	int prio = tsched_prio_of_tc(r->s, a->tc), fd;
	unsigned int tsflags = SOF_TIMESTAMPING_TX_SCHED | SOF_TIMESTAMPING_TX_SOFTWARE |
			       SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_ID |
			       SOF_TIMESTAMPING_OPT_TSONLY;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = r->dst,
				  .sin_port = htons((uint16_t)r->port) };
	int64_t period = (int64_t)(1e9 / r->rate);
	unsigned int seed = 12345u + (unsigned int)a->tc * 7919u;
	char buf[2048] = { 0 };
	struct errq_arg ea;
	bool reader = false;
	pthread_t rt;
	size_t i;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio)) ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &tsflags, sizeof(tsflags)) ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "%s: sender of class %d: %s\n", lab_prog, a->tc, strerror(errno));
		r->failed = true;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	ea = (struct errq_arg){ .fd = fd, .rec = rec, .count = r->count, .tai_off = r->tai_off };
	reader = r->errq_thread && !pthread_create(&rt, NULL, errq_reader, &ea);
	for (i = 0; i < r->count && !r->stop; i++) {
		struct pkt_hdr *h = (struct pkt_hdr *)buf;
		int64_t at = r->start + (int64_t)i * period +
			     (r->phase >= 0 ? r->phase : (int64_t)(rand_r(&seed) % period));
		size_t size = (size_t)r->sizes[i % (size_t)r->n_sizes];

		sleep_until_ns(CLOCK_TAI, (uint64_t)at);
		rec[i].wake = (int64_t)clock_ns(CLOCK_TAI);
		h->magic = PKT_MAGIC;
		h->tc = (uint16_t)a->tc;
		h->size = (uint16_t)size;
		h->seq = (uint32_t)i;
		h->wake_ns = rec[i].wake;
		rec[i].size = (uint16_t)size;
		if (send(fd, buf, size, 0) == (ssize_t)size)
			rec[i].sent = true;
		if (!reader)
			drain_errqueue(fd, rec, r->count, r->tai_off);
	}
	/* The last packets may wait for their gate: up to a second more */
	for (i = 0; i < 100; i++) {
		sleep_ns(10000000);
		if (!reader)
			drain_errqueue(fd, rec, r->count, r->tai_off);
	}
	if (reader) {
		ea.stop = true;
		pthread_join(rt, NULL);
	}
	close(fd);
	return NULL;
}

static void *receiver(void *p)
{
	struct run *r = p;
	unsigned int tsflags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)r->port) };
	int bufsz = 4 << 20, fd, nsfd = -1, idle = 0;
	char path[128];

	if (r->netns && *r->netns) {
		snprintf(path, sizeof(path), "/run/netns/%s", r->netns);
		nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0 || setns(nsfd, CLONE_NEWNET)) {
			fprintf(stderr, "%s: entering netns %s: %s\n", lab_prog, r->netns,
				strerror(errno));
			r->failed = true;
			if (nsfd >= 0)
				close(nsfd);
			return NULL;
		}
		close(nsfd);
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz)) ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &tsflags, sizeof(tsflags)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "%s: receiver: %s\n", lab_prog, strerror(errno));
		r->failed = true;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (idle < 20) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		char data[2048], ctrl[512];
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl,
				    .msg_controllen = sizeof(ctrl) };
		struct pkt_hdr *h = (struct pkt_hdr *)data;
		struct cmsghdr *c;
		ssize_t len;

		if (poll(&pf, 1, 100) <= 0) {
			/* After the senders, stop once 2 s pass without a packet */
			if (r->senders_done)
				idle++;
			continue;
		}
		idle = 0;
		len = recvmsg(fd, &m, MSG_DONTWAIT);
		if (len < (ssize_t)sizeof(*h) || h->magic != PKT_MAGIC || h->tc >= r->s->num_tc ||
		    h->seq >= r->count)
			continue;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPING) {
				struct scm_timestamping *tss = (void *)CMSG_DATA(c);

				r->rec[h->tc][h->seq].rx = pct_to_ns(&tss->ts[0]) + r->tai_off;
				r->received++;
			}
	}
	close(fd);
	return NULL;
}

struct sampler_arg {
	struct run *r;
	volatile bool stop;
};

/* PHC - CLOCK_TAI every 100 ms while the run lasts: the sync it measured under */
static void *sync_sampler(void *p)
{
	struct sampler_arg *a = p;
	struct run *r = a->r;

	while (!a->stop) {
		struct phc_reading rd;

		if (!phc_read(r->phc_fd, 5, &rd))
			fprintf(r->sync, "%.6f,%" PRId64 "\n",
				(double)(rd.sys_before + r->tai_off - r->start) / 1e9,
				phc_offset(&rd) - r->tai_off);
		sleep_ns(100000000);
	}
	return NULL;
}

/*
 * Wait until |PHC - CLOCK_TAI| stays below @threshold for 10 readings in a
 * row (1 s); returns 0, or -ETIMEDOUT after @timeout_s with the last offset.
 */
static int sync_wait(int fd, int64_t threshold, double timeout_s, int64_t *last)
{
	uint64_t end = mono_ns() + (uint64_t)(timeout_s * 1e9);
	int good = 0;

	while (mono_ns() < end) {
		struct phc_reading rd;

		if (phc_read(fd, 5, &rd))
			return -EIO;
		*last = phc_offset(&rd) - tai_offset_ns();
		good = llabs(*last) <= threshold ? good + 1 : 0;
		if (good >= 10)
			return 0;
		sleep_ns(100000000);
	}
	return -ETIMEDOUT;
}

/* Check the clock sync before measuring: 0, or TAPRIO_EXIT_UNSYNCED */
static int run_sync(struct run *r, long long threshold)
{
	int64_t last = 0;

	if (threshold < 0)
		return 0;
	if (r->phc_fd < 0) {
		fprintf(stderr, "%s: %s reports no PHC: no clock sync to check (stock kernel?)\n",
			lab_prog, r->dev);
		return 0;
	}
	if (sync_wait(r->phc_fd, threshold, 30, &last)) {
		fprintf(stderr, "%s: refusing to measure: |PHC - CLOCK_TAI| is %" PRId64
			" ns, above the threshold of %lld ns (30 s of waiting)\n",
			lab_prog, (int64_t)llabs(last), threshold);
		return TAPRIO_EXIT_UNSYNCED;
	}
	fprintf(stderr, "%s: clock sync: |PHC - CLOCK_TAI| = %" PRId64 " ns, within %lld ns\n",
		lab_prog, (int64_t)llabs(last), threshold);
	return 0;
}

/* The threads of a run, and which of them started */
struct run_threads {
	struct sender_arg sa[TSCHED_MAX_TC];
	pthread_t snd[TSCHED_MAX_TC], rcv, smp;
	bool started[TSCHED_MAX_TC], receiving, sampling;
	struct sampler_arg smpa;
};

/* Stop and join every thread that started */
static void run_join(struct run *r, struct run_threads *t)
{
	int tc;

	for (tc = 0; tc < r->s->num_tc; tc++)
		if (t->started[tc])
			pthread_join(t->snd[tc], NULL);
	r->senders_done = true;
	if (t->receiving)
		pthread_join(t->rcv, NULL);
	if (t->sampling) {
		t->smpa.stop = true;
		pthread_join(t->smp, NULL);
	}
}

/*
 * The receiver, the clock sampler (with a PHC) and a sender per class (or
 * for --tc's only), until the last packet; 0, or -errno when a thread could
 * not start (the others are stopped and joined).
 */
static int run_threads(struct run *r, struct run_threads *t)
{
	int tc, err;

	t->smpa.r = r;
	err = pthread_create(&t->rcv, NULL, receiver, r);
	if (err) {
		fprintf(stderr, "%s: the receiver thread: %s\n", lab_prog, strerror(err));
		return -err;
	}
	t->receiving = true;
	if (r->sync) {
		err = pthread_create(&t->smp, NULL, sync_sampler, &t->smpa);
		if (err)
			fprintf(stderr, "%s: the clock sampler thread: %s\n", lab_prog, strerror(err));
		t->sampling = !err;
	}
	for (tc = 0; tc < r->s->num_tc && !err; tc++) {
		t->sa[tc].r = r;
		t->sa[tc].tc = tc;
		if (r->only_tc >= 0 && tc != r->only_tc)
			continue;
		err = pthread_create(&t->snd[tc], NULL, sender, &t->sa[tc]);
		if (err)
			fprintf(stderr, "%s: the sender thread of class %d: %s\n", lab_prog, tc,
				strerror(err));
		t->started[tc] = !err;
	}
	if (err)
		r->stop = true;
	else
		fprintf(stderr, "%s: %zu packets per class at %.0f/s from base-time %" PRId64 "\n",
			lab_prog, r->count, r->rate, r->base);
	run_join(r, t);
	return -err;
}

/* sync-workload.csv, filled by the sampler while the run lasts (with a PHC) */
static int open_sync(struct run *r, const char *out)
{
	char path[4096];

	if (r->phc_fd < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/sync-workload.csv", out);
	r->sync = fopen(path, "w");
	if (!r->sync || fprintf(r->sync, "t_s,offset_ns\n") < 0) {
		fprintf(stderr, "%s: %s: %s\n", lab_prog, path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int close_sync(struct run *r, const char *out)
{
	int rc = 0;

	if (r->sync && (ferror(r->sync) | fclose(r->sync))) {
		fprintf(stderr, "%s: %s/sync-workload.csv: write failed\n", lab_prog, out);
		rc = -EIO;
	}
	r->sync = NULL;
	return rc;
}

/*
 * The measurement on a configured device: from taprio's configuration to
 * its removal (with @keep it stays). Every path out removes what it set up.
 */
static int run_measure(struct run *r, const char *out, bool keep)
{
	struct run_threads t = { 0 };
	struct nl_sock n = { 0 };
	char err[1024];
	int ifindex = dev_index(r->dev), rc;

	if (!ifindex || taprio_nl_open(&n))
		return 1;
	r->tai_off = tai_offset_ns();
	r->base = choose_base(r->s, "next", CLOCK_TAI);
	/* 300 ms for the schedule (and the guest) to settle, then the first send */
	r->start = tsched_next_cycle_start(r->s, r->base, r->base + 300000000);
	if (taprio_apply(&n, ifindex, r->dev, r->s, r->base, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		taprio_clear(&n, ifindex, r->dev);
		nl_close(&n);
		return TAPRIO_EXIT_REFUSED;
	}
	rc = open_sync(r, out) ? 1 : 0;
	if (!rc && run_threads(r, &t))
		rc = 1;
	if (close_sync(r, out))
		rc = 1;
	if (rc || !keep)
		taprio_clear(&n, ifindex, r->dev);
	nl_close(&n);
	return rc;
}

static void add_size(const char *item, void *arg)
{
	struct run *r = arg;

	if (r->n_sizes >= 16)
		lab_usage_error("--sizes: more than 16 sizes ('%s')", item);
	r->sizes[r->n_sizes++] = (int)lab_parse_uint("--sizes: packet size", item,
						     sizeof(struct pkt_hdr), 1472);
}

/* What the options say against the schedule: usage errors (exit 2) */
static void run_check(const struct run *r, const struct tsched *s)
{
	if (r->only_tc >= s->num_tc)
		lab_usage_error("--tc %d: %s has %d traffic classes (0 to %d)", r->only_tc,
				s->file, s->num_tc, s->num_tc - 1);
	if (r->phase >= (int64_t)(1e9 / r->rate))
		lab_usage_error("--phase %" PRId64 ": beyond the period of %.0f ns at %g/s",
				r->phase, 1e9 / r->rate, r->rate);
}

static void run_alloc(struct run *r)
{
	int tc;

	for (tc = 0; tc < r->s->num_tc; tc++)
		r->rec[tc] = lab_calloc(r->count, sizeof(struct prec), "the packet records");
}

static void run_free(struct run *r)
{
	int tc;

	for (tc = 0; tc < TSCHED_MAX_TC; tc++)
		free(r->rec[tc]);
	if (r->phc_fd >= 0)
		close(r->phc_fd);
}

int cmd_run(int argc, char **argv)
{
	struct run r = { .dev = "eth0", .netns = "rx", .only_tc = -1, .phase = -1, .phc_fd = -1 };
	const char *out = NULL, *dst = "198.18.0.2", *sizes = "64,512,1400", *name = NULL;
	unsigned long long count = 1000, port = 7788;
	long long threshold = -1, tc = -1, phase = -1;
	bool keep = false;
	struct in_addr addr;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &out, "DIR", "where the CSV files go", true),
		LAB_OPT_STR("dev", &r.dev, "DEV", "the device (eth0)", false),
		LAB_OPT_U64("count", &count, 1, 10000000, "packets per class (1000)"),
		LAB_OPT_DBL("rate", &r.rate, 0.001, 100000, "packets per second per class (100)"),
		LAB_OPT_STR("sizes", &sizes, "B,B..", "UDP payload sizes in turn (64,512,1400)",
			    false),
		LAB_OPT_STR("dst", &dst, "IP", "the receiver (198.18.0.2)", false),
		LAB_OPT_U64("port", &port, 1, 65535, "its UDP port (7788)"),
		LAB_OPT_STR("rx-netns", &r.netns, "NS", "its network namespace (rx)", false),
		LAB_OPT_S64("sync-threshold", &threshold, 0, 1000000000,
			    "measure only with |PHC - CLOCK_TAI| below NS"),
		LAB_OPT_FLAG("keep", &keep, "leave taprio configured after the run"),
		LAB_OPT_S64("tc", &tc, 0, TSCHED_MAX_TC - 1, "send on class N only"),
		LAB_OPT_S64("phase", &phase, 0, INT32_MAX,
			    "send NS into each period (default: at random)"),
		LAB_OPT_FLAG("errqueue-thread", &r.errq_thread,
			     "read the TX timestamps in a second thread"),
		LAB_OPT_STR("name", &name, "NAME", "the schedule's name in messages", false),
		LAB_OPT_END
	};
	const char *file;
	struct tsched *s;
	int rc, phc;

	r.rate = 100;
	file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	lab_each_item("--sizes", sizes, add_size, &r);
	if (!inet_aton(dst, &addr))
		lab_usage_error("--dst '%s' is not an IPv4 address", dst);
	r.dst = addr.s_addr;
	r.port = (int)port;
	r.count = (size_t)count;
	r.only_tc = (int)tc;
	r.phase = phase;
	s = schedule_load(file, true, name);
	if (!s)
		return 1;
	r.s = s;
	run_check(&r, s);
	if (s->clockid != CLOCK_TAI) {
		fprintf(stderr, "%s: %s: the workload measures schedules on CLOCK_TAI only\n",
			lab_prog, s->file);
		free(s);
		return 1;
	}
	/* Everything allocated before taprio is configured: no exit leaves it behind */
	run_alloc(&r);
	/* Clock sync first: taprio's CLOCK_TAI must follow the PHC */
	phc = phc_index_of(r.dev, NULL);
	if (phc >= 0)
		r.phc_fd = phc_open(phc);
	rc = run_sync(&r, threshold);
	if (!rc)
		rc = run_measure(&r, out, keep);
	if (!rc && r.failed)
		rc = 1;
	if (!rc && run_write_files(&r, out))
		rc = 1;
	run_free(&r);
	free(s);
	return rc;
}

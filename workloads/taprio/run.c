// SPDX-License-Identifier: GPL-2.0
/*
 * run: the measurement. The schedule configured on the device, a sender per
 * traffic class (its priority by the map) sends packets at a rate, each
 * timestamped at wake-up, at the qdisc (SCHED), at the driver (software TX)
 * and at the receiver in the rx namespace; PHC - CLOCK_TAI sampled meanwhile.
 * measure.c drives it; run_files.c and record.c write its files.
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
#include "progress.h"
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
_Static_assert(sizeof(struct pkt_hdr) == PKT_HDR_SIZE, "PKT_HDR_SIZE is the header's size");

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

static void sender_run(struct sender_arg *a)
{
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
		return;
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
		r->sent_upto[a->tc] = i + 1;
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
}

static void *sender(void *p)
{
	struct sender_arg *a = p;

	sender_run(a);
	__atomic_add_fetch(&a->r->senders_exited, 1, __ATOMIC_RELEASE);
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

/* The threads of a run, and which of them started */
struct run_threads {
	struct sender_arg sa[TSCHED_MAX_TC];
	pthread_t snd[TSCHED_MAX_TC], rcv, smp;
	bool started[TSCHED_MAX_TC], receiving, sampling;
	struct sampler_arg smpa;
};

/* The packets sent so far, as progress, until the @started senders are done */
static void run_progress(struct run *r, int started)
{
	progress_part(r->count * (uint64_t)started, "packets", "%s, %zu packets per class at %g/s",
		      r->s->file, r->count, r->rate);
	while (__atomic_load_n(&r->senders_exited, __ATOMIC_ACQUIRE) < started) {
		uint64_t sent = 0;
		int tc;

		for (tc = 0; tc < r->s->num_tc; tc++)
			sent += r->sent_upto[tc];
		progress_set(sent);
		sleep_ns(200000000);
	}
}

/* Stop and join every thread that started */
static void run_join(struct run *r, struct run_threads *t)
{
	int tc, started = 0;

	for (tc = 0; tc < r->s->num_tc; tc++)
		started += t->started[tc];
	run_progress(r, started);
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

int run_threads(struct run *r)
{
	struct run_threads threads = { 0 }, *t = &threads;
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


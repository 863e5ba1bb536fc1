// SPDX-License-Identifier: GPL-2.0
/*
 * The taprio suite: random and edge-value schedules over rtnetlink (libmnl)
 * on a veth pair with 8 TX queues (10000 Mb/s: the link minimum of an
 * interval is 48 ns), with the lab's taprio tracepoints enabled, while a
 * sender thread sends UDP and raw frames of every priority through it.
 * Requests: create/replace with the traffic mapping, change of a running
 * schedule, exclusive add, delete, dump. Values: base-time (0, negative,
 * KTIME_MAX, far past and future), cycle time (absent, 0, negative,
 * INT_MAX and beyond, shorter than the entries), entry counts (0 to 1025),
 * intervals (0 to UINT32_MAX, from below the link minimum up), gate commands
 * and masks, cycle-time-extension, clockid, flags, txtime-delay, attributes
 * the kernel does not know.
 *
 * Checks: every refusal is an errno (ENOTSUPP, 524, which taprio returns
 * for two refusals, is taken and counted apart: it is the kernel's
 * internal code, not a user-space errno); an empty schedule, a zero
 * interval, one under the link minimum, a cycle time outside 0..INT_MAX or
 * under the link minimum per entry are refused; a schedule taken is the
 * root qdisc afterwards; after the suite a valid schedule is taken and its
 * gates advance (the taprio_advance tracepoint fires).
 *
 * Intervals shorter than the gate timer's callback takes (any of a few
 * microseconds under TCG) are sent as they are where the kernel skips the
 * entries its late timer missed (taprio_cases.c). Where it does not, they
 * livelock it, and the random schedules keep their intervals and cycles at
 * or above --floor-ns; the same livelock comes, whatever the intervals, from
 * a base-time before now - KTIME_MAX or within an interval of KTIME_MAX,
 * which are kept out unless the kernel refuses negative base-times.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tap.h"
#include "taprio_fuzz.h"
#include "timing.h"
#include "tracefs.h"

static const int E_QDISC[] = { EINVAL, ERANGE, EOPNOTSUPP, TZ_ENOTSUPP, ENOENT, EEXIST, E2BIG,
			       EBUSY, ENOMEM, EMSGSIZE, 0 };

/*
 * Where the kernel does not skip what its late timer missed, a value below
 * the floor is raised to it; where it does, every value is sent as it is
 */
static bool too_short(const struct tz_ctx *t, int64_t v)
{
	return !t->skip_ahead && v > 0 && v < t->floor;
}

/* An interval: any, but one a livelocking kernel may take is at or above the floor */
static uint32_t pick_interval(struct fz *f, const struct tz_ctx *t)
{
	uint32_t v;

	switch (fuzz_below(&f->rng, 6)) {
	case 0:
		v = fuzz_edge_u32(&f->rng);
		break;
	case 1:
		v = (uint32_t)FUZZ_PICK(&f->rng, ((const int64_t[]){ 0, 1, 47, 48, 49, 329, 480, 999,
								     1000, 9999, 10000, 10001, 48000,
								     100000 }));
		break;
	default:	/* log-uniform between 1 us and 20 ms */
		v = (uint32_t)(1000.0 * exp2((double)fuzz_below(&f->rng, 1000) / 1000.0 * 14.3));
	}
	if (too_short(t, v))
		v = t->floor + (uint32_t)fuzz_below(&f->rng, t->floor);
	return v;
}

/*
 * Half the schedules are valid but for one field (@keep), so that most
 * requests get past the first check and reach the later ones and the timer
 */
static void repair(struct fz *f, const struct tz_ctx *t, struct tz_sched *s, int keep)
{
	size_t i;
	int tc = s->q.num_tc >= 1 && s->q.num_tc <= TZ_NTXQ ? s->q.num_tc : 3, q;

	if (keep != 0 && s->priomap) {
		s->q.num_tc = (uint8_t)tc;
		for (i = 0; i < 16; i++)
			s->q.prio_tc_map[i] = (uint8_t)(i % (size_t)tc);
		memset(s->q.count, 0, sizeof(s->q.count));
		memset(s->q.offset, 0, sizeof(s->q.offset));
		for (q = 0, i = 0; i < (size_t)tc; i++) {
			s->q.count[i] = (uint16_t)(i == (size_t)tc - 1 ? TZ_NTXQ - q : 1);
			s->q.offset[i] = (uint16_t)q;
			q += s->q.count[i];
		}
		s->q.hw = 0;
	}
	if (keep != 1)
		s->has_clockid = true, s->clockid = CLOCK_TAI;
	if (keep != 2)
		s->has_base = true, s->base = fuzz_chance(&f->rng, 30) ? 0 : tz_tai_now() -
				      fuzz_range(&f->rng, -100000000LL, 2000000000LL);
	if (keep != 3) {
		s->has_list = true;
		if (!s->n || s->n > 8)
			s->n = 1 + fuzz_below(&f->rng, 8);
	}
	if (keep != 4)
		for (i = 0; i < s->n; i++) {
			s->e[i].has_cmd = s->e[i].has_mask = s->e[i].has_iv = true;
			s->e[i].cmd = TC_TAPRIO_CMD_SET_GATES;
			s->e[i].mask = (uint32_t)fuzz_range(&f->rng, 1, (1 << tc) - 1);
			s->e[i].iv = t->floor + (uint32_t)fuzz_below(&f->rng, 5000000);
		}
	if (keep != 5)
		s->has_cycle = false;
	if (keep != 6)
		s->has_ext = false;
	if (keep != 7)
		s->has_flags = false;
	if (keep != 8)
		s->has_txdelay = false;
	if (keep != 9)
		s->junk = 0;
}

static void random_sched(struct fz *f, const struct tz_ctx *t, struct tz_sched *s, bool mapping)
{
	size_t i;
	int tc, q;

	memset(s, 0, sizeof(*s));
	s->priomap = mapping;
	if (mapping) {
		tc = fuzz_chance(&f->rng, 90) ? (int)fuzz_range(&f->rng, 1, TZ_NTXQ)
					      : (int)FUZZ_PICK(&f->rng, ((const int64_t[]){ 0, 9, 16, 17, 255 }));
		s->q.num_tc = (uint8_t)tc;
		for (i = 0; i < 16; i++)
			s->q.prio_tc_map[i] = (uint8_t)(fuzz_chance(&f->rng, 95) && tc
							? fuzz_below(&f->rng, (uint64_t)tc)
							: fuzz_below(&f->rng, 256));
		if (fuzz_chance(&f->rng, 85) && tc >= 1 && tc <= TZ_NTXQ) {
			/* The queues split among the classes */
			for (q = 0, i = 0; i < (size_t)tc; i++) {
				int left = TZ_NTXQ - q - (tc - (int)i - 1);
				int cnt = i == (size_t)tc - 1 ? left : (int)fuzz_range(&f->rng, 1, left);

				s->q.count[i] = (uint16_t)cnt;
				s->q.offset[i] = (uint16_t)q;
				q += cnt;
			}
		} else {
			for (i = 0; i < 16; i++) {
				s->q.count[i] = (uint16_t)fuzz_below(&f->rng, 10);
				s->q.offset[i] = (uint16_t)fuzz_below(&f->rng, 10);
			}
		}
		s->q.hw = fuzz_chance(&f->rng, 5) ? (uint8_t)fuzz_below(&f->rng, 3) : 0;
	}
	s->has_clockid = fuzz_chance(&f->rng, 90);
	s->clockid = fuzz_chance(&f->rng, 80) ? CLOCK_TAI
					      : (int32_t)FUZZ_PICK(&f->rng, ((const int64_t[]){
							CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME,
							-1, 99, CLOCK_MONOTONIC_RAW, INT32_MIN }));
	s->has_base = fuzz_chance(&f->rng, 90);
	switch (fuzz_below(&f->rng, 5)) {
	case 0:
		s->base = fuzz_s64(&f->rng);
		break;
	case 1:
		s->base = (int64_t)FUZZ_PICK(&f->rng, ((const int64_t[]){ 0, -1, INT64_MIN, INT64_MAX,
								       TZ_LIVELOCK_BASE, 1 }));
		break;
	case 2:
		s->base = tz_tai_now() + 3600LL * 1000000000LL;
		break;
	default:
		s->base = tz_tai_now() + fuzz_range(&f->rng, -2000000000LL, 200000000LL);
	}
	/*
	 * A base-time before now - KTIME_MAX overflows taprio_get_start_time()
	 * (now - base): the start lands near KTIME_MIN and the timer re-arms
	 * into the past for ever, whatever the intervals. Unless the kernel
	 * refuses negative base-times, keep them within a harmless range.
	 */
	if (!t->negbase_refused && s->base < -1000000000000LL)
		s->base = -fuzz_range(&f->rng, 0, 1000000000000LL);
	/* Near KTIME_MAX, base + interval wraps to the far past (the same livelock) */
	if (!t->negbase_refused && s->base > TZ_BASE_MAX)
		s->base = TZ_BASE_MAX - fuzz_range(&f->rng, 0, 1000000000000LL);
	s->has_list = fuzz_chance(&f->rng, 97);
	switch (fuzz_below(&f->rng, 20)) {
	case 0:
		s->n = 0;
		break;
	case 1:
		s->n = (size_t)FUZZ_PICK(&f->rng, ((const int64_t[]){ 1023, 1024, 1025, 1100 }));
		break;
	default:
		s->n = 1 + fuzz_below(&f->rng, 8);
	}
	for (i = 0; i < s->n; i++) {
		struct tz_entry *e = &s->e[i];

		e->has_cmd = fuzz_chance(&f->rng, 95);
		e->cmd = fuzz_chance(&f->rng, 90) ? TC_TAPRIO_CMD_SET_GATES : (uint8_t)fuzz_below(&f->rng, 256);
		e->has_mask = fuzz_chance(&f->rng, 97);
		e->mask = fuzz_chance(&f->rng, 80) ? (uint32_t)fuzz_below(&f->rng, 1U << TZ_NTXQ)
						   : fuzz_u32(&f->rng);
		e->has_iv = fuzz_chance(&f->rng, 98);
		e->iv = pick_interval(f, t);
	}
	s->has_cycle = fuzz_chance(&f->rng, 40);
	if (s->has_cycle) {
		uint64_t sum = 0;

		for (i = 0; i < s->n; i++)
			sum += s->e[i].iv;
		switch (fuzz_below(&f->rng, 5)) {
		case 0:
			s->cycle = fuzz_s64(&f->rng);
			break;
		case 1:
			s->cycle = (int64_t)FUZZ_PICK(&f->rng, ((const int64_t[]){
				0, 1, TZ_LIVELOCK_CYCLE, INT32_MAX, (int64_t)INT32_MAX + 1, -1, INT64_MAX }));
			break;
		case 2:
			s->cycle = (int64_t)sum - (int64_t)fuzz_below(&f->rng, 2);
			break;
		default:
			s->cycle = (int64_t)(sum / (1 + fuzz_below(&f->rng, 4))) + 1;
		}
		if (too_short(t, s->cycle))
			s->cycle = t->floor;
	}
	s->has_ext = fuzz_chance(&f->rng, 15);
	s->ext = fuzz_chance(&f->rng, 50) ? fuzz_s64(&f->rng) : fuzz_range(&f->rng, 0, 1000000);
	s->has_flags = fuzz_chance(&f->rng, 15);
	s->flags = fuzz_chance(&f->rng, 70) ? (uint32_t)fuzz_below(&f->rng, 4) : fuzz_u32(&f->rng);
	s->has_txdelay = fuzz_chance(&f->rng, 10);
	s->txdelay = fuzz_u32(&f->rng);
	s->junk = fuzz_chance(&f->rng, 6) ? (int)fuzz_range(&f->rng, 1, 3) : 0;
	if (fuzz_chance(&f->rng, 50))
		repair(f, t, s, (int)fuzz_below(&f->rng, 10));
}

/* The reasons the kernel must refuse @s, or NULL */
static const char *must_refuse(const struct tz_ctx *t, const struct tz_sched *s)
{
	size_t i;

	if (s->has_cycle && (s->cycle < 0 || s->cycle > INT32_MAX))
		return "a cycle time outside 0..INT_MAX";
	if (t->negbase_refused && s->has_base && (s->base < 0 || s->base > TZ_BASE_MAX))
		return "a base-time outside 0..KTIME_MAX - UINT32_MAX";
	if (!s->has_list || !s->n)
		return "no entry";
	for (i = 0; i < s->n; i++)
		if (!s->e[i].has_iv || !s->e[i].iv)
			return "an interval of 0";
	/* The link minimum applies at creation too where the kernel skips ahead */
	if (t->skip_ahead) {
		for (i = 0; i < s->n; i++)
			if (s->e[i].iv < t->min_ns)
				return "an interval shorter than a minimum frame at the link speed";
		if (s->has_cycle && s->cycle && s->cycle < (int64_t)(s->n * t->min_ns))
			return "a cycle time shorter than a minimum frame per entry";
	}
	return NULL;
}

static void describe(const struct tz_sched *s, const char *op, char *buf, size_t len)
{
	size_t off, i;

	off = (size_t)snprintf(buf, len, "%s: num_tc %d base %s%" PRId64 " cycle %s%" PRId64
			       " ext %s%" PRId64 " clockid %s%d flags %s0x%x junk %d, %zu entries:",
			       op, s->priomap ? s->q.num_tc : -1, s->has_base ? "" : "(none)", s->base,
			       s->has_cycle ? "" : "(none)", s->cycle, s->has_ext ? "" : "(none)",
			       s->ext, s->has_clockid ? "" : "(none)", s->clockid,
			       s->has_flags ? "" : "(none)", s->flags, s->junk, s->n);
	for (i = 0; i < s->n && i < 4 && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %u/0x%x/%u%s", s->e[i].cmd,
					s->e[i].mask, s->e[i].iv, s->e[i].has_iv ? "" : "(none)");
	if (s->n > 4 && off < len)
		snprintf(buf + off, len - off, " ...");
}

/* The sender: UDP and raw frames of every priority through the device */
struct sender {
	int ifindex;
	struct fuzz_rng rng;
	volatile int stop;
	uint64_t sent, failed;
};

static void *sender_thread(void *arg)
{
	struct sender *s = arg;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_ifindex = s->ifindex,
				  .sll_halen = ETH_ALEN };
	static char payload[9100];
	int u = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int p = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	uint64_t i = 0;

	inet_pton(AF_INET, "198.51.100.2", &to.sin_addr);
	memset(ll.sll_addr, 0xff, ETH_ALEN);
	memset(payload, 0x5a, sizeof(payload));
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		int prio = (int)fuzz_below(&s->rng, 16), fd = fuzz_chance(&s->rng, 50) ? u : p;
		size_t len = fuzz_chance(&s->rng, 90) ? 14 + fuzz_below(&s->rng, 1500)
						      : fuzz_below(&s->rng, sizeof(payload));
		ssize_t w;

		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio));
		if (fd == u)
			w = sendto(u, payload, len, 0, (struct sockaddr *)&to, sizeof(to));
		else
			w = sendto(p, payload, len < 14 ? 14 : len, 0, (struct sockaddr *)&ll, sizeof(ll));
		if (w < 0)
			s->failed++;
		else
			s->sent++;
		if (!(++i % 64))
			usleep(1000);
	}
	if (u >= 0)
		close(u);
	if (p >= 0)
		close(p);
	return NULL;
}

int cmd_taprio(int argc, char **argv)
{
	unsigned long long floor_ns = 100000;
	const struct lab_opt extra[] = {
		LAB_OPT_U64("floor-ns", &floor_ns, 1, 1000000000,
			    "shortest interval and cycle sent when the kernel does not skip "
			    "the entries its late gate timer missed (default 100000)"),
		LAB_OPT_END
	};
	struct fz f;
	struct tz_ctx t = { .ifindex = 0 };
	struct fz_kind k_replace = { .name = "create/replace with the traffic mapping" },
		       k_change = { .name = "change of the running schedule" },
		       k_excl = { .name = "exclusive add" },
		       k_del = { .name = "delete" },
		       k_dump = { .name = "dump of the qdiscs" };
	static struct tz_sched s;
	struct sender snd;
	pthread_t th;
	bool threaded;
	char what[600], extack[256], kind[32], stuck[256];
	long advances, buffer_kb;
	int err, bad;

	fz_setup(&f, "taprio", argc, argv, extra);
	t.buf = lab_calloc(1, TZ_MSG_CAP, "the netlink buffer");
	if (nl_open(&t.nl, NETLINK_ROUTE, 65536))
		tap_bail("cannot open an rtnetlink socket");
	if (if_nametoindex(TZ_DEV)) {
		t.ifindex = (int)if_nametoindex(TZ_DEV);
		tz_del_dev(&t);
	}
	err = tz_make_dev(&t);
	if (err)
		tap_bail("cannot make the veth pair %s/%s with %d TX queues: %s", TZ_DEV, TZ_PEER,
			 TZ_NTXQ, lab_errname(err));

	buffer_kb = tz_trace_buffer_kb();
	t.tracing = !tracefs_write("events/taprio/enable", "1");
	if (t.tracing) {
		tracefs_write("buffer_size_kb", "256");
		tracefs_write("trace", "");
	}
	tz_probe_kernel(&t);
	t.floor = t.skip_ahead ? t.min_ns : (uint32_t)floor_ns;
	tap_diag("taprio: veth %s with %d TX queues, link minimum %u ns; taprio tracepoints %s",
		 TZ_DEV, TZ_NTXQ, t.min_ns, t.tracing ? "enabled" : "not there (a stock kernel)");
	if (t.skip_ahead)
		tap_diag("taprio: the kernel skips the entries its late gate timer missed: "
			 "intervals and cycles are sent as they are");
	else
		tap_diag("taprio: the kernel does not skip the entries its late gate timer missed: "
			 "intervals and cycles are kept at or above %u ns", t.floor);
	tap_diag("taprio: the kernel %s a negative base-time%s", t.negbase_refused ? "refuses" : "takes",
		 t.negbase_refused ? "" : ": base-times are kept within -1e12 ns .. KTIME_MAX - UINT32_MAX");
	tz_regression_cases(&f, &t);
	fz_start_clock(&f);

	memset(&snd, 0, sizeof(snd));
	snd.ifindex = t.ifindex;
	fuzz_seed(&snd.rng, f.seed ^ 0x7a9310ULL);
	threaded = !pthread_create(&th, NULL, sender_thread, &snd);

	while (fz_more(&f)) {
		unsigned int r = (unsigned int)fuzz_below(&f.rng, 100);
		struct fz_kind *k;
		const char *why;
		uint16_t flags;

		if (r < 75) {
			bool mapping = r < 45;

			k = r < 45 ? &k_replace : r < 70 ? &k_change : &k_excl;
			flags = r < 45 ? NLM_F_CREATE | NLM_F_REPLACE : r < 70 ? 0 : NLM_F_CREATE | NLM_F_EXCL;
			random_sched(&f, &t, &s, mapping || r >= 70);
			/* A new qdisc half the time: a running one refuses a new mapping */
			if (mapping && fuzz_chance(&f.rng, 50))
				tz_delete(&t);
			describe(&s, k->name, what, sizeof(what));
			err = tz_send(&t, tz_build(&t, &s, RTM_NEWQDISC, flags), extack, sizeof(extack));
			fz_result(&f, k, err, E_QDISC, what);
			if (err == -TZ_ENOTSUPP)
				t.enotsupp++;
			why = must_refuse(&t, &s);
			if (!err && why)
				fz_bad(&f, k, "%s: taken, but it has %s", what, why);
			if (!err && fuzz_chance(&f.rng, 25)) {
				if (tz_root_kind(&t, kind, sizeof(kind)) || strcmp(kind, "taprio"))
					fz_bad(&f, k, "%s: taken, but the root qdisc is '%s'", what, kind);
			}
			if (err && f.verbose && extack[0])
				printf("#   extack: %s\n", extack);
		} else if (r < 85) {
			err = tz_send(&t, tz_build(&t, NULL, RTM_DELQDISC, 0), extack, sizeof(extack));
			fz_result(&f, &k_del, err, E_QDISC, "delete");
		} else if (r < 90) {
			err = tz_root_kind(&t, kind, sizeof(kind));
			fz_result(&f, &k_dump, err, E_QDISC, "dump");
		} else {
			usleep((useconds_t)fuzz_below(&f.rng, 20000));
		}
	}
	if (threaded) {
		__atomic_store_n(&snd.stop, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
	}
	fz_report_kind(&f, &k_replace, "every refusal an errno, nothing taken that must be refused "
		       "(no entry, a zero interval, a cycle outside 0..INT_MAX), taken ones are the root");
	fz_report_kind(&f, &k_change, "every refusal an errno, nothing taken that must be refused");
	fz_report_kind(&f, &k_excl, "every refusal an errno, nothing taken that must be refused");
	fz_report_kind(&f, &k_del, "every refusal an errno");
	fz_report_kind(&f, &k_dump, "every refusal an errno");
	if (t.enotsupp)
		tap_diag("taprio: note: %" PRIu64 " refusals came as ENOTSUPP (524), the kernel's "
			 "internal code, which user space cannot name", t.enotsupp);
	tap_diag("taprio: the sender thread sent %" PRIu64 " frames (%" PRIu64 " refused by the "
		 "stack) while the schedules changed", snd.sent, snd.failed);

	/* taprio still works: a valid schedule is taken and its gates advance */
	if (t.tracing)
		tracefs_write("trace", "");
	tz_delete(&t);
	tz_sane(&s, 0, 1000000);
	err = tz_send(&t, tz_build(&t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	tap_ok(!err, "taprio: after the suite a valid schedule (3 entries of 1 ms) is taken%s%s%s%s",
	       err ? ": " : "", err ? lab_errname(err) : "", err ? " " : "", err ? extack : "");
	usleep(500000);
	if (t.tracing) {
		advances = tz_trace_count("taprio_advance");
		tap_ok(advances > 0, "taprio: ... and its gates advance (%ld taprio_advance events "
		       "in 0.5 s)", advances);
		tracefs_write("events/taprio/enable", "0");
		tracefs_write("trace", "");
		if (buffer_kb > 0) {
			char kb[32];

			snprintf(kb, sizeof(kb), "%ld", buffer_kb);
			tracefs_write("buffer_size_kb", kb);
		}
	}
	err = tz_send(&t, tz_build(&t, NULL, RTM_DELQDISC, 0), NULL, 0);
	tap_ok(!err, "taprio: ... and deleted%s%s", err ? ": " : "", err ? lab_errname(err) : "");
	tz_del_dev(&t);
	err = tz_root_kind(&t, kind, sizeof(kind));
	tap_ok(!err, "taprio: rtnetlink still answers a dump after the suite%s%s", err ? ": " : "",
	       err ? lab_errname(err) : "");
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	if (bad)
		tap_fail("taprio: after the suite every CPU answers", "%d CPUs ran no thread in 20 s: %s",
			 bad, stuck);
	else
		tap_ok(true, "taprio: after the suite every CPU answers");
	nl_close(&t.nl);
	free(t.buf);
	return fz_finish(&f);
}

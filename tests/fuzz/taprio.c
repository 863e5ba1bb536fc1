// SPDX-License-Identifier: GPL-2.0
/*
 * The taprio suite: random and edge-value schedules over rtnetlink (libmnl)
 * on a dummy device with 8 TX queues, with the lab's taprio tracepoints
 * (patch 0006) enabled, while a sender thread sends UDP and raw frames of
 * every priority through it. Requests: create/replace with the traffic
 * mapping, change of a running schedule, exclusive add, delete, dump.
 * Values: base-time (0, negative, KTIME_MAX, far past and future), cycle
 * time (absent, 0, negative, INT_MAX and beyond, shorter than the
 * entries), entry counts (0 to 1025), intervals (0 to UINT32_MAX), gate
 * commands and masks, cycle-time-extension, clockid, flags, txtime-delay,
 * attributes the kernel does not know.
 *
 * Checks: every refusal is an errno (ENOTSUPP, 524, which taprio returns
 * for two refusals, is taken and counted apart: it is the kernel's
 * internal code, not a user-space errno); an empty schedule, a zero
 * interval and a cycle time outside 0..INT_MAX are refused; a schedule
 * taken is the root qdisc afterwards; after the suite a valid schedule is
 * taken and its gates advance (the taprio_advance tracepoint fires).
 *
 * Gate intervals the timer cannot keep up with: taprio in 6.1 checks the
 * interval against the time of a minimum frame at the link speed, but the
 * speed is read only after the schedule is parsed, so at creation any
 * interval of 1 ns or more is taken. With a cycle of 329 ns, one entry of
 * 1 ns and base-time 5487796268147979, advance_sched re-arms its timer into
 * the past faster than it can run and the guest hangs (RCU stall). The
 * suite first asks whether the kernel refuses a 1 us interval in software
 * mode (with a base time an hour ahead, so that a kernel that takes it never
 * runs the timer); when it does not, the random schedules keep their
 * intervals and cycles at or above --floor-ns and the known livelock is a
 * SKIP naming it (--known-bugs replays it: the guest is expected to hang).
 * Where it does, values below the kernel's floor are sent as they are (and
 * must be refused), values above it at or above --floor-ns: under TCG a
 * schedule of 10 us keeps a vCPU busy in the timer.
 *
 * The same livelock comes, whatever the intervals, from a base-time before
 * now - KTIME_MAX (now - base overflows when taprio computes the start):
 * and from a base-time within an interval of KTIME_MAX (base + interval
 * wraps): unless the kernel refuses negative base-times, base-times are
 * kept within -1e12 ns .. KTIME_MAX - UINT32_MAX, and base-time INT64_MIN
 * is a SKIP naming the bug.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/pkt_sched.h>
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

#include <libmnl/libmnl.h>

#include "cli.h"
#include "labfuzz.h"
#include "nl.h"
#include "tap.h"
#include "timing.h"
#include "tracefs.h"

#define DEV "lfz0"
#define NTXQ 8
#define MSG_CAP (128 * 1024)
#define MAX_ENTRIES 1100
#define ENOTSUPP_K 524		/* the kernel's internal ENOTSUPP */
/* The livelock's schedule, as the earlier fuzz run found it */
#define LIVELOCK_CYCLE 329
#define LIVELOCK_INTERVAL 1
#define LIVELOCK_BASE 5487796268147979LL
/* The latest base-time that leaves room for an interval (patch 0010) */
#define BASE_MAX (INT64_MAX - (int64_t)UINT32_MAX)

static const int E_QDISC[] = { EINVAL, ERANGE, EOPNOTSUPP, ENOTSUPP_K, ENOENT, EEXIST, E2BIG,
			       EBUSY, ENOMEM, EMSGSIZE, 0 };

struct entry {
	bool has_cmd, has_mask, has_iv;
	uint8_t cmd;
	uint32_t mask, iv;
};

struct sched {
	bool priomap;
	struct tc_mqprio_qopt q;
	bool has_base, has_clockid, has_cycle, has_ext, has_flags, has_txdelay, has_list;
	int64_t base, cycle, ext;
	int32_t clockid;
	uint32_t flags, txdelay;
	size_t n;
	struct entry e[MAX_ENTRIES];
	int junk;		/* 0 none, 1 single-entry attr, 2 foreign attr in the list, 3 unknown attr */
};

struct tctx {
	struct nl_sock nl;
	int ifindex;
	char *buf;
	bool short_refused;	/* the kernel refuses intervals the gate timer cannot keep */
	uint32_t kfloor;	/* then the kernel's shortest software interval and cycle, ns */
	uint32_t floor;		/* the shortest interval and cycle the kernel may take, sent */
	bool negbase_refused;	/* the kernel refuses a negative base-time */
	bool tracing;
	uint64_t enotsupp;
};

static int64_t tai_now(void)
{
	return (int64_t)tai_ns();
}

/* RTM_NEWLINK dummy DEV with NTXQ TX queues, up, 198.51.100.1/24 */
static int make_dev(struct tctx *t)
{
	struct nlmsghdr *h = nl_msg(&t->nl, t->buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(h, sizeof(*ifm));
	struct nlattr *li;
	struct nl_reply r;
	struct in_addr a;
	int err;

	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(h, IFLA_IFNAME, DEV);
	mnl_attr_put_u32(h, IFLA_NUM_TX_QUEUES, NTXQ);
	mnl_attr_put_u32(h, IFLA_NUM_RX_QUEUES, 1);
	li = mnl_attr_nest_start(h, IFLA_LINKINFO);
	mnl_attr_put_strz(h, IFLA_INFO_KIND, "dummy");
	mnl_attr_nest_end(h, li);
	err = nl_transact(&t->nl, h, NULL, NULL, &r);
	if (!err)
		err = r.error;
	if (err)
		return err;
	t->ifindex = (int)if_nametoindex(DEV);
	if (!t->ifindex)
		return -ENODEV;
	err = nl_link_set(&t->nl, t->ifindex, true, -1);
	inet_pton(AF_INET, "198.51.100.1", &a);
	return err ? err : nl_addr_add(&t->nl, AF_INET, t->ifindex, &a, 24);
}

static void del_dev(struct tctx *t)
{
	struct nlmsghdr *h = nl_msg(&t->nl, t->buf, RTM_DELLINK, 0);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(h, sizeof(*ifm));
	struct nl_reply r;

	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = t->ifindex;
	nl_transact(&t->nl, h, NULL, NULL, &r);
}

/* The trace buffer's size per CPU, kB ("7 (expanded: 1408)" before first use: 1408) */
static long trace_buffer_kb(void)
{
	char line[128] = "";
	const char *p;
	int err = tracefs_read("buffer_size_kb", line, sizeof(line));

	if (err && err != -EIO)
		return -1;
	p = strstr(line, "expanded: ");
	return p ? atol(p + 10) : atol(line);
}

/* Events of @event in the trace buffer */
static long trace_count(const char *event)
{
	char path[PATH_MAX], line[512];
	long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/trace");
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, event))
			n++;
	fclose(f);
	return n;
}

/* The request: RTM_NEWQDISC (with @flags) of @s, or RTM_DELQDISC */
static struct nlmsghdr *build(struct tctx *t, const struct sched *s, uint16_t type, uint16_t flags)
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

static int send_req(struct tctx *t, struct nlmsghdr *h, char *extack, size_t len)
{
	struct nl_reply r;
	int err = nl_transact(&t->nl, h, NULL, NULL, &r);

	if (!err)
		err = r.error;
	if (extack)
		snprintf(extack, len, "%s", r.extack);
	return err;
}

/* A valid three-class schedule: the one a taprio user would write */
static void sane_sched(struct sched *s, int64_t base, uint32_t iv)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->priomap = true;
	s->q.num_tc = 3;
	for (i = 0; i < 16; i++)
		s->q.prio_tc_map[i] = (uint8_t)(i % 3);
	s->q.count[0] = 1, s->q.offset[0] = 0;
	s->q.count[1] = 1, s->q.offset[1] = 1;
	s->q.count[2] = NTXQ - 2, s->q.offset[2] = 2;
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

/*
 * Below the floor a value is raised to it, unless the kernel must refuse it
 * (below its own floor): such values are sent as they are
 */
static bool too_short(const struct tctx *t, int64_t v)
{
	return v > 0 && v < t->floor && !(t->short_refused && v < t->kfloor);
}

/* An interval: any, but one the kernel may take is at or above the floor */
static uint32_t pick_interval(struct fz *f, const struct tctx *t)
{
	uint32_t v;

	switch (fuzz_below(&f->rng, 6)) {
	case 0:
		v = fuzz_edge_u32(&f->rng);
		break;
	case 1:
		v = (uint32_t)FUZZ_PICK(&f->rng, ((const int64_t[]){ 0, 1, 329, 480, 999, 1000, 9999,
								     10000, 10001, 48000, 100000 }));
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
static void repair(struct fz *f, const struct tctx *t, struct sched *s, int keep)
{
	size_t i;
	int tc = s->q.num_tc >= 1 && s->q.num_tc <= NTXQ ? s->q.num_tc : 3, q;

	if (keep != 0 && s->priomap) {
		s->q.num_tc = (uint8_t)tc;
		for (i = 0; i < 16; i++)
			s->q.prio_tc_map[i] = (uint8_t)(i % (size_t)tc);
		memset(s->q.count, 0, sizeof(s->q.count));
		memset(s->q.offset, 0, sizeof(s->q.offset));
		for (q = 0, i = 0; i < (size_t)tc; i++) {
			s->q.count[i] = (uint16_t)(i == (size_t)tc - 1 ? NTXQ - q : 1);
			s->q.offset[i] = (uint16_t)q;
			q += s->q.count[i];
		}
		s->q.hw = 0;
	}
	if (keep != 1)
		s->has_clockid = true, s->clockid = CLOCK_TAI;
	if (keep != 2)
		s->has_base = true, s->base = fuzz_chance(&f->rng, 30) ? 0 : tai_now() -
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

static void random_sched(struct fz *f, const struct tctx *t, struct sched *s, bool mapping)
{
	size_t i;
	int tc, q;

	memset(s, 0, sizeof(*s));
	s->priomap = mapping;
	if (mapping) {
		tc = fuzz_chance(&f->rng, 90) ? (int)fuzz_range(&f->rng, 1, NTXQ)
					      : (int)FUZZ_PICK(&f->rng, ((const int64_t[]){ 0, 9, 16, 17, 255 }));
		s->q.num_tc = (uint8_t)tc;
		for (i = 0; i < 16; i++)
			s->q.prio_tc_map[i] = (uint8_t)(fuzz_chance(&f->rng, 95) && tc
							? fuzz_below(&f->rng, (uint64_t)tc)
							: fuzz_below(&f->rng, 256));
		if (fuzz_chance(&f->rng, 85) && tc >= 1 && tc <= NTXQ) {
			/* The queues split among the classes */
			for (q = 0, i = 0; i < (size_t)tc; i++) {
				int left = NTXQ - q - (tc - (int)i - 1);
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
								       LIVELOCK_BASE, 1 }));
		break;
	case 2:
		s->base = tai_now() + 3600LL * 1000000000LL;
		break;
	default:
		s->base = tai_now() + fuzz_range(&f->rng, -2000000000LL, 200000000LL);
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
	if (!t->negbase_refused && s->base > BASE_MAX)
		s->base = BASE_MAX - fuzz_range(&f->rng, 0, 1000000000000LL);
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
		struct entry *e = &s->e[i];

		e->has_cmd = fuzz_chance(&f->rng, 95);
		e->cmd = fuzz_chance(&f->rng, 90) ? TC_TAPRIO_CMD_SET_GATES : (uint8_t)fuzz_below(&f->rng, 256);
		e->has_mask = fuzz_chance(&f->rng, 97);
		e->mask = fuzz_chance(&f->rng, 80) ? (uint32_t)fuzz_below(&f->rng, 1U << NTXQ)
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
				0, 1, LIVELOCK_CYCLE, INT32_MAX, (int64_t)INT32_MAX + 1, -1, INT64_MAX }));
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
static const char *must_refuse(const struct tctx *t, const struct sched *s)
{
	size_t i;

	if (s->has_cycle && (s->cycle < 0 || s->cycle > INT32_MAX))
		return "a cycle time outside 0..INT_MAX";
	if (t->negbase_refused && s->has_base && (s->base < 0 || s->base > BASE_MAX))
		return "a base-time outside 0..KTIME_MAX - UINT32_MAX";
	if (!s->has_list || !s->n)
		return "no entry";
	for (i = 0; i < s->n; i++)
		if (!s->e[i].has_iv || !s->e[i].iv)
			return "an interval of 0";
	if (t->short_refused && !(s->has_flags && s->flags)) {
		for (i = 0; i < s->n; i++)
			if (s->e[i].iv < t->kfloor)
				return "an interval shorter than the software schedule's floor";
		if (s->has_cycle && s->cycle && s->cycle < t->kfloor)
			return "a cycle shorter than the software schedule's floor";
	}
	return NULL;
}

static void describe(const struct sched *s, const char *op, char *buf, size_t len)
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

/* The root qdisc's kind, through a dump of the device's qdiscs */
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

static int root_kind(struct tctx *t, char *kind, size_t len)
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

/*
 * Does the kernel refuse a 1 us interval in software mode? The same
 * schedule with 1 ms intervals must be taken first (else the refusal may
 * have another reason); both with the timer an hour ahead.
 */
static bool probe_short(struct tctx *t, char *extack, size_t len)
{
	struct sched s;
	int err;

	sane_sched(&s, tai_now() + 3600LL * 1000000000LL, 1000000);
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack, len);
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
	if (err) {
		tap_diag("taprio: a valid schedule (3 entries of 1 ms) was refused: %s (\"%s\")",
			 lab_errname(err), extack);
		return false;
	}
	sane_sched(&s, tai_now() + 3600LL * 1000000000LL, 1000);
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack, len);
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
	return err == -EINVAL;
}

/* The kernel's floor itself, with the timer an hour ahead: 10 us taken, less refused */
static void floor_cases(struct tctx *t)
{
	int64_t later = tai_now() + 3600LL * 1000000000LL;
	struct sched s;
	char extack[256];
	int err;

	sane_sched(&s, later, t->kfloor);
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	tap_ok(!err, "taprio: software intervals of exactly %u ns are taken%s%s", t->kfloor,
	       err ? ": " : "", err ? lab_errname(err) : "");
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
	sane_sched(&s, later, t->kfloor - 1);
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	tap_ok(err == -EINVAL, "taprio: a software interval of %u ns is refused: %s (\"%s\")",
	       t->kfloor - 1, err ? lab_errname(err) : "taken", extack);
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
	sane_sched(&s, later, t->kfloor);
	s.has_cycle = true;
	s.cycle = t->kfloor - 1;
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	tap_ok(err == -EINVAL, "taprio: a software cycle-time of %u ns is refused: %s (\"%s\")",
	       t->kfloor - 1, err ? lab_errname(err) : "taken", extack);
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
}

/*
 * Does the kernel refuse a negative base-time? base-time -1 is harmless
 * where it is taken (the start is the next cycle after now)
 */
static bool probe_negbase(struct tctx *t)
{
	struct sched s;
	int err;

	sane_sched(&s, -1, 1000000);
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), NULL, 0);
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
	return err == -EINVAL || err == -ERANGE;
}

/* base-time INT64_MIN: the start time's overflow, a livelock whatever the intervals */
static void negbase_case(struct fz *f, struct tctx *t)
{
	struct sched s;
	char extack[256], stuck[256];
	int err, bad;

	if (!t->negbase_refused && !f->known_bugs) {
		tap_skip("known bug, not fixed in this kernel: with a base-time before now - "
			 "KTIME_MAX, now - base overflows in taprio_get_start_time(), the start lands "
			 "near KTIME_MIN and advance_sched re-arms into the past for ever (RCU stall, "
			 "the guest hangs; seen with base-time INT64_MIN); replay with --known-bugs",
			 "taprio: regression: base-time INT64_MIN with 3 entries of 1 ms is refused or "
			 "keeps the guest alive");
		return;
	}
	sane_sched(&s, INT64_MIN, 1000000);
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	if (t->negbase_refused)
		tap_ok(err == -EINVAL || err == -ERANGE, "taprio: regression: base-time INT64_MIN "
		       "with 3 entries of 1 ms is refused: %s (\"%s\")", err ? lab_errname(err) : "taken",
		       extack);
	else
		tap_diag("taprio: --known-bugs: base-time INT64_MIN was %s", err ? lab_errname(err) : "taken");
	usleep(2000000);
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	tap_ok(!bad, "taprio: regression: ... and every CPU answers 2 s later%s%s", bad ? ": stuck " : "",
	       bad ? stuck : "");
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
}

static void livelock_case(struct fz *f, struct tctx *t)
{
	struct sched s;
	char extack[256], stuck[256];
	int err, bad;

	sane_sched(&s, LIVELOCK_BASE, LIVELOCK_INTERVAL);
	s.n = 1;
	s.e[0].mask = 1;
	s.has_cycle = true;
	s.cycle = LIVELOCK_CYCLE;
	if (!t->short_refused && !f->known_bugs) {
		tap_skip("known bug, not fixed in this kernel: at creation taprio takes intervals "
			 "the gate timer cannot keep (advance_sched re-arms into the past: RCU "
			 "stall, the guest hangs); replay with --known-bugs",
			 "taprio: regression: cycle-time 329 ns, one entry of 1 ns, base-time "
			 "5487796268147979 is refused or keeps the guest alive");
		return;
	}
	err = send_req(t, build(t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	if (t->short_refused)
		tap_ok(err == -EINVAL, "taprio: regression: cycle-time 329 ns, one entry of 1 ns, "
		       "base-time 5487796268147979 is refused: %s (\"%s\")",
		       err ? lab_errname(err) : "taken", extack);
	else
		tap_diag("taprio: --known-bugs: the livelock schedule was %s", err ? lab_errname(err) : "taken");
	usleep(2000000);
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	tap_ok(!bad, "taprio: regression: ... and every CPU answers 2 s later%s%s", bad ? ": stuck " : "",
	       bad ? stuck : "");
	send_req(t, build(t, NULL, RTM_DELQDISC, 0), NULL, 0);
}

int cmd_taprio(int argc, char **argv)
{
	unsigned long long floor_ns = 100000;
	const struct lab_opt extra[] = {
		LAB_OPT_U64("floor-ns", &floor_ns, 1, 1000000000,
			    "shortest interval and cycle sent when the kernel does not refuse "
			    "intervals its gate timer cannot keep (default 100000)"),
		LAB_OPT_END
	};
	struct fz f;
	struct tctx t = { .ifindex = 0 };
	struct fz_kind k_replace = { .name = "create/replace with the traffic mapping" },
		       k_change = { .name = "change of the running schedule" },
		       k_excl = { .name = "exclusive add" },
		       k_del = { .name = "delete" },
		       k_dump = { .name = "dump of the qdiscs" };
	static struct sched s;
	struct sender snd;
	pthread_t th;
	bool threaded;
	char what[600], extack[256], kind[32], stuck[256];
	long advances, buffer_kb;
	int err, bad;

	fz_setup(&f, "taprio", argc, argv, extra);
	t.floor = (uint32_t)floor_ns;
	t.buf = lab_calloc(1, MSG_CAP, "the netlink buffer");
	if (nl_open(&t.nl, NETLINK_ROUTE, 65536))
		tap_bail("cannot open an rtnetlink socket");
	if (if_nametoindex(DEV)) {
		t.ifindex = (int)if_nametoindex(DEV);
		del_dev(&t);
	}
	err = make_dev(&t);
	if (err)
		tap_bail("cannot make the dummy device %s with %d TX queues: %s", DEV, NTXQ,
			 lab_errname(err));

	buffer_kb = trace_buffer_kb();
	t.tracing = !tracefs_write("events/taprio/enable", "1");
	if (t.tracing) {
		tracefs_write("buffer_size_kb", "256");
		tracefs_write("trace", "");
	}
	tap_diag("taprio: dummy %s with %d TX queues; taprio tracepoints %s", DEV, NTXQ,
		 t.tracing ? "enabled" : "not there (a kernel without patch 0006)");

	t.short_refused = probe_short(&t, extack, sizeof(extack));
	if (t.short_refused) {
		/* The kernel's own limit: the fuzz goes below it, and must be refused there */
		t.kfloor = 10000;
		tap_diag("taprio: the kernel refuses a 1 us interval in software mode (\"%s\"): "
			 "intervals and cycles under %u ns are sent as they are, longer ones at or "
			 "above %u ns", extack, t.kfloor, t.floor);
	} else {
		tap_diag("taprio: the kernel takes a 1 us interval at creation: intervals and "
			 "cycles are kept at or above %u ns", t.floor);
	}
	t.negbase_refused = probe_negbase(&t);
	tap_diag("taprio: the kernel %s a negative base-time%s", t.negbase_refused ? "refuses" : "takes",
		 t.negbase_refused ? "" : ": base-times are kept within -1e12 ns .. KTIME_MAX - UINT32_MAX");
	if (t.short_refused)
		floor_cases(&t);
	livelock_case(&f, &t);
	negbase_case(&f, &t);

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
				send_req(&t, build(&t, NULL, RTM_DELQDISC, 0), NULL, 0);
			describe(&s, k->name, what, sizeof(what));
			err = send_req(&t, build(&t, &s, RTM_NEWQDISC, flags), extack, sizeof(extack));
			fz_result(&f, k, err, E_QDISC, what);
			if (err == -ENOTSUPP_K)
				t.enotsupp++;
			why = must_refuse(&t, &s);
			if (!err && why)
				fz_bad(&f, k, "%s: taken, but it has %s", what, why);
			if (!err && fuzz_chance(&f.rng, 25)) {
				if (root_kind(&t, kind, sizeof(kind)) || strcmp(kind, "taprio"))
					fz_bad(&f, k, "%s: taken, but the root qdisc is '%s'", what, kind);
			}
			if (err && f.verbose && extack[0])
				printf("#   extack: %s\n", extack);
		} else if (r < 85) {
			err = send_req(&t, build(&t, NULL, RTM_DELQDISC, 0), extack, sizeof(extack));
			fz_result(&f, &k_del, err, E_QDISC, "delete");
		} else if (r < 90) {
			err = root_kind(&t, kind, sizeof(kind));
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
	send_req(&t, build(&t, NULL, RTM_DELQDISC, 0), NULL, 0);
	sane_sched(&s, 0, 1000000);
	err = send_req(&t, build(&t, &s, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE), extack,
		       sizeof(extack));
	tap_ok(!err, "taprio: after the suite a valid schedule (3 entries of 1 ms) is taken%s%s%s%s",
	       err ? ": " : "", err ? lab_errname(err) : "", err ? " " : "", err ? extack : "");
	usleep(500000);
	if (t.tracing) {
		advances = trace_count("taprio_advance");
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
	err = send_req(&t, build(&t, NULL, RTM_DELQDISC, 0), NULL, 0);
	tap_ok(!err, "taprio: ... and deleted%s%s", err ? ": " : "", err ? lab_errname(err) : "");
	del_dev(&t);
	err = root_kind(&t, kind, sizeof(kind));
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

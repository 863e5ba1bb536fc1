/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The taprio suite of labfuzz: what its files share. taprio.c: the random
 * schedules and the suite; taprio_cases.c: what the kernel refuses, probed,
 * and the regression cases; taprio_nl.c: the device, the requests over
 * rtnetlink and the trace buffer.
 */
#ifndef TAPRIO_FUZZ_H
#define TAPRIO_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>
#include <linux/pkt_sched.h>

#include "labfuzz.h"
#include "nl.h"

/* A veth pair: 10000 Mb/s, so intervals down to 48 ns are above the link minimum */
#define TZ_DEV "lfz0"
#define TZ_PEER "lfz1"
#define TZ_NTXQ 8
#define TZ_MSG_CAP (128 * 1024)
#define TZ_MAX_ENTRIES 1100
#define TZ_ENOTSUPP 524		/* the kernel's internal ENOTSUPP */
#define TZ_ETH_ZLEN 60		/* the minimum frame taprio's interval minimum is made of */
#define TZ_HOUR_NS (3600LL * 1000000000LL)
/* The livelock's schedule, as an earlier fuzz run found it */
#define TZ_LIVELOCK_CYCLE 329
#define TZ_LIVELOCK_INTERVAL 1
#define TZ_LIVELOCK_BASE 5487796268147979LL
/* The latest base-time that leaves room for an interval */
#define TZ_BASE_MAX (INT64_MAX - (int64_t)UINT32_MAX)

struct tz_entry {
	bool has_cmd, has_mask, has_iv;
	uint8_t cmd;
	uint32_t mask, iv;
};

struct tz_sched {
	bool priomap;
	struct tc_mqprio_qopt q;
	bool has_base, has_clockid, has_cycle, has_ext, has_flags, has_txdelay, has_list;
	int64_t base, cycle, ext;
	int32_t clockid;
	uint32_t flags, txdelay;
	size_t n;
	struct tz_entry e[TZ_MAX_ENTRIES];
	int junk;		/* 0 none, 1 single-entry attr, 2 foreign attr in the list, 3 unknown attr */
};

struct tz_ctx {
	struct nl_sock nl;
	int ifindex;
	char *buf;
	/* the kernel skips the entries that ended while its gate timer was late
	 * (the taprio_advance event counts them) */
	bool skip_ahead;
	uint32_t min_ns;	/* the link-speed minimum of an interval, at any time */
	uint32_t floor;		/* the shortest interval and cycle sent where the kernel may livelock */
	bool negbase_refused;	/* the kernel refuses a negative base-time */
	bool zero_refused;	/* the kernel refuses a zero interval when the qdisc is created */
	bool tracing;
	uint64_t enotsupp;
};

int64_t tz_tai_now(void);
/* The veth pair TZ_DEV (TZ_NTXQ TX queues, 198.51.100.1/24) and TZ_PEER, up */
int tz_make_dev(struct tz_ctx *t);
void tz_del_dev(struct tz_ctx *t);
/* The request: RTM_NEWQDISC (with @flags) of @s, or RTM_DELQDISC */
struct nlmsghdr *tz_build(struct tz_ctx *t, const struct tz_sched *s, uint16_t type, uint16_t flags);
/* Send it: 0 or -errno, the extack message into @extack */
int tz_send(struct tz_ctx *t, struct nlmsghdr *h, char *extack, size_t len);
/* Delete the root taprio */
void tz_delete(struct tz_ctx *t);
/* A valid three-class schedule of @iv ns intervals from @base */
void tz_sane(struct tz_sched *s, int64_t base, uint32_t iv);
/* The root qdisc's kind, through a dump of the device's qdiscs */
int tz_root_kind(struct tz_ctx *t, char *kind, size_t len);
/* The trace buffer's size per CPU (kB), and its lines that contain @text */
long tz_trace_buffer_kb(void);
long tz_trace_count(const char *text);
/* The sum of the skipped=N counts of the taprio_advance events in the buffer */
long long tz_trace_skipped(void);

/* taprio_cases.c */
void tz_probe_kernel(struct tz_ctx *t);
void tz_regression_cases(struct fz *f, struct tz_ctx *t);

#endif

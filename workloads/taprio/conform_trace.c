// SPDX-License-Identifier: GPL-2.0
/*
 * conform-trace: conformance of the lab kernel's taprio tracepoints against
 * a schedule, as TAP: taprio_advance follows the schedule entry by entry on
 * its grid, and taprio_dequeue lets packets through open gates only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "cli.h"
#include "stats.h"
#include "tap.h"
#include "taprio.h"
#include "timing.h"
#include "tracefs.h"

/*
 * Events the ring buffer overwrote since it was last cleared: the sum of
 * "overrun:" over per_cpu/cpuN/stats (the buffer keeps the newest events)
 */
static long long trace_overrun(void)
{
	char path[128], line[128];
	long long sum = 0, v;
	int cpu;

	for (cpu = 0;; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %lld", &v) == 1)
				sum += v;
		fclose(f);
	}
	return sum;
}

struct advance {
	int ifindex;		/* -1: not printed (a lab kernel before ifindex=) */
	int index;
	unsigned int gate_mask, interval;
	int64_t start, end, now;
	long long skipped;	/* entries before it that had ended when the timer ran */
};

/*
 * The trace buffer's events @event of @dev, one by one: trace_next() gives
 * what follows "EVENT: dev=DEV " on the next such line, NULL at the end.
 */
struct trace_reader {
	FILE *f;
	char want[64], line[1024];
};

static int trace_open(struct trace_reader *t, const char *event, const char *dev)
{
	snprintf(t->want, sizeof(t->want), "%s: dev=%s ", event, dev);
	t->f = fopen(TRACEFS "/trace", "r");
	return t->f ? 0 : -1;
}

static const char *trace_next(struct trace_reader *t)
{
	while (fgets(t->line, sizeof(t->line), t->f)) {
		const char *p = strstr(t->line, t->want);

		if (p)
			return p + strlen(t->want);
	}
	fclose(t->f);
	t->f = NULL;
	return NULL;
}

/* taprio_advance lines of the trace buffer for @dev */
static size_t read_advances(const char *dev, struct advance **out)
{
	struct advance *a = NULL;
	size_t n = 0, cap = 0;
	struct trace_reader t;
	const char *p;

	*out = NULL;
	if (trace_open(&t, "taprio_advance", dev))
		return 0;
	while ((p = trace_next(&t))) {
		struct advance x = { .ifindex = -1 };
		int skip = 0;

		if (sscanf(p, "ifindex=%d %n", &x.ifindex, &skip) == 1 && skip > 0)
			p += skip;
		if (sscanf(p, "entry=%d gate_mask=%x interval=%u start=%" SCNd64 " end=%" SCNd64
			   " now=%" SCNd64, &x.index, &x.gate_mask, &x.interval, &x.start, &x.end,
			   &x.now) != 6)
			continue;
		if (strstr(p, " skipped="))
			x.skipped = atoll(strstr(p, " skipped=") + 9);
		if (n == cap) {
			struct advance *na;

			cap = cap ? cap * 2 : 1024;
			na = realloc(a, cap * sizeof(*a));
			if (!na)
				break;
			a = na;
		}
		a[n++] = x;
	}
	if (t.f)
		fclose(t.f);
	*out = a;
	return n;
}

/* The trace clock that reads @clockid, or NULL */
static const char *trace_clock_of(int clockid)
{
	switch (clockid) {
	case CLOCK_TAI:
		return "tai";
	case CLOCK_MONOTONIC:
		return "mono";
	case CLOCK_BOOTTIME:
		return "boot";
	default:
		return NULL;
	}
}

struct dequeue_counts {
	size_t n, closed, late, stale, stamped;	/* stamped: events with a time stamp */
	char first[1024];	/* the first bad line */
	char first_stale[1024];
};

/*
 * taprio_dequeue lines of the trace buffer for @dev, checked against the
 * schedule (base-time + cycles) as they are read: closed counts packets
 * whose class's gate was closed at the decision, late those that would
 * end transmitting after their entry (guard band), stale the decisions
 * whose clock read came before their entry began, judged at the time the
 * event was recorded (tsched_check_dequeue()) when @stamped says the
 * trace buffer's time stamps are on the schedule's clock.
 */
static void check_dequeues(const char *dev, const struct tsched *s, int64_t base,
			   bool stamped, struct dequeue_counts *c)
{
	struct trace_reader t;
	const char *p;

	memset(c, 0, sizeof(*c));
	if (trace_open(&t, "taprio_dequeue", dev))
		return;
	while ((p = trace_next(&t))) {
		/* the line's time stamp stands before "taprio_dequeue: dev=..." */
		struct tsched_dequeue d = {
			.recorded = stamped ? trace_stamp(t.line, p - strlen(t.want)) : INT64_MIN
		};
		unsigned int plen, tc;
		int txq, entry, bad;
		bool stale = false;

		if (sscanf(p, "skbaddr=%*s len=%u txq=%d tc=%u entry=%d now=%" SCNd64 " tx_end=%"
			   SCNd64 " end=%" SCNd64, &plen, &txq, &tc, &entry, &d.now, &d.tx_end,
			   &d.end) != 7)
			continue;
		c->n++;
		c->stamped += d.recorded != INT64_MIN;
		d.tc = (int)tc;
		bad = tc < TSCHED_MAX_TC ? tsched_check_dequeue(s, base, &d, &stale) :
					   TSCHED_DEQ_CLOSED;
		c->closed += !!(bad & TSCHED_DEQ_CLOSED);
		c->late += !!(bad & TSCHED_DEQ_LATE);
		if (stale && !c->stale++)
			snprintf(c->first_stale, sizeof(c->first_stale), "%s", t.line);
		if (bad && !*c->first)
			snprintf(c->first, sizeof(c->first), "%s", t.line);
	}
}

/*
 * Frames on @dev for each class of @s, in turn, 0.3 to 1.7 ms apart,
 * until @until on the schedule's clock (AF_PACKET, broadcast, a local
 * experimental EtherType: they go through the qdisc like any packet).
 * Returns the number sent.
 */
static size_t send_frames(const struct tsched *s, int ifindex, int64_t until)
{
	struct sockaddr_ll sa = { .sll_family = AF_PACKET, .sll_protocol = htons(0x88b5),
				  .sll_ifindex = ifindex, .sll_halen = ETH_ALEN };
	int fd[TSCHED_MAX_TC], tc, prio;
	unsigned int seed = 4242u;
	char buf[100] = "taprio trace-check";
	size_t sent = 0;

	memset(sa.sll_addr, 0xff, ETH_ALEN);
	for (tc = 0; tc < s->num_tc; tc++) {
		prio = tsched_prio_of_tc(s, tc);
		fd[tc] = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd[tc] >= 0 && prio >= 0 &&
		    setsockopt(fd[tc], SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio))) {
			close(fd[tc]);
			fd[tc] = -1;
		}
	}
	while ((int64_t)clock_ns((clockid_t)s->clockid) < until) {
		for (tc = 0; tc < s->num_tc; tc++) {
			if (fd[tc] >= 0 && sendto(fd[tc], buf, sizeof(buf), 0, (struct sockaddr *)&sa,
						  sizeof(sa)) == (ssize_t)sizeof(buf))
				sent++;
			sleep_ns(300000 + (uint64_t)(rand_r(&seed) % 1400000));
		}
	}
	for (tc = 0; tc < s->num_tc; tc++)
		if (fd[tc] >= 0)
			close(fd[tc]);
	return sent;
}

struct advance_bad {
	size_t seq, gate, start, grid, early, first;
};

/* One advance event against the schedule; returns true when it is off it */
static bool check_advance(const struct tsched *s, int64_t base, const struct advance *a,
			  size_t i, struct advance_bad *b)
{
	const struct advance *x = &a[i];
	int64_t c = tsched_cycle(s), want_start, want_end, cstart;
	int k = x->index;
	bool bad = false;

	if (k < 0 || (size_t)k >= s->n_entries) {
		b->gate++;
		return true;
	}
	if (x->gate_mask != s->entries[k].gate_mask || x->interval != s->entries[k].interval) {
		b->gate++;
		bad = true;
	}
	if (i > 0 && (size_t)k != ((size_t)a[i - 1].index + 1 + (size_t)x->skipped) % s->n_entries) {
		b->seq++;
		bad = true;
	}
	if (i > 0 && !x->skipped && x->start != a[i - 1].end) {
		b->start++;
		bad = true;
	}
	/* On the grid: the entry starts at its offset in a cycle from base */
	cstart = base + (x->start - base) / c * c;
	want_start = cstart + tsched_entry_offset(s, (size_t)k);
	want_end = want_start + s->entries[k].interval;
	if (want_end > cstart + c)
		want_end = cstart + c;
	if (x->start < base || x->start != want_start || x->end != want_end) {
		b->grid++;
		bad = true;
	}
	if (x->now < x->start) {
		b->early++;
		bad = true;
	}
	return bad;
}

/* The cases of the advance events @a against the schedule from @base */
static void check_advances(const struct tsched *s, int64_t base, const struct advance *a,
			   size_t na)
{
	struct advance_bad b = { .first = SIZE_MAX };
	double *late = lab_calloc(na, sizeof(*late), "advance lateness");
	struct stats st = { 0 };
	size_t i;

	for (i = 0; i < na; i++) {
		if (check_advance(s, base, a, i, &b) && b.first == SIZE_MAX)
			b.first = i;
		late[i] = (double)(a[i].now - a[i].start) / 1e3;
	}
	tap_eq_int((long long)b.seq, 0, "advance events follow the schedule entry by entry "
		   "(each is the entry after the last and those the late timer skipped, wrapping "
		   "at the end of the list)");
	tap_eq_int((long long)b.gate, 0, "each event's gate mask and interval are its entry's");
	tap_eq_int((long long)b.start, 0, "each entry starts where the last one ended, "
		   "unless entries were skipped in between");
	tap_eq_int((long long)b.grid, 0, "each entry starts and ends on the schedule's grid "
		   "(base-time + k * cycle + its offset)");
	tap_eq_int((long long)b.early, 0, "no advance runs before its entry's start");
	if (b.first != SIZE_MAX) {
		const struct advance *x = &a[b.first];

		tap_diag("first event off the schedule (#%zu): entry=%d gate_mask=0x%x interval=%u "
			 "start=%" PRId64 " end=%" PRId64 " now=%" PRId64, b.first, x->index,
			 x->gate_mask, x->interval, x->start, x->end, x->now);
	}
	stats_compute(late, na, &st);
	tap_diag("advance lateness over %zu events: p50 %.1f us, p99 %.1f us, max %.1f us",
		 na, st.median, st.p99, st.max);
	free(late);
}

/* The dequeue events checked against the schedule */
static void check_dequeue_cases(const char *dev, const struct tsched *s, int64_t base,
				bool stamped, size_t nsent)
{
	struct dequeue_counts c;

	check_dequeues(dev, s, base, stamped, &c);
	tap_ok(nsent > 0 && c.n >= nsent, "every frame sent on a class passed a gate: %zu "
	       "frames sent, %zu taprio_dequeue events", nsent, c.n);
	tap_eq_int((long long)c.closed, 0, "each taprio_dequeue event is inside an open window "
		   "of its class by the schedule");
	tap_eq_int((long long)c.late, 0, "each dequeued packet ends transmitting by its "
		   "entry's end (guard band)");
	if (stamped)
		tap_ok(c.stamped == c.n, "each taprio_dequeue line has a time stamp on the "
		       "schedule's clock: %zu of %zu", c.stamped, c.n);
	c.first[strcspn(c.first, "\n")] = 0;
	c.first_stale[strcspn(c.first_stale, "\n")] = 0;
	if (*c.first)
		tap_diag("first dequeue off the schedule: %s", c.first);
	tap_diag("%zu of %zu decisions read the clock before their entry began (the CPU "
		 "stalled between the clock read and the entry's end): judged at their record "
		 "time%s%s", c.stale, c.n, c.stale ? "; the first: " : "", c.first_stale);
}

struct recording {
	int64_t base, t0, t1;
	size_t nsent;
	long long lost;		/* events the ring buffer overwrote */
};

/* Per-CPU ring buffer size while recording: the dequeue events of a loaded
 * guest must not push the advance events out */
#define RECORD_BUFFER_KB "8192"

/*
 * Configure @s on @dev, record its events for @secs seconds of whole
 * cycles while frames of every class go through it, then remove it.
 */
static void record(const struct tsched *s, const char *dev, double secs, bool have_deq,
		   struct recording *r)
{
	int64_t c = tsched_cycle(s);
	clockid_t clk = (clockid_t)s->clockid;
	struct nl_sock n = { 0 };
	char err[1024];
	int ifindex = dev_index(dev);

	if (!ifindex || taprio_nl_open(&n))
		tap_bail("no netlink to %s", dev);
	r->base = choose_base(s, "next", clk);
	tracefs_write("events/taprio/taprio_advance/enable", "0");
	tracefs_write("events/taprio/taprio_dequeue/enable", "0");
	tracefs_write("trace", "");
	if (!tap_ok(!taprio_apply(&n, ifindex, dev, s, r->base, err, sizeof(err)),
		    "the schedule %s is configured on %s", s->file, dev)) {
		taprio_clear(&n, ifindex, dev);
		tap_bail("%s", err);
	}
	/* Record whole cycles from the base time on */
	sleep_until_ns(clk, (uint64_t)r->base - 20000000);
	tap_eq_int(tracefs_write("events/taprio/taprio_advance/enable", "1"), 0,
		   "taprio:taprio_advance can be enabled in tracefs");
	if (have_deq)
		tap_eq_int(tracefs_write("events/taprio/taprio_dequeue/enable", "1"), 0,
			   "taprio:taprio_dequeue can be enabled in tracefs");
	r->t0 = (int64_t)clock_ns(clk);
	/* Frames of every class while recording, from the second cycle on (until
	 * the first advance all gates are open and no gate is checked) */
	sleep_until_ns(clk, (uint64_t)(r->base + c));
	r->nsent = send_frames(s, ifindex, r->t0 + (int64_t)(secs * 1e9));
	sleep_until_ns(clk, (uint64_t)(r->t0 + (int64_t)(secs * 1e9) + c));
	tracefs_write("events/taprio/taprio_advance/enable", "0");
	tracefs_write("events/taprio/taprio_dequeue/enable", "0");
	r->t1 = (int64_t)clock_ns(clk);
	r->lost = trace_overrun();
	taprio_clear(&n, ifindex, dev);
	nl_close(&n);
}

int cmd_conform_trace(int argc, char **argv)
{
	const char *dev = "eth0";
	double secs = 1.0;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("dev", &dev, "DEV", "the device (eth0)", false),
		LAB_OPT_DBL("seconds", &secs, 0.1, 600, "how long to record (1)"),
		LAB_OPT_END
	};
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct recording r;
	struct tsched *s;
	struct advance *a;
	size_t na, i;
	long long skipped;
	int64_t expected;
	bool have_deq;
	char old_kb[64] = "", old_clock[256] = "", *exp, *cur;
	const char *tclock;
	bool stamped = false;
	int err;

	if (access(TRACEFS "/events/taprio/taprio_advance", F_OK)) {
		tap_skip("this kernel has no taprio:taprio_advance tracepoint (stock kernel?)",
			 "advance events follow the schedule");
		return tap_finish();
	}
	s = schedule_load(file, true, NULL);
	if (!s)
		tap_bail("the schedule %s is not valid", file);
	have_deq = !access(TRACEFS "/events/taprio/taprio_dequeue", F_OK);
	tap_eq_int(tracefs_read("buffer_size_kb", old_kb, sizeof(old_kb)), 0,
		   "the trace buffer's size can be read");
	tap_eq_int(tracefs_write("buffer_size_kb", RECORD_BUFFER_KB), 0,
		   "the trace buffer can be set to " RECORD_BUFFER_KB " KiB per CPU");
	/* Time stamps on the schedule's clock, to judge stale decisions by */
	tap_eq_int(tracefs_read("trace_clock", old_clock, sizeof(old_clock)), 0,
		   "the trace clock can be read");
	tclock = trace_clock_of(s->clockid);
	if (tclock) {
		err = tracefs_write("trace_clock", tclock);
		stamped = tap_ok(!err, "the trace buffer can be time-stamped on the schedule's "
				 "clock (trace_clock %s): %s", tclock, err ? strerror(-err) : "yes");
	} else {
		tap_diag("no trace clock is the schedule's clock %d: stale decisions are "
			 "judged at their clock read", s->clockid);
	}
	record(s, dev, secs, have_deq, &r);

	na = read_advances(dev, &a);
	if (have_deq)
		check_dequeue_cases(dev, s, r.base, stamped, r.nsent);
	else
		tap_skip("this kernel has no taprio:taprio_dequeue tracepoint",
			 "taprio_dequeue events follow the gates");
	/* Entries that started while the event was on (the first starts at base),
	 * up to the last advance recorded: a timer late at the end of the
	 * recording advances past the rest after the event is off
	 */
	expected = ((na ? a[na - 1].now : r.t1) - (r.t0 > r.base ? r.t0 : r.base)) /
		   tsched_cycle(s) * (int64_t)s->n_entries;
	tap_eq_int(r.lost, 0, "no event was lost: the trace buffer overwrote none while "
		   "recording (overrun summed over the CPUs)");
	for (i = 0, skipped = 0; i < na; i++)
		skipped += a[i].skipped;
	tap_ok((int64_t)na + skipped >= expected * 9 / 10 && na > s->n_entries,
	       "advance events were recorded for about %.1f s of the schedule: expected about "
	       "%" PRId64 ", got %zu and %lld entries they skipped (%lld events lost to the "
	       "buffer)", secs, expected, na, skipped, r.lost);
	if (na) {
		int want = dev_index(dev);
		size_t other = 0;

		for (i = 0; i < na; i++)
			other += a[i].ifindex != want;
		tap_ok(other == 0, "each taprio_advance event prints the ifindex of %s: "
		       "expected %d on all %zu, got %zu others (-1: not printed)", dev, want,
		       na, other);
	}
	if (na >= 2)
		check_advances(s, r.base, a, na);
	free(a);
	free(s);
	/* Back to the size it had: "N", or before the buffer's first use
	 * "N (expanded: M)", M being what it would have grown to */
	exp = strstr(old_kb, "expanded: ");
	if (exp)
		memmove(old_kb, exp + 10, strlen(exp + 10) + 1);
	old_kb[strcspn(old_kb, " )")] = 0;
	if (*old_kb)
		tap_ok(!tracefs_write("buffer_size_kb", old_kb),
		       "the trace buffer's size is restored to %s KiB", old_kb);
	/* "[local] global counter ...": the one in brackets is in use */
	cur = strchr(old_clock, '[');
	if (cur) {
		cur++;
		cur[strcspn(cur, "]")] = 0;
		tap_ok(!tracefs_write("trace_clock", cur), "the trace clock is restored to %s",
		       cur);
	}
	return tap_finish();
}

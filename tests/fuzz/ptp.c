// SPDX-License-Identifier: GPL-2.0
/*
 * The ptp suite: the emulated PTP clock (ptp_lab) through its character
 * device and its sysfs files. Named regression cases first (the requests
 * that once locked a CPU up or were taken when they had to be refused),
 * then random and edge-value requests: PTP_PEROUT_REQUEST2 (start, period,
 * phase, flags, reserved words), clock_settime (0, negative, huge),
 * clock_adjtime with ADJ_SETOFFSET and ADJ_FREQUENCY (at and beyond
 * max_adj), PTP_PIN_GETFUNC/SETFUNC, PTP_EXTTS_REQUEST2, PTP_ENABLE_PPS,
 * PTP_SYS_OFFSET*, reads of the event queue, while a second thread writes
 * the sysfs files period and pps_enable. Every refusal must be an errno
 * the interface documents; a request that must be refused must not be
 * taken; an accepted setting must read back as set.
 *
 * The model of what must be refused is the PTP core's checks of 6.1 and
 * the driver's: no flags (one-shot, duty cycle, phase) and no falling
 * edges, a period of at least 100 us, start and period within the clock's
 * time line (0 to KTIME_MAX ns), adjfine within +-500 ppm.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include <linux/ptp_clock.h>

#include "cli.h"
#include "ptp_fuzz.h"
#include "tap.h"
#include "timing.h"

#define FD_TO_CLOCKID(fd) ((~(clockid_t)(fd) << 3) | 3)
#define NS 1000000000LL
#define KTIME_SEC_MAX (INT64_MAX / NS)
/* The driver's limits (patch 0001) */
#define LAB_MIN_PERIOD_NS 100000LL
#define LAB_MAX_SCALED_PPM 32768000L	/* 500 ppm << 16 */

static const int E_PEROUT[] = { EINVAL, ERANGE, EOPNOTSUPP, 0 };
static const int E_SETTIME[] = { EINVAL, ERANGE, 0 };
static const int E_ADJ[] = { EINVAL, ERANGE, EOPNOTSUPP, 0 };
static const int E_PIN[] = { EINVAL, EOPNOTSUPP, 0 };
static const int E_EXTTS[] = { EINVAL, EOPNOTSUPP, 0 };
static const int E_NONE[] = { 0 };
static const int E_SYSOFF[] = { EINVAL, EOPNOTSUPP, 0 };
static const int E_READ[] = { EINVAL, 0 };

/* /dev/ptpN of the clock named ptp_lab: its index, or -1 */
static int find_lab_clock(char *sysdir, size_t len)
{
	DIR *d = opendir("/sys/class/ptp");
	struct dirent *de;
	int idx = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[PATH_MAX], name[64] = "";
		FILE *f;

		if (strncmp(de->d_name, "ptp", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/class/ptp/%s/clock_name", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, "ptp_lab", 7)) {
			idx = atoi(de->d_name + 3);
			snprintf(sysdir, len, "/sys/class/ptp/%s", de->d_name);
		}
		fclose(f);
		if (idx >= 0)
			break;
	}
	closedir(d);
	return idx;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

int64_t ptp_now(const struct ptp_ctx *c)
{
	struct timespec ts;

	if (clock_gettime(c->clk, &ts))
		return -1;
	return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

static int settime(const struct ptp_ctx *c, int64_t sec, long nsec)
{
	struct timespec ts = { .tv_sec = (time_t)sec, .tv_nsec = nsec };

	return clock_settime(c->clk, &ts) ? -errno : 0;
}

static int adjfine(const struct ptp_ctx *c, long scaled_ppm)
{
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = scaled_ppm };

	return clock_adjtime(c->clk, &tx) < 0 ? -errno : 0;
}

static int perout(const struct ptp_ctx *c, const struct ptp_perout_request *rq)
{
	struct ptp_perout_request r = *rq;

	return xioctl(c->fd, PTP_PEROUT_REQUEST2, &r);
}

static struct ptp_perout_request perout_rq(int64_t start_s, uint32_t start_ns, int64_t period_s,
					   uint32_t period_ns)
{
	struct ptp_perout_request r;

	memset(&r, 0, sizeof(r));
	r.start.sec = start_s;
	r.start.nsec = start_ns;
	r.period.sec = period_s;
	r.period.nsec = period_ns;
	return r;
}

static const char *errstr(int err)
{
	return err ? lab_errname(err) : "accepted";
}

/* Every CPU runs a thread and the clock moves on over a 0.2 s sleep */
static void check_alive(const struct ptp_ctx *c, const char *what)
{
	char stuck[256];
	int64_t before = ptp_now(c), after;
	int bad;

	usleep(200000);
	after = ptp_now(c);
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	if (bad)
		tap_fail(what, "%d CPUs ran no thread in 20 s: %s", bad, stuck);
	else if (after <= before)
		tap_fail(what, "the clock did not move over 0.2 s: %" PRId64 " then %" PRId64, before,
			 after);
	else
		tap_ok(true, "%s", what);
}

static void regression_cases(struct fz *f, struct ptp_ctx *c)
{
	struct ptp_perout_request rq, off = perout_rq(0, 0, 0, 0);
	int err;

	/* The hard lockup: a wrapped expiry re-armed into the past for ever */
	settime(c, 0, 0);
	rq = perout_rq(KTIME_SEC_MAX - 1, 0, 1, 0);
	err = perout(c, &rq);
	tap_ok(!err || err == -ERANGE || err == -EINVAL,
	       "ptp: regression: clock at 0, periodic output from KTIME_SEC_MAX - 1 s: refused with "
	       "an errno or taken (%s)", errstr(err));
	check_alive(c, "ptp: regression: ... and every CPU answers, the clock moves on (the hard "
		       "lockup of a wrapped expiry)");
	perout(c, &off);

	settime(c, 0, 0);
	rq = perout_rq(1, 0, KTIME_SEC_MAX - 1, 0);
	err = perout(c, &rq);
	tap_ok(!err || err == -ERANGE || err == -EINVAL,
	       "ptp: regression: clock at 0, a period of KTIME_SEC_MAX - 1 s from 1 s: refused with "
	       "an errno or taken (%s)", errstr(err));
	usleep(1000000);
	check_alive(c, "ptp: regression: ... and past its first edge every CPU answers");
	perout(c, &off);

	settime(c, 5000000000LL, 0);
	rq = perout_rq(0, 0, 4700000000LL, 0);
	tap_eq_str(errstr(perout(c, &rq)), "ERANGE",
		   "ptp: regression: clock at 5e9 s, a period of 4.7e9 s from 0 (next edge past "
		   "KTIME_MAX) is refused");
	rq = perout_rq(KTIME_SEC_MAX, 0, 1, 0);
	tap_eq_str(errstr(perout(c, &rq)), "ERANGE",
		   "ptp: regression: a start at KTIME_SEC_MAX s is refused");
	rq = perout_rq(0, 0, 0, (uint32_t)LAB_MIN_PERIOD_NS - 1);
	tap_eq_str(errstr(perout(c, &rq)), "ERANGE",
		   "ptp: a period under the driver's 100 us is refused");
	/* A phase of half the period: the core takes it, the driver has none */
	rq = perout_rq(0, 500000000, 1, 0);
	rq.flags = PTP_PEROUT_PHASE;
	tap_eq_str(errstr(perout(c, &rq)), "EOPNOTSUPP",
		   "ptp: a phase request is refused: the driver has none");
	rq.flags = 1U << 7;
	tap_eq_str(errstr(perout(c, &rq)), "EINVAL", "ptp: an unknown PEROUT flag is refused");
	perout(c, &off);

	/* adjfine beyond max_adj: the core's scaled_ppm_to_ppb overflows */
	tap_eq_str(errstr(adjfine(c, 2066035336255469780L)), "ERANGE",
		   "ptp: regression: adjfine of 2066035336255469780 scaled ppm (0 ppb after the "
		   "core's overflow) is refused");
	tap_eq_str(errstr(adjfine(c, LONG_MIN)), "ERANGE", "ptp: regression: adjfine of LONG_MIN "
		   "is refused");
	tap_eq_str(errstr(adjfine(c, LONG_MAX)), "ERANGE", "ptp: adjfine of LONG_MAX is refused");
	tap_eq_str(errstr(adjfine(c, LAB_MAX_SCALED_PPM)), "accepted",
		   "ptp: adjfine at +max_adj (500 ppm) is taken");
	tap_eq_str(errstr(adjfine(c, -LAB_MAX_SCALED_PPM)), "accepted",
		   "ptp: adjfine at -max_adj (-500 ppm) is taken");
	tap_eq_str(errstr(adjfine(c, LAB_MAX_SCALED_PPM + 1)), "ERANGE",
		   "ptp: adjfine just beyond +max_adj is refused");
	tap_eq_str(errstr(adjfine(c, -LAB_MAX_SCALED_PPM - 1)), "ERANGE",
		   "ptp: adjfine just beyond -max_adj is refused");
	adjfine(c, 0);
	c->freq = 0;

	/*
	 * ADJ_SETOFFSET without ADJ_NANO: the core multiplies the microseconds
	 * by 1000 before it checks them, so INT64_MIN us wraps to 0 ns and is
	 * taken (with 0 s, harmlessly, here): a kernel bug of the PTP core
	 */
	{
		struct timex tx = { .modes = ADJ_SETOFFSET };
		int e;

		tx.time.tv_sec = 0;
		tx.time.tv_usec = LONG_MIN;
		e = clock_adjtime(c->clk, &tx) < 0 ? -errno : 0;
		c->usec_checked = e == -EINVAL;
		if (c->usec_checked)
			tap_ok(true, "ptp: regression: ADJ_SETOFFSET of LONG_MIN microseconds is refused "
			       "(EINVAL)");
		else if (c->known_bugs)
			tap_fail("ptp: regression: ADJ_SETOFFSET of LONG_MIN microseconds is refused",
				 "expected EINVAL, got %s", errstr(e));
		else
			tap_skip("known bug, not fixed in this kernel: ptp_clock_adjtime() multiplies "
				 "the microseconds by 1000 before checking them, so LONG_MIN us wraps to "
				 "0 ns and is taken; such requests are counted, not failed (--known-bugs "
				 "fails them)", "ptp: regression: ADJ_SETOFFSET of LONG_MIN microseconds "
				 "is refused (%s)", errstr(e));
	}

	tap_eq_str(errstr(settime(c, -1, 0)), "EINVAL", "ptp: clock_settime to -1 s is refused");
	tap_eq_str(errstr(settime(c, KTIME_SEC_MAX, 0)), "EINVAL",
		   "ptp: clock_settime to KTIME_SEC_MAX s is refused");
	tap_eq_str(errstr(settime(c, 0, 0)), "accepted", "ptp: clock_settime to 0 is taken");
	(void)f;
}

/* A start time: near the clock's now, an edge value, or random */
static void pick_time(struct fz *f, const struct ptp_ctx *c, int64_t *sec, uint32_t *nsec)
{
	switch (fuzz_below(&f->rng, 4)) {
	case 0:
		*sec = ptp_now(c) / NS + fuzz_range(&f->rng, -2, 3);
		*nsec = (uint32_t)fuzz_below(&f->rng, NS);
		break;
	case 1:
		*sec = KTIME_SEC_MAX + fuzz_range(&f->rng, -3, 1);
		*nsec = fuzz_chance(&f->rng, 80) ? (uint32_t)fuzz_below(&f->rng, NS) : fuzz_u32(&f->rng);
		break;
	default:
		*sec = fuzz_s64(&f->rng);
		*nsec = fuzz_chance(&f->rng, 70) ? (uint32_t)fuzz_below(&f->rng, NS) : fuzz_u32(&f->rng);
	}
}

static void fuzz_perout(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	struct ptp_perout_request rq;
	char what[300];
	bool must_refuse, must_take, enable;
	int64_t psec;
	uint32_t pns;
	int err;

	int64_t ssec;
	uint32_t snsec;

	memset(&rq, 0, sizeof(rq));
	pick_time(f, c, &ssec, &snsec);
	rq.start.sec = ssec;
	rq.start.nsec = snsec;
	switch (fuzz_below(&f->rng, 4)) {
	case 0:
		psec = 0, pns = 0;	/* off */
		break;
	case 1:	/* a sane period, 100 us to 2 s */
		psec = fuzz_range(&f->rng, 0, 1);
		pns = (uint32_t)fuzz_range(&f->rng, psec ? 0 : LAB_MIN_PERIOD_NS, NS - 1);
		break;
	default:
		psec = fuzz_chance(&f->rng, 50) ? fuzz_s64(&f->rng) : fuzz_range(&f->rng, 0, 3);
		pns = fuzz_u32(&f->rng);
	}
	rq.period.sec = psec;
	rq.period.nsec = pns;
	rq.index = fuzz_chance(&f->rng, 90) ? 0 : fuzz_u32(&f->rng);
	if (fuzz_chance(&f->rng, 20))
		rq.flags = fuzz_chance(&f->rng, 60) ? (unsigned int)fuzz_below(&f->rng, 8) : fuzz_u32(&f->rng);
	if (fuzz_chance(&f->rng, 10))
		rq.rsv[fuzz_below(&f->rng, 4)] = fuzz_u32(&f->rng);
	enable = rq.period.sec || rq.period.nsec;

	/* What the core and the driver must refuse */
	must_refuse = (rq.flags & ~PTP_PEROUT_VALID_FLAGS) || rq.flags || rq.index >= 1 ||
		      (!(rq.flags & PTP_PEROUT_DUTY_CYCLE) &&
		       (rq.rsv[0] || rq.rsv[1] || rq.rsv[2] || rq.rsv[3]));
	if (enable)
		must_refuse = must_refuse || rq.start.sec < 0 || rq.start.nsec >= NS ||
			      rq.period.sec < 0 || rq.period.nsec >= NS ||
			      rq.start.sec >= KTIME_SEC_MAX || rq.period.sec >= KTIME_SEC_MAX ||
			      (rq.period.sec == 0 && rq.period.nsec < LAB_MIN_PERIOD_NS);
	/* Switching off, with nothing wrong in the request, must be taken */
	must_take = !enable && !must_refuse;

	snprintf(what, sizeof(what),
		 "PEROUT_REQUEST2 index %u flags 0x%x start %" PRId64 ".%09u period %" PRId64
		 ".%09u rsv %u,%u,%u,%u",
		 rq.index, rq.flags, (int64_t)rq.start.sec, rq.start.nsec, (int64_t)rq.period.sec,
		 rq.period.nsec, rq.rsv[0], rq.rsv[1], rq.rsv[2], rq.rsv[3]);
	err = perout(c, &rq);
	fz_result(f, k, err, E_PEROUT, what);
	if (!err && must_refuse)
		fz_bad(f, k, "%s: taken, but it must be refused", what);
	if (err && must_take)
		fz_bad(f, k, "%s: switching the output off was refused with %s", what,
		       lab_errname(err));
	if (!(rq.flags & ~PTP_PEROUT_VALID_FLAGS) && rq.flags && err && err != -EOPNOTSUPP &&
	    err != -ERANGE && err != -EINVAL)
		fz_bad(f, k, "%s: flags the driver lacks refused with %s", what, lab_errname(err));
	if ((rq.flags & ~PTP_PEROUT_VALID_FLAGS) && err != -EINVAL)
		fz_bad(f, k, "%s: unknown flags: expected EINVAL, got %s", what, errstr(err));
}

static void fuzz_settime(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	int64_t sec, got, t0;
	long nsec;
	char what[160];
	bool must_refuse;
	int err;

	switch (fuzz_below(&f->rng, 4)) {
	case 0:
		sec = 0;
		break;
	case 1:
		sec = -fuzz_range(&f->rng, 1, INT64_MAX);
		break;
	case 2:
		sec = fuzz_range(&f->rng, 0, 4000000000LL);
		break;
	default:
		sec = fuzz_s64(&f->rng);
	}
	nsec = fuzz_chance(&f->rng, 80) ? (long)fuzz_below(&f->rng, NS) : (long)fuzz_s64(&f->rng);
	must_refuse = sec < 0 || nsec < 0 || nsec >= NS || sec >= KTIME_SEC_MAX;
	snprintf(what, sizeof(what), "clock_settime %" PRId64 " s %ld ns", sec, nsec);
	t0 = (int64_t)mono_ns();
	err = settime(c, sec, nsec);
	fz_result(f, k, err, E_SETTIME, what);
	if (!err && must_refuse) {
		fz_bad(f, k, "%s: taken, but it must be refused", what);
	} else if (!err) {
		/* It reads back as set, plus the time since (and 1 s of slack for TCG) */
		int64_t set = sec * NS + nsec, since;

		got = ptp_now(c);
		since = (int64_t)mono_ns() - t0;
		if (got < set || got - set > since * 2 + NS)
			fz_bad(f, k, "%s: reads back %" PRId64 " ns, %" PRId64 " ns after the set "
			       "(%" PRId64 " ns passed)", what, got, got - set, since);
	}
}

static void fuzz_adjtime(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	struct timex tx = { .modes = ADJ_SETOFFSET };
	int64_t before, after, delta = 0, t0, since;
	char what[200];
	bool nano = fuzz_chance(&f->rng, 50), exact;
	int err;

	if (nano)
		tx.modes |= ADJ_NANO;
	tx.time.tv_sec = fuzz_chance(&f->rng, 60) ? fuzz_range(&f->rng, -5, 5) : fuzz_s64(&f->rng);
	tx.time.tv_usec = fuzz_chance(&f->rng, 70) ? (long)fuzz_below(&f->rng, nano ? NS : 1000000)
						    : (long)fuzz_s64(&f->rng);
	if (fuzz_chance(&f->rng, 5))
		tx.modes = (unsigned int)fuzz_u32(&f->rng);
	snprintf(what, sizeof(what), "clock_adjtime modes 0x%x time %" PRId64 " s %ld %s",
		 tx.modes, (int64_t)tx.time.tv_sec, (long)tx.time.tv_usec, nano ? "ns" : "us");
	/* The offset, when it is one a clock of 0..KTIME_MAX ns could take */
	exact = tx.modes == ADJ_SETOFFSET || tx.modes == (ADJ_SETOFFSET | ADJ_NANO);
	exact = exact && tx.time.tv_usec >= 0 && tx.time.tv_usec < (nano ? NS : 1000000) &&
		tx.time.tv_sec > -KTIME_SEC_MAX && tx.time.tv_sec < KTIME_SEC_MAX;
	if (exact)
		delta = tx.time.tv_sec * NS + tx.time.tv_usec * (nano ? 1 : 1000);
	before = ptp_now(c);
	t0 = (int64_t)mono_ns();
	err = clock_adjtime(c->clk, &tx) < 0 ? -errno : 0;
	since = (int64_t)mono_ns() - t0;
	after = ptp_now(c);
	fz_result(f, k, err, E_ADJ, what);
	/* Random modes: ADJ_FREQUENCY without ADJ_SETOFFSET sets the frequency (0) */
	if (!err && !(tx.modes & ADJ_SETOFFSET) && (tx.modes & ADJ_FREQUENCY))
		c->freq = tx.freq;
	if (!err && tx.modes & ADJ_SETOFFSET && !(tx.modes & ADJ_NANO) &&
	    (tx.time.tv_usec < 0 || tx.time.tv_usec >= 1000000)) {
		if (c->usec_checked || c->known_bugs)
			fz_bad(f, k, "%s: taken, but its microseconds are out of range", what);
		else
			c->usec_bug++;
	}
	if (!err && exact && (after - before < delta || after - before > delta + since * 2 + NS))
		fz_bad(f, k, "%s: taken, but the clock moved by %" PRId64 " ns, not %" PRId64, what,
		       after - before, delta);
}

static void fuzz_adjfine(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	static const int64_t edges[] = {
		0, 1, -1, LAB_MAX_SCALED_PPM, -LAB_MAX_SCALED_PPM, LAB_MAX_SCALED_PPM + 1,
		-LAB_MAX_SCALED_PPM - 1, 2066035336255469780LL, -2066035336255469780LL,
		LONG_MAX, LONG_MIN, 1LL << 56, -(1LL << 56), (1LL << 56) + 1,
	};
	struct timex rd = { .modes = 0 };
	long freq;
	char what[120];
	int err;

	switch (fuzz_below(&f->rng, 3)) {
	case 0:
		freq = (long)FUZZ_PICK(&f->rng, edges);
		break;
	case 1:
		freq = (long)fuzz_range(&f->rng, -LAB_MAX_SCALED_PPM, LAB_MAX_SCALED_PPM);
		break;
	default:
		freq = (long)fuzz_s64(&f->rng);
	}
	snprintf(what, sizeof(what), "adjfine %ld scaled ppm", freq);
	err = adjfine(c, freq);
	fz_result(f, k, err, E_ADJ, what);
	if (freq >= -LAB_MAX_SCALED_PPM && freq <= LAB_MAX_SCALED_PPM) {
		if (err)
			fz_bad(f, k, "%s: within max_adj, refused with %s", what, lab_errname(err));
		else
			c->freq = freq;
	} else if (err != -ERANGE) {
		fz_bad(f, k, "%s: beyond max_adj: expected ERANGE, got %s", what, errstr(err));
	}
	/* The core keeps the last frequency taken: it reads back */
	if (clock_adjtime(c->clk, &rd) < 0)
		fz_bad(f, k, "%s: reading the frequency back failed: %s", what, strerror(errno));
	else if (rd.freq != c->freq)
		fz_bad(f, k, "%s: the frequency reads back as %ld, the last taken was %ld", what,
		       (long)rd.freq, c->freq);
}

static void fuzz_pin(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	struct ptp_pin_desc pd;
	static const unsigned long reqs[] = { PTP_PIN_GETFUNC, PTP_PIN_SETFUNC, PTP_PIN_GETFUNC2,
					      PTP_PIN_SETFUNC2 };
	static const char *const names[] = { "GETFUNC", "SETFUNC", "GETFUNC2", "SETFUNC2" };
	size_t r = fuzz_below(&f->rng, 4);
	char what[120];
	int err;

	memset(&pd, 0, sizeof(pd));
	pd.index = fuzz_chance(&f->rng, 50) ? (unsigned int)fuzz_below(&f->rng, 3) : fuzz_u32(&f->rng);
	pd.func = fuzz_chance(&f->rng, 70) ? (unsigned int)fuzz_below(&f->rng, 5) : fuzz_u32(&f->rng);
	pd.chan = fuzz_chance(&f->rng, 70) ? (unsigned int)fuzz_below(&f->rng, 2) : fuzz_u32(&f->rng);
	if (fuzz_chance(&f->rng, 20))
		pd.rsv[fuzz_below(&f->rng, 5)] = fuzz_u32(&f->rng);
	snprintf(what, sizeof(what), "PTP_PIN_%s index %u func %u chan %u", names[r], pd.index,
		 pd.func, pd.chan);
	err = xioctl(c->fd, reqs[r], &pd);
	fz_result(f, k, err, E_PIN, what);
	/* The clock has no programmable pins: every pin index is out of range */
	if (!err)
		fz_bad(f, k, "%s: taken, but the clock has no pins", what);
}

static void fuzz_extts(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	struct ptp_extts_request rq;
	bool req2 = fuzz_chance(&f->rng, 80), on, must_refuse;
	unsigned int flags;
	char what[120];
	int err;

	memset(&rq, 0, sizeof(rq));
	rq.index = fuzz_chance(&f->rng, 85) ? 0 : fuzz_u32(&f->rng);
	rq.flags = fuzz_chance(&f->rng, 75) ? (unsigned int)fuzz_below(&f->rng, 16) : fuzz_u32(&f->rng);
	if (fuzz_chance(&f->rng, 10))
		rq.rsv[fuzz_below(&f->rng, 2)] = fuzz_u32(&f->rng);
	snprintf(what, sizeof(what), "PTP_EXTTS_REQUEST%s index %u flags 0x%x rsv %u,%u",
		 req2 ? "2" : "", rq.index, rq.flags, rq.rsv[0], rq.rsv[1]);
	flags = rq.flags;
	on = flags & PTP_ENABLE_FEATURE;
	if (req2)
		must_refuse = (flags & ~PTP_EXTTS_VALID_FLAGS) || rq.rsv[0] || rq.rsv[1] ||
			      (on && !(flags & PTP_EXTTS_EDGES)) ||
			      (on && (flags & PTP_EXTTS_EDGES) != PTP_RISING_EDGE);
	else
		must_refuse = false;
	must_refuse = must_refuse || rq.index >= 1;
	err = xioctl(c->fd, req2 ? PTP_EXTTS_REQUEST2 : PTP_EXTTS_REQUEST, &rq);
	fz_result(f, k, err, E_EXTTS, what);
	if (!err && must_refuse)
		fz_bad(f, k, "%s: taken, but it must be refused", what);
	if (req2 && err && !must_refuse)
		fz_bad(f, k, "%s: a valid request refused with %s", what, lab_errname(err));
}

static void fuzz_pps(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	int arg = fuzz_chance(&f->rng, 60) ? (int)fuzz_below(&f->rng, 2) : (int)fuzz_u32(&f->rng);
	bool two = fuzz_chance(&f->rng, 50);
	char what[80];
	int err;

	snprintf(what, sizeof(what), "PTP_ENABLE_PPS%s %d", two ? "2" : "", arg);
	/* The argument is the value itself, not a pointer */
	err = ioctl(c->fd, two ? PTP_ENABLE_PPS2 : PTP_ENABLE_PPS, (unsigned long)arg) ? -errno : 0;
	fz_result(f, k, err, E_NONE, what);
}

static void fuzz_sysoff(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	union {
		struct ptp_sys_offset so;
		struct ptp_sys_offset_extended ext;
		struct ptp_sys_offset_precise pre;
	} u;
	unsigned int n = fuzz_chance(&f->rng, 70) ? (unsigned int)fuzz_below(&f->rng, 28)
						  : fuzz_u32(&f->rng);
	size_t which = fuzz_below(&f->rng, 3);
	char what[100];
	int err;

	memset(&u, 0, sizeof(u));
	switch (which) {
	case 0:
		u.so.n_samples = n;
		snprintf(what, sizeof(what), "PTP_SYS_OFFSET n_samples %u", n);
		err = xioctl(c->fd, PTP_SYS_OFFSET, &u.so);
		fz_result(f, k, err, E_SYSOFF, what);
		break;
	case 1:
		u.ext.n_samples = n;
		if (fuzz_chance(&f->rng, 15))
			u.ext.rsv[fuzz_below(&f->rng, 3)] = fuzz_u32(&f->rng);
		snprintf(what, sizeof(what), "PTP_SYS_OFFSET_EXTENDED n_samples %u rsv %u,%u,%u", n,
			 u.ext.rsv[0], u.ext.rsv[1], u.ext.rsv[2]);
		n = u.ext.rsv[0] || u.ext.rsv[1] || u.ext.rsv[2] ? PTP_MAX_SAMPLES + 1 : n;
		err = xioctl(c->fd, PTP_SYS_OFFSET_EXTENDED, &u.ext);
		fz_result(f, k, err, E_SYSOFF, what);
		break;
	default:
		snprintf(what, sizeof(what), "PTP_SYS_OFFSET_PRECISE");
		err = xioctl(c->fd, PTP_SYS_OFFSET_PRECISE, &u.pre);
		fz_result(f, k, err, E_SYSOFF, what);
		if (!err)
			fz_bad(f, k, "%s: taken, but the clock has no cross timestamps", what);
		return;
	}
	if (!err && n > PTP_MAX_SAMPLES)
		fz_bad(f, k, "%s: taken, but beyond %d samples (or with reserved words)", what,
		       PTP_MAX_SAMPLES);
	if (err && n <= PTP_MAX_SAMPLES)
		fz_bad(f, k, "%s: a valid request refused with %s", what, lab_errname(err));
}

/* Read the event queue when it has events; sizes not a multiple of an event must fail */
static void fuzz_read(struct fz *f, struct ptp_ctx *c, struct fz_kind *k)
{
	struct ptp_extts_event ev[8];
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	size_t len = fuzz_chance(&f->rng, 50) ? sizeof(ev[0]) * (1 + fuzz_below(&f->rng, 8))
					       : (size_t)fuzz_below(&f->rng, sizeof(ev) + 1);
	char what[80];
	ssize_t r;
	int err;

	if (len % sizeof(ev[0]) == 0 && poll(&p, 1, 0) != 1) {
		/* A read would wait: now and then loop a 1 ms output back to extts */
		struct ptp_extts_request ex = { .flags = PTP_ENABLE_FEATURE | PTP_RISING_EDGE };
		struct ptp_perout_request po = perout_rq(ptp_now(c) / NS, 0, 0, 1000000);

		if (!fuzz_chance(&f->rng, 30))
			return;
		ioctl(c->fd, PTP_EXTTS_REQUEST2, &ex);
		perout(c, &po);
		if (poll(&p, 1, 100) != 1)
			return;
	}
	if (!len)
		len = 1;
	snprintf(what, sizeof(what), "read of %zu bytes", len);
	r = read(c->fd, ev, len);
	err = r < 0 ? -errno : 0;
	fz_result(f, k, err, E_READ, what);
	if (len % sizeof(ev[0]) && !err)
		fz_bad(f, k, "%s: taken, but it is not a multiple of an event (%zu)", what,
		       sizeof(ev[0]));
	if (!err && (r < 0 || (size_t)r % sizeof(ev[0])))
		fz_bad(f, k, "%s: returned %zd bytes, not whole events", what, r);
}

/* The second thread: sysfs period and pps_enable, written while the ioctls run */
struct sysfs_fuzz {
	struct fz f;
	struct ptp_ctx *c;
	struct fz_kind period, pps;
	volatile int stop;
};

int ptp_sysfs_write(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	ssize_t w;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, text, strlen(text));
	if (w < 0)
		err = -errno;
	close(fd);
	return err;
}

static void *sysfs_thread(void *arg)
{
	struct sysfs_fuzz *s = arg;
	struct fz *f = &s->f;
	static const int e_period[] = { EINVAL, ERANGE, EOPNOTSUPP, 0 };
	static const int e_pps[] = { EINVAL, 0 };
	char text[200];
	int err;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		f->iteration++;
		if (fuzz_chance(&f->rng, 70)) {
			int64_t ss, ps;
			uint32_t sn, pn;

			pick_time(f, s->c, &ss, &sn);
			ps = fuzz_chance(&f->rng, 50) ? fuzz_range(&f->rng, 0, 2) : fuzz_s64(&f->rng);
			pn = fuzz_chance(&f->rng, 50) ? (uint32_t)fuzz_range(&f->rng, 0, NS - 1)
						      : fuzz_u32(&f->rng);
			if (fuzz_chance(&f->rng, 10))
				snprintf(text, sizeof(text), "%" PRId64 " %" PRId64, ss, ps);
			else
				snprintf(text, sizeof(text), "%u %" PRId64 " %u %" PRId64 " %u",
					 fuzz_chance(&f->rng, 90) ? 0 : fuzz_u32(&f->rng), ss, sn, ps, pn);
			err = ptp_sysfs_write(s->c->sysdir, "period", text);
			fz_result(f, &s->period, err, e_period, text);
		} else {
			snprintf(text, sizeof(text), fuzz_chance(&f->rng, 10) ? "x%d" : "%d",
				 fuzz_chance(&f->rng, 70) ? (int)fuzz_below(&f->rng, 2)
							  : (int)fuzz_u32(&f->rng));
			err = ptp_sysfs_write(s->c->sysdir, "pps_enable", text);
			fz_result(f, &s->pps, err, e_pps, text);
			if (err && text[0] != 'x')
				fz_bad(f, &s->pps, "pps_enable '%s': refused with %s", text,
				       lab_errname(err));
		}
		if (fuzz_chance(&f->rng, 20))
			usleep((useconds_t)fuzz_below(&f->rng, 2000));
	}
	return NULL;
}

int cmd_ptp(int argc, char **argv)
{
	struct fz f;
	struct ptp_ctx c = { .fd = -1 };
	struct fz_kind k_perout = { .name = "PTP_PEROUT_REQUEST2" },
		       k_settime = { .name = "clock_settime" },
		       k_adjtime = { .name = "clock_adjtime ADJ_SETOFFSET" },
		       k_adjfine = { .name = "clock_adjtime ADJ_FREQUENCY" },
		       k_pin = { .name = "PTP_PIN_GETFUNC/SETFUNC" },
		       k_extts = { .name = "PTP_EXTTS_REQUEST(2)" },
		       k_pps = { .name = "PTP_ENABLE_PPS(2)" },
		       k_sysoff = { .name = "PTP_SYS_OFFSET*" },
		       k_read = { .name = "read of the event queue" };
	struct sysfs_fuzz s;
	struct ptp_stamper stamper = { .ifname = "" };
	struct ptp_perout_request off = perout_rq(0, 0, 0, 0);
	pthread_t th;
	char path[64], stuck[256];
	bool threaded;
	int idx, bad;
	long offset_ns = 0;
	FILE *pf;

	fz_setup(&f, "ptp", argc, argv, NULL);
	idx = find_lab_clock(c.sysdir, sizeof(c.sysdir));
	if (idx < 0) {
		tap_skip("no PTP clock named ptp_lab (a kernel without patch 0001?)",
			 "ptp: the emulated PTP clock's fuzz suite");
		return fz_finish(&f);
	}
	snprintf(path, sizeof(path), "/dev/ptp%d", idx);
	c.fd = open(path, O_RDWR | O_CLOEXEC);
	if (c.fd < 0)
		tap_bail("cannot open %s: %s", path, strerror(errno));
	c.clk = FD_TO_CLOCKID(c.fd);
	c.index = idx;
	c.known_bugs = f.known_bugs;
	tap_diag("ptp: fuzzing %s (%s)", path, c.sysdir);

	regression_cases(&f, &c);
	ptp_enable_race(&f, &c);
	ptp_hwtstamp_cases(&f, &c, &stamper);
	fz_start_clock(&f);

	/* Events in the queue for the reads: the output looped back to extts */
	{
		struct ptp_extts_request ex = { .index = 0, .flags = PTP_ENABLE_FEATURE | PTP_RISING_EDGE };
		struct ptp_perout_request po = perout_rq(ptp_now(&c) / NS + 1, 0, 0, 10000000);

		ioctl(c.fd, PTP_EXTTS_REQUEST2, &ex);
		perout(&c, &po);
	}

	memset(&s, 0, sizeof(s));
	s.f = f;
	fuzz_seed(&s.f.rng, f.seed ^ 0x5eed5eed5eed5eedULL);
	s.f.iteration = 0;
	s.c = &c;
	s.period.name = "sysfs period (second thread)";
	s.pps.name = "sysfs pps_enable (second thread)";
	threaded = !pthread_create(&th, NULL, sysfs_thread, &s);
	if (!threaded)
		tap_diag("ptp: no second thread: %s", strerror(errno));

	ptp_stamper_start(&stamper);
	while (fz_more(&f)) {
		switch (fuzz_below(&f.rng, 20)) {
		case 0 ... 5:
			fuzz_perout(&f, &c, &k_perout);
			break;
		case 6 ... 7:
			fuzz_settime(&f, &c, &k_settime);
			break;
		case 8 ... 9:
			fuzz_adjtime(&f, &c, &k_adjtime);
			break;
		case 10 ... 11:
			fuzz_adjfine(&f, &c, &k_adjfine);
			break;
		case 12:
			fuzz_pin(&f, &c, &k_pin);
			break;
		case 13 ... 14:
			fuzz_extts(&f, &c, &k_extts);
			break;
		case 15:
			fuzz_pps(&f, &c, &k_pps);
			break;
		case 16 ... 17:
			fuzz_sysoff(&f, &c, &k_sysoff);
			break;
		default:
			fuzz_read(&f, &c, &k_read);
		}
	}
	if (threaded) {
		__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
	}
	ptp_stamper_stop(&stamper);

	fz_report_kind(&f, &k_perout, "every refusal an errno, nothing taken that must be refused, "
		       "switching off taken");
	fz_report_kind(&f, &k_settime, "every refusal an errno, nothing negative or beyond "
		       "KTIME_SEC_MAX taken, a set time reads back");
	fz_report_kind(&f, &k_adjtime, "every refusal an errno, an offset taken moves the clock by it");
	fz_report_kind(&f, &k_adjfine, "within +-max_adj taken, beyond it ERANGE, the frequency "
		       "reads back");
	fz_report_kind(&f, &k_pin, "refused with an errno (the clock has no pins)");
	fz_report_kind(&f, &k_extts, "every refusal an errno, no falling edge or bad flag taken, "
		       "valid requests taken");
	fz_report_kind(&f, &k_pps, "taken, whatever the argument");
	fz_report_kind(&f, &k_sysoff, "up to 25 samples taken, more refused, no precise offset");
	fz_report_kind(&f, &k_read, "reads of whole events only");
	fz_report_kind(&s.f, &s.period, "every refusal an errno");
	fz_report_kind(&s.f, &s.pps, "a number taken, anything else EINVAL");
	tap_diag("ptp: the second thread made %" PRIu64 " sysfs writes", s.f.iteration);
	if (c.usec_bug)
		tap_diag("ptp: known bug: %" PRIu64 " ADJ_SETOFFSET requests with microseconds out of "
			 "range were taken (the core's unchecked multiplication)", c.usec_bug);

	/* Leave the clock as the boot left it: outputs off, rate and offset of the parameters */
	perout(&c, &off);
	ioctl(c.fd, PTP_ENABLE_PPS, 0UL);
	{
		struct ptp_extts_request ex = { .index = 0 };

		ioctl(c.fd, PTP_EXTTS_REQUEST, &ex);
	}
	adjfine(&c, 0);
	pf = fopen("/sys/module/ptp_lab/parameters/offset_ns", "r");
	if (pf) {
		if (fscanf(pf, "%ld", &offset_ns) != 1)
			offset_ns = 0;
		fclose(pf);
	}
	{
		int64_t t = (int64_t)real_ns() + offset_ns;

		tap_eq_str(errstr(settime(&c, t / NS, t % NS)), "accepted",
			   "ptp: the clock is set back to CLOCK_REALTIME plus offset_ns");
	}
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	if (bad)
		tap_fail("ptp: after the suite every CPU answers", "%d CPUs ran no thread in 20 s: %s",
			 bad, stuck);
	else
		tap_ok(true, "ptp: after the suite every CPU answers and the clock reads %" PRId64 " ns",
		       ptp_now(&c));
	close(c.fd);
	return fz_finish(&f);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The periodic output switched on and off from two threads at once: the
 * main thread switches it on with PTP_PEROUT_REQUEST2, which the PTP core
 * passes to the driver under its pincfg_mux, while a second thread switches
 * it off through the sysfs file period, which 6.1's core passes without it.
 * Serialized, the two leave the output on with its timer queued, or off with
 * none; interleaved inside the driver (stopping an output cancels its timer
 * outside the driver's spinlock) they could leave it on with no timer: an
 * enabled output that never fires.
 *
 * The output runs with a period of 1 ms, so that the second thread's cancel
 * often has to wait for a callback that is running, which widens the window
 * in which the main thread's request can come between the output being
 * switched off and its timer being cancelled. While the output is on, its
 * timer is queued (/proc/timer_list: lab_output_fire) but in the few
 * microseconds its callback runs: it is looked for three times, 1 ms apart.
 * When it is not found after a round, the clock is adjusted by 0, which
 * re-arms the timer of every output that is on: a timer queued then was an
 * output on with no timer. The PPS output, whose timer has the same
 * function, is off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/timex.h>
#include <unistd.h>

#include <linux/ptp_clock.h>

#include "cli.h"
#include "ptp_fuzz.h"
#include "tap.h"
#include "timing.h"

#define RACE_ROUNDS 400
#define RACE_SECONDS 8.0

struct disabler {
	pthread_barrier_t go, done;
	const struct ptp_ctx *c;
	bool stop;
	int err;
};

static void *disable_thread(void *arg)
{
	struct disabler *d = arg;

	for (;;) {
		pthread_barrier_wait(&d->go);
		if (__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE))
			return NULL;
		d->err = ptp_sysfs_write(d->c->sysdir, "period", "0 0 0 0 0");
		pthread_barrier_wait(&d->done);
	}
}

/* An output's timer (lab_output_fire) queued: 1, none: 0, -errno */
static int timer_listed(void)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/timer_list", "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "lab_output_fire"))
			found = 1;
	fclose(f);
	return found;
}

/* The same, looked for up to three times 1 ms apart (a running callback's
 * timer is not queued while it runs)
 */
static int output_timer_queued(void)
{
	int i, q = 0;

	for (i = 0; i < 3 && !q; i++) {
		if (i)
			usleep(1000);
		q = timer_listed();
	}
	return q;
}

/* Adjust the clock by 0: re-arms the timer of every output that is on */
static int adjust_by_zero(const struct ptp_ctx *c)
{
	struct timex tx = { .modes = ADJ_SETOFFSET | ADJ_NANO };

	return clock_adjtime(c->clk, &tx) < 0 ? -errno : 0;
}

void ptp_enable_race(struct fz *f, struct ptp_ctx *c)
{
	static const int e_on[] = { 0 };
	struct fz_kind k = { .name = "periodic output on (ioctl) and off (sysfs) at once" };
	struct ptp_perout_request rq;
	struct disabler d = { .c = c };
	uint64_t t0 = mono_ns(), on = 0, off = 0, rounds = 0;
	char what[160];
	pthread_t th;
	int err, q;

	ioctl(c->fd, PTP_ENABLE_PPS, 0UL);
	ptp_sysfs_write(c->sysdir, "period", "0 0 0 0 0");
	q = output_timer_queued();
	if (q) {
		tap_fail("ptp: the periodic output switched on and off at once never stays on "
			 "without its timer", "%s", q < 0 ? "/proc/timer_list cannot be read" :
			 "an output timer is queued with both outputs off");
		return;
	}
	pthread_barrier_init(&d.go, NULL, 2);
	pthread_barrier_init(&d.done, NULL, 2);
	if (pthread_create(&th, NULL, disable_thread, &d)) {
		tap_fail("ptp: the periodic output switched on and off at once never stays on "
			 "without its timer", "no second thread: %s", strerror(errno));
		return;
	}
	while (rounds < RACE_ROUNDS && (double)(mono_ns() - t0) / 1e9 < RACE_SECONDS) {
		memset(&rq, 0, sizeof(rq));
		rq.start.sec = ptp_now(c) / 1000000000LL;
		rq.period.nsec = 1000000;
		snprintf(what, sizeof(what), "round %" PRIu64 ": PEROUT_REQUEST2 on from %lld s "
			 "while sysfs period switches it off", rounds, (long long)rq.start.sec);
		pthread_barrier_wait(&d.go);
		err = ioctl(c->fd, PTP_PEROUT_REQUEST2, &rq) ? -errno : 0;
		pthread_barrier_wait(&d.done);
		rounds++;
		fz_result(f, &k, err, e_on, what);
		if (d.err)
			fz_bad(f, &k, "%s: switching off through sysfs was refused with %s", what,
			       lab_errname(d.err));
		q = output_timer_queued();
		if (q == 1) {
			on++;
		} else if (!q && !adjust_by_zero(c) && output_timer_queued() == 1) {
			fz_bad(f, &k, "%s: the output was left on with no timer (queued only once "
			       "the clock was adjusted by 0)", what);
		} else {
			off++;
		}
		ptp_sysfs_write(c->sysdir, "period", "0 0 0 0 0");
	}
	__atomic_store_n(&d.stop, true, __ATOMIC_RELEASE);
	pthread_barrier_wait(&d.go);
	pthread_join(th, NULL);
	pthread_barrier_destroy(&d.go);
	pthread_barrier_destroy(&d.done);
	fz_report_kind(f, &k, "serialized: each round ends with the output on and its timer "
		       "queued, or off");
	tap_diag("ptp: %" PRIu64 " rounds of the enable race in %.1f s: %" PRIu64 " ended on, %"
		 PRIu64 " off", rounds, (double)(mono_ns() - t0) / 1e9, on, off);
}

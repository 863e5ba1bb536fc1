// SPDX-License-Identifier: GPL-2.0
/*
 * What every suite of labfuzz shares: its options (seed, iteration and time
 * bounds), the per-kind counts of requests, accepted and refused, the errno
 * check, and the liveness check of every CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "labfuzz.h"
#include "tap.h"
#include "timing.h"

#define MAX_OPTS 24

void fz_setup(struct fz *f, const char *suite, int argc, char **argv, const struct lab_opt *extra)
{
	unsigned long long seed = 0, iterations = 2000;
	double seconds = 15;
	bool seeded = false, known = false, verbose = false;
	struct lab_opt opts[MAX_OPTS] = {
		{ .name = "seed", .type = LAB_OPT_UINT, .value = &seed, .arg = "S",
		  .help = "the generator's seed (default: a fresh one, printed)", .min = 0,
		  .max = 9007199254740991.0, .given = &seeded },
		LAB_OPT_U64("iterations", &iterations, 1, 100000000, "at most N iterations (default 2000)"),
		LAB_OPT_DBL("seconds", &seconds, 0.1, 86400, "at most X seconds of fuzzing (default 15)"),
		LAB_OPT_FLAG("known-bugs", &known, "also run the cases of known, unfixed kernel bugs"),
		LAB_OPT_FLAG("verbose", &verbose, "print every request and its answer"),
	};
	size_t n = 5, i;

	for (i = 0; extra && extra[i].name && n < MAX_OPTS - 1; i++)
		opts[n++] = extra[i];
	opts[n] = (struct lab_opt)LAB_OPT_END;
	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "no argument");

	memset(f, 0, sizeof(*f));
	f->suite = suite;
	f->seed = seeded ? seed : fuzz_fresh_seed();
	f->max_iterations = iterations;
	f->max_seconds = seconds;
	f->known_bugs = known;
	f->verbose = verbose;
	fuzz_seed(&f->rng, f->seed);
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_diag("%s: seed %" PRIu64 ", at most %llu iterations and %.1f s", suite, f->seed,
		 iterations, seconds);
	tap_diag("%s: replay: labfuzz %s --seed %" PRIu64 " --iterations %llu%s", suite, suite,
		 f->seed, iterations, known ? " --known-bugs" : "");
	if (kmsg_open(&f->kmsg))
		tap_diag("%s: /dev/kmsg cannot be read: the kernel log is not checked", suite);
	f->t0_ns = mono_ns();
}

void fz_start_clock(struct fz *f)
{
	f->t0_ns = mono_ns();
}

double fz_elapsed(const struct fz *f)
{
	return (double)(mono_ns() - f->t0_ns) / 1e9;
}

bool fz_more(struct fz *f)
{
	if (f->iteration >= f->max_iterations || fz_elapsed(f) >= f->max_seconds)
		return false;
	f->iteration++;
	/* Now and then, so that trouble is seen near the iteration that made it */
	if (!(f->iteration % 64))
		kmsg_poll(&f->kmsg);
	return true;
}

int fz_finish(struct fz *f)
{
	double t = fz_elapsed(f);

	kmsg_report(&f->kmsg, f->suite);
	kmsg_close(&f->kmsg);
	/* The line tests/guest/fuzz-*.sh and people read: iterations, seed, time */
	tap_diag("%s: %" PRIu64 " iterations, seed %" PRIu64 ", %.1f s (bounds: %" PRIu64
		 " iterations, %.1f s)",
		 f->suite, f->iteration, f->seed, t, f->max_iterations, f->max_seconds);
	return tap_finish();
}

const char *fz_errno_summary(const struct fz_kind *k, char *buf, size_t len)
{
	size_t off = 0;
	int e;

	buf[0] = '\0';
	for (e = 1; e < FZ_MAX_ERRNO && off < len; e++)
		if (k->errnos[e])
			off += (size_t)snprintf(buf + off, len - off, "%s%s %" PRIu64,
						off ? ", " : "", lab_errname(e), k->errnos[e]);
	if (k->errnos[0] && off < len)
		snprintf(buf + off, len - off, "%sother %" PRIu64, off ? ", " : "", k->errnos[0]);
	return buf;
}

static void record_bad(struct fz *f, struct fz_kind *k, const char *text)
{
	if (!k->bad++)
		snprintf(k->first_bad, sizeof(k->first_bad), "iteration %" PRIu64 ": %.280s",
			 f->iteration, text);
	if (k->bad <= 5)
		tap_diag("%s: %s: iteration %" PRIu64 ": %s", f->suite, k->name, f->iteration, text);
}

void fz_bad(struct fz *f, struct fz_kind *k, const char *fmt, ...)
{
	char text[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	record_bad(f, k, text);
}

bool fz_result(struct fz *f, struct fz_kind *k, int err, const int *allowed, const char *what)
{
	int e = -err;
	size_t i;

	k->tries++;
	if (f->verbose)
		printf("# %s: %" PRIu64 ": %s: %s\n", f->suite, f->iteration, what,
		       err ? lab_errname(err) : "accepted");
	if (!err) {
		k->accepted++;
		return true;
	}
	k->refused++;
	k->errnos[e > 0 && e < FZ_MAX_ERRNO ? e : 0]++;
	for (i = 0; allowed[i]; i++)
		if (allowed[i] == e)
			return true;
	fz_bad(f, k, "%s: refused with %s, not one of the errnos expected", what,
	       e > 0 ? lab_errname(e) : "a value that is no errno");
	return false;
}

void fz_report_kind(struct fz *f, const struct fz_kind *k, const char *claim)
{
	char sum[512];

	tap_diag("%s: %s: %" PRIu64 " requests, %" PRIu64 " accepted, %" PRIu64 " refused (%s)",
		 f->suite, k->name, k->tries, k->accepted, k->refused,
		 fz_errno_summary(k, sum, sizeof(sum)));
	if (!k->tries) {
		tap_skip("the time bound ran out before any", "%s: %s: %s", f->suite, k->name, claim);
		return;
	}
	if (k->bad)
		tap_fail(claim, "%s: %s: %" PRIu64 " bad of %" PRIu64 "; first: %s (replay: labfuzz "
			 "%s --seed %" PRIu64 " --iterations %" PRIu64 ")",
			 f->suite, k->name, k->bad, k->tries, k->first_bad, f->suite, f->seed,
			 f->max_iterations);
	else
		tap_ok(true, "%s: %s: %s (%" PRIu64 " requests)", f->suite, k->name, claim, k->tries);
}

struct cpu_probe {
	pthread_t thread;
	int cpu;
	volatile int done;
	bool started;
};

static void *cpu_probe_run(void *arg)
{
	struct cpu_probe *p = arg;

	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int fz_cpus_answer(int timeout_s, char *stuck, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct cpu_probe *p;
	uint64_t deadline = mono_ns() + (uint64_t)timeout_s * NSEC_PER_SEC;
	size_t off = 0;
	int bad = 0;
	long c;

	if (ncpu < 1)
		ncpu = 1;
	p = lab_calloc((size_t)ncpu, sizeof(*p), "the CPU probes");
	stuck[0] = '\0';
	for (c = 0; c < ncpu; c++) {
		pthread_attr_t attr;
		cpu_set_t set;

		p[c].cpu = (int)c;
		CPU_ZERO(&set);
		CPU_SET((int)c, &set);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		p[c].started = !pthread_create(&p[c].thread, &attr, cpu_probe_run, &p[c]);
		pthread_attr_destroy(&attr);
	}
	for (;;) {
		bool all = true;

		for (c = 0; c < ncpu; c++)
			all = all && (!p[c].started || __atomic_load_n(&p[c].done, __ATOMIC_ACQUIRE));
		if (all || mono_ns() > deadline)
			break;
		usleep(2000);
	}
	for (c = 0; c < ncpu; c++) {
		if (!p[c].started || !__atomic_load_n(&p[c].done, __ATOMIC_ACQUIRE)) {
			bad++;
			if (off < len)
				off += (size_t)snprintf(stuck + off, len - off, "%sCPU%ld",
							off ? " " : "", c);
			if (p[c].started)
				pthread_detach(p[c].thread);
		} else {
			pthread_join(p[c].thread, NULL);
		}
	}
	/* A detached thread still holds its probe: leave the memory to exit */
	if (!bad)
		free(p);
	return bad;
}

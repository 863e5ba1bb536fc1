/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labfuzz - the fuzz suites of the interfaces the lab's kernel patches add,
 * run in the guest: ptp (the emulated PTP clock's ioctls and sysfs files),
 * led (the pattern trigger's pattern, abs_pattern and repeat on a uleds LED),
 * taprio (schedules over rtnetlink with the lab's tracepoints on, while
 * traffic flows). Each is seeded and bounded by an iteration count and a
 * time, and prints TAP: its named regression cases, one result per kind of
 * random request (every refusal an errno, no acceptance of what must be
 * refused), the kernel log since the suite started (no WARNING, BUG, Oops,
 * lockup or RCU stall) and whether the kernel still answers.
 *
 * main.c: the verb table; common.c: options, budget, counts and checks;
 * kmsg.c: the kernel log checker; ptp.c, led.c, taprio.c: the suites.
 */
#ifndef LABFUZZ_H
#define LABFUZZ_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "fuzz.h"

/* Kernel log lines since the suite started that fail it, and notes */
struct kmsg {
	int fd;			/* /dev/kmsg, read from the end at the start */
	unsigned int trouble;	/* lines that fail the suite */
	unsigned int notes;	/* lines worth a note ("hrtimer: interrupt took") */
	unsigned int lost;	/* reads that found records overwritten (EPIPE) */
	char first[4][256];	/* the first lines of trouble, for the report */
	char first_note[256];
};

/* 1: the line fails a suite; 2: it is a note only; 0: neither */
int kmsg_classify(const char *msg);
/* Open /dev/kmsg and skip what is there; -errno when it cannot be read */
int kmsg_open(struct kmsg *k);
/* Read what came since: counts and first lines into @k */
void kmsg_poll(struct kmsg *k);
/* One TAP result: no trouble since the start (and a note of the notes) */
bool kmsg_report(struct kmsg *k, const char *suite);
void kmsg_close(struct kmsg *k);
/* The verb kmsg-check FILE: the same checker on a saved log (a fixture) */
int cmd_kmsg_check(int argc, char **argv);

/* The counts of one kind of request */
#define FZ_MAX_ERRNO 600	/* the kernel's internal codes (ENOTSUPP 524) too */
struct fz_kind {
	const char *name;	/* "PTP_PEROUT_REQUEST2", "write pattern" */
	uint64_t tries, accepted, refused;
	uint64_t errnos[FZ_MAX_ERRNO];
	uint64_t bad;		/* a check failed */
	char first_bad[320];	/* the first failed check, with its iteration */
};

struct fz {
	const char *suite;
	struct fuzz_rng rng;
	uint64_t seed;
	uint64_t max_iterations;
	double max_seconds;
	uint64_t t0_ns;
	uint64_t iteration;
	bool known_bugs;
	bool verbose;
	struct kmsg kmsg;
};

/*
 * fz_setup - parse the suite's common options (--seed, --iterations,
 * --seconds, --known-bugs, --verbose; @extra are the suite's own, or NULL)
 * and open the kernel log. Prints the seed and the replay command.
 */
void fz_setup(struct fz *f, const char *suite, int argc, char **argv, const struct lab_opt *extra);
/* The time bound counts from now: the regression cases before are not fuzzing */
void fz_start_clock(struct fz *f);
/* True while iterations and time are left; counts the iteration */
bool fz_more(struct fz *f);
double fz_elapsed(const struct fz *f);
/* The closing lines: iterations, seed and time, the kernel log result */
int fz_finish(struct fz *f);

/*
 * fz_result - record one request of @k: @err is 0 (accepted) or -errno.
 * A refusal must be an errno in @allowed (a 0-terminated list of positive
 * errnos); anything else is a bad result, reported with @what (the request
 * as text). Returns false when bad.
 */
bool fz_result(struct fz *f, struct fz_kind *k, int err, const int *allowed, const char *what);
/* A failed check of @k that is not about the errno: "@what: @why" */
void fz_bad(struct fz *f, struct fz_kind *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* One TAP result per kind: no bad result, with the counts in a diagnostic */
void fz_report_kind(struct fz *f, const struct fz_kind *k, const char *claim);
/* The errno counts of @k as "EINVAL 12, ERANGE 3" */
const char *fz_errno_summary(const struct fz_kind *k, char *buf, size_t len);

/*
 * fz_cpus_answer - every online CPU runs a thread pinned to it within
 * @timeout_s seconds (a CPU stuck in an interrupt runs none). Returns the
 * number of CPUs that did not, and their list in @stuck.
 */
int fz_cpus_answer(int timeout_s, char *stuck, size_t len);

int cmd_ptp(int argc, char **argv);
int cmd_led(int argc, char **argv);
int cmd_taprio(int argc, char **argv);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP 13 output for unit tests and guest conformance suites, in the spirit of
 * tools/testing/selftests/kselftest.h:
 *
 *	tap_plan(3);
 *	tap_ok(fd >= 0, "socket() opens a netlink socket");
 *	tap_eq_int(got, 4, "eth0 has 4 TX queues");
 *	tap_skip("LED class missing", "pattern trigger is listed");
 *	return tap_finish();
 *
 * prints
 *	TAP version 13
 *	1..3
 *	ok 1 - socket() opens a netlink socket
 *	not ok 2 - eth0 has 4 TX queues: expected 4, got 1
 *	ok 3 - pattern trigger is listed # SKIP LED class missing
 *	# 1 passed, 1 failed, 1 skipped
 *
 * Without tap_plan() the plan "1..N" is printed by tap_finish() (a plan at
 * the end is valid TAP). Output is flushed after every line, so what ran
 * before a crash is on record. The state is per process.
 */
#ifndef BENCH_TAP_H
#define BENCH_TAP_H

#include <stdbool.h>
#include <stdio.h>

void tap_plan(unsigned int n);
/* A test result; the description is printf-formatted. Returns @pass. */
bool tap_ok(bool pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Pass when @got equals @expected, else "not ok N - what: expected X, got Y". */
bool tap_eq_int(long long got, long long expected, const char *what);
bool tap_eq_str(const char *got, const char *expected, const char *what);
/* Pass when |got - expected| <= tol. */
bool tap_eq_dbl(double got, double expected, double tol, const char *what);
/* A fail with free-form detail: "not ok N - what: detail". */
bool tap_fail(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "ok N - what # SKIP reason" */
void tap_skip(const char *reason, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A "# ..." diagnostic line. */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "Bail out! reason" and exit(1). */
void tap_bail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/*
 * Print the closing "# N passed, N failed, N skipped" line (and the plan if
 * none was given) and return the exit code: 0 when nothing failed and the
 * plan was met, 1 otherwise.
 */
int tap_finish(void);

/*
 * Fixtures for the tests of a program's `report` verb: DIR/NAME opened for
 * writing, with @header as its first line unless NULL (bails out when it
 * cannot be made); and the program run on them: @argv[0] executed with
 * @argv, its stdout to /dev/null, its stderr to @err_path (NULL:
 * /dev/null). tap_run() returns its exit code, -1 when it did not exit.
 */
FILE *tap_fixture(const char *dir, const char *name, const char *header);
int tap_run(char *const argv[], const char *err_path);

#endif

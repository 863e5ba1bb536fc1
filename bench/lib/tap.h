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
 * before a crash is on record. The state is per process, shared with the
 * tests tap_main() runs in children.
 *
 * Unit tests register themselves and run each in a child of its own, as the
 * kselftest harness's TEST() and test_harness_run() do, so that a crash
 * costs one test, not the program:
 *
 *	LAB_TEST(parse_good)
 *	{
 *		tap_eq_int(parse("4"), 4, "parse of 4");
 *	}
 *	LAB_TEST_MAIN()
 *
 * A program whose tests share a setup writes its own main() that sets up
 * (tap_tmpdir(), a check that the program under test is built) and returns
 * tap_main(argc, argv).
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
/*
 * "Bail out! reason" and exit(1); in a test tap_main() runs, a failed result
 * "TEST: bailed out: reason" and the end of that test only.
 */
void tap_bail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/*
 * Print the closing "# N passed, N failed, N skipped" line (and the plan if
 * none was given) and return the exit code: 0 when nothing failed and the
 * plan was met, 1 otherwise.
 */
int tap_finish(void);

/*
 * A test of LAB_TEST(), registered before main() runs; tap_main() runs the
 * registered tests in the order of their lines.
 */
struct tap_test {
	const char *name;
	void (*fn)(void);
	unsigned int line;
	struct tap_test *next;
};
void tap_register(struct tap_test *test);

#define LAB_TEST(name)								\
	static void lab_test_##name(void);					\
	static struct tap_test lab_test_entry_##name = {			\
		#name, lab_test_##name, __LINE__, NULL				\
	};									\
	static void __attribute__((constructor)) lab_test_register_##name(void) \
	{									\
		tap_register(&lab_test_entry_##name);				\
	}									\
	static void lab_test_##name(void)

/*
 * tap_main - run the registered tests, each in a forked child, as one TAP
 * stream numbered on across them, the plan at the end, and return
 * tap_finish()'s exit code. A test whose child is killed by a signal, does
 * not finish within the timeout, exits non-zero without a failed result
 * (or above 1), or reports no result at all gets one "not ok" naming the
 * test and what happened; the tests after it run. Arguments: "--timeout S"
 * (seconds a test may take, 60 by default), "--list" (print the tests'
 * names), then the names of the tests to run (default: all; an unknown name
 * is a usage error).
 */
int tap_main(int argc, char **argv);

#define LAB_TEST_MAIN()					\
	int main(int argc, char **argv)			\
	{						\
		return tap_main(argc, argv);		\
	}

/*
 * tap_tmpdir - make the temporary folder @tmpl ("/tmp/name.XXXXXX", filled
 * in by mkdtemp()) that a program's tests share, bailing out when it cannot
 * be made; it is removed with everything in it when the program exits.
 */
void tap_tmpdir(char *tmpl);

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

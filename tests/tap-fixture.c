// SPDX-License-Identifier: GPL-2.0
/*
 * A fixture of the test runner of bench/lib/tap.c (LAB_TEST, tap_main):
 * tests that pass, fail, crash, exit, bail out, report nothing and hang.
 * tests/tap-selftest.sh runs it and checks the one TAP stream it prints.
 * Not a test suite of its own: it fails on purpose.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"

static int leaked;

LAB_TEST(passes)
{
	tap_ok(true, "passes: one");
	tap_skip("on purpose", "passes: skipped");
}

LAB_TEST(sets_state)
{
	leaked = 1;
	tap_eq_int(leaked, 1, "sets_state: a global set in this test");
}

LAB_TEST(crashes)
{
	tap_ok(true, "crashes: before the crash");
	raise(SIGSEGV);
	tap_ok(true, "crashes: after the crash (never printed)");
}

LAB_TEST(isolated)
{
	tap_eq_int(leaked, 0, "isolated: the global another test set is not set here");
}

LAB_TEST(fails)
{
	tap_eq_int(1, 2, "fails");
}

LAB_TEST(exits)
{
	tap_ok(true, "exits: before exit(3)");
	exit(3);
}

LAB_TEST(silent)
{
}

LAB_TEST(bails)
{
	tap_bail("no %s", "fixture");
}

/* hangs with a child of its own that holds stdout: both must be killed */
LAB_TEST(hangs)
{
	tap_ok(true, "hangs: before hanging");
	if (fork() == 0) {
		sleep(30);
		_exit(0);
	}
	pause();
}

LAB_TEST(last)
{
	tap_ok(true, "last: the tests after those that went wrong ran");
}

LAB_TEST_MAIN()

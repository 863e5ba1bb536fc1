// SPDX-License-Identifier: GPL-2.0
/*
 * routedump - the route dump lab: what NETLINK_GET_STRICT_CHK and the
 * kernel-side route dump filters (table, protocol, type, output device)
 * cost and save at scale, and whether the strict checks behave.
 *
 * Everything is configured in a network namespace of its own: run it with
 * `ip netns exec NAME`, or in the initial namespace run and conform unshare
 * a private one (gone when the program exits). Bad input is refused before
 * anything is configured, with exit code 2. All netlink goes through
 * libmnl (bench/lib/nl.h on top of it).
 *
 * Exit codes: 0 done and every count matched; 1 a mismatch or a failure;
 * 2 bad input.
 */
#include <signal.h>

#include "cli.h"
#include "routedump.h"

static const struct lab_verb verbs[] = {
	{ "conform", cmd_conform, "the strict-checking conformance suite (and its fuzz) as TAP" },
	{ "run", cmd_run, "the measurement: insert, dump in every mode, iproute2; CSV files into --out DIR" },
	{ "report", cmd_report, "summary.json, targets.json and the figures' CSV files of --out DIR" },
	{ "populate", cmd_populate, "insert N routes into this namespace, by hand" },
	{ "dump", cmd_dump, "one dump of them in a mode, by hand" },
	{ NULL },
};

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	return lab_main("routedump", verbs, argc, argv);
}

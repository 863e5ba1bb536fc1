// SPDX-License-Identifier: GPL-2.0
/*
 * taprio - the taprio gate timing workload of the lab: schedule files in
 * tc's syntax configured over netlink, packets of each traffic class
 * measured against the gates, the PTP clock and the taprio tracepoints
 * checked as TAP. See taprio.h for which file does what, and
 * workloads/taprio/driver.sh for how the lab drives it.
 *
 * Conformance suites are further verbs conform-NAME (conform-phc,
 * conform-trace): each takes its own options.
 */
#include "cli.h"
#include "taprio.h"

static const struct lab_verb verbs[] = {
	{ "conform-phc", cmd_conform_phc, "conformance of IF's PTP hardware clock (TAP)" },
	{ "conform-trace", cmd_conform_trace,
	  "conformance of the taprio tracepoints against FILE, entry by entry (TAP)" },
	{ "run", cmd_run, "the measurement of FILE: CSV files into --out DIR" },
	{ "report", cmd_report, "summary.json and targets.json of --out DIR from its CSV files" },
	{ "check", cmd_check, "parse and check the schedule FILE; print it as tc arguments" },
	{ "apply", cmd_apply, "configure FILE on a device over netlink (none left on failure)" },
	{ "clear", cmd_clear, "remove a taprio root qdisc from a device" },
	{ "window", cmd_window, "class N's windows in FILE: CYCLE OPEN FIRST_START FIRST_LENGTH" },
	{ "prio", cmd_prio, "the first priority FILE's map sends to class N" },
	{ "num-tc", cmd_num_tc, "the number of traffic classes of FILE" },
	{ "variant", cmd_variant, "FILE with class N's windows (or all) scaled by S" },
	{ "tune-report", cmd_tune_report, "tune.csv and the recommendation of a tuning sweep" },
	{ "set-tai", cmd_set_tai, "set the kernel's TAI offset (CLOCK_TAI - REALTIME), seconds" },
	{ "tai-mono", cmd_tai_mono, "print CLOCK_TAI - CLOCK_MONOTONIC in ns" },
	{ NULL },
};

int main(int argc, char **argv)
{
	return lab_main("taprio", verbs, argc, argv);
}

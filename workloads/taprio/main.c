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
	{ "run", cmd_run, "the measurement of FILE: raw CSV files and the record into --out DIR" },
	{ "report", cmd_report,
	  "summary.json, targets.json and the figures' CSV files of --out DIR from its records" },
	{ "tune", cmd_tune, "the tuning sweep around FILE: each variant measured into --out DIR" },
	{ "check", cmd_check,
	  "parse and check the schedule FILE; print it as tc arguments (or JSON)" },
	{ "apply", cmd_apply, "configure FILE on a device over netlink (none left on failure)" },
	{ "clear", cmd_clear, "remove a taprio root qdisc from a device" },
	{ "window", cmd_window, "class N's windows in FILE: CYCLE OPEN FIRST_START FIRST_LENGTH" },
	{ "prio", cmd_prio, "the first priority FILE's map sends to class N" },
	{ "num-tc", cmd_num_tc, "the number of traffic classes of FILE" },
	{ "variant", cmd_variant, "FILE with class N's windows (or all) scaled by S" },
	{ "tune-report", cmd_tune_report,
	  "tune.csv and the recommendation of variants' summaries (a matrix's cells)" },
	{ "set-tai", cmd_set_tai, "set the kernel's TAI offset (CLOCK_TAI - REALTIME), seconds" },
	{ "sync-setup", cmd_sync_setup,
	  "the TAI offset, and the PHC of a device given an error to correct; print its device" },
	{ "isochron-args", cmd_isochron_args,
	  "the options of isochron and of our like-isochron sender of class N, from a record" },
	{ "tai-mono", cmd_tai_mono, "print CLOCK_TAI - CLOCK_MONOTONIC in ns" },
	{ NULL },
};

int main(int argc, char **argv)
{
	return lab_main("taprio", verbs, argc, argv);
}

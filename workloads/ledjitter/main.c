// SPDX-License-Identifier: GPL-2.0
/*
 * ledjitter - timer jitter and drift of the LED pattern trigger: pattern
 * (a jiffies timer) against the lab's abs_pattern and, on Linux 6.10 and
 * later, mainline's hr_pattern (see ledjitter.h).
 *
 * Exit codes: 0 done, 1 failed (the kernel refused a pattern, no uleds, a
 * file not written), 2 bad command line.
 */
#include "cli.h"
#include "ledjitter.h"

static const struct lab_verb verbs[] = {
	{ "run", cmd_run, "one cell per mode and step duration: the uleds reads into --out DIR" },
	{ "report", cmd_report, "both observers against the model: summary.json, targets.json, CSV" },
	{ "conform", cmd_conform, "the pattern trigger's ABI, as TAP, for pattern, abs_pattern and hr_pattern" },
	{ "model", cmd_model, "the ideal steps of a pattern: t_ms,brightness,tuple,cycle" },
	{ NULL },
};

int main(int argc, char **argv)
{
	return lab_main(WORKLOAD, verbs, argc, argv);
}

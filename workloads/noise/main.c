// SPDX-License-Identifier: GPL-2.0
/*
 * noise - the platform's noise, measured by the kernel's osnoise and
 * timerlat tracers per vCPU (see noise.h).
 *
 * Exit codes: 0 done, 1 failed (a tracer missing or silent, a file not
 * written), 2 bad command line.
 */
#include "cli.h"
#include "noise.h"

static const struct lab_verb verbs[] = {
	{ "run", cmd_run, "timerlat then osnoise on every CPU: raw CSV and a record into --out DIR" },
	{ "report", cmd_report, "latency quantiles and noise by cause: summary.json, targets.json, CSV" },
	{ "conform", cmd_conform, "the tracers give data on every CPU and refuse bad input, as TAP" },
	{ NULL },
};

int main(int argc, char **argv)
{
	return lab_main(WORKLOAD, verbs, argc, argv);
}

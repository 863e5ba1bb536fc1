// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs - the BPF queue and stack map lab. One verb per file (see
 * bpfqs.h for the files):
 *
 *   bpfqs conform                  the maps' semantics as TAP
 *   bpfqs run --profile quick|full --out DIR [options]
 *                                  the measurement: raw CSV files into DIR
 *   bpfqs report --out DIR [--failed REASON]...
 *                                  summary.json and targets.json from them
 *   bpfqs probe-load --ops N --out DIR
 *                                  a known load for probes/bpf_map.bt
 *
 * Everything but report creates maps and loads programs: run it in the
 * lab's guest, never on the host. Bad input exits 2 before anything is
 * created.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "cli.h"

int cmd_conform(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_probe_load(int argc, char **argv);

static const struct lab_verb verbs[] = {
	{ "conform", cmd_conform, "the maps' semantics, from user space and a SCHED_CLS program, as TAP" },
	{ "run", cmd_run, "the measurement: ns per operation and contention, CSV files into --out DIR" },
	{ "report", cmd_report, "summary.json and targets.json from the CSV files run wrote" },
	{ "probe-load", cmd_probe_load, "a known load for probes/bpf_map.bt, probe-expected.csv" },
	{ NULL },
};

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_log);
	return lab_main("bpfqs", verbs, argc, argv);
}

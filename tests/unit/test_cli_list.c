// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/cli_list.c, a repeatable option beside a
 * lab_parse() table: every value collected in order, in both spellings,
 * the other options parsed as usual (a value that looks like the option
 * stays with its own option), "--" ends the options; a missing value is a
 * usage error (exit 2).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_list.h"
#include "tap.h"

struct parsed {
	const char *out, *unused;
	struct lab_list failed;
	char *joined;
};

static void parse(int argc, char **argv, struct parsed *p)
{
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &p->out, "DIR", "results folder", true),
		LAB_OPT_STR("failed", &p->unused, "REASON", "a failure (repeatable)", false),
		LAB_OPT_END
	};

	memset(p, 0, sizeof(*p));
	lab_parse_list(argc, argv, opts, "failed", &p->failed);
	p->joined = lab_list_join(&p->failed, "; ");
}

/* The exit code of parsing @argv in a child (usage errors exit) */
static int parse_rc(int argc, char **argv)
{
	struct parsed p;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(99);
		parse(argc, argv, &p);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	char *none[] = { "report", "--out", "d", NULL };
	char *two[] = { "report", "--failed", "probe did not attach", "--out", "d",
			"--failed=cyclictest failed", NULL };
	char *value[] = { "report", "--out", "--failed", "--failed", "x", NULL };
	char *dash[] = { "report", "--out", "d", "--", "--failed", NULL };
	char *missing[] = { "report", "--out", "d", "--failed", NULL };
	char *unknown[] = { "report", "--out", "d", "--bogus", NULL };
	struct parsed p;

	parse(3, none, &p);
	tap_eq_int((long long)p.failed.n, 0, "no --failed: an empty list");
	tap_ok(p.joined == NULL, "no --failed: joined is NULL");
	tap_eq_str(p.out, "d", "no --failed: --out parsed");
	lab_list_free(&p.failed);

	parse(6, two, &p);
	tap_eq_int((long long)p.failed.n, 2, "--failed twice, both spellings: two items");
	tap_eq_str(p.joined, "probe did not attach; cyclictest failed",
		   "--failed twice: in order, joined");
	tap_eq_str(p.out, "d", "--failed twice: --out between them parsed");
	tap_ok(p.unused == NULL, "--failed never reaches the table's own variable");
	free(p.joined);
	lab_list_free(&p.failed);

	parse(5, value, &p);
	tap_eq_str(p.out, "--failed", "a value of --out that reads '--failed' stays --out's");
	tap_eq_int((long long)p.failed.n, 1, "... and the --failed after it is collected");
	free(p.joined);
	lab_list_free(&p.failed);

	tap_eq_int(parse_rc(5, dash), 2, "after '--' a --failed is a positional: usage error");
	tap_eq_int(parse_rc(4, missing), 2, "--failed without a value: usage error, exit 2");
	tap_eq_int(parse_rc(4, unknown), 2, "an unknown option: usage error, exit 2");
	tap_eq_int(parse_rc(3, none), 0, "a good command line: no error");
	return tap_finish();
}

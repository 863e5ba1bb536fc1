// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/cli_repeat.c: every value of a repeatable option,
 * in order, in both spellings; other options' values are never taken for
 * it; options end at "--" and at the first positional.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_repeat.h"
#include "tap.h"

static const char *out, *failed;
static bool flag;
static const struct lab_opt opts[] = {
	LAB_OPT_STR("out", &out, "DIR", "", false),
	LAB_OPT_STR("failed", &failed, "REASON", "", false),
	LAB_OPT_FLAG("quiet", &flag, ""),
	LAB_OPT_END
};

/* The values of --failed in @argv, joined by '|' */
static const char *values(char **argv)
{
	static char buf[256];
	const char **v;
	size_t n, i;
	int argc = 0;

	while (argv[argc])
		argc++;
	v = lab_repeated(argc, argv, opts, "failed", &n);
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		strcat(buf, i ? "|" : "");
		strcat(buf, v[i]);
	}
	if (v[n])
		strcpy(buf, "(not NULL-terminated)");
	free(v);
	return buf;
}

int main(void)
{
	tap_eq_str(values((char *[]){ "report", "--out", "d", NULL }), "", "no --failed: none");
	tap_eq_str(values((char *[]){ "report", "--failed", "a", "--out", "d", "--failed=b c", NULL }), "a|b c",
		   "two values, both spellings, in order");
	tap_eq_str(values((char *[]){ "report", "--out", "--failed", "--failed", "x", NULL }), "x",
		   "another option's value that looks like --failed is not taken");
	tap_eq_str(values((char *[]){ "report", "--failed", "--out", NULL }), "--out",
		   "the value of --failed may start with --, as lab_parse takes it");
	tap_eq_str(values((char *[]){ "report", "--quiet", "--failed", "a", NULL }), "a", "a flag takes no value");
	tap_eq_str(values((char *[]){ "report", "--failed", "a", "--", "--failed", "b", NULL }), "a",
		   "options end at --");
	tap_eq_str(values((char *[]){ "report", "--failed", "a", "pos", "--failed", "b", NULL }), "a",
		   "options end at the first positional");
	tap_eq_str(values((char *[]){ "report", "--failedx", "a", NULL }), "", "a longer name is not the option");
	return tap_finish();
}

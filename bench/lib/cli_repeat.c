// SPDX-License-Identifier: GPL-2.0
/* Repeatable options; see cli_repeat.h. */
#define _GNU_SOURCE
#include <string.h>

#include "cli_repeat.h"

/* Whether option "--@a" (up to '=' if any) is in @opts and takes a value */
static bool takes_value(const struct lab_opt *opts, const char *a)
{
	size_t len = strcspn(a, "=");
	const struct lab_opt *o;

	for (o = opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, a, len))
			return o->type != LAB_OPT_FLAG;
	return false;
}

const char **lab_repeated(int argc, char **argv, const struct lab_opt *opts, const char *name, size_t *n)
{
	const char **v = lab_calloc((size_t)argc + 1, sizeof(*v), "the option's values");
	size_t len = strlen(name);
	int i;

	*n = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--") || strncmp(a, "--", 2))
			break;
		a += 2;
		if (!strncmp(a, name, len) && a[len] == '=') {
			v[(*n)++] = a + len + 1;
		} else if (!strcmp(a, name)) {
			if (i + 1 < argc)
				v[(*n)++] = argv[++i];
		} else if (!strchr(a, '=') && takes_value(opts, a)) {
			i++;	/* skip its value */
		}
	}
	v[*n] = NULL;
	return v;
}

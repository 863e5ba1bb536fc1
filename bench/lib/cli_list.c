// SPDX-License-Identifier: GPL-2.0
/* A repeatable option beside a lab_parse() table; see cli_list.h. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli_list.h"

/* The option of @opts that @a ("--x" or "--x=v") names, or NULL */
static const struct lab_opt *opt_of(const struct lab_opt *opts, const char *a)
{
	size_t len = strcspn(a + 2, "=");

	for (; opts->name; opts++)
		if (strlen(opts->name) == len && !strncmp(opts->name, a + 2, len))
			return opts;
	return NULL;
}

void lab_parse_list(int argc, char **argv, const struct lab_opt *opts, const char *name,
		   struct lab_list *list)
{
	char **rest = lab_calloc((size_t)argc + 1, sizeof(*rest), "arguments");
	size_t len = strlen(name);
	int i, n = 0;
	bool done = false;

	list->item = lab_calloc((size_t)argc, sizeof(*list->item), name);
	list->n = 0;
	rest[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct lab_opt *o;

		/* after "--" or the first positional, lab_parse takes no options */
		if (done || !strcmp(a, "--") || strncmp(a, "--", 2)) {
			done = true;
			rest[n++] = argv[i];
			continue;
		}
		if (!strncmp(a + 2, name, len) && (a[2 + len] == '=' || !a[2 + len])) {
			if (a[2 + len] == '=')
				list->item[list->n++] = a + 3 + len;
			else if (i + 1 < argc)
				list->item[list->n++] = argv[++i];
			else
				lab_usage_error("option '--%s' needs a value", name);
			continue;
		}
		rest[n++] = argv[i];
		/* another option's value is not an option: keep it with its option */
		o = opt_of(opts, a);
		if (o && o->type != LAB_OPT_FLAG && !strchr(a, '=') && i + 1 < argc)
			rest[n++] = argv[++i];
	}
	lab_positionals(n, rest, lab_parse(n, rest, opts), 0, "");
	free(rest);
}

void lab_list_free(struct lab_list *list)
{
	free(list->item);
	list->item = NULL;
	list->n = 0;
}

char *lab_list_join(const struct lab_list *list, const char *sep)
{
	size_t i, len = 1;
	char *s;

	if (!list->n)
		return NULL;
	for (i = 0; i < list->n; i++)
		len += strlen(list->item[i]) + strlen(sep);
	s = lab_calloc(len, 1, "joined list");
	for (i = 0; i < list->n; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, list->item[i]);
	}
	return s;
}

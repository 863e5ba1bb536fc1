/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A repeatable option beside a lab_parse() table: every "--NAME VALUE" or
 * "--NAME=VALUE" is collected into a list, the rest of the command line
 * goes through lab_parse() as usual. For `report --failed REASON...`:
 *
 *	const char *out = NULL, *unused = NULL;
 *	const struct lab_opt opts[] = {
 *		LAB_OPT_STR("out", &out, "DIR", "results folder", true),
 *		LAB_OPT_STR("failed", &unused, "REASON", "a failure (repeatable)", false),
 *		LAB_OPT_END
 *	};
 *	struct lab_list failed;
 *	lab_parse_list(argc, argv, opts, "failed", &failed);
 *	for (size_t k = 0; k < failed.n; k++) ... failed.item[k] ...
 *
 * The table names the option too, so that --help lists it. Values stay in
 * argv (not copied); free the list with lab_list_free().
 */
#ifndef LAB_CLI_LIST_H
#define LAB_CLI_LIST_H

#include <stddef.h>

#include "cli.h"

struct lab_list {
	const char **item;
	size_t n;
};

/*
 * lab_parse_list - collect every value of option @name (which must be a
 * string option of @opts) into @list, then lab_parse() the other arguments,
 * which must hold no positional argument. "--NAME" without a value, like
 * any bad input, is a usage error (exit 2).
 */
void lab_parse_list(int argc, char **argv, const struct lab_opt *opts, const char *name,
		   struct lab_list *list);
void lab_list_free(struct lab_list *list);

/* The items joined with @sep into a new string; NULL for an empty list */
char *lab_list_join(const struct lab_list *list, const char *sep);

#endif

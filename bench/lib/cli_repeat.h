/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Repeatable options: the values of every "--NAME VALUE" (or "--NAME=VALUE")
 * of a command line, in order, for an option a verb takes more than once
 * (report's "--failed REASON"). lab_parse() keeps only the last value of a
 * LAB_OPT_STRING; call it first (it checks the whole command line and
 * exits on bad input), then lab_repeated() for the list:
 *
 *	const char *failed = NULL, **all;
 *	const struct lab_opt opts[] = {
 *		LAB_OPT_STR("failed", &failed, "REASON", "why (repeatable)", false),
 *		LAB_OPT_END
 *	};
 *	lab_parse(argc, argv, opts);
 *	all = lab_repeated(argc, argv, opts, "failed", &n);	// free(all)
 */
#ifndef LAB_CLI_REPEAT_H
#define LAB_CLI_REPEAT_H

#include <stddef.h>

#include "cli.h"

/*
 * lab_repeated - the values of option @name among the options of @argv
 * (argv[0] is the verb; options end at "--" or the first positional),
 * read with the table @opts so that another option's value is never taken
 * for an option. Returns a NULL-terminated array of argv's strings (free()
 * the array, not the strings) and their count in *n.
 */
const char **lab_repeated(int argc, char **argv, const struct lab_opt *opts, const char *name, size_t *n);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of every workload program, after isochron's progs[] and
 * typed argument tables: a verb table in main.c, and in each verb's file a
 * table of options that says each option's type, where its value goes, its
 * range and whether it is required.
 *
 *	static const struct lab_verb verbs[] = {
 *		{ "conform", cmd_conform, "the maps' semantics as TAP" },
 *		{ "run", cmd_run, "the measurement: CSV files into --out DIR" },
 *		{ NULL },
 *	};
 *	int main(int argc, char **argv)
 *	{
 *		return lab_main("bpfqs", verbs, argc, argv);
 *	}
 *
 *	int cmd_run(int argc, char **argv)
 *	{
 *		const char *out = NULL;
 *		unsigned long long count = 100;
 *		const struct lab_opt opts[] = {
 *			LAB_OPT_STR("out", &out, "DIR", "results folder", true),
 *			LAB_OPT_U64("count", &count, 1, 1000000, "packets per class"),
 *			LAB_OPT_END
 *		};
 *		int i = lab_parse(argc, argv, opts);	// index of the first positional
 *		...
 *	}
 *
 * Bad input is a usage error naming the value and the reason, exit code 2,
 * before anything is set up: "--count '10x' is not a number", "unknown
 * option '--foo'", "--port 'abc' is not a number", "--out is required".
 * Options are "--name VALUE" or "--name=VALUE"; "--" ends them. "--help"
 * prints the verb's options and exits 0.
 */
#ifndef LAB_CLI_H
#define LAB_CLI_H

#include <stdbool.h>
#include <stddef.h>

struct lab_verb {
	const char *name;
	/* argv[0] is the verb's name; returns the exit code */
	int (*run)(int argc, char **argv);
	const char *summary;	/* one line for the program's usage */
};

enum lab_opt_type {
	LAB_OPT_FLAG,	/* bool *: set to true, takes no value */
	LAB_OPT_STRING,	/* const char **: the argument as given */
	LAB_OPT_UINT,	/* unsigned long long *, within [min, max] */
	LAB_OPT_INT,	/* long long *, within [min, max] */
	LAB_OPT_DOUBLE,	/* double *, finite, within [min, max] */
	LAB_OPT_LIST,	/* struct lab_list *: every value of a repeatable option */
};

/* The values of a repeatable option, in order (pointers into argv) */
struct lab_list {
	const char **item;
	size_t n;
};

struct lab_opt {
	const char *name;	/* without the leading "--" */
	enum lab_opt_type type;
	void *value;
	const char *arg;	/* the value's name in the help: "N", "DIR" */
	const char *help;
	double min, max;	/* numbers: the range allowed */
	bool required;
	bool *given;		/* optional: set when the option was given */
};

#define LAB_OPT_FLAG(n, p, h) { .name = (n), .type = LAB_OPT_FLAG, .value = (p), .help = (h) }
#define LAB_OPT_STR(n, p, a, h, req) \
	{ .name = (n), .type = LAB_OPT_STRING, .value = (p), .arg = (a), .help = (h), .required = (req) }
#define LAB_OPT_U64(n, p, lo, hi, h) \
	{ .name = (n), .type = LAB_OPT_UINT, .value = (p), .arg = "N", .help = (h), .min = (lo), .max = (hi) }
#define LAB_OPT_S64(n, p, lo, hi, h) \
	{ .name = (n), .type = LAB_OPT_INT, .value = (p), .arg = "N", .help = (h), .min = (lo), .max = (hi) }
#define LAB_OPT_DBL(n, p, lo, hi, h) \
	{ .name = (n), .type = LAB_OPT_DOUBLE, .value = (p), .arg = "X", .help = (h), .min = (lo), .max = (hi) }
#define LAB_OPT_LIST(n, p, a, h) \
	{ .name = (n), .type = LAB_OPT_LIST, .value = (p), .arg = (a), .help = (h) }
#define LAB_OPT_END { .name = NULL }

/* The program's name in messages ("bpfqs"), set by lab_main(). */
extern const char *lab_prog;
/* The verb running ("run"), set by lab_main(); NULL before */
extern const char *lab_verb_name;

/*
 * lab_main - run the verb named by argv[1] with argv + 1. No verb, an unknown
 * verb: usage error. "--help"/"help": the verb list, exit 0.
 */
int lab_main(const char *prog, const struct lab_verb *verbs, int argc, char **argv);

/*
 * lab_parse - parse the options of a verb (argv[0] is the verb) against
 * @opts. Returns the index of the first positional argument (argc when there
 * is none); bad input exits 2 through lab_usage_error().
 */
int lab_parse(int argc, char **argv, const struct lab_opt *opts);

/* The items of a list joined with @sep into a new string; NULL when empty */
char *lab_list_join(const struct lab_list *list, const char *sep);
void lab_list_free(struct lab_list *list);

/* A positional-argument check: exactly @n after index @first, else usage error. */
void lab_positionals(int argc, char **argv, int first, int n, const char *what);

/*
 * Strict number parsers for values found elsewhere (list items, positional
 * arguments): the whole of @s must be the number, within [min, max];
 * otherwise a usage error "WHAT 'S' is not a number" / "is out of range".
 */
unsigned long long lab_parse_uint(const char *what, const char *s,
				  unsigned long long min, unsigned long long max);
long long lab_parse_int(const char *what, const char *s, long long min, long long max);
double lab_parse_double(const char *what, const char *s, double min, double max);

/*
 * lab_each_item - call @fn on each item of the comma-separated @list; an
 * empty list or an empty item is a usage error naming @what.
 */
void lab_each_item(const char *what, const char *list,
		   void (*fn)(const char *item, void *arg), void *arg);

/*
 * lab_usage_error - report bad input and exit with code 2: "PROG: MESSAGE"
 * then "Try 'PROG --help'." on stderr.
 */
void lab_usage_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/*
 * lab_die - "PROG: MESSAGE" on stderr, exit 1 (a failure that is not bad
 * input); MESSAGE goes to the --fail-file of progress.h too.
 */
void lab_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Allocation that cannot fail: on failure lab_die() naming @what. */
void *lab_calloc(size_t n, size_t size, const char *what);
void *lab_realloc(void *p, size_t n, size_t size, const char *what);

/*
 * lab_errname - the symbolic name of errno value @err ("EINVAL"); a negative
 * @err is taken as -err. Unknown values: "E<number>" in a static buffer.
 */
const char *lab_errname(int err);

#endif

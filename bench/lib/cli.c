// SPDX-License-Identifier: GPL-2.0
/* The command line of the workload programs: verb table and typed options. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"

const char *lab_prog = "lab";
const char *lab_verb_name;

static void vmessage(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", lab_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void lab_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	if (lab_verb_name)
		fprintf(stderr, "Try '%s %s --help'.\n", lab_prog, lab_verb_name);
	else
		fprintf(stderr, "Try '%s --help'.\n", lab_prog);
	exit(2);
}

void lab_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	lab_fail_v("error", fmt, ap);
	va_end(ap);
	exit(1);
}

void *lab_calloc(size_t n, size_t size, const char *what)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		lab_die("out of memory for %s (%zu x %zu bytes)", what, n, size);
	return p;
}

void *lab_realloc(void *p, size_t n, size_t size, const char *what)
{
	void *q;

	if (size && n > (size_t)-1 / size)
		lab_die("out of memory for %s (%zu x %zu bytes)", what, n, size);
	q = realloc(p, n && size ? n * size : 1);
	if (!q)
		lab_die("out of memory for %s (%zu x %zu bytes)", what, n, size);
	return q;
}

const char *lab_errname(int err)
{
	static char buf[24];
	const char *name;

	if (err < 0)
		err = -err;
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void usage(FILE *f, const struct lab_verb *verbs)
{
	const struct lab_verb *v;

	fprintf(f, "usage: %s VERB [OPTION...]\n\nverbs:\n", lab_prog);
	for (v = verbs; v->name; v++)
		fprintf(f, "  %-14s %s\n", v->name, v->summary);
	fprintf(f, "\n'%s VERB --help' lists a verb's options.\n", lab_prog);
}

int lab_main(const char *prog, const struct lab_verb *verbs, int argc, char **argv)
{
	const struct lab_verb *v;

	lab_prog = prog;
	if (argc < 2)
		lab_usage_error("a verb is needed");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout, verbs);
		return 0;
	}
	for (v = verbs; v->name; v++)
		if (!strcmp(argv[1], v->name)) {
			lab_verb_name = v->name;
			return v->run(argc - 1, argv + 1);
		}
	lab_usage_error("unknown verb '%s'", argv[1]);
}

unsigned long long lab_parse_uint(const char *what, const char *s,
				  unsigned long long min, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		lab_usage_error("%s '%s' is not a number", what, s);
	v = strtoull(s, &end, 10);
	if (*end)
		lab_usage_error("%s '%s' is not a number", what, s);
	if (errno == ERANGE || v < min || v > max)
		lab_usage_error("%s '%s' is out of range (%llu to %llu)", what, s, min, max);
	return v;
}

long long lab_parse_int(const char *what, const char *s, long long min, long long max)
{
	long long v;
	char *end;

	errno = 0;
	if (!*s || *s == ' ')
		lab_usage_error("%s '%s' is not a number", what, s);
	v = strtoll(s, &end, 10);
	if (*end)
		lab_usage_error("%s '%s' is not a number", what, s);
	if (errno == ERANGE || v < min || v > max)
		lab_usage_error("%s '%s' is out of range (%lld to %lld)", what, s, min, max);
	return v;
}

double lab_parse_double(const char *what, const char *s, double min, double max)
{
	double v;
	char *end;

	errno = 0;
	if (!*s || *s == ' ')
		lab_usage_error("%s '%s' is not a number", what, s);
	v = strtod(s, &end);
	if (*end || !isfinite(v))
		lab_usage_error("%s '%s' is not a number", what, s);
	if (errno == ERANGE || v < min || v > max)
		lab_usage_error("%s '%s' is out of range (%g to %g)", what, s, min, max);
	return v;
}

void lab_each_item(const char *what, const char *list,
		   void (*fn)(const char *item, void *arg), void *arg)
{
	char *copy = strdup(list), *p, *comma;

	if (!copy)
		lab_die("out of memory for %s", what);
	if (!*list)
		lab_usage_error("%s is empty", what);
	for (p = copy;; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p)
			lab_usage_error("%s '%s' has an empty item", what, list);
		fn(p, arg);
		if (!comma)
			break;
	}
	free(copy);
}

static void opts_help(const struct lab_opt *opts)
{
	const struct lab_opt *o;

	printf("usage: %s%s%s [OPTION...]\n\noptions:\n", lab_prog, lab_verb_name ? " " : "",
	       lab_verb_name ? lab_verb_name : "");
	for (o = opts; o->name; o++) {
		char left[64];

		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		printf("  %-24s %s%s\n", left, o->help ? o->help : "",
		       o->required ? " (required)" : "");
	}
}

static const struct lab_opt *find_opt(const struct lab_opt *opts, const char *name, size_t len)
{
	const struct lab_opt *o;

	for (o = opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static void set_opt(const struct lab_opt *o, const char *val)
{
	char what[80];

	snprintf(what, sizeof(what), "--%s", o->name);
	switch (o->type) {
	case LAB_OPT_FLAG:
		*(bool *)o->value = true;
		break;
	case LAB_OPT_STRING:
		*(const char **)o->value = val;
		break;
	case LAB_OPT_UINT:
		*(unsigned long long *)o->value =
			lab_parse_uint(what, val, (unsigned long long)o->min, (unsigned long long)o->max);
		break;
	case LAB_OPT_INT:
		*(long long *)o->value = lab_parse_int(what, val, (long long)o->min, (long long)o->max);
		break;
	case LAB_OPT_DOUBLE:
		*(double *)o->value = lab_parse_double(what, val, o->min, o->max);
		break;
	case LAB_OPT_LIST: {
		struct lab_list *l = o->value;

		l->item = lab_realloc(l->item, l->n + 1, sizeof(*l->item), what);
		l->item[l->n++] = val;
		break;
	}
	}
	if (o->given)
		*o->given = true;
}

char *lab_list_join(const struct lab_list *list, const char *sep)
{
	size_t i, len = 1;
	char *s;

	if (!list->n)
		return NULL;
	for (i = 0; i < list->n; i++)
		len += strlen(list->item[i]) + strlen(sep);
	s = lab_calloc(len, 1, "a joined list");
	for (i = 0; i < list->n; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, list->item[i]);
	}
	return s;
}

void lab_list_free(struct lab_list *list)
{
	free(list->item);
	list->item = NULL;
	list->n = 0;
}

int lab_parse(int argc, char **argv, const struct lab_opt *opts)
{
	size_t nopts = 0, k;
	bool *seen;
	int i;

	while (opts[nopts].name)
		nopts++;
	seen = lab_calloc(nopts, sizeof(*seen), "options");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val = NULL;
		const struct lab_opt *o;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (strncmp(a, "--", 2))
			break;	/* the first positional */
		if (!strcmp(a, "--help")) {
			opts_help(opts);
			exit(0);
		}
		eq = strchr(a, '=');
		o = find_opt(opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!o)
			lab_usage_error("unknown option '%s'", a);
		if (o->type == LAB_OPT_FLAG) {
			if (eq)
				lab_usage_error("option '--%s' takes no value ('%s')", o->name, a);
		} else if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			lab_usage_error("option '--%s' needs a value (%s)", o->name, o->arg ? o->arg : "VALUE");
		}
		set_opt(o, val);
		seen[o - opts] = true;
	}
	for (k = 0; k < nopts; k++)
		if (opts[k].required && !seen[k])
			lab_usage_error("--%s %s is required", opts[k].name, opts[k].arg ? opts[k].arg : "");
	free(seen);
	return i;
}

void lab_positionals(int argc, char **argv, int first, int n, const char *what)
{
	if (argc - first > n)
		lab_usage_error("unexpected argument '%s'", argv[first + n]);
	if (argc - first < n)
		lab_usage_error("%s is missing", what);
}

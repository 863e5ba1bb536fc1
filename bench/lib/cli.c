// SPDX-License-Identifier: GPL-2.0
/* Command-line helpers shared by the workload programs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

void lab_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

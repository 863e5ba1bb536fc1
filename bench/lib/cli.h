/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line helpers shared by the workload programs. */
#ifndef LAB_CLI_H
#define LAB_CLI_H

/*
 * lab_usage_error - report bad input and exit with code 2: "PROG: MESSAGE"
 * then "Try 'PROG --help'." on stderr.
 */
void lab_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

#endif

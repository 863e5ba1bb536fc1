// SPDX-License-Identifier: GPL-2.0
/* TAP 13 output; see tap.h. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static struct {
	bool header;
	bool planned;
	unsigned int plan, n, passed, failed, skipped;
} tap;

static void header(void)
{
	if (!tap.header)
		printf("TAP version 13\n");
	tap.header = true;
}

void tap_plan(unsigned int n)
{
	header();
	printf("1..%u\n", n);
	fflush(stdout);
	tap.planned = true;
	tap.plan = n;
}

/* "ok N - <fmt>" or "not ok N - <fmt>", without the newline */
static void result(bool pass, const char *fmt, va_list ap)
{
	header();
	tap.n++;
	if (pass)
		tap.passed++;
	else
		tap.failed++;
	printf("%s %u - ", pass ? "ok" : "not ok", tap.n);
	vprintf(fmt, ap);
}

static void end_line(void)
{
	putchar('\n');
	fflush(stdout);
}

bool tap_ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result(pass, fmt, ap);
	va_end(ap);
	end_line();
	return pass;
}

bool tap_fail(const char *what, const char *fmt, ...)
{
	va_list ap;

	header();
	tap.n++;
	tap.failed++;
	printf("not ok %u - %s: ", tap.n, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	end_line();
	return false;
}

bool tap_eq_int(long long got, long long expected, const char *what)
{
	if (got == expected)
		return tap_ok(true, "%s", what);
	return tap_fail(what, "expected %lld, got %lld", expected, got);
}

bool tap_eq_str(const char *got, const char *expected, const char *what)
{
	if (got && expected && !strcmp(got, expected))
		return tap_ok(true, "%s", what);
	return tap_fail(what, "expected '%s', got '%s'", expected ? expected : "(null)",
			got ? got : "(null)");
}

bool tap_eq_dbl(double got, double expected, double tol, const char *what)
{
	double d = got - expected;

	if (d <= tol && d >= -tol)
		return tap_ok(true, "%s", what);
	return tap_fail(what, "expected %.10g (+- %g), got %.10g", expected, tol, got);
}

void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	header();
	tap.n++;
	tap.skipped++;
	printf("ok %u - ", tap.n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s", reason);
	end_line();
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	end_line();
}

void tap_bail(const char *fmt, ...)
{
	va_list ap;

	header();
	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	end_line();
	exit(1);
}

int tap_finish(void)
{
	bool plan_met = true;

	if (!tap.planned)
		tap_plan(tap.n);
	else if (tap.plan != tap.n) {
		printf("# planned %u tests but ran %u\n", tap.plan, tap.n);
		plan_met = false;
	}
	printf("# %u passed, %u failed, %u skipped\n", tap.passed, tap.failed, tap.skipped);
	fflush(stdout);
	return tap.failed || !plan_met ? 1 : 0;
}

FILE *tap_fixture(const char *dir, const char *name, const char *header)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || (header && fprintf(f, "%s\n", header) < 0))
		tap_bail("cannot write the fixture %s", path);
	return f;
}

int tap_run(char *const argv[], const char *err_path)
{
	int status, fd;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		if (err_path)
			fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

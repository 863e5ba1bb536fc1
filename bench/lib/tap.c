// SPDX-License-Identifier: GPL-2.0
/* TAP 13 output and the forking runner of LAB_TEST() tests; see tap.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tap.h"

struct tap_state {
	bool header;
	bool planned;
	unsigned int plan, n, passed, failed, skipped;
};

/*
 * The counters; tap_main() moves them into shared memory, so that what a
 * test's child reports counts in the parent, up to the line it crashed on.
 */
static struct tap_state tap_own, *tap = &tap_own;
/* The test this process runs (a child of tap_main()), else NULL */
static const struct tap_test *tap_current;

static void header(void)
{
	if (!tap->header)
		printf("TAP version 13\n");
	tap->header = true;
}

void tap_plan(unsigned int n)
{
	header();
	printf("1..%u\n", n);
	fflush(stdout);
	tap->planned = true;
	tap->plan = n;
}

/*
 * One result: "ok N - TEXT" or "not ok N - TEXT" (with "# SKIP reason" when
 * @skip), counted once it is written out
 */
static void result(bool pass, const char *skip, const char *fmt, va_list ap)
{
	header();
	printf("%s %u - ", pass ? "ok" : "not ok", tap->n + 1);
	vprintf(fmt, ap);
	if (skip)
		printf(" # SKIP %s", skip);
	putchar('\n');
	fflush(stdout);
	tap->n++;
	if (skip)
		tap->skipped++;
	else if (pass)
		tap->passed++;
	else
		tap->failed++;
}

/* result() with a printf-style argument list */
static void resultf(bool pass, const char *skip, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void resultf(bool pass, const char *skip, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result(pass, skip, fmt, ap);
	va_end(ap);
}

bool tap_ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	result(pass, NULL, fmt, ap);
	va_end(ap);
	return pass;
}

/* The text of @fmt and @ap in a new string, NULL when out of memory */
static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

bool tap_fail(const char *what, const char *fmt, ...)
{
	va_list ap;
	char *detail;

	va_start(ap, fmt);
	detail = vformat(fmt, ap);
	va_end(ap);
	resultf(false, NULL, "%s: %s", what, detail ? detail : fmt);
	free(detail);
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

	va_start(ap, fmt);
	result(true, reason, fmt, ap);
	va_end(ap);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * In a test's child a bail-out ends that test only: a failed result naming
 * it, the others run on. Elsewhere it ends the stream.
 */
void tap_bail(const char *fmt, ...)
{
	va_list ap;
	char *reason;

	va_start(ap, fmt);
	reason = vformat(fmt, ap);
	va_end(ap);
	if (tap_current) {
		tap_fail(tap_current->name, "bailed out: %s", reason ? reason : fmt);
		_exit(1);
	}
	header();
	printf("Bail out! %s\n", reason ? reason : fmt);
	fflush(stdout);
	exit(1);
}

int tap_finish(void)
{
	bool plan_met = true;

	if (!tap->planned)
		tap_plan(tap->n);
	else if (tap->plan != tap->n) {
		printf("# planned %u tests but ran %u\n", tap->plan, tap->n);
		plan_met = false;
	}
	printf("# %u passed, %u failed, %u skipped\n", tap->passed, tap->failed, tap->skipped);
	fflush(stdout);
	return tap->failed || !plan_met ? 1 : 0;
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

/* The folder of tap_tmpdir() and the process that made it */
static const char *tap_dir;
static pid_t tap_dir_owner;

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (remove(path))
		tap_diag("cannot remove %s: %s", path, strerror(errno));
	return 0;
}

/* at exit: the folder removed, by the process that made it only */
static void remove_tmpdir(void)
{
	if (getpid() == tap_dir_owner)
		nftw(tap_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void tap_tmpdir(char *tmpl)
{
	if (!mkdtemp(tmpl))
		tap_bail("cannot make the temporary folder %s: %s", tmpl, strerror(errno));
	tap_dir = tmpl;
	tap_dir_owner = getpid();
	atexit(remove_tmpdir);
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

/* --- the runner of LAB_TEST() tests --------------------------------------- */

/* The registered tests, in the order of their lines */
static struct tap_test *tap_tests;

void tap_register(struct tap_test *test)
{
	struct tap_test **p = &tap_tests;

	while (*p && (*p)->line < test->line)
		p = &(*p)->next;
	test->next = *p;
	*p = test;
}

/* The test's child, waited for at most @timeout_s: its status, or -1 on timeout */
static int wait_test(pid_t pid, unsigned int timeout_s)
{
	struct pollfd pfd = { .events = POLLIN };
	struct timespec now, end;
	int status, ms, r;

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd < 0)
		lab_die("pidfd_open of the test's child %d: %s", (int)pid, strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout_s;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (int)((end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000);
		r = poll(&pfd, 1, ms > 0 ? ms : 0);
		if (r > 0 || (r == 0 && ms <= 0) || (r < 0 && errno != EINTR))
			break;
	}
	close(pfd.fd);
	if (r <= 0)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			lab_die("waitpid of the test's child %d: %s", (int)pid, strerror(errno));
	return r > 0 ? status : -1;
}

/* Run @t in a child; a "not ok" naming it when the child did not end well */
static void run_test(const struct tap_test *t, unsigned int timeout_s)
{
	unsigned int n0 = tap->n, failed0 = tap->failed;
	int status, rc;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		lab_die("fork for the test %s: %s", t->name, strerror(errno));
	if (pid == 0) {
		/* its own process group, so that a timeout kills what it started */
		setpgid(0, 0);
		tap_current = t;
		t->fn();
		fflush(NULL);
		_exit(tap->failed > failed0 ? 1 : 0);
	}
	setpgid(pid, pid);
	status = wait_test(pid, timeout_s);
	if (status == -1) {
		tap_fail(t->name, "did not finish within %u s: killed", timeout_s);
	} else if (WIFSIGNALED(status)) {
		tap_fail(t->name, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else {
		rc = WEXITSTATUS(status);
		if (rc > 1 || (rc && tap->failed == failed0))
			tap_fail(t->name, "exited %d%s", rc, tap->failed == failed0 ? " without a failed result" : "");
		else if (tap->n == n0)
			tap_fail(t->name, "gave no result");
	}
}

static struct tap_test *find_test(const char *name)
{
	struct tap_test *t;

	for (t = tap_tests; t; t = t->next)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

int tap_main(int argc, char **argv)
{
	unsigned long long timeout_s = 60;
	struct tap_state *shared;
	const struct tap_test *t;
	bool list = false;
	int first, i;
	const struct lab_opt opts[] = {
		LAB_OPT_U64("timeout", &timeout_s, 1, 86400, "seconds a test may take (60)"),
		LAB_OPT_FLAG("list", &list, "print the names of the tests (TEST... arguments run only those)"),
		LAB_OPT_END
	};

	lab_prog = argv[0];
	first = lab_parse(argc, argv, opts);
	for (i = first; i < argc; i++)
		if (!find_test(argv[i]))
			lab_usage_error("no test '%s' (--list lists them)", argv[i]);
	if (list) {
		for (t = tap_tests; t; t = t->next)
			printf("%s\n", t->name);
		return 0;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		lab_die("mmap of the TAP counters: %s", strerror(errno));
	*shared = *tap;
	tap = shared;
	header();
	for (t = tap_tests; t; t = t->next) {
		bool chosen = first == argc;

		for (i = first; i < argc && !chosen; i++)
			chosen = !strcmp(argv[i], t->name);
		if (chosen)
			run_test(t, (unsigned int)timeout_s);
	}
	return tap_finish();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/lib/cli.c, the command line of every workload
 * program: typed options parsed strictly (a bad value, an unknown option, a
 * missing value or a missing required option is a usage error, exit code 2,
 * naming what is wrong), the verb table, lab_errname; and of bench/lib/csv.c,
 * the one CSV reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "tap.h"

static unsigned long long count = 1;
static long long offset;
static double ratio;
static const char *out;
static bool quiet;

static const struct lab_opt opts[] = {
	LAB_OPT_U64("count", &count, 1, 1000, "packets"),
	LAB_OPT_S64("offset", &offset, -5, 5, "ns"),
	LAB_OPT_DBL("ratio", &ratio, 0, 1, "share"),
	LAB_OPT_STR("out", &out, "DIR", "results folder", true),
	LAB_OPT_FLAG("quiet", &quiet, "say less"),
	LAB_OPT_END
};

/*
 * Parse @args (NULL-terminated, the verb first) in a child; returns its exit
 * status (0 when lab_parse returned) and its stderr's first line in @msg.
 */
static int parse_in_child(const char *const *args, char *msg, size_t len)
{
	int fd[2], st, argc = 0;
	ssize_t got;
	pid_t pid;

	while (args[argc])
		argc++;
	if (pipe(fd))
		tap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		lab_prog = "prog";
		lab_parse(argc, (char **)args, opts);
		_exit(0);
	}
	close(fd[1]);
	for (got = 0; (size_t)got < len - 1;) {
		ssize_t r = read(fd[0], msg + got, len - 1 - (size_t)got);

		if (r <= 0)
			break;
		got += r;
	}
	msg[got] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void expect_usage(const char *const *args, const char *needle, const char *what)
{
	char msg[512];
	int rc = parse_in_child(args, msg, sizeof(msg));

	tap_ok(rc == 2 && strstr(msg, needle), "%s: exit 2 and '%s' (got exit %d, '%s')",
	       what, needle, rc, msg);
}

LAB_TEST(parse)
{
	const char *ok[] = { "run", "--count", "10", "--offset=-3", "--ratio", "0.5",
			     "--out", "/tmp/x", "--quiet", "pos", NULL };
	char msg[512];

	tap_eq_int(lab_parse(10, (char **)ok, opts), 9, "lab_parse returns the first positional's index");
	tap_ok(count == 10 && offset == -3 && ratio == 0.5 && !strcmp(out, "/tmp/x") && quiet,
	       "every type parsed: --count 10, --offset=-3, --ratio 0.5, --out, --quiet");
	expect_usage((const char *[]){ "run", "--count", "10x", "--out", "d", NULL },
		     "--count '10x' is not a number", "--count 10x");
	expect_usage((const char *[]){ "run", "--count", "-1", "--out", "d", NULL },
		     "--count '-1' is not a number", "--count -1");
	expect_usage((const char *[]){ "run", "--count", "1001", "--out", "d", NULL },
		     "--count '1001' is out of range (1 to 1000)", "--count beyond its range");
	expect_usage((const char *[]){ "run", "--offset", "abc", "--out", "d", NULL },
		     "--offset 'abc' is not a number", "--offset abc");
	expect_usage((const char *[]){ "run", "--ratio", "nan", "--out", "d", NULL },
		     "--ratio 'nan' is not a number", "--ratio nan");
	expect_usage((const char *[]){ "run", "--port", "1", "--out", "d", NULL },
		     "unknown option '--port'", "an unknown option");
	expect_usage((const char *[]){ "run", "--out", NULL }, "option '--out' needs a value",
		     "an option without its value");
	expect_usage((const char *[]){ "run", "--count", "3", NULL }, "--out DIR is required",
		     "a required option missing");
	expect_usage((const char *[]){ "run", "--quiet=yes", "--out", "d", NULL },
		     "takes no value", "a flag given a value");
	tap_eq_int(parse_in_child((const char *[]){ "run", "--out", "d", "--", "--count", NULL },
				  msg, sizeof(msg)), 0, "'--' ends the options");
}

static int verb_ok(int argc, char **argv)
{
	return argc == 2 && !strcmp(argv[0], "ok") && !strcmp(argv[1], "x") ? 7 : 1;
}

LAB_TEST(verbs)
{
	static const struct lab_verb verbs[] = { { "ok", verb_ok, "a verb" }, { NULL, NULL, NULL } };
	char *argv[] = { "prog", "ok", "x", NULL };
	int st;
	pid_t pid;

	tap_eq_int(lab_main("prog", verbs, 3, argv), 7, "lab_main runs the verb with argv from the verb on");
	pid = fork();
	if (pid == 0) {
		char *bad[] = { "prog", "nope", NULL };

		freopen("/dev/null", "w", stderr);
		lab_main("prog", verbs, 2, bad);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_eq_int(WEXITSTATUS(st), 2, "an unknown verb is a usage error (exit 2)");
	tap_eq_str(lab_errname(-EINVAL), "EINVAL", "lab_errname(-EINVAL)");
	tap_eq_str(lab_errname(ENOENT), "ENOENT", "lab_errname(ENOENT)");
	tap_eq_str(lab_errname(4000), "E4000", "lab_errname of an unknown value");
}

LAB_TEST(list)
{
	struct lab_list failed = { 0 };
	const char *o = NULL;
	const struct lab_opt lopts[] = {
		LAB_OPT_STR("out", &o, "DIR", "results", true),
		LAB_OPT_LIST("failed", &failed, "REASON", "why (repeatable)"),
		LAB_OPT_END
	};
	const char *args[] = { "report", "--failed", "probe did not attach", "--out", "--failed",
			       "--failed=cyclictest failed", "pos", "--failed", "x", NULL };
	char *joined;

	tap_eq_int(lab_parse(9, (char **)args, lopts), 6, "a list option: parsing stops at the positional");
	tap_eq_str(o, "--failed", "a value of --out that reads '--failed' stays --out's");
	joined = lab_list_join(&failed, "; ");
	tap_eq_str(joined, "probe did not attach; cyclictest failed",
		   "--failed twice, both spellings, collected in order (not the one after the positional)");
	free(joined);
	lab_list_free(&failed);
	tap_ok(failed.n == 0 && lab_list_join(&failed, "; ") == NULL, "an empty list joins to NULL");
}

LAB_TEST(csv)
{
	char path[] = "/tmp/test_cli_csv.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct csv c;
	int rows = 0;

	fputs("t_ns,name,value\r\n1,\"a, \"\"b\"\"\",3\n2,plain\n", f);
	fclose(f);
	tap_eq_int(csv_read_open(&c, path), 0, "csv_read_open reads the header");
	tap_eq_int(csv_col(&c, "value"), 2, "csv_col finds a column (CRLF header)");
	tap_eq_int(csv_col(&c, "missing"), -1, "csv_col of a column the header lacks: -1");
	tap_eq_int(csv_next(&c), 3, "first row: 3 fields");
	tap_eq_str(csv_field(&c, 1), "a, \"b\"", "a quoted field keeps its comma and its doubled quotes");
	rows++;
	tap_eq_int(csv_next(&c), 2, "a short row: 2 fields");
	tap_eq_str(csv_field(&c, 2), "", "a field past the row's end is empty");
	rows++;
	tap_eq_int(csv_next(&c), 0, "the end: 0");
	tap_eq_int(rows, 2, "two rows read");
	csv_read_close(&c);
	unlink(path);
	tap_ok(csv_read_open(&c, "/nonexistent/x.csv") == -ENOENT, "a missing file: -ENOENT");
}

LAB_TEST_MAIN()

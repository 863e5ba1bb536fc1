// SPDX-License-Identifier: GPL-2.0
/* Unit tests of bench/lib/progress.c: progress lines and the failure file. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "tap.h"

static char dir[] = "/tmp/test_progress.XXXXXX";

/* The lines of @path, NULL when it cannot be read */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (getdelim(&s, &n, '\0', f) < 0) {
		free(s);
		s = strdup("");
	}
	fclose(f);
	return s;
}

/* The program and verb the messages name (tap_main names the program after itself) */
static void as_wl_run(void)
{
	lab_prog = "wl";
	lab_verb_name = "run";
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

LAB_TEST(progress_lines)
{
	char prog[256];
	char *s;

	as_wl_run();
	snprintf(prog, sizeof(prog), "%s/progress", dir);
	progress_path = prog;
	progress_start(2);
	progress_part(1000, "routes", "inserting %s routes", "ipv4");
	progress_add(400);
	progress_set(500);
	s = slurp(prog);
	tap_eq_int(count_lines(s), 1, "one line for a part's start and none for updates within 5 s");
	tap_ok(s && !strcmp(s, "note wl run: inserting ipv4 routes: 0/1000 routes (0%); part 1 of 2, 0 s in all\n"),
	       "the line: note PROG VERB: the part, done out of total, which part of how many");
	free(s);
}

LAB_TEST(lab_die_reason)
{
	char fail[256];
	json_t *j;
	pid_t pid;
	int st;

	snprintf(fail, sizeof(fail), "%s/die.json", dir);
	pid = fork();
	if (!pid) {
		lab_fail_path = fail;
		lab_die("out of %s", "memory");
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "lab_die exits 1");
	j = json_load_file(fail, 0, NULL);
	tap_eq_str(json_string_value(json_object_get(j, "reason")), "out of memory",
		   "lab_die's message reaches the failure file");
	tap_eq_str(json_string_value(json_object_get(j, "kind")), "error", "as kind error");
	json_decref(j);
}

LAB_TEST(first_reason_kept)
{
	char fail[256];
	json_t *j;

	as_wl_run();
	snprintf(fail, sizeof(fail), "%s/fail.json", dir);
	tap_ok(access(fail, F_OK), "no failure file before a failure");
	lab_fail_path = fail;
	lab_fail("refused", "the kernel refused %s", "it");
	lab_fail("error", "a second reason");
	j = json_load_file(fail, 0, NULL);
	tap_ok(j && json_integer_value(json_object_get(j, "format_version")) == FAIL_FORMAT_VERSION,
	       "the failure file is JSON with its format_version");
	tap_eq_str(json_string_value(json_object_get(j, "reason")), "the kernel refused it",
		   "the first reason is kept, the later one ignored");
	tap_eq_str(json_string_value(json_object_get(j, "kind")), "refused", "with its kind");
	tap_eq_str(json_string_value(json_object_get(j, "program")), "wl", "and the program");
	tap_eq_str(json_string_value(json_object_get(j, "verb")), "run", "and the verb");
	json_decref(j);
}

int main(int argc, char **argv)
{
	tap_tmpdir(dir);
	return tap_main(argc, argv);
}

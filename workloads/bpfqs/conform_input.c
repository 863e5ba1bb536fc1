// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs conform, bad input: this program run again with bad command lines;
 * each must be a usage error naming the value, exit code 2, before anything
 * is created (no results folder, no map).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "bpfqs.h"

/*
 * Run this program with @args (NULL-terminated, after argv[0]); its exit
 * status, and its stderr (as much as fits) into @line.
 */
static int run_self(const char *const *args, char *line, size_t len)
{
	char *argv[16] = { "bpfqs" }, drain[256];
	posix_spawn_file_actions_t fa;
	int pfd[2], status = -1;
	size_t i, got = 0;
	ssize_t r;
	pid_t pid;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	line[0] = 0;
	if (pipe(pfd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	if (posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	while (got + 1 < len && (r = read(pfd[0], line + got, len - 1 - got)) > 0)
		got += (size_t)r;
	line[got] = 0;
	while (read(pfd[0], drain, sizeof(drain)) > 0)
		;
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#define BAD "/tmp/bpfqs-bad"
#define RUN "run", "--profile", "quick", "--out", BAD

/* Bad input: a usage error naming the value, exit code 2, before any BPF call */
void conf_bad_input(void)
{
	char threads[16], quoted[24], line[512];
	struct {
		const char *what, *named;
		const char *args[12];
	} cases[] = {
		{ "an unknown map type", "'heap'", { RUN, "--maps", "queue,heap", NULL } },
		{ "value size 0", "'0'", { RUN, "--value-sizes", "4,0", NULL } },
		{ "a value size beyond the kernel's limit (KMALLOC_MAX_SIZE + 1)", "'4194305'",
		  { RUN, "--value-sizes", "4194305", NULL } },
		{ "more threads than vCPUs", quoted, { RUN, "--threads", threads, NULL } },
		{ "a round count that is not a number", "'10x'", { RUN, "--rounds", "10x", NULL } },
		{ "more threads than host CPUs", "'2'", { RUN, "--host-cpus", "1", "--threads", "1,2", NULL } },
		{ "an unknown option", "'--frobnicate'", { RUN, "--frobnicate", "1", NULL } },
		{ "an unknown profile", "'slow'", { "run", "--profile", "slow", "--out", BAD, NULL } },
		{ "run without --out", "--out", { "run", "--profile", "quick", NULL } },
		{ "report with an unknown option", "'--bogus'", { "report", "--out", BAD, "--bogus", NULL } },
		{ "probe-load with --ops 0", "'0'", { "probe-load", "--ops", "0", "--out", BAD, NULL } },
		{ "an unknown verb", "'frobnicate'", { "frobnicate", NULL } },
	};
	struct stat st;
	size_t i;
	int rc;

	snprintf(threads, sizeof(threads), "%u", allowed_cpus() + 1);
	snprintf(quoted, sizeof(quoted), "'%s'", threads);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = run_self(cases[i].args, line, sizeof(line));
		line[strcspn(line, "\n")] = 0;	/* the error is the first line */
		if (rc == 2 && strstr(line, cases[i].named))
			tap_ok(true, "bad input: %s is refused with exit code 2, naming %s", cases[i].what,
			       cases[i].named);
		else
			tap_fail("bad input", "%s: expected exit code 2 and an error naming %s, got exit code %d and '%s'",
				 cases[i].what, cases[i].named, rc, line);
	}
	tap_ok(stat(BAD, &st) != 0, "bad input: nothing was created (no " BAD " results folder)");
}

#define WFAIL "/tmp/bpfqs-wfail"

/* Remove the folder @dir and what is in it (files, and empty folders) */
static void remove_dir(const char *dir)
{
	char path[512];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (unlink(path))
			rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/*
 * A file that cannot be written fails the verb, exit code 1, naming the
 * file: setup.csv is a folder in run's --out (run stops before any map is
 * made), probe-load's and report's --out have no parent.
 */
void conf_bad_output(void)
{
	char out[4096];
	struct {
		const char *what, *named;
		const char *args[16];
	} cases[] = {
		{ "run, setup.csv cannot be written", WFAIL "/setup.csv",
		  { "run", "--profile", "quick", "--out", WFAIL, "--parts", "user", "--maps", "queue",
		    "--value-sizes", "4", NULL } },
		{ "probe-load, --out has no parent", "probe-expected.csv",
		  { "probe-load", "--ops", "1", "--out", WFAIL "/no/such", NULL } },
		{ "report, --out has no parent", "summary.json", { "report", "--out", WFAIL "/no/such", NULL } },
	};
	size_t i;
	int rc;

	remove_dir(WFAIL "/setup.csv");
	remove_dir(WFAIL);
	if (mkdir(WFAIL, 0755) || mkdir(WFAIL "/setup.csv", 0755)) {
		tap_fail("bad output", "cannot make %s/setup.csv a folder: %m", WFAIL);
		return;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = run_self(cases[i].args, out, sizeof(out));
		if (rc == 1 && strstr(out, cases[i].named))
			tap_ok(true, "bad output: %s: exit code 1, naming %s", cases[i].what, cases[i].named);
		else
			tap_fail("bad output", "%s: expected exit code 1 and a message naming %s, got exit code %d and '%s'",
				 cases[i].what, cases[i].named, rc, out);
	}
	remove_dir(WFAIL "/setup.csv");
	remove_dir(WFAIL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `bpfqs report` (build/bpfqs, run from the repository's
 * root): on a fixture of the CSV files `bpfqs run` writes, it makes
 * summary.json (warm-up samples dropped, the ratios, the contention
 * figures), targets.json (the CV target per figure) and notes.md; --failed
 * reasons fail the summary; an input that cannot be read or an output that
 * cannot be written fails it with exit code 1, naming the file. Bad command
 * lines of report and run exit 2 naming the value (run stops before any
 * map is made, so this is safe on the host).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static const char *bin = "build/bpfqs";
static char dir[] = "/tmp/test_bpfqs.XXXXXX";
static char err[8192];

/* Run bpfqs with @args (NULL-terminated); its exit code, its stderr into err */
static int bpfqs(const char *const *args)
{
	char *argv[24] = { (char *)bin };
	char path[128];
	int status, fd, i;
	ssize_t n;
	pid_t pid;

	for (i = 0; args[i] && i < 22; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	snprintf(path, sizeof(path), "%s.err", dir);
	pid = fork();
	if (pid == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, STDERR_FILENO);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		execv(bin, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, err, sizeof(err) - 1) : 0;
	err[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	unlink(path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		tap_bail("cannot write the fixture %s", path);
}

/*
 * A queue map of value size 4: user space push (2 warm-up samples, then 5),
 * in-program empty loop and push (K = 64), one contention configuration
 * (1 thread, per-thread map) whose aggregate figure is noisy.
 */
static void fixture(void)
{
	put("setup.csv", "name,value\nprofile,quick\nvcpus,2\n");
	put("user-batches.csv", "map,op,value_size,round,sample,warmup,batch_ops,ns_per_op,anomaly\n"
		"queue,push,4,0,0,1,64,900.5,0\nqueue,push,4,1,1,1,64,100.0,1\n");
	put("prog-batches.csv", "map,op,value_size,round,sample,warmup,k,repeat,ns_per_run,anomaly\n"
		"queue,push,4,0,0,1,64,2,1000,0\n");
	put("user-samples.csv", "map,op,value_size,sample,warmup,batch_ops,ns_per_op\n"
		"queue,push,4,0,1,64,5000\nqueue,push,4,1,1,64,5000\n"
		"queue,push,4,2,0,64,1000\nqueue,push,4,3,0,64,1010\nqueue,push,4,4,0,64,990\n"
		"queue,push,4,5,0,64,1000.5\nqueue,push,4,6,0,64,1001\n");
	put("prog-samples.csv", "map,op,value_size,sample,warmup,k,repeat,run_ns,empty_median_ns,ns_per_op\n"
		"queue,empty,4,0,1,64,2,2000,1280,31.25\nqueue,empty,4,1,0,64,2,1280,1280,20\n"
		"queue,empty,4,2,0,64,2,1280,1280,20\nqueue,empty,4,3,0,64,2,1280,1280,20\n"
		"queue,push,4,0,1,64,2,9000,1280,120.625\nqueue,push,4,1,0,64,2,7680,1280,100\n"
		"queue,push,4,2,0,64,2,7680,1280,100\nqueue,push,4,3,0,64,2,7680,1280,100\n");
	put("contention-samples.csv", "map,threads,shared,sample,warmup,what,cpu,mops\n"
		"queue,1,no,0,1,aggregate,-1,1\nqueue,1,no,1,0,aggregate,-1,10\nqueue,1,no,2,0,aggregate,-1,20\n"
		"queue,1,no,0,1,thread,0,1\nqueue,1,no,1,0,thread,0,10\nqueue,1,no,2,0,thread,0,20\n"
		"queue,1,no,0,1,running,-1,30\nqueue,1,no,1,0,running,-1,30\nqueue,1,no,2,0,running,-1,30\n");
}

static json_t *load(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return json_load_file(path, 0, NULL);
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "(missing)";
}

/* The metric @name (with op @op when not NULL) of @summary */
static json_t *metric(json_t *summary, const char *name, const char *op)
{
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(summary, "metrics"), i, m)
		if (!strcmp(str(m, "name"), name) && (!op || !strcmp(str(json_object_get(m, "params"), "op"), op)))
			return m;
	return NULL;
}

static void test_report_ok(void)
{
	json_t *s, *t, *m;
	size_t i, missed = 0;
	char path[256];

	fixture();
	tap_eq_int(bpfqs((const char *[]){ "report", "--out", dir, NULL }), 0, "report on a complete run exits 0");
	s = load("summary.json");
	tap_eq_str(str(s, "status"), "ok", "summary.json: status ok");
	tap_eq_int((long long)json_array_size(json_object_get(s, "metrics")), 7,
		   "7 metrics: user, empty loop, in-program, ratio, 3 contention");
	m = metric(s, "user_ns_per_op", "push");
	tap_ok(m && json_integer_value(json_object_get(m, "n")) == 5 &&
	       json_real_value(json_object_get(m, "median")) == 1000.5,
	       "user_ns_per_op: the 5 samples after warm-up, median 1000.5");
	tap_eq_str(str(json_object_get(m, "params"), "value_size"), "4", "params: value_size 4");
	m = metric(s, "prog_empty_ns_per_run", NULL);
	tap_ok(m && json_real_value(json_object_get(m, "median")) == 1280 &&
	       !json_object_get(json_object_get(m, "params"), "op"),
	       "prog_empty_ns_per_run: ns per run, no op param");
	m = metric(s, "syscall_prog_ratio", "push");
	tap_ok(m && json_real_value(json_object_get(m, "median")) == 10,
	       "syscall_prog_ratio: user over in-program, sample by sample (the first 3 pairs: median 10)");
	m = metric(s, "contended_thread_mops", NULL);
	tap_ok(m && !strcmp(str(json_object_get(m, "params"), "shared"), "no") &&
	       !strcmp(str(json_object_get(m, "params"), "threads"), "1"),
	       "contended_thread_mops: threads 1, shared no");
	json_decref(s);
	t = load("targets.json");
	tap_eq_int((long long)json_array_size(t), 5,
		   "targets.json: the CV target of 5 figures (not the ratio, not the per-thread one)");
	json_array_foreach(t, i, m) {
		missed += json_is_false(json_object_get(m, "met"));
		if (json_real_value(json_object_get(m, "limit")) != 5 || strcmp(str(m, "unit"), "%"))
			tap_diag("target %zu: limit or unit is not 5 %%", i);
	}
	tap_eq_int((long long)missed, 1, "one target missed: the noisy contended_mops");
	m = json_array_get(t, 3);
	tap_ok(strstr(str(m, "target"), "contended_mops") && strstr(str(m, "why"), "wall-clock"),
	       "its why: wall-clock throughput (%s)", str(m, "why"));
	json_decref(t);
	snprintf(path, sizeof(path), "%s/notes.md", dir);
	tap_ok(!access(path, R_OK), "notes.md is written");
}

static void test_report_failed(void)
{
	json_t *s;

	fixture();
	tap_eq_int(bpfqs((const char *[]){ "report", "--out", dir, "--failed", "probe: 2 counts differ",
					   "--failed=conformance: 1 case failed", NULL }), 0,
		   "report --failed, twice: exits 0 (it wrote everything)");
	s = load("summary.json");
	tap_eq_str(str(s, "status"), "failed", "summary.json: status failed");
	tap_eq_str(str(s, "reason"), "probe: 2 counts differ; conformance: 1 case failed",
		   "the reasons, in order");
	tap_eq_int((long long)json_array_size(json_object_get(s, "metrics")), 7, "the metrics are kept");
	json_decref(s);
}

/* An output that is a folder cannot be written: exit 1, the file named */
static void test_unwritable(const char *name)
{
	char path[256];
	json_t *s;
	int rc;

	fixture();
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	mkdir(path, 0755);
	rc = bpfqs((const char *[]){ "report", "--out", dir, NULL });
	tap_ok(rc == 1 && strstr(err, path), "%s cannot be written: exit code 1 (got %d), naming it", name, rc);
	if (strcmp(name, "summary.json") && strcmp(name, "targets.json")) {
		s = load("summary.json");
		tap_ok(!strcmp(str(s, "status"), "failed") && strstr(str(s, "reason"), name),
		       "%s cannot be written: summary.json says failed, naming it (%s)", name, str(s, "reason"));
		json_decref(s);
	}
	rmdir(path);
}

static void test_unreadable(void)
{
	char path[256];
	json_t *s;
	int rc;

	fixture();
	snprintf(path, sizeof(path), "%s/contention-samples.csv", dir);
	unlink(path);
	rc = bpfqs((const char *[]){ "report", "--out", dir, NULL });
	tap_ok(rc == 1 && strstr(err, "contention-samples.csv"),
	       "a missing contention-samples.csv: exit code 1 (got %d), naming it", rc);
	s = load("summary.json");
	tap_ok(!strcmp(str(s, "status"), "failed") && strstr(str(s, "reason"), "contention-samples.csv"),
	       "summary.json says failed, naming it (%s)", str(s, "reason"));
	tap_eq_int((long long)json_array_size(json_object_get(s, "metrics")), 4,
		   "the single-thread metrics are kept");
	json_decref(s);
	put("contention-samples.csv", "map,threads,shared,sample,warmup,what,cpu,mops\nqueue,1,no,0,0,aggregate,-1,1x\n");
	rc = bpfqs((const char *[]){ "report", "--out", dir, NULL });
	tap_ok(rc == 1 && strstr(err, "contention-samples.csv:2: mops '1x' is not a number"),
	       "a malformed sample: exit code 1 (got %d), naming the file, line and value", rc);
}

static void test_missing_parent(void)
{
	int rc = bpfqs((const char *[]){ "report", "--out", "/nonexistent/bpfqs", NULL });

	tap_ok(rc == 1 && strstr(err, "/nonexistent/bpfqs/summary.json"),
	       "report --out under a missing folder: exit code 1 (got %d), naming summary.json", rc);
}

static void test_bad_input(void)
{
	static const struct {
		const char *what, *named;
		const char *args[12];
	} cases[] = {
		{ "report without --out", "--out", { "report", NULL } },
		{ "report with an unknown option", "'--bogus'", { "report", "--out", "/tmp/bpfqs-bad", "--bogus", NULL } },
		{ "report --failed without a reason", "--failed", { "report", "--out", "/tmp/bpfqs-bad", "--failed", NULL } },
		{ "run --samples 10x", "'10x'", { "run", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--samples", "10x", NULL } },
		{ "run with an unknown option", "'--frobnicate'",
		  { "run", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--frobnicate", "1", NULL } },
		{ "run --maps heap", "'heap'", { "run", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--maps", "heap", NULL } },
		{ "the old verb bench", "'bench'", { "bench", "--profile", "quick", "--out", "/tmp/bpfqs-bad", NULL } },
	};
	struct stat st;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = bpfqs(cases[i].args);
		err[strcspn(err, "\n")] = '\0';
		tap_ok(rc == 2 && strstr(err, cases[i].named), "%s: exit code 2 (got %d), naming %s (%s)",
		       cases[i].what, rc, cases[i].named, err);
	}
	tap_ok(stat("/tmp/bpfqs-bad", &st) != 0, "bad input created nothing (no /tmp/bpfqs-bad)");
}

int main(void)
{
	char cmd[128];

	if (access(bin, X_OK))
		tap_bail("no %s: run make all (the test runs from the repository's root)", bin);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %m");
	test_report_ok();
	test_report_failed();
	test_unwritable("ns-per-op.csv");
	test_unwritable("notes.md");
	test_unwritable("summary.json");
	test_unwritable("targets.json");
	test_unreadable();
	test_missing_parent();
	test_bad_input();
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
	if (system(cmd))
		tap_diag("cannot remove %s", dir);
	return tap_finish();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `bpfqs report` (build/bpfqs, run from the repository's
 * root): on fixtures of the CSV files `bpfqs run` writes, it makes
 * summary.json (every batch after warm-up in the headline median, none
 * left out, *_best the fastest, the ratios with their intervals, the
 * contention figures), targets.json (each target met in one fixture and
 * NOT MET in another, not judged where it cannot be) and notes.md; --failed
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
	int rc, fd, i;
	ssize_t n;

	for (i = 0; args[i] && i < 22; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	snprintf(path, sizeof(path), "%s.err", dir);
	rc = tap_run(argv, path);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, err, sizeof(err) - 1) : 0;
	err[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	unlink(path);
	return rc;
}

static FILE *create(const char *name)
{
	return tap_fixture(dir, name, NULL);
}

static void put(const char *name, const char *text)
{
	FILE *f = create(name);

	if (fputs(text, f) < 0 || fclose(f))
		tap_bail("cannot write the fixture %s", name);
}

/*
 * A run's files. 2 warm-up rounds (batches 50 times the rest), then 10
 * measured rounds: user-space queue push 1000 + 10 r ns (round 2 + r), one
 * batch of them at 100 (a fast outlier the headline keeps); in-program,
 * queue and stack at 4 bytes, K 64, repeat @repeat: empty loop 1920 ns per
 * run, push 100 (stack: 100 x @stack_push), peek 40, pop 90, push_pop
 * (push + pop) x @pair, each + r / 10; array at 4 bytes with lookup 0 (below
 * the resolution). Contention on queue maps, @threads at most: one thread
 * 10 Mops/s on its own map, P threads P x 10 x @scaling (shared: 0.6 of it).
 */
struct fx {
	double timer_ns;		/* the test run's fixed cost per call */
	unsigned int repeat;
	const char *limited_by;		/* prog-repeat.csv */
	double pair, stack_push, scaling;
	unsigned int threads, vcpus, host_cpus;
};

static const struct fx met = { 320, 20, "none", 1.0, 1.0, 1.0, 2, 4, 2 };

static void prog_rows(FILE *f, const char *map, const char *op, unsigned int repeat, double ns_per_op)
{
	int r;

	for (r = 0; r < 12; r++) {
		double x = r < 2 ? 50 * ns_per_op : ns_per_op + (r - 2) / 10.0;

		fprintf(f, "%s,%s,4,%d,%d,64,%u,%.17g,1920,%.17g\n", map, op, r, r < 2, repeat,
			strcmp(op, "empty") ? 1920 + 64 * x : 1920, strcmp(op, "empty") ? x : 30);
	}
}

static void fixture(const struct fx *p)
{
	static const char *const maps[] = { "queue", "stack" };
	FILE *f;
	int r, i;
	unsigned int t, j;

	f = create("setup.csv");
	fprintf(f, "name,value\nprofile,quick\nvcpus,%u\nhost_cpus,%u\n", p->vcpus, p->host_cpus);
	fclose(f);
	f = create("prog-timer.csv");
	fprintf(f, "pair,repeat,fixed_ns_per_call\n");
	for (r = 0; r < 11; r++)
		fprintf(f, "%d,64,%.17g\n", r, p->timer_ns + r - 5);
	fclose(f);
	f = create("prog-repeat.csv");
	fprintf(f, "map,value_size,k,pilot_ns_per_op,repeat_needed,repeat,limited_by\n");
	for (i = 0; i < 2; i++)
		fprintf(f, "%s,4,64,40,%u,%u,%s\n", maps[i], strcmp(p->limited_by, "none") ? 10 * p->repeat : p->repeat,
			p->repeat, p->limited_by);
	fprintf(f, "array,4,64,10,%u,%u,none\n", p->repeat, p->repeat);
	fclose(f);
	f = create("user-batches.csv");
	fprintf(f, "map,op,value_size,round,warmup,batch_ops,ns_per_op\n");
	for (r = 0; r < 12; r++)
		fprintf(f, "queue,push,4,%d,%d,64,%g\n", r, r < 2, r < 2 ? 50000.0 : r == 7 ? 100.0 : 1000.0 + 10 * (r - 2));
	fclose(f);
	f = create("prog-batches.csv");
	fprintf(f, "map,op,value_size,round,warmup,k,repeat,ns_per_run,empty_ns_per_run,ns_per_op\n");
	for (i = 0; i < 2; i++) {
		double push = i ? 100 * p->stack_push : 100;

		/* the empty loop last, as run writes it */
		prog_rows(f, maps[i], "push", p->repeat, push);
		prog_rows(f, maps[i], "peek", p->repeat, 40);
		prog_rows(f, maps[i], "pop", p->repeat, 90);
		prog_rows(f, maps[i], "push_pop", p->repeat, (push + 90) * p->pair);
		prog_rows(f, maps[i], "empty", p->repeat, 30);
	}
	prog_rows(f, "array", "empty", p->repeat, 30);
	prog_rows(f, "array", "update", p->repeat, 20);
	prog_rows(f, "array", "lookup", p->repeat, 0);
	fclose(f);
	f = create("contention-windows.csv");
	fprintf(f, "map,threads,shared,window,warmup,what,cpu,mops\n");
	for (t = 1; t <= p->threads; t *= 2)
		for (i = 0; i < 2; i++)
			for (r = 0; r < 8; r++) {
				double agg = (t == 1 ? 10 : 10 * t * p->scaling) * (i ? 0.6 : 1) + r / 10.0;

				fprintf(f, "queue,%u,%s,%d,%d,aggregate,-1,%.17g\n", t, i ? "yes" : "no", r, r < 2, agg);
				for (j = 0; j < t; j++)
					fprintf(f, "queue,%u,%s,%d,%d,thread,%u,%.17g\n", t, i ? "yes" : "no", r, r < 2, j,
						agg / t);
			}
	fclose(f);
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

/* The target whose name starts with @prefix and contains @part */
static json_t *target(json_t *t, const char *prefix, const char *part)
{
	json_t *m;
	size_t i;

	json_array_foreach(t, i, m)
		if (!strncmp(str(m, "target"), prefix, strlen(prefix)) && strstr(str(m, "target"), part))
			return m;
	return NULL;
}

static double num_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *verdict(json_t *m)
{
	json_t *v = json_object_get(m, "met");

	return !m ? "(no such target)" : json_is_true(v) ? "met" : json_is_false(v) ? "not met" :
	       json_is_null(v) ? "not judged" : "(bad)";
}

static int report(void)
{
	return bpfqs((const char *[]){ "report", "--out", dir, NULL });
}

LAB_TEST(report_ok)
{
	json_t *s, *t, *m, *ci;
	char path[256], notes[4096];
	FILE *f;
	size_t n;

	fixture(&met);
	tap_eq_int(report(), 0, "report on a complete run exits 0");
	s = load("summary.json");
	tap_eq_str(str(s, "status"), "ok", "summary.json: status ok");
	m = metric(s, "user_ns_per_op", "push");
	tap_ok(m && json_integer_value(json_object_get(m, "n")) == 10 && num_of(m, "median") == 1035,
	       "user_ns_per_op: all 10 batches after warm-up, the fast one kept: expected n 10, median 1035, got n %lld, "
	       "median %g", (long long)json_integer_value(json_object_get(m, "n")), num_of(m, "median"));
	ci = json_object_get(m, "ci95");
	tap_ok(json_is_object(ci) && num_of(ci, "lo") <= 1035 && num_of(ci, "hi") >= 1035 &&
	       !strcmp(str(ci, "of"), "median"),
	       "user_ns_per_op: a 95 %% interval of the median around it (got %g to %g)", num_of(ci, "lo"),
	       num_of(ci, "hi"));
	m = metric(s, "user_ns_per_op_best", "push");
	tap_ok(m && num_of(m, "median") == 100 && json_is_null(json_object_get(m, "ci95")),
	       "user_ns_per_op_best: the fastest batch, no interval: expected 100, got %g", m ? num_of(m, "median") : NAN);
	m = metric(s, "prog_ns_per_op", "push");
	tap_ok(m && fabs(num_of(m, "median") - 100.45) < 1e-9,
	       "prog_ns_per_op queue push: median of the ns_per_op column, expected 100.45, got %g", num_of(m, "median"));
	m = metric(s, "prog_ns_per_op_best", "push");
	tap_ok(m && fabs(num_of(m, "median") - 100) < 1e-9,
	       "prog_ns_per_op_best: the fastest push batch less the fastest empty one, over K: expected 100, got %g",
	       m ? num_of(m, "median") : NAN);
	m = metric(s, "prog_testrun_fixed_ns_per_call", NULL);
	tap_ok(m && num_of(m, "median") == 320 && json_integer_value(json_object_get(m, "n")) == 11,
	       "prog_testrun_fixed_ns_per_call: expected median 320 of 11, got %g", m ? num_of(m, "median") : NAN);
	m = metric(s, "syscall_prog_ratio", "push");
	tap_ok(m && fabs(num_of(m, "median") - 1035 / 100.45) < 1e-9 &&
	       json_is_object(json_object_get(m, "ci95")),
	       "syscall_prog_ratio: ratio of the medians with a bootstrap interval, expected %g, got %g",
	       1035 / 100.45, m ? num_of(m, "median") : NAN);
	tap_ok(!metric(s, "contended_running_mops", NULL), "no contended_running_mops (the sum of rates is gone)");
	m = metric(s, "contended_mops", NULL);
	tap_ok(m && json_integer_value(json_object_get(m, "n")) == 6, "contended_mops: 6 windows after warm-up");
	json_decref(s);

	t = load("targets.json");
	m = target(t, "clock reads", "op=push value_size=4");
	tap_eq_str(verdict(m), "met", "clock-read target of queue push (320 ns over 20 x 64 against 100 ns: 0.25 %)");
	tap_ok(m && fabs(num_of(m, "measured") - 100 * 320 / (20.0 * 64 * 100.45)) < 1e-9 && num_of(m, "limit") == 1,
	       "its measured share: expected %g %%, got %g", 100 * 320 / (20.0 * 64 * 100.45), num_of(m, "measured"));
	m = target(t, "clock reads", "map=array op=lookup");
	tap_eq_str(verdict(m), "not judged", "clock-read target of the array lookup (below the resolution)");
	tap_eq_str(verdict(target(t, "in-program push+pop", "map=queue")), "met", "pair target (push_pop = push + pop)");
	tap_eq_str(verdict(target(t, "in-program queue push", "value_size=4")), "met", "parity target (equal pushes)");
	tap_eq_str(verdict(target(t, "per-thread queue", "")), "met", "scaling target (2 threads: 2 x one)");
	json_decref(t);

	snprintf(path, sizeof(path), "%s/notes.md", dir);
	f = fopen(path, "r");
	n = f ? fread(notes, 1, sizeof(notes) - 1, f) : 0;
	notes[n] = '\0';
	if (f)
		fclose(f);
	tap_ok(strstr(notes, "4 vCPUs on a host of 2 CPUs: the vCPUs outnumber the host's CPUs") != NULL,
	       "notes.md says the vCPUs outnumber the host's CPUs");
	tap_ok(strstr(notes, "320 ns") && strstr(notes, "repeat 20 to 20"), "notes.md states the timer's cost and the repeat");
}

/* Each target NOT MET in a fixture made for it, and its why naming the cause */
LAB_TEST(targets_not_met)
{
	struct fx p = met;
	json_t *t, *m;

	p.timer_ns = 3200;
	p.limited_by = "map_budget";
	fixture(&p);
	tap_eq_int(report(), 0, "report with a costly timer exits 0");
	t = load("targets.json");
	m = target(t, "clock reads", "map=queue op=push value_size=4");
	tap_ok(!strcmp(verdict(m), "not met") && strstr(str(m, "why"), "capped by map_budget"),
	       "clock-read target: expected not met (2.5 %%) naming the cap, got %s (%s)", verdict(m), str(m, "why"));
	json_decref(t);

	p = met;
	p.pair = 1.5;
	fixture(&p);
	report();
	t = load("targets.json");
	m = target(t, "in-program push+pop", "map=stack");
	tap_ok(!strcmp(verdict(m), "not met") && fabs(num_of(m, "measured") - 50) < 1,
	       "pair target: push_pop 1.5 x push + pop: expected not met at 50 %%, got %s at %g", verdict(m),
	       num_of(m, "measured"));
	json_decref(t);

	p = met;
	p.stack_push = 1.25;
	fixture(&p);
	report();
	t = load("targets.json");
	m = target(t, "in-program queue push", "value_size=4");
	tap_ok(!strcmp(verdict(m), "not met") && strstr(str(m, "why"), "queue_stack_map_push_elem"),
	       "parity target: stack push 1.25 x queue push: expected not met, got %s (%s)", verdict(m), str(m, "why"));
	json_decref(t);

	p = met;
	p.scaling = 0.5;
	fixture(&p);
	report();
	t = load("targets.json");
	m = target(t, "per-thread queue", "");
	tap_ok(!strcmp(verdict(m), "not met") && num_of(m, "measured") < 80,
	       "scaling target: 2 threads at one thread's rate: expected not met, got %s at %g %%", verdict(m),
	       num_of(m, "measured"));
	json_decref(t);

	p = met;
	p.threads = 1;
	p.host_cpus = 1;
	fixture(&p);
	report();
	t = load("targets.json");
	m = target(t, "per-thread queue", "");
	tap_eq_str(verdict(m), "not judged", "scaling target with one thread only");
	json_decref(t);
}

LAB_TEST(report_failed)
{
	json_t *s;

	fixture(&met);
	tap_eq_int(bpfqs((const char *[]){ "report", "--out", dir, "--failed", "probe: 2 counts differ",
					   "--failed=conformance: 1 case failed", NULL }), 0,
		   "report --failed, twice: exits 0 (it wrote everything)");
	s = load("summary.json");
	tap_eq_str(str(s, "status"), "failed", "summary.json: status failed");
	tap_eq_str(str(s, "reason"), "probe: 2 counts differ; conformance: 1 case failed",
		   "the reasons, in order");
	tap_ok(metric(s, "prog_ns_per_op", "push") != NULL, "the metrics are kept");
	json_decref(s);
}

/* An output that is a folder cannot be written: exit 1, the file named */
static void unwritable(const char *name)
{
	char path[256];
	json_t *s;
	int rc;

	fixture(&met);
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

LAB_TEST(unwritable_csv)
{
	unwritable("ns-per-op.csv");
}

LAB_TEST(unwritable_notes)
{
	unwritable("notes.md");
}

LAB_TEST(unwritable_summary)
{
	unwritable("summary.json");
}

LAB_TEST(unwritable_targets)
{
	unwritable("targets.json");
}

LAB_TEST(unreadable)
{
	char path[256];
	json_t *s;
	int rc;

	fixture(&met);
	snprintf(path, sizeof(path), "%s/contention-windows.csv", dir);
	unlink(path);
	rc = bpfqs((const char *[]){ "report", "--out", dir, NULL });
	tap_ok(rc == 1 && strstr(err, "contention-windows.csv"),
	       "a missing contention-windows.csv: exit code 1 (got %d), naming it", rc);
	s = load("summary.json");
	tap_ok(!strcmp(str(s, "status"), "failed") && strstr(str(s, "reason"), "contention-windows.csv"),
	       "summary.json says failed, naming it (%s)", str(s, "reason"));
	tap_ok(metric(s, "prog_ns_per_op", "push") && !metric(s, "contended_mops", NULL),
	       "the single-thread metrics are kept");
	json_decref(s);
	put("contention-windows.csv", "map,threads,shared,window,warmup,what,cpu,mops\nqueue,1,no,0,0,aggregate,-1,1x\n");
	rc = bpfqs((const char *[]){ "report", "--out", dir, NULL });
	tap_ok(rc == 1 && strstr(err, "contention-windows.csv:2: mops '1x' is not a number"),
	       "a malformed window: exit code 1 (got %d), naming the file, line and value", rc);
	fixture(&met);
	put("prog-batches.csv", "map,op,value_size,round,warmup,k,repeat,ns_per_run,empty_ns_per_run,ns_per_op\n"
	    "queue,push,4,0,0,64,0,100,10,1\n");
	rc = bpfqs((const char *[]){ "report", "--out", dir, NULL });
	tap_ok(rc == 1 && strstr(err, "prog-batches.csv:2: k 64 and repeat 0 must be at least 1"),
	       "a repeat of 0: exit code 1 (got %d), naming the file, line and values", rc);
}

LAB_TEST(missing_parent)
{
	int rc = bpfqs((const char *[]){ "report", "--out", "/nonexistent/bpfqs", NULL });

	tap_ok(rc == 1 && strstr(err, "/nonexistent/bpfqs/summary.json"),
	       "report --out under a missing folder: exit code 1 (got %d), naming summary.json", rc);
}

LAB_TEST(bad_input)
{
	static const struct {
		const char *what, *named;
		const char *args[12];
	} cases[] = {
		{ "report without --out", "--out", { "report", NULL } },
		{ "report with an unknown option", "'--bogus'", { "report", "--out", "/tmp/bpfqs-bad", "--bogus", NULL } },
		{ "report --failed without a reason", "--failed", { "report", "--out", "/tmp/bpfqs-bad", "--failed", NULL } },
		{ "run --rounds 10x", "'10x'", { "run", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--rounds", "10x", NULL } },
		{ "run --host-cpus 0", "'0'", { "run", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--host-cpus", "0", NULL } },
		{ "run --threads 2 --host-cpus 1", "'2'",
		  { "run", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--host-cpus", "1", "--threads", "2", NULL } },
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

int main(int argc, char **argv)
{
	if (access(bin, X_OK))
		tap_bail("no %s: run make all (the test runs from the repository's root)", bin);
	tap_tmpdir(dir);
	return tap_main(argc, argv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench/output.c: summary.json in the results contract, read
 * back with jansson; crash-safe status; atomic writes leave no temporary
 * file; CSV header lines; bad input rejected.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interval.h"
#include "output.h"
#include "stats.h"
#include "tap.h"

static char dir[] = "/tmp/test_output.XXXXXX";
static char sub[64];

static json_t *load_summary(void)
{
	char path[128];
	json_error_t err;
	json_t *j;

	snprintf(path, sizeof(path), "%s/summary.json", sub);
	j = json_load_file(path, 0, &err);
	if (!j)
		tap_diag("cannot read %s: %s (line %d)", path, err.text, err.line);
	return j;
}

/* number of files in @d whose name contains ".tmp." */
static int temp_files(const char *d)
{
	struct dirent *e;
	DIR *dp = opendir(d);
	int n = 0;

	if (!dp)
		return -1;
	while ((e = readdir(dp)))
		n += strstr(e->d_name, ".tmp.") != NULL;
	closedir(dp);
	return n;
}

static const char *str(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "(missing)";
}

static double num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

LAB_TEST(summary)
{
	double lat[200], one[] = { 3, 1, 2 };
	json_t *j, *m, *m2, *m0, *ci;
	struct out *o;
	int i;

	for (i = 0; i < 200; i++)
		lat[i] = i + 1;
	o = out_open(sub, "taprio");
	if (!tap_ok(o != NULL, "out_open creates the workload directory"))
		tap_bail("cannot continue without an output");
	j = load_summary();
	tap_ok(j && !strcmp(str(j, "status"), "failed") && strstr(str(j, "reason"), "incomplete"),
	       "summary.json right after out_open says failed, incomplete (crash safety)");
	json_decref(j);

	tap_eq_int(out_metric(o, "latency_ns", (const char *[]){ "queues", "4", "size", "64", NULL },
			      "ns", lat, 200), 0, "out_metric with two params returns 0");
	tap_eq_int(out_metric(o, "small", NULL, "us", one, 3), 0, "out_metric without params");
	tap_eq_int(out_metric(o, "nothing", NULL, "us", NULL, 0), 0, "out_metric with no samples");
	j = load_summary();
	m = json_array_get(json_object_get(j, "metrics"), 0);
	tap_ok(j && json_array_size(json_object_get(j, "metrics")) == 3 &&
	       !strcmp(str(j, "status"), "failed"),
	       "summary.json holds the 3 metrics so far, still failed before out_close");
	tap_eq_str(str(m, "name"), "latency_ns", "metric name");
	tap_eq_str(str(json_object_get(m, "params"), "queues"), "4", "param queues is the string \"4\"");
	tap_eq_str(str(json_object_get(m, "params"), "size"), "64", "param size");
	tap_eq_str(str(m, "unit"), "ns", "unit");
	tap_eq_int((long long)num(m, "n"), 200, "n");
	tap_eq_dbl(num(m, "mean"), 100.5, 1e-9, "mean");
	tap_eq_dbl(num(m, "median"), 100.5, 1e-9, "median");
	tap_eq_dbl(num(m, "stddev"), 57.879184513951124, 1e-9, "stddev");
	tap_ok(num(m, "min") == 1 && num(m, "max") == 200, "min and max");
	tap_eq_dbl(num(m, "p99"), 198.01, 1e-9, "p99 with 200 samples");
	ci = json_object_get(m, "ci95");
	/* Binomial(200, 0.5): P(B <= 85) = 0.0200, P(B <= 86) = 0.0280 */
	tap_ok(num(ci, "lo") == 86 && num(ci, "hi") == 115 && !strcmp(str(ci, "of"), "median") &&
	       !strcmp(str(ci, "method"), "order statistics"),
	       "ci95 of the median of 1..200: [86, 115] by order statistics (got [%g, %g])",
	       num(ci, "lo"), num(ci, "hi"));
	m2 = json_array_get(json_object_get(j, "metrics"), 1);
	tap_ok(json_is_null(json_object_get(m2, "p99")) && num(m2, "median") == 2,
	       "p99 is null below STATS_P99_MIN_N samples, median still there");
	tap_ok(json_object_size(json_object_get(m2, "params")) == 0, "no params: empty object");
	tap_ok(json_is_null(json_object_get(m2, "ci95")),
	       "ci95 is null with 3 samples (the median's interval needs 6)");
	m0 = json_array_get(json_object_get(j, "metrics"), 2);
	tap_ok(num(m0, "n") == 0 && json_is_null(json_object_get(m0, "mean")),
	       "no samples: n 0 and null statistics");
	json_decref(j);

	tap_eq_int(out_metric(o, "latency_ns", (const char *[]){ "size", "64", "queues", "4", NULL },
			      "ns", lat, 10), -EEXIST, "same name and params twice: -EEXIST");
	tap_eq_int(out_metric(o, "odd", (const char *[]){ "queues", NULL }, "ns", lat, 10),
		   -EINVAL, "a param without value: -EINVAL");
	tap_eq_int(out_metric(o, "", NULL, "ns", lat, 10), -EINVAL, "empty metric name: -EINVAL");
	tap_eq_int(out_metric(o, "x", NULL, "", lat, 10), -EINVAL, "empty unit: -EINVAL");
	lat[5] = NAN;
	tap_eq_int(out_metric(o, "nan", NULL, "ns", lat, 10), -EINVAL, "a NaN sample: -EINVAL");

	tap_eq_int(out_close(o, NULL), 0, "out_close returns 0");
	j = load_summary();
	tap_ok(j && !strcmp(str(j, "status"), "ok") && !json_object_get(j, "reason") &&
	       !strcmp(str(j, "workload"), "taprio"), "after out_close: workload taprio, status ok, no reason");
	tap_eq_int(json_integer_value(json_object_get(j, "format_version")), OUT_FORMAT_VERSION,
		   "summary.json carries its format_version");
	tap_eq_int((long long)json_array_size(json_object_get(j, "metrics")), 3,
		   "rejected metrics were not added");
	json_decref(j);

	o = out_open(sub, "taprio");
	out_close(o, "qdisc setup failed");
	j = load_summary();
	tap_ok(j && !strcmp(str(j, "status"), "failed") &&
	       !strcmp(str(j, "reason"), "qdisc setup failed"), "out_close with a reason: failed");
	json_decref(j);
	tap_eq_int(temp_files(sub), 0, "no temporary file left behind");
	tap_ok(out_open("/nonexistent/dir/x", "w") == NULL, "out_open under a missing parent fails");
	tap_ok(out_open(sub, "a/b") == NULL, "workload name with '/' is rejected");
}

LAB_TEST(csv)
{
	const double x[] = { 1.5, 2.5, 3.5 };
	struct atomic_file af;
	char path[128], line[64];
	struct stat sb;
	FILE *f;
	int lines = 0;

	mkdir(sub, 0755);	/* made by out_open in the test before, unless run alone */
	tap_eq_int(csv_write_samples(sub, "lat.csv", "latency_ns", x, 3), 0, "csv_write_samples");
	snprintf(path, sizeof(path), "%s/lat.csv", sub);
	f = fopen(path, "r");
	tap_ok(f && fgets(line, sizeof(line), f) && !strcmp(line, "sample,latency_ns\n"),
	       "CSV starts with the header line sample,latency_ns");
	while (f && fgets(line, sizeof(line), f))
		lines++;
	tap_eq_int(lines, 3, "CSV has one line per sample after the header");
	if (f)
		fclose(f);

	tap_eq_int(csv_open(&af, sub, "rows.csv", "t_ns,queue,bytes"), 0, "csv_open");
	fprintf(af.f, "1,0,64\n");
	snprintf(path, sizeof(path), "%s/rows.csv", sub);
	tap_ok(stat(path, &sb) && errno == ENOENT, "nothing at the final path before commit");
	tap_eq_int(atomic_commit(&af), 0, "atomic_commit");
	tap_ok(stat(path, &sb) == 0 && sb.st_size == (off_t)strlen("t_ns,queue,bytes\n1,0,64\n"),
	       "after commit the file has the header and the row");
	tap_ok((sb.st_mode & 0777) == 0644, "committed file is mode 0644");

	csv_open(&af, sub, "dropped.csv", "a,b");
	atomic_abort(&af);
	snprintf(path, sizeof(path), "%s/dropped.csv", sub);
	tap_ok(stat(path, &sb) && temp_files(sub) == 0, "atomic_abort leaves neither file nor temporary");
	tap_eq_int(csv_open(&af, sub, "../x.csv", "a"), -EINVAL, "CSV name with '/' is rejected");
	tap_eq_int(csv_open(&af, sub, "x.csv", "a\nb"), -EINVAL, "multi-line header is rejected");
}

LAB_TEST(targets)
{
	char tdir[96], path[128];
	json_t *j, *t;
	json_error_t err;
	struct out *o;

	snprintf(tdir, sizeof(tdir), "%s/targets", dir);
	o = out_open(tdir, "ledjitter");
	if (!tap_ok(o != NULL, "out_open for the targets"))
		return;
	snprintf(path, sizeof(path), "%s/targets.json", tdir);
	j = json_load_file(path, 0, &err);
	tap_ok(json_is_array(j) && json_array_size(j) == 0, "targets.json right after out_open is []");
	json_decref(j);
	tap_eq_int(out_target(o, "drift within 1 ms per 1000 steps", 0.4, 1, "ms", TARGET_MET,
			      "0.4 <= 1"), 0, "out_target met");
	tap_eq_int(out_target(o, "p99 within cyclictest's", 900, 250, "us", TARGET_NOT_MET,
			      "900 > 250"), 0, "out_target not met");
	tap_eq_int(out_target(o, "abs_pattern interval", NAN, 250, "us", TARGET_NOT_JUDGED,
			      "no abs_pattern on this kernel"), 0, "out_target not judged, nothing measured");
	tap_eq_int(out_target(o, "x", 1, 1, "us", TARGET_MET, ""), -EINVAL,
		   "out_target without a reason: -EINVAL");
	j = json_load_file(path, 0, &err);
	tap_eq_int((long long)json_array_size(j), 3, "targets.json holds the 3 valid targets");
	t = json_array_get(j, 0);
	tap_ok(json_is_true(json_object_get(t, "met")) && num(t, "measured") == 0.4 &&
	       num(t, "limit") == 1 && !strcmp(str(t, "unit"), "ms") && !strcmp(str(t, "why"), "0.4 <= 1"),
	       "a met target: met true, measured, limit, unit, why");
	tap_ok(json_is_false(json_object_get(json_array_get(j, 1), "met")), "a target not met: met false");
	t = json_array_get(j, 2);
	tap_ok(json_is_null(json_object_get(t, "met")) && json_is_null(json_object_get(t, "measured")),
	       "a target not judged: met null, NAN measured written null");
	json_decref(j);
	tap_eq_int(out_close(o, NULL), 0, "out_close with targets");
	/* A results folder gone (a share unmounted) fails out_close; root too */
	o = out_open(tdir, "ledjitter");
	snprintf(path, sizeof(path), "%s/targets.gone", dir);
	rename(tdir, path);
	close(open(tdir, O_WRONLY | O_CREAT, 0644));
	tap_ok(o && out_close(o, NULL) != 0, "out_close fails when its folder is gone");
	unlink(tdir);
}

LAB_TEST(estimate)
{
	struct ci ci = { 0.2366, 0.7634, "fraction", "Wilson" };
	char edir[96], path[128];
	json_t *j, *m, *c;
	json_error_t err;
	struct out *o;

	snprintf(edir, sizeof(edir), "%s/estimate", dir);
	o = out_open(edir, "taprio");
	if (!tap_ok(o != NULL, "out_open for estimates"))
		return;
	tap_eq_int(out_estimate(o, "in_window_fraction", (const char *[]){ "class", "0", NULL },
				"fraction", 0.5, 10, &ci), 0, "out_estimate with an interval");
	tap_eq_int(out_estimate(o, "drift", NULL, "ms/1000 steps", 0.1, 2, NULL), 0,
		   "out_estimate without an interval");
	tap_eq_int(out_estimate(o, "drift", NULL, "ms/1000 steps", 0.1, 2, NULL), -EEXIST,
		   "out_estimate: same name and params twice: -EEXIST");
	tap_eq_int(out_estimate(o, "bad", NULL, "x", NAN, 2, NULL), -EINVAL,
		   "out_estimate of a NaN: -EINVAL");
	out_close(o, NULL);
	snprintf(path, sizeof(path), "%s/summary.json", edir);
	j = json_load_file(path, 0, &err);
	m = json_array_get(json_object_get(j, "metrics"), 0);
	c = json_object_get(m, "ci95");
	tap_ok(num(m, "median") == 0.5 && num(m, "n") == 10 && json_is_null(json_object_get(m, "stddev")),
	       "an estimate: median holds the value, n the observations, no spread fields");
	tap_ok(num(c, "lo") == 0.2366 && num(c, "hi") == 0.7634 && !strcmp(str(c, "method"), "Wilson") &&
	       !strcmp(str(c, "of"), "fraction"), "its ci95 as given, with what it is of and how");
	m = json_array_get(json_object_get(j, "metrics"), 1);
	tap_ok(m && json_is_null(json_object_get(m, "ci95")), "no interval given: ci95 null");
	tap_eq_int((long long)json_array_size(json_object_get(j, "metrics")), 2,
		   "refused estimates were not added");
	json_decref(j);
}

int main(int argc, char **argv)
{
	tap_tmpdir(dir);
	snprintf(sub, sizeof(sub), "%s/taprio", dir);
	return tap_main(argc, argv);
}

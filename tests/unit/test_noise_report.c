// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of `noise report` (build/noise, run from the repository's
 * root) on fixture runs written here: timerlat samples of 2 CPUs every
 * 10 ms (latencies base + 0..99 us in turn, the thread 20 us after its IRQ)
 * and osnoise periods with known noise by cause. The figures must be the
 * samples' own quantiles (computed here independently), the intervals must
 * come from half-second blocks and contain their estimate, the "hardware"
 * cause must be named by the accelerator, a period whose events were lost
 * must be left out, and each target must take each of its states: MET, NOT
 * MET, and not judged both when the interval straddles the limit (one
 * block of stalls) and when there is none (fewer than 5 blocks). Bad
 * command lines of `run` are refused before anything is touched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats.h"
#include "tap.h"

static const char *bin = "build/noise";
static char dir[] = "/tmp/test_noise.XXXXXX";

#define NCPU	2
#define STEP_NS	10000000LL	/* an activation every 10 ms */
#define T0	5000000000LL

struct fx {
	const char *name, *accel;
	int samples;		/* per CPU and context */
	double base;		/* the IRQ latencies: base + 0..99 us */
	int stall_block;	/* -1, or the half-second block whose samples are all 3000 us */
	bool busy;		/* a busy load too, 5 ms later than idle */
};

/* The IRQ latency (us) of activation @i of @cpu */
static double irq_lat(const struct fx *f, int cpu, int i, double base)
{
	if (f->stall_block >= 0 && i * STEP_NS / 500000000LL == f->stall_block)
		return 3000;
	return base + (i + 37 * cpu) % 100;
}

static void timerlat(const char *d, const struct fx *f, const char *load, double base)
{
	char name[64];
	FILE *out;
	int cpu, i;

	snprintf(name, sizeof(name), "timerlat-%s.csv", load);
	out = tap_fixture(d, name, "cpu,chunk,seq,context,latency_ns,t_ns");
	for (i = 0; i < f->samples; i++)
		for (cpu = 0; cpu < NCPU; cpu++) {
			double l = irq_lat(f, cpu, i, base);
			long long t = T0 + i * STEP_NS + cpu * 1000;

			fprintf(out, "%d,0,%d,irq,%.0f,%lld\n", cpu, i + 1, l * 1000, t);
			fprintf(out, "%d,0,%d,thread,%.0f,%lld\n", cpu, i + 1, (l + 20) * 1000, t + 1000);
		}
	fclose(out);
}

/*
 * 10 periods per CPU of 1 s: noise 100 us (irq 50, softirq 5, thread 10,
 * hardware 30 us); CPU 1's period 4 lost events
 */
static void osnoise(const char *d, const char *load)
{
	char name[64];
	FILE *out;
	int cpu, p;

	snprintf(name, sizeof(name), "osnoise-%s.csv", load);
	out = tap_fixture(d, name, "cpu,chunk,period,t_ns,runtime_us,noise_us,max_single_us,"
			  "hw_count,nmi_count,irq_count,softirq_count,thread_count,irq_ns,"
			  "softirq_ns,thread_ns,nmi_ns,unexplained_ns,samples,sample_ns,lost");
	for (p = 0; p < 10; p++)
		for (cpu = 0; cpu < NCPU; cpu++)
			fprintf(out, "%d,0,%d,%lld,1000000,100,%d,3,0,250,5,2,50000,5000,10000,0,"
				"30000,9,100000,%d\n", cpu, p, T0 + (p + 1) * 1000000000LL, 20 + p,
				cpu == 1 && p == 4 ? 7 : 0);
	fclose(out);
}

static void record(const char *d, const char *load, const char *accel)
{
	char name[64];
	FILE *out;

	snprintf(name, sizeof(name), "run-%s.json", load);
	out = tap_fixture(d, name, NULL);
	fprintf(out, "{\"format_version\": 1, \"load\": \"%s\", \"accel\": \"%s\"}\n", load, accel);
	fclose(out);
}

/* The fixture run @f in DIR/NAME, its report run; the report's exit code */
static int make_run(const struct fx *f, char *d, size_t len)
{
	char *argv[] = { (char *)bin, "report", "--out", d, NULL };

	snprintf(d, len, "%s/%s", dir, f->name);
	if (mkdir(d, 0755) && errno != EEXIST)
		tap_bail("cannot make %s", d);
	timerlat(d, f, "idle", f->base);
	osnoise(d, "idle");
	record(d, "idle", f->accel);
	if (f->busy) {
		timerlat(d, f, "busy", f->base + 5000);
		osnoise(d, "busy");
		record(d, "busy", f->accel);
	}
	return tap_run(argv, NULL);
}

static json_t *load_json(const char *d, const char *file)
{
	char path[1024];
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", d, file);
	j = json_load_file(path, 0, NULL);
	if (!j)
		tap_bail("no %s", path);
	return j;
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k)) ?: "";
}

/* The metric @name with params cpu, load and (unless NULL) context or cause */
static json_t *metric(json_t *sum, const char *name, const char *cpu, const char *load,
		      const char *key, const char *val)
{
	json_t *m, *p;
	size_t i;

	json_array_foreach(json_object_get(sum, "metrics"), i, m) {
		p = json_object_get(m, "params");
		if (!strcmp(str(m, "name"), name) && !strcmp(str(p, "cpu"), cpu) &&
		    !strcmp(str(p, "load"), load) && (!key || !strcmp(str(p, key), val)))
			return m;
	}
	return NULL;
}

static double num(json_t *o, const char *k)
{
	json_t *v = o ? json_object_get(o, k) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The target @name of DIR/targets.json */
static json_t *target(json_t *targets, const char *name)
{
	json_t *t;
	size_t i;

	json_array_foreach(targets, i, t)
		if (!strcmp(str(t, "target"), name))
			return t;
	return NULL;
}

/* The samples of context irq (thread: +20) on @cpu (-1: both) */
static size_t samples(const struct fx *f, int cpu, bool thread, double *x)
{
	size_t n = 0;
	int c, i;

	for (i = 0; i < f->samples; i++)
		for (c = 0; c < NCPU; c++)
			if (cpu < 0 || c == cpu)
				x[n++] = irq_lat(f, c, i, f->base) + (thread ? 20 : 0);
	return n;
}

static const struct fx quiet = { "quiet", "tcg", 1000, 10, -1, true };

/* The quiet run's folder, made and reported the first time a test asks */
static void quiet_run(char *d, size_t len)
{
	snprintf(d, len, "%s/%s/summary.json", dir, quiet.name);
	if (access(d, F_OK))
		make_run(&quiet, d, len);
	snprintf(d, len, "%s/%s", dir, quiet.name);
}

LAB_TEST(latency_quantiles)
{
	static double x[2 * NCPU * 1000];
	char d[512];
	json_t *sum, *m, *ci;
	size_t n;

	tap_eq_int(make_run(&quiet, d, sizeof(d)), 0, "report on a quiet run exits 0");
	sum = load_json(d, "summary.json");
	tap_eq_str(str(sum, "status"), "ok", "and its status is ok");
	n = samples(&quiet, 0, false, x);
	m = metric(sum, "timerlat_latency_p50_us", "0", "idle", "context", "irq");
	tap_eq_dbl(num(m, "median"), stats_percentile(x, n, 0.5), 1e-9,
		   "CPU 0, irq: p50 is the samples' median (us)");
	tap_eq_dbl(num(m, "n"), 1000, 0, "CPU 0, irq: n is its 1000 activations");
	ci = json_object_get(m, "ci95");
	tap_ok(num(ci, "lo") <= num(m, "median") && num(ci, "hi") >= num(m, "median") &&
	       !strcmp(str(ci, "method"), "cluster bootstrap"),
	       "CPU 0, irq: its interval contains it and is a cluster bootstrap ([%g, %g], %s)",
	       num(ci, "lo"), num(ci, "hi"), str(ci, "method"));
	n = samples(&quiet, -1, true, x);
	m = metric(sum, "timerlat_latency_p99_us", "all", "idle", "context", "thread");
	tap_eq_dbl(num(m, "median"), stats_percentile(x, n, 0.99), 1e-9,
		   "all CPUs, thread: p99 is the pooled samples' p99 (us)");
	tap_eq_dbl(num(m, "n"), 2000, 0, "all CPUs, thread: n is every CPU's activations");
	m = metric(sum, "timerlat_latency_max_us", "1", "busy", "context", "irq");
	tap_eq_dbl(num(m, "median"), 5000 + 10 + 99, 1e-9, "CPU 1, busy, irq: the max (us)");
	tap_ok(json_is_null(json_object_get(m, "ci95")), "the max has no interval");
	json_decref(sum);
}

/* A line of DIR/FILE that starts with @prefix, into @buf; false when none */
static bool line_of(const char *d, const char *file, const char *prefix, char *buf, size_t len,
		    bool last)
{
	char path[1024], line[512];
	bool found = false;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%s", d, file);
	in = fopen(path, "r");
	if (!in)
		return false;
	while (fgets(line, sizeof(line), in))
		if (!strncmp(line, prefix, strlen(prefix))) {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, "%s", line);
			found = true;
			if (!last)
				break;
		}
	fclose(in);
	return found;
}

LAB_TEST(figures_csv)
{
	char d[512], line[512], want[128];
	json_t *sum, *m;

	quiet_run(d, sizeof(d));
	sum = load_json(d, "summary.json");
	m = metric(sum, "timerlat_latency_p99_us", "all", "idle", "context", "irq");
	snprintf(want, sizeof(want), "idle,irq,all,0.99,%.3f,", num(m, "median"));
	tap_ok(line_of(d, "platform-latency.csv", want, line, sizeof(line), false),
	       "platform-latency.csv: the idle IRQ p99 over all CPUs, as in summary.json (%s)", want);
	tap_ok(line_of(d, "platform-latency.csv", "idle,irq,all,1,109.000,,,2000,20,", line,
		       sizeof(line), false), "platform-latency.csv: quantile 1 is the max, n 2000 in 20 "
	       "half-second blocks");
	m = metric(sum, "timerlat_latency_p99_us", "1", "busy", "context", "thread");
	snprintf(want, sizeof(want), "busy,thread,1,0.99,%.3f,%.3f,%.3f,1000,20,cluster bootstrap",
		 num(m, "median"), num(json_object_get(m, "ci95"), "lo"),
		 num(json_object_get(m, "ci95"), "hi"));
	tap_ok(line_of(d, "platform-latency.csv", want, line, sizeof(line), false),
	       "platform-latency.csv: CPU 1's busy thread p99 with its interval, as in summary.json "
	       "(%s)", want);
	tap_ok(line_of(d, "latency-cdf.csv", "idle,thread,", line, sizeof(line), true) &&
	       strstr(line, ",0.0005,129.000"), "latency-cdf.csv: the CCDF ends at the max, exceeded "
	       "by 1 in 2000 (%s)", line);
	tap_ok(line_of(d, "causes.csv", "idle,all,total,0,100.000,100.000,100.000,100.000,100.000,9",
		       line, sizeof(line), false),
	       "causes.csv: all CPUs' total noise, its interval, 9 whole periods (%s)", line);
	tap_ok(line_of(d, "causes.csv", "idle,0,host-tcg,5,30.000,30.000,30.000,30.000,30.000,10",
		       line, sizeof(line), false),
	       "causes.csv: CPU 0's noise no interference explains, named for TCG, last (%s)", line);
	json_decref(sum);
}

LAB_TEST(noise_by_cause)
{
	char d[512];
	json_t *sum, *m;

	quiet_run(d, sizeof(d));
	sum = load_json(d, "summary.json");
	m = metric(sum, "noise_us_per_s", "0", "idle", "cause", "total");
	tap_eq_dbl(num(m, "median"), 100, 1e-9, "CPU 0: total noise 100 us/s");
	tap_eq_dbl(num(m, "n"), 10, 0, "CPU 0: 10 periods");
	tap_eq_dbl(num(metric(sum, "noise_us_per_s", "0", "idle", "cause", "irq"), "median"), 50,
		   1e-9, "CPU 0: IRQ noise 50 us/s");
	tap_eq_dbl(num(metric(sum, "noise_us_per_s", "0", "idle", "cause", "softirq"), "median"), 5,
		   1e-9, "CPU 0: softirq noise 5 us/s");
	m = metric(sum, "noise_us_per_s", "0", "idle", "cause", "host-tcg");
	tap_eq_dbl(num(m, "median"), 30, 1e-9,
		   "CPU 0: the noise no interference explains, under TCG named host-tcg: 30 us/s");
	tap_eq_dbl(num(metric(sum, "noise_us_per_s", "1", "idle", "cause", "total"), "n"), 9, 0,
		   "CPU 1: the period that lost events is left out (9 of 10)");
	tap_eq_dbl(num(metric(sum, "noise_us_per_s", "all", "idle", "cause", "thread"), "n"), 9, 0,
		   "all CPUs: only the periods every CPU has whole (9)");
	tap_eq_dbl(num(metric(sum, "noise_max_single_us", "0", "idle", NULL, NULL), "max"), 29,
		   1e-9, "CPU 0: the longest single gap of its periods (us)");
	tap_eq_dbl(num(metric(sum, "osnoise_periods_left_out", "", "idle", NULL, NULL), "median"), 1,
		   0, "the periods left out are counted: 1");
	json_decref(sum);
}

LAB_TEST(accelerators)
{
	static const struct {
		const char *accel, *cause;
	} names[] = { { "kvm", "hypervisor-kvm" }, { "none", "hardware" },
		      { "unknown", "hardware-or-host" } };
	char d[512], name[32];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		struct fx f = quiet;
		json_t *sum;

		snprintf(name, sizeof(name), "accel-%s", names[i].accel);
		f.name = name;
		f.accel = names[i].accel;
		f.busy = false;
		make_run(&f, d, sizeof(d));
		sum = load_json(d, "summary.json");
		tap_ok(metric(sum, "noise_us_per_s", "0", "idle", "cause", names[i].cause) != NULL,
		       "accel %s: the noise no interference explains is named %s", names[i].accel,
		       names[i].cause);
		json_decref(sum);
	}
}

/* Run @f and return target @name's "met" (true, false or null) */
static json_t *verdict(const struct fx *f, const char *name, char *why, size_t len)
{
	char d[512];
	json_t *t, *v, *targets;

	make_run(f, d, sizeof(d));
	targets = load_json(d, "targets.json");
	t = target(targets, name);
	snprintf(why, len, "%s", t ? str(t, "why") : "no such target");
	v = json_incref(t ? json_object_get(t, "met") : NULL);
	json_decref(targets);
	return v;
}

LAB_TEST(targets)
{
	struct fx late = { "late", "tcg", 1000, 2000, -1, false };
	struct fx stall = { "stall", "tcg", 1000, 10, 7, false };
	struct fx brief = { "brief", "tcg", 200, 10, -1, false };
	char why[512];
	json_t *v;

	v = verdict(&quiet, "platform_irq_latency_p99", why, sizeof(why));
	tap_ok(json_is_true(v), "idle IRQ p99 109 us against 1000: MET (%s)", why);
	json_decref(v);
	v = verdict(&late, "platform_thread_latency_p99", why, sizeof(why));
	tap_ok(json_is_false(v), "idle thread p99 2119 us against 1000: NOT MET (%s)", why);
	json_decref(v);
	v = verdict(&stall, "platform_irq_latency_p99", why, sizeof(why));
	tap_ok(json_is_null(v) && strstr(why, "straddles"), "one half-second block of 3000 us "
	       "stalls: p99 3000 us but its interval straddles 1000: not judged (%s)", why);
	json_decref(v);
	v = verdict(&brief, "platform_irq_latency_p99", why, sizeof(why));
	tap_ok(json_is_null(v) && strstr(why, "fewer than 5 blocks"),
	       "2 s of samples, 4 blocks: no interval, not judged (%s)", why);
	json_decref(v);
}

LAB_TEST(pure_function)
{
	char d[512], path[1300], again[600];
	char *argv[] = { (char *)bin, "report", "--out", d, NULL };
	int rc;

	quiet_run(d, sizeof(d));
	snprintf(path, sizeof(path), "%s/summary.json", d);
	snprintf(again, sizeof(again), "%s/first.json", d);
	rename(path, again);
	tap_eq_int(tap_run(argv, NULL), 0, "report run again on the same folder exits 0");
	snprintf(path, sizeof(path), "cmp -s %s/summary.json %s", d, again);
	rc = system(path);
	tap_eq_int(rc, 0, "and writes the same summary.json");
}

LAB_TEST(failures)
{
	char d[512], err[600];
	char *argv[] = { (char *)bin, "report", "--out", d, "--failed", "conformance: 2 case(s) "
			 "failed", NULL };
	json_t *sum;

	snprintf(d, sizeof(d), "%s/empty", dir);
	mkdir(d, 0755);
	snprintf(err, sizeof(err), "%s/empty.err", dir);
	tap_eq_int(tap_run(argv, err), 1, "report of a folder where nothing ran exits 1");
	sum = load_json(d, "summary.json");
	tap_eq_str(str(sum, "status"), "failed", "its status is failed");
	tap_ok(strstr(str(sum, "reason"), "conformance: 2 case(s) failed") &&
	       strstr(str(sum, "reason"), "nothing ran"),
	       "the reason has the driver's failure, then the report's (%s)", str(sum, "reason"));
	json_decref(sum);
}

/* `run` refuses bad input before it touches the kernel: exit 2, the value named */
LAB_TEST(run_bad_input)
{
	static const char *const bad[][3] = {
		{ "--load", "Busy!", "'Busy!'" },
		{ "--seconds", "0", "'0'" },
		{ "--tracer", "hwlat", "'hwlat'" },
		{ "--period-us", "50", "'50'" },
		{ "--accel", "xen", "'xen'" },
	};
	char err[600], d[512], line[512];
	size_t i;

	snprintf(d, sizeof(d), "%s/bad", dir);
	snprintf(err, sizeof(err), "%s/bad.err", dir);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *argv[] = { (char *)bin, "run", "--out", d, (char *)bad[i][0], (char *)bad[i][1],
				 NULL };
		FILE *in;
		bool named = false;

		tap_eq_int(tap_run(argv, err), 2, bad[i][0]);
		in = fopen(err, "r");
		while (in && fgets(line, sizeof(line), in))
			named |= strstr(line, bad[i][2]) != NULL;
		if (in)
			fclose(in);
		tap_ok(named, "run %s %s: the message names %s", bad[i][0], bad[i][1], bad[i][2]);
	}
	tap_ok(access(d, F_OK) != 0, "and no results folder was made");
}

int main(int argc, char **argv)
{
	if (access(bin, X_OK))
		tap_bail("%s is not built (make all)", bin);
	tap_tmpdir(dir);
	return tap_main(argc, argv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * labhost - the host's load while a guest runs, from the host's /proc.
 *
 * labhost sample --pid PID --out FILE [--interval S]
 *	Every S seconds (2) until process PID is gone, one CSV row into FILE:
 *	t_s (since the start), ours_pct (the CPU that PID and its children
 *	used: the guest's QEMU), others_pct (the CPU everything else used),
 *	both in % of all the host's CPUs, load1 (/proc/loadavg) and
 *	other_qemu (QEMU processes running that are not PID's).
 *
 * labhost summary --load FILE [--progress FILE]
 *	Prints the load as JSON: its median and maximum over the run, and per
 *	step and phase of the guest's job (the run's progress.log, whose
 *	seconds count from QEMU's start as t_s does), and whether the host was
 *	busy: others used at least BUSY_PCT % of its CPU (median) while a
 *	workload ran, or another QEMU ran beside this one.
 *
 * Under TCG a vCPU stalls whenever the host runs something else, so a
 * timing figure measured on a busy host carries that host's noise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "output.h"
#include "stats.h"

#define BUSY_PCT 10.0

/* busy and total jiffies of all CPUs (/proc/stat's first line) */
static int host_jiffies(double *busy, double *total)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (n < 8)
		return -EIO;
	/* user nice system idle iowait irq softirq steal (guest is in user) */
	*total = (double)(v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]);
	*busy = *total - (double)(v[3] + v[4]);
	return 0;
}

/* pid, comm, ppid and utime + stime of one /proc/PID/stat */
struct proc {
	int pid, ppid;
	char comm[32];
	double jiffies;
};

static int read_proc(int pid, struct proc *p)
{
	char path[64], buf[1024], *c;
	unsigned long long ut = 0, st = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* pid (comm) state ppid ... field 14 utime, 15 stime; comm may hold ')' */
	c = strrchr(buf, ')');
	if (!c || !strchr(buf, '('))
		return -1;
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(c - strchr(buf, '(') - 1), strchr(buf, '(') + 1);
	if (sscanf(c + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &p->ppid, &ut, &st) != 3)
		return -1;
	p->jiffies = (double)(ut + st);
	return 0;
}

/* The processes, read once per sample */
static size_t read_procs(struct proc **out)
{
	size_t n = 0, cap = 256;
	struct proc *p = lab_calloc(cap, sizeof(*p), "processes");
	struct dirent *d;
	DIR *dir = opendir("/proc");

	while (dir && (d = readdir(dir))) {
		int pid = atoi(d->d_name);

		if (pid <= 0)
			continue;
		if (n == cap) {
			cap *= 2;
			p = lab_realloc(p, cap, sizeof(*p), "processes");
		}
		if (!read_proc(pid, &p[n]))
			n++;
	}
	if (dir)
		closedir(dir);
	*out = p;
	return n;
}

/* whether process @i descends from @root (or is it) */
static bool in_tree(const struct proc *p, size_t n, size_t i, int root)
{
	int pid = p[i].pid, hops;
	size_t k;

	for (hops = 0; hops < 64 && pid > 1; hops++) {
		if (pid == root)
			return true;
		for (k = 0; k < n && p[k].pid != pid; k++)
			;
		if (k == n)
			return false;
		pid = p[k].ppid;
	}
	return false;
}

/* The CPU jiffies of @root and its descendants in *ours; returns the number
 * of other QEMU processes */
static int ours_now(int root, double *ours)
{
	struct proc *p;
	size_t n = read_procs(&p), i;
	int others = 0;

	*ours = 0;
	for (i = 0; i < n; i++) {
		if (in_tree(p, n, i, root))
			*ours += p[i].jiffies;
		else if (!strncmp(p[i].comm, "qemu-system", 11))
			others++;
	}
	free(p);
	return others;
}

static double load1(void)
{
	double l = NAN;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = NAN;
		fclose(f);
	}
	return l;
}

static int cmd_sample(int argc, char **argv)
{
	unsigned long long pid = 0;
	double interval = 2, busy0, total0, ours0 = 0, t0;
	const char *out = NULL;
	const struct lab_opt opts[] = {
		LAB_OPT_U64("pid", &pid, 1, 4194304, "the guest's QEMU (or the command running it)"),
		LAB_OPT_STR("out", &out, "FILE", "the samples, CSV", true),
		LAB_OPT_DBL("interval", &interval, 0.1, 60, "seconds between samples (2)"),
		LAB_OPT_END
	};
	struct timespec ts;
	FILE *f;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	if (!pid)
		lab_usage_error("--pid is required");
	f = fopen(out, "w");
	if (!f)
		lab_die("cannot write %s: %s", out, strerror(errno));
	fprintf(f, "t_s,ours_pct,others_pct,load1,other_qemu\n");
	fflush(f);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (host_jiffies(&busy0, &total0))
		lab_die("cannot read /proc/stat");
	ours_now((int)pid, &ours0);
	while (!kill((pid_t)pid, 0)) {
		double busy, total, ours, dt;
		int others;

		usleep((useconds_t)(interval * 1e6));
		others = ours_now((int)pid, &ours);
		if (host_jiffies(&busy, &total))
			break;
		dt = total - total0;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (dt > 0)
			fprintf(f, "%.1f,%.1f,%.1f,%.2f,%d\n",
				(double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - t0,
				100 * (ours - ours0) / dt,
				fmax(0, 100 * ((busy - busy0) - (ours - ours0)) / dt), load1(), others);
		fflush(f);
		busy0 = busy;
		total0 = total;
		ours0 = ours;
	}
	return fclose(f) ? 1 : 0;
}

/* The guest's job, from progress.log: step and phase intervals */
struct span {
	double from, to;
	char *step, *phase;
};

static size_t read_spans(const char *path, struct span **out)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	struct span *s = NULL;
	size_t n = 0, cap = 0;
	char line[512], step[128] = "", phase[128] = "";
	double last = 0, t;

	*out = NULL;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char kind[16] = "", a[128] = "", b[128] = "";

		if (line[0] == '#' || sscanf(line, "%lf %15s %127s %127s", &t, kind, a, b) < 2)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			s = lab_realloc(s, cap, sizeof(*s), "progress");
		}
		/* the span from the last event to this one */
		s[n++] = (struct span){ last, t, strdup(step), strdup(phase) };
		last = t;
		if (!strcmp(kind, "start"))
			snprintf(step, sizeof(step), "%s", a);
		else if (!strcmp(kind, "end"))
			step[0] = phase[0] = 0;
		else if (!strcmp(kind, "phase"))
			snprintf(phase, sizeof(phase), "%s", b);
		else if (!strcmp(kind, "phase-end"))
			phase[0] = 0;
	}
	fclose(f);
	*out = s;
	return n;
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* {others_pct: median, max; load1: median, max; other_qemu: max; n} */
static json_t *load_of(const double *others, const double *load, const double *qemu, size_t n)
{
	double qmax = 0;
	size_t i;

	for (i = 0; i < n; i++)
		qmax = fmax(qmax, qemu[i]);
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:f}", "n", (json_int_t)n,
			 "others_pct_median", num(stats_median(others, n)),
			 "others_pct_max", num(stats_percentile(others, n, 1)),
			 "load1_median", num(stats_median(load, n)),
			 "load1_max", num(stats_percentile(load, n, 1)), "other_qemu_max", qmax);
}

static int cmd_summary(int argc, char **argv)
{
	const char *load = NULL, *progress = NULL;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("load", &load, "FILE", "labhost sample's CSV", true),
		LAB_OPT_STR("progress", &progress, "FILE", "the run's progress.log", false),
		LAB_OPT_END
	};
	struct csv c;
	size_t n = 0, cap = 256, ns, i, k, nw = 0;
	double *t, *ot, *ld, *qm, *w_ot, *w_ld, *w_qm;
	char **key;
	struct span *sp;
	json_t *root, *phases = json_object(), *wl;
	int ct, co, cl, cq;
	bool busy;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	if (csv_read_open(&c, load))
		lab_die("cannot read %s", load);
	ct = csv_col(&c, "t_s");
	co = csv_col(&c, "others_pct");
	cl = csv_col(&c, "load1");
	cq = csv_col(&c, "other_qemu");
	if (ct < 0 || co < 0 || cl < 0 || cq < 0)
		lab_die("%s: not labhost sample's CSV", load);
	t = lab_calloc(cap, sizeof(*t), "samples");
	ot = lab_calloc(cap, sizeof(*ot), "samples");
	ld = lab_calloc(cap, sizeof(*ld), "samples");
	qm = lab_calloc(cap, sizeof(*qm), "samples");
	while (csv_next(&c) > 0) {
		if (n == cap) {
			cap *= 2;
			t = lab_realloc(t, cap, sizeof(*t), "samples");
			ot = lab_realloc(ot, cap, sizeof(*ot), "samples");
			ld = lab_realloc(ld, cap, sizeof(*ld), "samples");
			qm = lab_realloc(qm, cap, sizeof(*qm), "samples");
		}
		t[n] = strtod(csv_field(&c, ct), NULL);
		ot[n] = strtod(csv_field(&c, co), NULL);
		ld[n] = strtod(csv_field(&c, cl), NULL);
		qm[n] = strtod(csv_field(&c, cq), NULL);
		n++;
	}
	csv_read_close(&c);
	ns = read_spans(progress, &sp);
	key = lab_calloc(n ? n : 1, sizeof(*key), "samples");
	w_ot = lab_calloc(n ? n : 1, sizeof(*w_ot), "samples");
	w_ld = lab_calloc(n ? n : 1, sizeof(*w_ld), "samples");
	w_qm = lab_calloc(n ? n : 1, sizeof(*w_qm), "samples");
	/* each sample's step and phase; the samples of workload steps */
	for (i = 0; i < n; i++) {
		for (k = 0; k < ns && !(t[i] >= sp[k].from && t[i] < sp[k].to); k++)
			;
		if (k == ns || !sp[k].step[0])
			continue;
		if (asprintf(&key[i], "%s%s%s", sp[k].step, sp[k].phase[0] ? " " : "", sp[k].phase) < 0)
			lab_die("out of memory");
		if (!strncmp(sp[k].step, "wl-", 3)) {
			w_ot[nw] = ot[i];
			w_ld[nw] = ld[i];
			w_qm[nw++] = qm[i];
		}
	}
	/* per step and phase, in the order they came */
	for (i = 0; i < n; i++) {
		double *a, *b, *q;
		size_t m = 0;

		if (!key[i] || json_object_get(phases, key[i]))
			continue;
		a = lab_calloc(n, sizeof(*a), "samples");
		b = lab_calloc(n, sizeof(*b), "samples");
		q = lab_calloc(n, sizeof(*q), "samples");
		for (k = i; k < n; k++)
			if (key[k] && !strcmp(key[k], key[i])) {
				a[m] = ot[k];
				b[m] = ld[k];
				q[m++] = qm[k];
			}
		json_object_set_new(phases, key[i], load_of(a, b, q, m));
		free(a);
		free(b);
		free(q);
	}
	wl = nw ? load_of(w_ot, w_ld, w_qm, nw) : json_null();
	busy = nw && (stats_median(w_ot, nw) >= BUSY_PCT || json_real_value(json_object_get(wl, "other_qemu_max")) >= 1);
	root = json_pack("{s:o, s:o, s:o, s:b, s:s}", "run", n ? load_of(ot, ld, qm, n) : json_null(),
			 "workloads", wl, "phases", phases, "busy", busy,
			 "rule", "busy: while the workloads ran, everything but this guest's QEMU used at least 10 % of the host's CPU (median of the samples), or another QEMU ran");
	json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4));
	printf("\n");
	json_decref(root);
	for (i = 0; i < n; i++)
		free(key[i]);
	for (k = 0; k < ns; k++) {
		free(sp[k].step);
		free(sp[k].phase);
	}
	free(sp);
	free(key);
	free(t);
	free(ot);
	free(ld);
	free(qm);
	free(w_ot);
	free(w_ld);
	free(w_qm);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct lab_verb verbs[] = {
		{ "sample", cmd_sample, "the host's load every few seconds while a guest runs" },
		{ "summary", cmd_summary, "the load of a run, overall and per step and phase, as JSON" },
		{ NULL },
	};

	return lab_main("labhost", verbs, argc, argv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The clock records of a run, for the report: phc2sys's log (phc2sys.log)
 * and the free-running ptp4l slave's (ptp4l-slave.log) parsed into
 * sync-phc2sys.csv and sync-ptp4l.csv, the workload's own PHC - CLOCK_TAI
 * readings (sync-workload.csv, from run), sync.csv for the figure, and
 * servo_self_consistency_ns of each. The emulated PHC and CLOCK_TAI run on
 * the guest's one oscillator: the offsets show how consistently the servo
 * follows an error the lab gave the PHC, not how well two independent
 * clocks are synchronized.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"
#include "output.h"
#include "taprio.h"

#define MAX_TOKENS 16

/* One log's offsets: the time of each line (ms from the first) and its fields */
struct sync_log {
	struct vec t_s, offset;
	char **rows;		/* the CSV row after t_s, as the log has the fields */
	size_t n;
};

/* Split @line at blanks into at most MAX_TOKENS tokens (in place); their number */
static int tokens(char *line, char **tok)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t\n", &save); t && n < MAX_TOKENS; t = strtok_r(NULL, " \t\n", &save))
		tok[n++] = t;
	return n;
}

/* The time in "NAME[12.345]:", ms; -1 when there is none */
static long long log_ms(const char *tok)
{
	const char *b = strchr(tok, '[');
	char *end;
	double t;

	if (!b)
		return -1;
	t = strtod(b + 1, &end);
	return *end == ']' ? llround(t * 1000) : -1;
}

/*
 * The lines of @dir/@name whose token @key[k] is @key[k + 1] for each pair
 * (a token index as a digit, then the word), with the fields @fields (token
 * indexes, the first the offset) as the row of each
 */
static int read_log(const char *dir, const char *name, const char *match, const int *fields,
		    int nfields, struct sync_log *lg)
{
	char path[4096], *line = NULL, *tok[MAX_TOKENS], row[512];
	long long t0 = -1, t;
	size_t len = 0;
	FILE *f;
	int n, k;

	memset(lg, 0, sizeof(*lg));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -ENOENT;
	while (getline(&line, &len, f) > 0) {
		const char *m = match;
		bool ok = true;

		n = tokens(line, tok);
		/* match: "INDEX=WORD INDEX=WORD ..." */
		while (ok && *m) {
			int i = m[0] - '0';
			size_t wl = strcspn(m + 2, " ");

			ok = i < n && strlen(tok[i]) == wl && !strncmp(tok[i], m + 2, wl);
			m += 2 + wl + (m[2 + wl] == ' ');
		}
		t = n ? log_ms(tok[0]) : -1;
		if (!ok || t < 0 || fields[nfields - 1] >= n)
			continue;
		if (t0 < 0)
			t0 = t;
		row[0] = 0;
		for (k = 0; k < nfields; k++)
			snprintf(row + strlen(row), sizeof(row) - strlen(row), ",%s", tok[fields[k]]);
		vpush(&lg->t_s, (double)(t - t0) / 1e3);
		vpush(&lg->offset, strtod(tok[fields[0]], NULL));
		lg->rows = lab_realloc(lg->rows, lg->n + 1, sizeof(*lg->rows), "log rows");
		lg->rows[lg->n++] = lab_calloc(strlen(row) + 1, 1, "a log row");
		strcpy(lg->rows[lg->n - 1], row);
	}
	free(line);
	fclose(f);
	return 0;
}

static void free_log(struct sync_log *lg)
{
	size_t i;

	for (i = 0; i < lg->n; i++)
		free(lg->rows[i]);
	free(lg->rows);
	free(lg->t_s.x);
	free(lg->offset.x);
}

/* @lg into @dir/@name with @header (t_s first) */
static int write_log(const char *dir, const char *name, const char *header, const struct sync_log *lg)
{
	struct atomic_file af;
	size_t i;
	int rc = csv_open(&af, dir, name, header);

	for (i = 0; !rc && i < lg->n; i++)
		fprintf(af.f, "%.3f%s\n", lg->t_s.x[i], lg->rows[i]);
	return rc ? rc : atomic_commit(&af);
}

/* servo_self_consistency_ns of @lg's offsets from @skip_s on */
static void servo_metric(struct out *o, const struct sync_log *lg, double skip_s,
			 const char *source, const char *clocks)
{
	struct vec v = { 0 };
	size_t i;

	for (i = 0; i < lg->offset.n; i++)
		if (!(lg->t_s.x[i] < skip_s))
			vpush(&v, lg->offset.x[i]);
	if (v.n)
		report_metric(o, "servo_self_consistency_ns", (const char *[]){ "source", source,
				      "clocks", clocks, "oscillators", "one", NULL }, "ns", v.x, v.n);
	free(v.x);
}

/* The workload's readings, sync-workload.csv (t_s, offset_ns), into @lg */
static int read_workload(const char *dir, struct sync_log *lg)
{
	struct csv c;
	int ct, co, rc;

	memset(lg, 0, sizeof(*lg));
	rc = csv_open_in(&c, dir, "sync-workload.csv");
	if (rc)
		return rc;
	ct = csv_col(&c, "t_s");
	co = csv_col(&c, "offset_ns");
	while (csv_next(&c) > 0) {
		double t = fnum(&c, ct), v = fnum(&c, co);

		if (isnan(t) || isnan(v))
			continue;
		vpush(&lg->t_s, t);
		vpush(&lg->offset, v);
	}
	csv_read_close(&c);
	return 0;
}

/* sync.csv: source,t_s,offset_ns of phc2sys and the workload, for the figure */
static int write_sync_figure(const char *dir, const struct sync_log *p2s, const struct sync_log *wl)
{
	struct atomic_file af;
	size_t i;
	int rc = csv_open(&af, dir, "sync.csv", "source,t_s,offset_ns");

	if (rc)
		return rc;
	for (i = 0; i < p2s->n; i++)
		fprintf(af.f, "phc2sys,%.3f,%.0f\n", p2s->t_s.x[i], p2s->offset.x[i]);
	for (i = 0; i < wl->t_s.n; i++)
		fprintf(af.f, "workload,%.6f,%.0f\n", wl->t_s.x[i], wl->offset.x[i]);
	return atomic_commit(&af);
}

int report_sync(struct out *o, const char *dir)
{
	/* phc2sys[20.653]: CLOCK_REALTIME phc offset  -1280242 s0 freq      +0 delay    760 */
	static const int p2s_fields[] = { 4, 5, 7, 9 };
	/* ptp4l[12.345]: master offset -1234 s0 freq +0 path delay 5678 */
	static const int ptp_fields[] = { 3, 9 };
	struct sync_log p2s, ptp, wl;
	int rc = 0, have_p2s, have_ptp, have_wl;

	have_wl = !read_workload(dir, &wl);
	have_p2s = !read_log(dir, "phc2sys.log", "2=phc 3=offset 6=freq", p2s_fields, 4, &p2s);
	have_ptp = !read_log(dir, "ptp4l-slave.log", "1=master 2=offset 7=path", ptp_fields, 2, &ptp);
	if (have_wl)
		servo_metric(o, &wl, -1, "workload", "PHC-CLOCK_TAI");
	if (have_p2s) {
		servo_metric(o, &p2s, 5, "phc2sys", "CLOCK_REALTIME-PHC");
		rc = write_log(dir, "sync-phc2sys.csv", "t_s,offset_ns,state,freq_ppb,delay_ns", &p2s);
		if (!rc)
			rc = write_sync_figure(dir, &p2s, &wl);
	}
	if (have_ptp) {
		servo_metric(o, &ptp, 5, "ptp4l", "eth1-eth0 (software)");
		if (!rc)
			rc = write_log(dir, "sync-ptp4l.csv", "t_s,offset_ns,path_delay_ns", &ptp);
	}
	if (have_p2s)
		free_log(&p2s);
	if (have_ptp)
		free_log(&ptp);
	if (have_wl)
		free_log(&wl);
	if (rc)
		fprintf(stderr, "%s: the clock records of %s could not be written: %s\n", lab_prog,
			dir, strerror(-rc));
	return rc;
}

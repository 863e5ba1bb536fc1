// SPDX-License-Identifier: GPL-2.0
/*
 * Reading back what a run left in the results folder: the cells
 * (cells-LOAD.csv), each cell's uleds reads (user-CELL.csv), and the kernel
 * observer's events (probe-led_timer.csv, and the lost_events row of
 * probe-led_timer-maps.csv).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "ledjitter.h"

static char *dup_text(const struct csv *c, const char *text)
{
	char *s = strdup(text);

	if (!s)
		lab_die("out of memory reading %s", c->path);
	return s;
}

static char *dup_field(const struct csv *c, int col)
{
	return dup_text(c, csv_field(c, col));
}

/* The columns of cells-LOAD.csv, in the order run writes them */
static const char *const cell_cols[] = {
	"cell", "mode", "step_ms", "load", "steps", "repeat", "pattern", "led",
	"t_open_ns", "t_start_ns", "t_written_ns", "t_end_ns", "hz", "reads", "status",
};
#define NCELL_COLS (sizeof(cell_cols) / sizeof(*cell_cols))

/*
 * The mode of a cell: the trigger file it ran through. The lab's 6.1 series
 * named its absolute trigger hr_pattern before it was renamed abs_pattern,
 * and runs of a 6.1 kernel then wrote "hr_pattern" for it: those are read
 * as abs_pattern. A cell's kernel is in the kernel column (the release, as
 * uname -r gives it); runs made before that column was added are all of the
 * 6.1 kernels (the lab booted no other then). On a kernel of 6.10 or later
 * hr_pattern is mainline's, another timing, and stays hr_pattern.
 */
static void cell_from_row(const struct csv *c, const int *col, int kcol, struct cell *x)
{
	const char *kernel = kcol >= 0 ? csv_field(c, kcol) : "";

	x->cell = dup_field(c, col[0]);
	x->mode = dup_field(c, col[1]);
	if (!strcmp(x->mode, mode_names[MODE_HR]) && !release_has_mainline_hr(kernel)) {
		free(x->mode);
		x->mode = dup_text(c, mode_names[MODE_ABS]);
	}
	x->step_ms = (unsigned int)strtoul(csv_field(c, col[2]), NULL, 10);
	x->load = dup_field(c, col[3]);
	x->steps = strtol(csv_field(c, col[4]), NULL, 10);
	x->repeat = atoi(csv_field(c, col[5]));
	x->pattern = dup_field(c, col[6]);
	x->led = dup_field(c, col[7]);
	x->t_open = strtoull(csv_field(c, col[8]), NULL, 10);
	x->t_start = strtoull(csv_field(c, col[9]), NULL, 10);
	x->t_written = strtoull(csv_field(c, col[10]), NULL, 10);
	x->t_end = strtoull(csv_field(c, col[11]), NULL, 10);
	x->hz = (unsigned int)strtoul(csv_field(c, col[12]), NULL, 10);
	x->status = dup_field(c, col[14]);
}

/* The cells of one cells-LOAD.csv appended to *@cells; exits 1 on a bad file */
static size_t load_cells_file(const char *path, struct cell **cells, size_t n)
{
	int col[NCELL_COLS], kcol, nf;
	struct csv c;
	size_t i;

	if (csv_read_open(&c, path))
		lab_die("cannot read the cells of %s", path);
	for (i = 0; i < NCELL_COLS; i++) {
		col[i] = csv_col(&c, cell_cols[i]);
		if (col[i] < 0)
			lab_die("%s: no column '%s' in the header", path, cell_cols[i]);
	}
	kcol = csv_col(&c, "kernel");
	while ((nf = csv_next(&c)) > 0) {
		if ((size_t)nf < NCELL_COLS || nf <= kcol)
			continue;
		*cells = lab_realloc(*cells, n + 1, sizeof(**cells), "cells");
		cell_from_row(&c, col, kcol, &(*cells)[n++]);
	}
	if (nf < 0)
		lab_die("cannot read the cells of %s", path);
	csv_read_close(&c);
	return n;
}

/* Every cells-*.csv of @dir, in name order; the count */
size_t load_cells(const char *dir, struct cell **out)
{
	struct dirent **names;
	struct cell *cells = NULL;
	char path[PATH_MAX];
	size_t n = 0;
	int nn, i;

	nn = scandir(dir, &names, NULL, alphasort);
	if (nn < 0)
		lab_die("cannot read %s: %s", dir, strerror(errno));
	for (i = 0; i < nn; i++) {
		const char *d = names[i]->d_name;
		size_t dl = strlen(d);

		if (!strncmp(d, "cells-", 6) && dl >= 10 && !strcmp(d + dl - 4, ".csv")) {
			snprintf(path, sizeof(path), "%s/%s", dir, d);
			n = load_cells_file(path, &cells, n);
		}
		free(names[i]);
	}
	free(names);
	*out = cells;
	return n;
}

void free_cells(struct cell *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(cells[i].cell);
		free(cells[i].mode);
		free(cells[i].load);
		free(cells[i].pattern);
		free(cells[i].led);
		free(cells[i].status);
	}
	free(cells);
}

/* The uleds reads of @cell (DIR/user-CELL.csv) into @r; none when it is missing */
void load_user_reads(const char *dir, const char *cell, struct reads *r)
{
	char path[PATH_MAX];
	struct csv c;
	int ct, cb, nf;

	snprintf(path, sizeof(path), "%s/user-%s.csv", dir, cell);
	if (access(path, F_OK) || csv_read_open(&c, path))
		return;
	ct = csv_col(&c, "t_ns");
	cb = csv_col(&c, "brightness");
	while (ct >= 0 && cb >= 0 && (nf = csv_next(&c)) > 0)
		if (nf >= 3)
			reads_add(r, strtoull(csv_field(&c, ct), NULL, 10), atoi(csv_field(&c, cb)));
	csv_read_close(&c);
}

static int cmp_kevent(const void *a, const void *b)
{
	uint64_t x = ((const struct kevent *)a)->t, y = ((const struct kevent *)b)->t;

	return x < y ? -1 : x > y;
}

static int cmp_ktimer(const void *a, const void *b)
{
	uint64_t x = ((const struct ktimer *)a)->t, y = ((const struct ktimer *)b)->t;

	return x < y ? -1 : x > y;
}

static int led_index(struct kevents *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nleds; i++)
		if (!strcmp(k->leds[i], name))
			return (int)i;
	k->leds = lab_realloc(k->leds, k->nleds + 1, sizeof(*k->leds), "LED names");
	k->leds[k->nleds] = strdup(name);
	if (!k->leds[k->nleds])
		lab_die("out of memory for LED names");
	return (int)k->nleds++;
}

static void add_timer(struct ktimer **v, size_t *n, size_t *cap, uint64_t t, long long late,
		      uint64_t expires)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		*v = lab_realloc(*v, *cap, sizeof(**v), "timer events");
	}
	(*v)[*n].t = t;
	(*v)[*n].expires = expires;
	(*v)[(*n)++].late = late;
}

/* One row of the probe's CSV; @col: event, t_ns, led, value, late_ticks, late_ns */
static void probe_row(struct kevents *k, const struct csv *c, const int *col)
{
	const char *ev = csv_field(c, col[0]);
	uint64_t t = strtoull(csv_field(c, col[1]), NULL, 10);

	if (!strcmp(ev, "set")) {
		if (k->nset == k->capset) {
			k->capset = k->capset ? 2 * k->capset : 4096;
			k->set = lab_realloc(k->set, k->capset, sizeof(*k->set), "LED events");
		}
		k->set[k->nset].t = t;
		k->set[k->nset].led = led_index(k, csv_field(c, col[2]));
		k->set[k->nset++].value = atoi(csv_field(c, col[3]));
	} else if (!strcmp(ev, "timer")) {
		add_timer(&k->tt, &k->nt, &k->capt, t, strtoll(csv_field(c, col[4]), NULL, 10), 0);
	} else if (!strcmp(ev, "hrtimer")) {
		/* value: the hrtimer's expiry, ns (empty from an older probe: 0) */
		add_timer(&k->ht, &k->nh, &k->caph, t, strtoll(csv_field(c, col[5]), NULL, 10),
			  strtoull(csv_field(c, col[3]), NULL, 10));
	}
}

/*
 * The kernel observer's CSV (probes/led_timer.bt):
 * event,t_ns,led,value,late_ticks,late_ns,cpu
 */
void load_probe(const char *path, struct kevents *k)
{
	static const char *const names[] = { "event", "t_ns", "led", "value", "late_ticks",
					      "late_ns" };
	struct csv c;
	int col[6], nf;
	size_t i;

	if (access(path, F_OK) || csv_read_open(&c, path)) {
		fprintf(stderr, "%s: no kernel observer (%s: %s): the user observer alone is "
			"analyzed\n", lab_prog, path, strerror(errno));
		return;
	}
	for (i = 0; i < 6; i++)
		if ((col[i] = csv_col(&c, names[i])) < 0)
			lab_die("%s: no column '%s' in the header", path, names[i]);
	k->present = true;
	while ((nf = csv_next(&c)) > 0)
		if ((size_t)nf >= c.ncol)
			probe_row(k, &c, col);
	if (nf < 0)
		lab_die("cannot read the kernel observer's events in %s", path);
	csv_read_close(&c);
	/* bpftrace prints each CPU's buffer in turn: put the events in time order */
	qsort(k->set, k->nset, sizeof(*k->set), cmp_kevent);
	qsort(k->tt, k->nt, sizeof(*k->tt), cmp_ktimer);
	qsort(k->ht, k->nh, sizeof(*k->ht), cmp_ktimer);
}

void free_probe(struct kevents *k)
{
	size_t i;

	for (i = 0; i < k->nleds; i++)
		free(k->leds[i]);
	free(k->leds);
	free(k->set);
	free(k->tt);
	free(k->ht);
}

/*
 * bpftrace's lost events: the lost_events row of probe-led_timer-maps.csv
 * (bench/probe2csv.sh); -1: unknown
 */
long load_probe_lost(const char *dir)
{
	char path[PATH_MAX];
	struct csv c;
	long lost = -1;
	int col;

	snprintf(path, sizeof(path), "%s/probe-led_timer-maps.csv", dir);
	if (access(path, F_OK) || csv_read_open(&c, path))
		return -1;
	col = csv_col(&c, "value");
	while (col >= 0 && csv_next(&c) > 0)
		if (!strcmp(csv_field(&c, 0), "lost_events") && *csv_field(&c, col))
			lost = strtol(csv_field(&c, col), NULL, 10);
	csv_read_close(&c);
	return lost;
}

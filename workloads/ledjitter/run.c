// SPDX-License-Identifier: GPL-2.0
/*
 * ledjitter run: one cell per mode and step duration. A uleds LED runs the
 * square wave '255 D 255 0 0 D 0 0' (D = the step in ms) for --steps steps;
 * every uleds read is timestamped (CLOCK_MONOTONIC) into DIR/user-CELL.csv
 * and the cell is listed in DIR/cells-LOAD.csv. --pattern runs one pattern
 * of your own instead (passed to the kernel as given).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "ledjitter.h"
#include "progress.h"
#include "timing.h"

#define MAX_STEP_LIST 16

struct profile_cell {
	unsigned int step_ms;
	long steps;
};

/* quick: 400 steps give 399 intervals, enough for an interval of p99 (368) */
static const struct profile_cell quick_cells[] = { { 1, 400 }, { 10, 400 }, { 100, 100 } };
static const struct profile_cell full_cells[] = {
	{ 1, 2000 }, { 5, 2000 }, { 10, 2000 }, { 50, 400 }, { 100, 200 }
};

struct run_opts {
	const char *out;
	const char *load;
	const char *pattern;	/* custom pattern, or NULL for the square waves */
	int repeat;
	long steps;		/* 0: the profile's */
	int prio;
	bool modes[NMODES];	/* indexed by MODE_* */
	bool modes_given;	/* --mode given (else hr_pattern where the kernel has it) */
	struct profile_cell cells[MAX_STEP_LIST];
	size_t ncells;
};

struct cell_result {
	char cell[48], led[64], status[16];
	const char *mode;
	unsigned int step_ms;
	long steps;
	int repeat;
	char *pattern;
	uint64_t t_open, t_start, t_written, t_end;
	size_t reads;
};

/* What the model says of a cell's pattern: how many changes, how long */
struct cell_timing {
	long nchanges;		/* -1: the model cannot tell */
	uint64_t ideal_ms;	/* the ideal end */
	uint64_t gap_ms;	/* the longest gap between two changes */
};

static void add_step(const char *item, void *arg)
{
	struct run_opts *o = arg;

	if (o->ncells == MAX_STEP_LIST)
		lab_usage_error("--step-ms has too many step durations (at most %d)", MAX_STEP_LIST);
	o->cells[o->ncells].step_ms =
		(unsigned int)lab_parse_uint("--step-ms: step duration (ms)", item, 1, 60000);
	o->cells[o->ncells++].steps = 0;
}

/* Default steps for a step duration not in the profile: about 10 s, 100..1000 */
static long default_steps(unsigned int step_ms)
{
	long n = 10000 / (long)step_ms;

	n = n < 100 ? 100 : n > 1000 ? 1000 : n;
	return n + n % 2;
}

static struct cell_timing cell_timing(const struct cell_result *c)
{
	struct led_tuple *t = lab_calloc(LED_MODEL_MAX_TUPLES, sizeof(*t), "pattern tuples");
	struct cell_timing ti = { .nchanges = -1, .gap_ms = c->step_ms };
	struct led_step *steps;
	long nsteps, i;
	int ntuples;

	ntuples = led_pattern_parse(c->pattern, MAX_BRIGHTNESS, t, LED_MODEL_MAX_TUPLES, NULL);
	if (ntuples > 0 && !led_model_check(t, (size_t)ntuples, c->repeat)) {
		size_t max = c->repeat == -1 ? (size_t)c->steps : SIZE_MAX;

		nsteps = led_model_steps(t, (size_t)ntuples, c->repeat, NULL, max);
		steps = lab_calloc((size_t)nsteps, sizeof(*steps), "model steps");
		led_model_steps(t, (size_t)ntuples, c->repeat, steps, (size_t)nsteps);
		ti.nchanges = (long)led_model_changes(steps, (size_t)nsteps, 0);
		ti.ideal_ms = nsteps ? steps[nsteps - 1].t_ms : 0;
		for (i = 1; i < ti.nchanges; i++)
			if (steps[i].t_ms - steps[i - 1].t_ms > ti.gap_ms)
				ti.gap_ms = steps[i].t_ms - steps[i - 1].t_ms;
		free(steps);
	}
	free(t);
	return ti;
}

/* Write the cell's reads to DIR/user-CELL.csv; exit 1 naming the file on failure */
static void write_reads(const char *dir, const struct cell_result *c, const struct reads *r)
{
	struct atomic_file af;
	char name[128];
	size_t i;

	snprintf(name, sizeof(name), "user-%s.csv", c->cell);
	if (csv_open(&af, dir, name, "read,t_ns,brightness"))
		lab_die("cannot write %s/%s", dir, name);
	for (i = 0; i < r->n; i++)
		fprintf(af.f, "%zu,%llu,%d\n", i, (unsigned long long)r->t[i], r->b[i]);
	if (atomic_commit(&af))
		lab_die("cannot write %s/%s", dir, name);
}

/*
 * run_cell - one LED, one pattern, one mode: write it, read every change,
 * save the reads. Exits 1 when the kernel refuses the pattern.
 *
 * The end: every change read, or, once the pattern should be over (its
 * ideal end; for the jiffies pattern's square waves, a tick floor per
 * step), no change for 2 s and ten times the longest gap between the
 * pattern's changes: a busy TCG guest stalls for over a second. The
 * deadline only guards against a pattern that never ends: the software
 * pattern is slower than asked (a tick per step and more, far more on a
 * busy TCG guest), so it is ten times the ideal time plus a tick per step,
 * and a minute.
 */
static void run_cell(const struct run_opts *o, struct cell_result *c, unsigned int hz)
{
	struct cell_timing ti = cell_timing(c);
	struct reads r = { 0 };
	uint64_t slow_ms, end_ms, deadline;
	char buf[32];
	int fd, afd, err, quiet_ms;

	snprintf(c->led, sizeof(c->led), "lj-%s", c->cell);
	fd = uled_create(c->led);
	led_set_trigger(c->led);

	slow_ms = 10 * (ti.ideal_ms + (uint64_t)(c->steps > 0 ? c->steps : 1) * (hz ? 1000 / hz : 10));
	quiet_ms = (int)(2000 + 10 * (ti.gap_ms < 600000 ? ti.gap_ms : 600000));
	end_ms = ti.ideal_ms;
	if (!strcmp(c->mode, "pattern") && c->step_ms && ti.nchanges > 0 &&
	    (uint64_t)(ti.nchanges * led_model_jiffies_ms(c->step_ms, hz)) > end_ms)
		end_ms = (uint64_t)(ti.nchanges * led_model_jiffies_ms(c->step_ms, hz));

	snprintf(buf, sizeof(buf), "%d", c->repeat);
	err = sysfs_write(c->led, "repeat", buf);
	if (err)
		lab_die("the kernel refused repeat '%s' on " LEDS_DIR "/%s/repeat: %s", buf, c->led,
			strerror(-err));

	/*
	 * The timeline starts at the write(2): the kernel takes its start
	 * (abs_pattern's hr_start) inside it. Opening the attribute first keeps
	 * the path walk and open out of every step's error.
	 */
	c->t_open = mono_ns();
	afd = sysfs_open(c->led, c->mode);
	if (afd < 0)
		lab_die("cannot open " LEDS_DIR "/%s/%s: %s", c->led, c->mode, strerror(-afd));
	c->t_start = mono_ns();
	err = sysfs_write_fd(afd, c->pattern);
	c->t_written = mono_ns();
	close(afd);
	if (err)
		lab_die("the kernel refused the pattern '%s' written to " LEDS_DIR "/%s/%s: %s",
			c->pattern, c->led, c->mode, strerror(-err));

	deadline = c->t_start + (slow_ms + 60000) * 1000000ULL;
	err = collect(fd, &r, ti.nchanges > 0 ? (size_t)ti.nchanges : SIZE_MAX, quiet_ms,
		      c->t_start + end_ms * 1000000ULL, deadline);
	c->t_end = mono_ns();
	c->reads = r.n;
	snprintf(c->status, sizeof(c->status), "%s", err ? "deadline" : "ok");
	close(fd);	/* unregisters the LED, which stops its trigger */

	write_reads(o->out, c, &r);
	fprintf(stderr, "%s: %s: %zu of %ld changes read in %.3f s (ideal %.3f s)%s\n", lab_prog,
		c->cell, r.n, ti.nchanges, (c->t_end - c->t_start) / 1e9, ti.ideal_ms / 1e3,
		err ? ", stopped by the deadline" : "");
	reads_free(&r);
}

/* The options of run, checked before anything is set up */
static void parse_run(int argc, char **argv, struct run_opts *o)
{
	const char *profile = "quick", *mode = NULL, *steps_list = NULL;
	unsigned long long steps = 0, prio = 80;
	long long repeat = 1;
	bool repeat_given = false, steps_given = false;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("profile", &profile, "quick|full", "the step durations and counts (quick)",
			    false),
		LAB_OPT_STR("mode", &mode, "pattern|abs_pattern|hr_pattern|both|all",
			    "the trigger files (all: hr_pattern where it is mainline's)", false),
		LAB_OPT_STR("step-ms", &steps_list, "LIST", "step durations, 1..60000 ms", false),
		{ .name = "steps", .type = LAB_OPT_UINT, .value = &steps, .arg = "N",
		  .help = "steps per cell, even (the profile's)", .min = 2, .max = 1000000,
		  .given = &steps_given },
		LAB_OPT_STR("load", &o->load, "NAME", "the load's label, 1-16 of a-z 0-9 _ (idle)",
			    false),
		LAB_OPT_U64("prio", &prio, 0, 99, "SCHED_FIFO priority of the reader, 0: none (80)"),
		LAB_OPT_STR("out", &o->out, "DIR", "results folder", true),
		LAB_OPT_STR("pattern", &o->pattern, "TUPLES", "one pattern of your own", false),
		{ .name = "repeat", .type = LAB_OPT_INT, .value = &repeat, .arg = "N",
		  .help = "with --pattern: -1 (forever) or 1..1000000 (1)", .min = -1, .max = 1000000,
		  .given = &repeat_given },
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	if (strcmp(profile, "quick") && strcmp(profile, "full"))
		lab_usage_error("--profile '%s' is not a profile (expected quick or full)", profile);
	if (mode)
		parse_modes(mode, o->modes);
	o->modes_given = mode != NULL;
	if (steps_list)
		lab_each_item("--step-ms", steps_list, add_step, o);
	if (steps % 2)
		lab_usage_error("--steps '%llu' is odd (a square wave has 2 steps a cycle)", steps);
	if (repeat == 0)
		lab_usage_error("--repeat '0' is out of range (expected -1 or 1 to 1000000)");
	lab_check_label("--load", o->load);
	if (repeat_given && !o->pattern)
		lab_usage_error("--repeat goes with --pattern (the square waves take --steps)");
	if (o->pattern && repeat == -1 && !steps_given)
		lab_usage_error("--repeat -1 never ends: give --steps, the changes to read");
	o->steps = (long)steps;
	o->repeat = (int)repeat;
	o->prio = (int)prio;
	if (!o->ncells) {
		const struct profile_cell *pc = strcmp(profile, "full") ? quick_cells : full_cells;

		o->ncells = strcmp(profile, "full") ? sizeof(quick_cells) / sizeof(*pc) :
						      sizeof(full_cells) / sizeof(*pc);
		memcpy(o->cells, pc, o->ncells * sizeof(*pc));
	}
}

/* Cell @i of mode @m: its name, pattern and step count */
static void setup_cell(const struct run_opts *o, struct cell_result *c, int m, size_t i)
{
	c->mode = mode_names[m];
	if (o->pattern) {
		c->step_ms = 0;
		c->steps = o->steps;
		c->repeat = o->repeat;
		c->pattern = strdup(o->pattern);
		snprintf(c->cell, sizeof(c->cell), "%s-custom-%s", c->mode, o->load);
	} else {
		c->step_ms = o->cells[i].step_ms;
		c->steps = o->steps ? o->steps : o->cells[i].steps ? o->cells[i].steps :
			   default_steps(c->step_ms);
		c->repeat = (int)(c->steps / 2);
		if (asprintf(&c->pattern, "255 %u 255 0 0 %u 0 0", c->step_ms, c->step_ms) < 0)
			c->pattern = NULL;
		snprintf(c->cell, sizeof(c->cell), "%s-%ums-%s", c->mode, c->step_ms, o->load);
	}
	if (!c->pattern)
		lab_die("out of memory for the pattern of %s", c->cell);
}

static int write_cells(const struct run_opts *o, struct cell_result *cells, size_t n,
		       unsigned int hz)
{
	struct atomic_file af;
	struct utsname u;
	char name[64];
	size_t i;

	if (uname(&u))
		lab_die("uname: %s", strerror(errno));
	snprintf(name, sizeof(name), "cells-%s.csv", o->load);
	if (csv_open(&af, o->out, name,
		     "cell,mode,step_ms,load,steps,repeat,pattern,led,t_open_ns,t_start_ns,"
		     "t_written_ns,t_end_ns,hz,reads,status,kernel"))
		lab_die("cannot write %s/%s", o->out, name);
	for (i = 0; i < n; i++) {
		struct cell_result *c = &cells[i];

		fprintf(af.f, "%s,%s,%u,%s,%ld,%d,%s,%s,%llu,%llu,%llu,%llu,%u,%zu,%s,%s\n", c->cell,
			c->mode, c->step_ms, o->load, c->steps, c->repeat, c->pattern, c->led,
			(unsigned long long)c->t_open, (unsigned long long)c->t_start,
			(unsigned long long)c->t_written,
			(unsigned long long)c->t_end, hz, c->reads, c->status, u.release);
	}
	if (atomic_commit(&af))
		lab_die("cannot write %s/%s", o->out, name);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const char *const absent[NMODES] = {
		[MODE_ABS] = "it is the lab's patch; the stock kernels have none",
		[MODE_HR] = "mainline's hr_pattern is Linux 6.10's",
	};
	struct run_opts o = { .load = "idle", .modes = { true, true, true } };
	struct cell_result *cells;
	size_t i, per_mode, ncells = 0, nrun = 0;
	bool has[NMODES];
	unsigned int hz;
	int m;

	parse_run(argc, argv, &o);
	if (mkdir(o.out, 0755) && errno != EEXIST)
		lab_die("cannot create %s: %s", o.out, strerror(errno));

	hz = kernel_hz();
	kernel_modes(has);
	if (!o.modes_given)
		o.modes[MODE_HR] = has[MODE_HR];
	for (m = 0; m < NMODES; m++) {
		if (o.modes[m] && !has[m])
			fprintf(stderr, "%s: %s is not offered by this kernel (%s): the %s cells are "
				"skipped\n", lab_prog, mode_names[m], absent[m], mode_names[m]);
		nrun += o.modes[m] && has[m];
	}
	go_realtime(o.prio);

	/*
	 * pattern, abs_pattern, hr_pattern, pattern, ...: the modes alternate
	 * within each step duration and the step durations follow each other,
	 * so that a change in the host's load falls on every mode alike
	 */
	per_mode = o.pattern ? 1 : o.ncells;
	cells = lab_calloc(NMODES * per_mode, sizeof(*cells), "cells");
	progress_start(1);
	progress_part(per_mode * nrun, "cells", "the cells, %s guest", o.load);
	for (i = 0; i < per_mode; i++) {
		for (m = 0; m < NMODES; m++) {
			struct cell_result *c;

			if (!o.modes[m])
				continue;
			c = &cells[ncells++];

			setup_cell(&o, c, m, i);
			if (!has[m]) {
				snprintf(c->status, sizeof(c->status), "skipped");
			} else {
				progress_what("cell %s", c->cell);
				run_cell(&o, c, hz);
				progress_add(1);
			}
		}
	}
	write_cells(&o, cells, ncells, hz);
	for (i = 0; i < ncells; i++)
		free(cells[i].pattern);
	free(cells);
	return 0;
}

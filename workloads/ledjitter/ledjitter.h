/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ledjitter - timer jitter and drift of the LED pattern trigger.
 *
 * A uleds LED (/dev/uleds) runs square-wave patterns "255 D 255 0 0 D 0 0"
 * (steps of D ms, every step a change) through the pattern trigger's
 * `pattern` file (a jiffies timer), the lab's `abs_pattern` file (an
 * absolute hrtimer, kernel/patches) and, on Linux 6.10 and later, mainline's
 * `hr_pattern` file (an hrtimer re-armed relative to its last expiry). Two
 * observers time the steps: the
 * kernel one, a bpftrace probe on uleds_brightness_set (probes/led_timer.bt,
 * started by workloads/ledjitter/driver.sh), and the user one, this
 * program's timestamps of each uleds read, which include its wake-up
 * latency. The ideal timeline comes from bench/lib/led_model.c.
 *
 * The files of the program:
 *   main.c        the verb table
 *   led.c         sysfs and uleds: LEDs, their attributes, reading changes
 *   run.c         `run`: the cells of one load, the reads into CSV
 *   load.c        reading back the cells, the reads and the probe's events
 *   cell.c        one cell against the model: the observers' errors
 *   cell_out.c    one cell's metrics (interval error, mean interval, drift
 *                 slope) and CSV rows
 *   cyclictest.c  cyclictest's histogram: the wake-up latency reference
 *   targets.c     the targets at 10 ms steps, idle guest, into targets.json
 *   report.c      `report`: summary.json, targets.json and the CSV files
 *   ktrace.c      the conformance suite's ftrace observer
 *   conform.c     `conform`: the pattern trigger's ABI as TAP
 *   model.c       `model`: a pattern's ideal timeline
 */
#ifndef LEDJITTER_H
#define LEDJITTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interval.h"
#include "led_model.h"
#include "output.h"

#define WORKLOAD	"ledjitter"
#define LEDS_DIR	"/sys/class/leds"
#define MAX_BRIGHTNESS	255
#define HIST_BINS	26	/* |interval error| bins: < 1 us, then [2^b, 2^(b+1)) us, b = 0..24 */

/*
 * The trigger files measured: pattern (a jiffies timer), the lab's
 * abs_pattern (an absolute hrtimer) and mainline's hr_pattern (Linux 6.10:
 * an hrtimer re-armed relative to its last expiry)
 */
enum { MODE_PATTERN, MODE_ABS, MODE_HR, NMODES };
extern const char *const mode_names[NMODES];

/*
 * --mode pattern|abs_pattern|hr_pattern|both|all into @modes; both is
 * pattern and abs_pattern, all every mode (hr_pattern where the kernel has
 * mainline's)
 */
void parse_modes(const char *s, bool modes[NMODES]);
/* abs_pattern: the mode on an absolute timeline, which skips missed steps */
bool mode_is_abs(const char *mode);
/* abs_pattern and hr_pattern: the modes run by an hrtimer */
bool mode_is_hrtimer(const char *mode);

/* ---- led.c: sysfs and uleds ---- */

int sysfs_write(const char *led, const char *attr, const char *val);
/* The attribute opened for writing, or -errno; then one write(2) of @val */
int sysfs_open(const char *led, const char *attr);
int sysfs_write_fd(int fd, const char *val);
int sysfs_read(const char *led, const char *attr, char *buf, size_t len);
bool led_has(const char *led, const char *attr);
int uled_create(const char *name);
void led_set_trigger(const char *led);
unsigned int kernel_hz(void);
/* The modes this kernel offers (hr_pattern: mainline's, Linux 6.10 and later) */
void kernel_modes(bool has[NMODES]);
/* Whether a kernel of release @release (uname -r) has mainline's hr_pattern */
bool release_has_mainline_hr(const char *release);
void go_realtime(int prio);

/* The changes read from an LED (or seen by an observer) */
struct reads {
	uint64_t *t;	/* CLOCK_MONOTONIC, ns */
	int *b;		/* the brightness */
	size_t n, cap;
};

void reads_add(struct reads *r, uint64_t t, int b);
void reads_free(struct reads *r);
int collect(int fd, struct reads *r, size_t want, int quiet_ms, uint64_t not_before,
	    uint64_t deadline);

/* ---- load.c: what `run` and the probe left in the results folder ---- */

/* One line of cells-LOAD.csv */
struct cell {
	char *cell, *mode, *load, *pattern, *led, *status;
	unsigned int step_ms, hz;
	long steps;
	int repeat;
	/*
	 * t_open: before the attribute is opened (the old start reference);
	 * t_start: just before the pattern's write(2), the start of the ideal
	 * timeline; t_written: after it
	 */
	uint64_t t_open, t_start, t_written, t_end;
};

struct kevent {
	uint64_t t;
	int value;
	int led;	/* index into kevents.leds */
};

struct ktimer {
	uint64_t t;
	long long late;	/* ticks for the jiffies timer, ns for the hrtimer */
	uint64_t expires;	/* the hrtimer's expiry, ns (CLOCK_MONOTONIC); jiffies: 0 */
};

/* The kernel observer's events (probes/led_timer.bt), each kind in time order */
struct kevents {
	struct kevent *set;	/* brightness sets */
	size_t nset, capset;
	struct ktimer *tt;	/* pattern timer expiries (jiffies timer) */
	size_t nt, capt;
	struct ktimer *ht;	/* hrtimer expiries */
	size_t nh, caph;
	char **leds;
	size_t nleds;
	bool present;
};

size_t load_cells(const char *dir, struct cell **out);
void free_cells(struct cell *cells, size_t n);
void load_probe(const char *path, struct kevents *k);
void free_probe(struct kevents *k);
long load_probe_lost(const char *dir);
void load_user_reads(const char *dir, const char *cell, struct reads *r);

/* ---- cell.c, cell_out.c: one cell against the model ---- */

/* The output files shared by all cells; @failed: the first write that failed */
struct outputs {
	struct out *sum;
	struct atomic_file errors, hist, drift, table;
	const char *dir;
	char *failed;
};

/* One observer's headline figures of a cell (us unless named) */
struct obs_figures {
	bool have;
	size_t n, ni;			/* step errors, interval errors */
	double ierr_p50, ierr_p99, ierr_max;	/* interval error; p99 NAN below n 100 */
	struct ci p50_ci, p99_ci;
	double mean_ms;			/* mean interval, ms */
	struct ci mean_ci;
	double drift;			/* ms per 1000 steps, least squares */
	struct ci drift_ci;
	double err_median;		/* absolute step error */
};

/* What the targets need of a cell; ob[0] the kernel observer, ob[1] the user's */
struct cell_stats {
	struct obs_figures ob[2];
	double start_lag_us, open_lag_us;	/* hr_start - t_start, - t_open; NAN */
	long lost;
	double gap_p99, gap_median, gap_max;
	struct ci gap_p99_ci;		/* of the gap's p99 (ci_quantile); NAN below n 368 */
	size_t ngap;
	long kernel_changes, model_changes, kernel_skipped;
};

/* One observer's samples matched to the model */
struct observer {
	const char *name;
	double *err;		/* step error, us */
	double *ierr;		/* interval error, us */
	size_t n, ni;
	long *step;		/* model change index of each sample */
	double *t_ms;		/* observed time from the start, ms */
};

/* A cell being analyzed: the model, both observers, and how they match */
struct match {
	const struct cell *c;
	struct led_step *ms;	/* the model's steps; its changes come first */
	long nmodel;		/* the model's changes */
	struct reads k, u;	/* the kernel's changes of the LED, the user's reads */
	long *kidx;		/* model change of each matched kernel change */
	size_t nkm;		/* kernel changes matched */
	long *kmodel, *umodel;	/* kernel change / user read of each model change, or -1 */
	struct observer ob[2];	/* kernel, user */
	double *gap;		/* user read minus the kernel change it shows, us */
	size_t ngap;
};

void analyze_cell(struct outputs *o, const struct cell *c, const struct kevents *k,
		  struct cell_stats *cs);
void cell_metrics(struct outputs *o, const struct match *m, const struct kevents *k,
		  struct cell_stats *cs);
int cell_steps_csv(struct outputs *o, const struct match *m);

/* Record the first failure of the report (a file not written, a metric refused) */
void report_fail(struct outputs *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* out_metric(), a failure recorded in @o */
void report_metric(struct outputs *o, const char *name, const char *const *params,
		   const char *unit, const double *x, size_t n);

/* ---- cyclictest.c ---- */

struct ct_stats {
	double p99, max, median;	/* NAN when there is no histogram */
	size_t n;
	struct ci p99_ci;
};

void analyze_cyclictest(struct outputs *o, const char *load, struct ct_stats *ct);

/* ---- targets.c ---- */

void write_targets(struct outputs *o, const struct cell *cells, const struct cell_stats *cs,
		   size_t n, const struct ct_stats *ct);

/* ---- ktrace.c: the conformance suite's kernel observer ---- */

struct ktrace {
	char dir[256];		/* the instance */
	char event[64];		/* group/name */
	const char *base;	/* the tracefs mount */
	bool on;
};

int ktrace_open(struct ktrace *k);
void ktrace_clear(struct ktrace *k);
long ktrace_changes(struct ktrace *k, const char *led, int initial, struct reads *out);
void ktrace_close(struct ktrace *k);

/* ---- the verbs ---- */

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_model(int argc, char **argv);

#endif

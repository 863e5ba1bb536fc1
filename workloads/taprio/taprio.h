/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the taprio workload share: the schedule and its qdisc
 * (qdisc.c), the verbs of each file, and the CSV helpers of the reports.
 *
 * Files: main.c (the verb table), qdisc.c (taprio over rtnetlink),
 * sched_tools.c (check, apply, clear, window, variant, num-tc, prio,
 * isochron-args, the TAI clock and sync-setup), conform_phc.c and
 * conform_trace.c (conformance suites, TAP), measure.c (run: the clock
 * sync check, the measurement), run.c (its senders, receiver and clock
 * sampler), run_files.c (its packets.csv), record.c (its record, run.json),
 * tune.c (the tuning sweep), report.c (summary.json, targets.json, the
 * figures' CSV files), report_packets.c (the packet figures), report_sync.c
 * (the clock records), tune_report.c (the tuning sweep's table and
 * recommendation).
 */
#ifndef TAPRIO_H
#define TAPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "interval.h"
#include "nl.h"
#include "taprio_judge.h"
#include "taprio_sched.h"


/* qdisc.c: taprio over rtnetlink with libmnl, the kernel's extack passed through */
int taprio_nl_open(struct nl_sock *n);
int taprio_clear(struct nl_sock *n, int ifindex, const char *dev);
int taprio_apply(struct nl_sock *n, int ifindex, const char *dev, const struct tsched *s,
		 int64_t base, char *err, size_t errlen);
int64_t choose_base(const struct tsched *s, const char *how, clockid_t clk);
int dev_index(const char *dev);
/*
 * schedule_load - parse (and with @check, check) the schedule @path into a
 * new struct; NULL with the reason on stderr (and in --fail-file). @path may
 * be a record of `taprio run` (run.json) instead of a schedule file: its
 * schedule as run parsed it, named as the record names it. @name, when not
 * NULL, is how messages name it from then on (the file as the user gave it).
 */
struct tsched *schedule_load(const char *path, bool check, const char *name);
/* The windows of traffic class @tc in the cycle, ns (sched_tools.c) */
struct class_windows {
	int64_t cycle, open;		/* the cycle; the class's open time in it */
	int64_t first, len;		/* its first window; -1 and 0 when none */
};
void class_windows(const struct tsched *s, int tc, struct class_windows *w);
/* The schedule FILE, the one positional argument of a verb */
const char *verb_file(int argc, char **argv, int first);
/* CLOCK_TAI - CLOCK_REALTIME in ns, from the kernel's TAI offset */
int64_t tai_offset_ns(void);

/* measure.c, run.c, run_files.c, record.c: one measurement */
struct prec {
	int64_t wake, sched, tx, rx;	/* TAI ns, 0 when missing */
	uint16_t size;
	bool sent;
};

struct run {
	const struct tsched *s;
	const char *dev, *netns;
	uint32_t dst;			/* network order */
	int port;
	size_t count;
	double rate;
	int sizes[16], n_sizes;
	int only_tc;			/* send on this class only; -1: every class */
	int64_t phase;			/* send this far into each period; -1: at random */
	bool errq_thread;		/* TX timestamps read by a second thread */
	int64_t base, start, tai_off;	/* tai_off: CLOCK_TAI - CLOCK_REALTIME */
	long long sync_threshold;	/* -1: none */
	struct prec *rec[TSCHED_MAX_TC];
	volatile bool senders_done, stop, failed;
	volatile size_t sent_upto[TSCHED_MAX_TC];	/* each sender's packets so far */
	int senders_exited;				/* atomic */
	size_t received;
	int phc_fd;
	FILE *sync;
};

/*
 * run.c: the receiver, the clock sampler (with a PHC, into r->sync) and a
 * sender per class (or for only_tc's), until the last packet, the packets
 * sent reported as progress; 0, or -errno when a thread could not start
 * (the others are stopped and joined)
 */
int run_threads(struct run *r);

/* Why a measurement failed: kind "unsynced", "refused" or "error" */
struct run_failure {
	const char *kind;
	char why[1024];
};
/*
 * run_measurement - @r (its schedule, device, counts and options set)
 * measured into @out: the clock sync checked, taprio configured, the
 * packets, taprio removed (with @keep it stays), packets.csv and the
 * record. 0, or 1 with the reason in @f. Configures nothing it leaves.
 */
int run_measurement(struct run *r, const char *out, bool keep, struct run_failure *f);
/* The bytes of our packet header: the least UDP payload */
#define PKT_HDR_SIZE 24

/* packets.csv (each packet's timestamps, raw) and the record run.json */
int run_write_files(const struct run *r, const char *dir);

/* record.c: the record of a measurement, DIR/run.json */
#define RECORD_FORMAT_VERSION 1
struct run_record {
	struct tsched *s;		/* the schedule, as run parsed it */
	char name[256];			/* its name, as the user gave it */
	int64_t base, start, tai_off;	/* base time, first cycle sent in, TAI - REALTIME */
	int64_t phase;			/* -1: at random */
	size_t count, received;
	double rate;
	int only_tc;			/* -1: every class */
};
/* The schedule as JSON, and back (-EINVAL with the reason in @err) */
json_t *tsched_json(const struct tsched *s);
int tsched_from_json(const json_t *j, struct tsched *s, char *err, size_t len);
/* DIR/run.json of @r: 0 or -errno (printed) */
int record_write(const struct run *r, const char *dir);
/* The record at @path: 0, or -errno with the reason printed */
int record_read(const char *path, struct run_record *rec);
void record_free(struct run_record *rec);
/*
 * The run the printing probe watched on its own, @dir/probe-pass, into
 * @pdir (@len bytes) and its record into @rec (record_free it): true when
 * it is there and readable
 */
bool probe_pass_read(const char *dir, char *pdir, size_t len, struct run_record *rec);

/* The verbs */
int cmd_check(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_window(int argc, char **argv);
int cmd_variant(int argc, char **argv);
int cmd_num_tc(int argc, char **argv);
int cmd_prio(int argc, char **argv);
int cmd_set_tai(int argc, char **argv);
int cmd_sync_setup(int argc, char **argv);
int cmd_isochron_args(int argc, char **argv);
int cmd_tai_mono(int argc, char **argv);
int cmd_conform_phc(int argc, char **argv);
int cmd_conform_trace(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tune_report(int argc, char **argv);
int cmd_tune(int argc, char **argv);

/* The report's helpers (report.c) */
struct csv;
struct vec {
	double *x;
	size_t n, cap;
};
/* Append @x (NAN is skipped) */
void vpush(struct vec *v, double x);
/* Field @col of the current row as a number: NAN when empty, absent or not a number */
double fnum(const struct csv *c, int col);
/* ... as an integer: 0 when empty or absent */
int64_t fint(const struct csv *c, int col);
/* Open @dir/@name; 0 or -errno (a missing file is not reported) */
int csv_open_in(struct csv *c, const char *dir, const char *name);

struct out;
/* out_metric(), a failure remembered: the report then exits 1 */
int report_metric(struct out *o, const char *name, const char *const *params, const char *unit,
		  const double *x, size_t n);

/* out_estimate(), a failure remembered */
int report_estimate(struct out *o, const char *name, const char *const *params, const char *unit,
		    double value, size_t n, const struct ci *ci);
/* out_counts() of the metric added last, a failure remembered */
int report_counts(struct out *o, const char *const *keys, const double *values);
/* The p99 of @x as an estimate with its order-statistic interval; nothing when n < 100 */
void report_p99(struct out *o, const char *name, const char *const *params, const char *unit,
		const double *x, size_t n);

/* report_packets.c: the figures of DIR/packets.csv (and the probe's dequeues) */
struct pkt_counts {
	/* out of all packets sent: inside, outside, no TX timestamp */
	struct taprio_class_counts cls[TSCHED_MAX_TC];
	int maxtc;
	/* from the probe: -1 when it saw no packet */
	long long at_dequeue[TSCHED_MAX_TC], after_gate[TSCHED_MAX_TC], seen[TSCHED_MAX_TC];
	const char *probe;	/* "tracepoint", "kretprobe" or NULL */
};
int report_packets(struct out *o, const char *dir, const struct run_record *rec,
		   struct pkt_counts *pc);
/*
 * report_sync - the clock records of @dir (phc2sys.log, ptp4l-slave.log,
 * sync-workload.csv): servo_self_consistency_ns of each, and
 * sync-phc2sys.csv, sync-ptp4l.csv and sync.csv; 0 or -errno
 */
int report_sync(struct out *o, const char *dir);
/* Rows "PREFIX,X,FRACTION" of @f: the values of @x above 0 sorted, FRACTION = rank / @denom */
void write_cdf(FILE *f, const char *prefix, const double *x, size_t n, double denom);
/*
 * report_sender - the sender figures of a run beside the measurement, in
 * rounds (@dir/round-1, round-2, ...: each a record and its packets.csv):
 * sender_latency_us, wake_to_enqueue_us and enqueue_to_tx_us with params
 * {tc, schedule, packets: @tag}. @lat0 (may be NULL): class 0's sender
 * latency samples appended, and the round (K) of each to @round0.
 */
int report_sender(struct out *o, const char *dir, const char *sname, const char *tag,
		  struct vec *lat0, struct vec *round0);
/* A class's figures in one variant of a tuning sweep; NAN: the variant does not have it */
struct tune_figures {
	double packets, violations, in_window, p99, median;
	/* the 95 % intervals of in_window (%) and of the p99 (order statistics: n >= 368) */
	double in_lo, in_hi, p99_lo, p99_hi;
	/* the rounds of the sweep it was measured in, and those with a packet not shown inside */
	double rounds, bad_rounds;
};
#define TUNE_NONE { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN }
/* The most rounds of a sweep (tune --rounds) */
#define TUNE_MAX_ROUNDS 100
/*
 * report_variant - the figures of one variant of a tuning sweep (@dir: its
 * record and packets.csv): violations, no_timestamp, in_window_pct (an
 * estimate out of all packets sent: its "median" is the fraction in %, "n"
 * the packets sent) and gate_lateness_us with params {tc, schedule:
 * @variant}; those of the table into @f[tc] for tc < @nf.
 */
int report_variant(struct out *o, const char *dir, const char *variant, struct tune_figures *f,
		   int nf);

/* tune_report.c: the rows of a tuning sweep's table (tune.csv) */
struct tune_row;
struct tune_rows {
	struct tune_row *r;
	size_t n;
};
/*
 * tune_add - the rows of variant @name (KIND-tcN-xSCALE; another name adds
 * none) of schedule @s (NULL: not known), class tc's figures @f[tc] (NULL,
 * or tc >= @nf: none)
 */
void tune_add(struct tune_rows *rows, const char *name, const struct tsched *s,
	      const struct tune_figures *f, int nf);
/*
 * tune_write - DIR/tune.csv and DIR/tune-recommendation.txt of @rows (then
 * emptied) for the schedule @name with its @num_tc classes, bound @bound us
 */
int tune_write(const char *dir, struct tune_rows *rows, const char *name, double bound, int num_tc);
/* @s with the windows of class @tc (every window when @tc < 0) scaled by @scale, to whole us */
void scale_windows(struct tsched *s, long long tc, double scale);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the taprio workload share: the schedule and its qdisc
 * (qdisc.c), the verbs of each file, and the CSV helpers of the reports.
 *
 * Files: main.c (the verb table), qdisc.c (taprio over rtnetlink),
 * sched_tools.c (check, apply, clear, window, variant, num-tc, prio, the
 * TAI clock), conform_phc.c and conform_trace.c (conformance suites, TAP),
 * run.c (sender, receiver, the clock sync), run_files.c (the run's CSV
 * files), report.c (summary.json and targets.json), report_packets.c (the
 * packet figures), tune_report.c (the tuning sweep's table and
 * recommendation).
 */
#ifndef TAPRIO_H
#define TAPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "interval.h"
#include "nl.h"
#include "taprio_judge.h"
#include "taprio_sched.h"

/* Exit codes of `taprio run` besides 0, 1 and 2 (the driver tells them apart) */
#define TAPRIO_EXIT_UNSYNCED 3	/* |PHC - CLOCK_TAI| above --sync-threshold */
#define TAPRIO_EXIT_REFUSED 4	/* the kernel refused the schedule */

/* qdisc.c: taprio over rtnetlink with libmnl, the kernel's extack passed through */
int taprio_nl_open(struct nl_sock *n);
int taprio_clear(struct nl_sock *n, int ifindex, const char *dev);
int taprio_apply(struct nl_sock *n, int ifindex, const char *dev, const struct tsched *s,
		 int64_t base, char *err, size_t errlen);
int64_t choose_base(const struct tsched *s, const char *how, clockid_t clk);
int dev_index(const char *dev);
/*
 * schedule_load - parse (and with @check, check) the schedule @path into a
 * new struct; NULL with the reason on stderr. @name, when not NULL, is how
 * messages name it from then on (the file as the user gave it).
 */
struct tsched *schedule_load(const char *path, bool check, const char *name);
/* The schedule FILE, the one positional argument of a verb */
const char *verb_file(int argc, char **argv, int first);
/* CLOCK_TAI - CLOCK_REALTIME in ns, from the kernel's TAI offset */
int64_t tai_offset_ns(void);

/* run.c and run_files.c: one measurement */
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
	struct prec *rec[TSCHED_MAX_TC];
	volatile bool senders_done, stop, failed;
	size_t received;
	int phc_fd;
	FILE *sync;
};

/* packets.csv, gates.csv (three cycles around the middle TX) and run-info.csv */
int run_write_files(const struct run *r, const char *dir);

/* The verbs */
int cmd_check(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_window(int argc, char **argv);
int cmd_variant(int argc, char **argv);
int cmd_num_tc(int argc, char **argv);
int cmd_prio(int argc, char **argv);
int cmd_set_tai(int argc, char **argv);
int cmd_tai_mono(int argc, char **argv);
int cmd_conform_phc(int argc, char **argv);
int cmd_conform_trace(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tune_report(int argc, char **argv);

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
/* The value of @key in @dir/run-info.csv (malloc'd), NULL when absent */
char *run_info(const char *dir, const char *key);

struct out;
/* out_metric(), a failure remembered: the report then exits 1 */
int report_metric(struct out *o, const char *name, const char *const *params, const char *unit,
		  const double *x, size_t n);

/* out_estimate(), a failure remembered */
int report_estimate(struct out *o, const char *name, const char *const *params, const char *unit,
		    double value, size_t n, const struct ci *ci);
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
int report_packets(struct out *o, const char *dir, const char *sname, struct pkt_counts *pc);
/*
 * report_sender - the sender figures of a run beside the measurement
 * (@dir/packets.csv): sender_latency_us, wake_to_enqueue_us and
 * enqueue_to_tx_us with params {tc, schedule, packets: @tag}. @lat0 (may
 * be NULL): class 0's sender latency samples appended.
 */
int report_sender(struct out *o, const char *dir, const char *sname, const char *tag,
		  struct vec *lat0);
/*
 * report_variant - the figures of one variant of a tuning sweep: violations,
 * no_timestamp, in_window_pct (an estimate out of all packets sent: its
 * "median" is the fraction in %, "n" the packets sent) and gate_lateness_us
 * with params {tc, schedule: @variant}.
 */
int report_variant(struct out *o, const char *dir, const char *variant);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The packet figures of a run (DIR/packets.csv, each packet's timestamps,
 * judged here against the schedule of the run's record): per class, how
 * many packets left outside their window by the driver's TX timestamp,
 * their latencies; with the probe's dequeue times (probe-taprio_gate*.csv),
 * how many taprio let through a closed gate and how many passed the gate in
 * time but reached the driver after it closed; and the figures' CSV files:
 * gates.csv and gate-marks.csv (three cycles around the middle TX of class
 * 0), latency.csv (the latency CDFs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "interval.h"
#include "output.h"
#include "stats.h"
#include "taprio.h"

/* The latencies of a packet, by the names of their metrics */
enum { L_GATE, L_ENQ_TX, L_PATH, L_SENDER, L_SENDER_OPEN, NLAT };
static const char *const lat_names[NLAT] = { "gate_lateness_us", "enqueue_to_tx_us",
					     "path_delay_us", "sender_latency_us",
					     "sender_latency_us" };

/* What packets.csv holds, per class */
struct pkts {
	struct vec lat[TSCHED_MAX_TC][NLAT], wq[TSCHED_MAX_TC];
	/* Out of all packets sent: inside + viol (outside) + notx (no TX timestamp) = sent */
	size_t inside[TSCHED_MAX_TC], viol[TSCHED_MAX_TC], sent[TSCHED_MAX_TC];
	size_t notx[TSCHED_MAX_TC], norx[TSCHED_MAX_TC];
	/* For the dequeue times: the row of each (tc, seq), the TX time and class of each row */
	size_t *byseq[TSCHED_MAX_TC], nseq[TSCHED_MAX_TC], rows;
	int64_t *txs;
	int *tcs_of;
	bool *in_of;		/* inside its window at TX */
	/* Per class, per half-second block of wake-up times: packets sent, inside */
	size_t *blk_sent[TSCHED_MAX_TC], *blk_in[TSCHED_MAX_TC], nblk[TSCHED_MAX_TC];
	int64_t blk0[TSCHED_MAX_TC];
	/* The round (of a sender beside the measurement) of each sender latency */
	struct vec srnd[TSCHED_MAX_TC];
	int round, rounds;
	/* Per class, the rounds (1 .. TUNE_MAX_ROUNDS) with a packet not shown inside */
	bool bad_round[TSCHED_MAX_TC][TUNE_MAX_ROUNDS + 1];
	int maxtc;
};

/* The clusters of in_window_pct: half-second blocks, longer than a vCPU stall */
#define BLOCK_NS 500000000LL

/* Count a packet of class @tc woken at @w (ns) in its block: sent, and inside or not */
static void count_block(struct pkts *p, int tc, int64_t w, bool in)
{
	size_t b, i;

	if (w <= 0)
		return;	/* no time to place it by */
	if (!p->nblk[tc])
		p->blk0[tc] = w;
	b = w > p->blk0[tc] ? (size_t)((w - p->blk0[tc]) / BLOCK_NS) : 0;
	if (b >= 100000)
		return;
	if (b >= p->nblk[tc]) {
		p->blk_sent[tc] = lab_realloc(p->blk_sent[tc], b + 1, sizeof(size_t), "blocks");
		p->blk_in[tc] = lab_realloc(p->blk_in[tc], b + 1, sizeof(size_t), "blocks");
		for (i = p->nblk[tc]; i <= b; i++)
			p->blk_sent[tc][i] = p->blk_in[tc][i] = 0;
		p->nblk[tc] = b + 1;
	}
	p->blk_sent[tc][b]++;
	p->blk_in[tc][b] += in;
}

enum { C_TC, C_SEQ, C_WAKE, C_SCHED, C_TX, C_RX, NCOL };
static const char *const cols[NCOL] = { "tc", "seq", "wake_ns", "sched_ns", "tx_ns", "rx_ns" };

/* Remember row @p->rows as packet (tc, seq) with TX time @tx, inside its window or not */
static void index_row(struct pkts *p, int tc, int64_t seq, int64_t tx, bool in)
{
	size_t i;

	if (seq >= 0 && seq < 10000000 && (size_t)seq >= p->nseq[tc]) {
		p->byseq[tc] = lab_realloc(p->byseq[tc], (size_t)seq + 1, sizeof(**p->byseq),
					   "packet index");
		for (i = p->nseq[tc]; i <= (size_t)seq; i++)
			p->byseq[tc][i] = SIZE_MAX;
		p->nseq[tc] = (size_t)seq + 1;
	}
	if (seq >= 0 && (size_t)seq < p->nseq[tc])
		p->byseq[tc][seq] = p->rows;
	p->txs = lab_realloc(p->txs, p->rows + 1, sizeof(*p->txs), "packet TX times");
	p->tcs_of = lab_realloc(p->tcs_of, p->rows + 1, sizeof(*p->tcs_of), "packet classes");
	p->in_of = lab_realloc(p->in_of, p->rows + 1, sizeof(*p->in_of), "packet windows");
	p->txs[p->rows] = tx;
	p->tcs_of[p->rows] = tc;
	p->in_of[p->rows] = in;
	p->rows++;
}

/*
 * One packet, judged against the schedule of @rec: inside its class's
 * window at its driver TX timestamp or not (none: not shown inside), and
 * its latencies: the sender's (wake-up to TX), wake-up to the qdisc, the
 * qdisc to TX, the gate lateness (TX minus the first opening of its gate at
 * or after the qdisc), the path delay (TX to RX)
 */
static void read_row(struct pkts *p, const struct run_record *rec, const struct csv *c,
		     const int *col)
{
	int64_t t = fint(c, col[C_TC]), w = fint(c, col[C_WAKE]), q = fint(c, col[C_SCHED]);
	int64_t tx = fint(c, col[C_TX]), rx = fint(c, col[C_RX]);
	const struct tsched *s = rec->s;
	bool in;
	int tc;

	if (t < 0 || t >= TSCHED_MAX_TC || !*csv_field(c, col[C_TC]))
		return;
	tc = (int)t;
	if (tc > p->maxtc)
		p->maxtc = tc;
	p->sent[tc]++;
	in = tx && tsched_gate(s, rec->base, tc, tx, NULL, NULL, NULL);
	if (!in && p->round >= 0 && p->round <= TUNE_MAX_ROUNDS)
		p->bad_round[tc][p->round] = true;
	count_block(p, tc, w > 0 ? w : tx, in);
	if (!tx) {
		p->notx[tc]++;
		return;
	}
	if (!rx)
		p->norx[tc]++;
	if (in)
		p->inside[tc]++;
	else
		p->viol[tc]++;
	if (q) {
		vpush(&p->lat[tc][L_GATE], (double)(tx - tsched_next_open(s, rec->base, tc, q)) / 1e3);
		vpush(&p->lat[tc][L_ENQ_TX], (double)(tx - q) / 1e3);
	}
	if (rx)
		vpush(&p->lat[tc][L_PATH], (double)(rx - tx) / 1e3);
	vpush(&p->lat[tc][L_SENDER], (double)(tx - w) / 1e3);
	vpush(&p->srnd[tc], p->round);
	if (tsched_gate(s, rec->base, tc, w, NULL, NULL, NULL))
		vpush(&p->lat[tc][L_SENDER_OPEN], (double)(tx - w) / 1e3);
	if (w > 0 && q > 0)
		vpush(&p->wq[tc], (double)(q - w) / 1e3);
	index_row(p, tc, fint(c, col[C_SEQ]), tx, in);
}

/* The packets of @dir/packets.csv, judged against its record @rec, added to @p */
static int read_packets(const char *dir, const struct run_record *rec, struct pkts *p)
{
	int col[NCOL], k, rc;
	struct csv c;

	rc = csv_open_in(&c, dir, "packets.csv");
	if (rc)
		return rc;
	for (k = 0; k < NCOL; k++)
		col[k] = csv_col(&c, cols[k]);
	while ((rc = csv_next(&c)) > 0)
		read_row(p, rec, &c, col);
	csv_read_close(&c);
	return rc < 0 ? rc : 0;
}

static struct pkts *new_packets(void)
{
	struct pkts *p = lab_calloc(1, sizeof(*p), "the packets");

	p->maxtc = -1;
	return p;
}

static void free_packets(struct pkts *p)
{
	int tc, k;

	for (tc = 0; tc < TSCHED_MAX_TC; tc++) {
		for (k = 0; k < NLAT; k++)
			free(p->lat[tc][k].x);
		free(p->wq[tc].x);
		free(p->byseq[tc]);
		free(p->blk_sent[tc]);
		free(p->blk_in[tc]);
		free(p->srnd[tc].x);
	}
	free(p->txs);
	free(p->tcs_of);
	free(p->in_of);
	free(p);
}

/* The probe's time of one tx line: 0 when it has none */
static int64_t probe_time(const struct csv *c, int ct, int cw, int cd, bool *exact)
{
	int64_t t;

	if (*csv_field(c, cd)) {
		*exact = true;
		return fint(c, cd);
	}
	t = fint(c, ct);
	if (t > 0 && fint(c, cw) >= 0)
		return t - fint(c, cw);
	return 0;
}

/*
 * Dequeue times of the packets, on CLOCK_TAI: taprio checks the gate when
 * it dequeues, the TX timestamp is the driver's. The probe printed a tx
 * line for each of our packets the driver got (tc and seq read from its
 * payload). On the lab kernel its start_ns is the kernel's own time of the
 * gate decision (tracepoint taprio_dequeue); on a stock kernel its time less
 * late_ns is the return of taprio_dequeue() (a kretprobe: a little after
 * the check). @deq[row] gets the time of each packets.csv row (0 when the
 * probe has no line for it: lost). *@exact tells which. Returns the number
 * of packets with a time.
 */
static size_t match_dequeues(const char *dir, const struct pkts *p, int64_t *deq, bool *exact)
{
	int ctc, cseq, ct, cw, cd;
	size_t matched = 0, row;
	struct csv c;

	if (csv_open_in(&c, dir, "probe-taprio_gate.csv") &&
	    csv_open_in(&c, dir, "probe-taprio_gate_kprobe.csv"))
		return 0;
	ctc = csv_col(&c, "tc");
	cseq = csv_col(&c, "seq");
	ct = csv_col(&c, "time_ns");
	cw = csv_col(&c, "late_ns");
	cd = csv_col(&c, "start_ns");
	*exact = false;
	while (csv_next(&c) > 0) {
		int64_t tc, seq, d;

		if (strcmp(csv_field(&c, 0), "tx") || !*csv_field(&c, ctc))
			continue;
		tc = fint(&c, ctc);
		seq = fint(&c, cseq);
		d = probe_time(&c, ct, cw, cd, exact);
		if (tc < 0 || tc >= TSCHED_MAX_TC || seq < 0 || (size_t)seq >= p->nseq[tc] || d <= 0)
			continue;
		row = p->byseq[tc][seq];
		if (row == SIZE_MAX || !p->txs[row] || deq[row])
			continue;
		deq[row] = d;
		matched++;
	}
	csv_read_close(&c);
	return matched;
}

/* The dequeue figures of class @tc */
static void dequeue_class(struct out *o, const struct pkts *p, const int64_t *deq,
			  const struct tsched *s, int64_t base, int tc, const char *sname,
			  const char *src, struct pkt_counts *pc)
{
	struct vec d2x = { 0 }, held = { 0 };
	size_t m = 0, i, bad = 0;
	char tcs[12];
	double v;

	for (i = 0; i < p->rows; i++) {
		if (p->tcs_of[i] != tc || !deq[i])
			continue;
		m++;
		vpush(&d2x, (double)(p->txs[i] - deq[i]) / 1e3);
		if (!tsched_gate(s, base, tc, deq[i], NULL, NULL, NULL))
			bad++;
		else if (!tsched_gate(s, base, tc, p->txs[i], NULL, NULL, NULL))
			/* through the gate in time, at the driver too late */
			vpush(&held, (double)(p->txs[i] - deq[i]) / 1e3);
	}
	snprintf(tcs, sizeof(tcs), "%d", tc);
	v = (double)bad;
	if (!report_metric(o, "violations_at_dequeue", (const char *[]){ "tc", tcs, "schedule", sname,
				   "probe", src, NULL }, "packets", &v, 1))
		report_counts(o, (const char *[]){ "packets_seen_by_probe", NULL }, (double[]){ (double)m });
	report_metric(o, "dequeue_to_tx_us", (const char *[]){ "tc", tcs, "schedule", sname,
			      "probe", src, "packets", "all", NULL }, "us", d2x.x, d2x.n);
	v = (double)held.n;
	report_metric(o, "violations_after_gate", (const char *[]){ "tc", tcs, "schedule", sname,
			      "probe", src, NULL }, "packets", &v, 1);
	report_metric(o, "dequeue_to_tx_us", (const char *[]){ "tc", tcs, "schedule", sname,
			      "probe", src, "packets", "outside-at-tx", NULL }, "us", held.x, held.n);
	fprintf(stderr, "class %d: the probe (%s) saw the dequeue of %zu packets, %zu of them "
		"outside their window; %zu more passed the gate inside it and reached the driver "
		"after it closed\n", tc, src, m, bad, held.n);
	pc->seen[tc] = (long long)m;
	pc->at_dequeue[tc] = (long long)bad;
	pc->after_gate[tc] = (long long)held.n;
	free(d2x.x);
	free(held.x);
}

/* In the window at taprio's dequeue, from the probe, with the run's schedule */
static void report_dequeues(struct out *o, const char *dir, const struct run_record *rec,
			    const struct pkts *p, struct pkt_counts *pc)
{
	int64_t *deq = lab_calloc(p->rows ? p->rows : 1, sizeof(*deq), "dequeue times");
	bool exact = false;
	int tc;

	if (match_dequeues(dir, p, deq, &exact)) {
		pc->probe = exact ? "tracepoint" : "kretprobe";
		for (tc = 0; tc <= p->maxtc; tc++)
			dequeue_class(o, p, deq, rec->s, rec->base, tc, rec->name, pc->probe, pc);
	}
	free(deq);
}

/*
 * in_window_pct of class @tc: the packets shown inside their window out of
 * all packets sent (one without a TX timestamp counts as not shown), with
 * its Wilson interval on the effective n of its half-second blocks (a vCPU
 * stall delays many packets at once: ci_wilson_clusters); and the packets
 * with no TX timestamp, counted
 */
static void in_window(struct out *o, const struct pkts *p, int tc, const char *const *tcp,
		      struct ci *ci_out)
{
	double v = (double)p->notx[tc];
	struct ci ci = { NAN, NAN, NULL, NULL };

	if (p->sent[tc]) {
		ci_wilson_clusters(p->blk_in[tc], p->blk_sent[tc], p->nblk[tc], &ci);
		ci.lo *= 100;
		ci.hi *= 100;
		report_estimate(o, "in_window_pct", tcp, "% of packets sent",
				100.0 * (double)p->inside[tc] / (double)p->sent[tc], p->sent[tc],
				&ci);
	}
	report_metric(o, "no_timestamp", tcp, "packets", &v, 1);
	if (ci_out)
		*ci_out = ci;
}

/* The p99 of @x with its order-statistic interval (ci_quantile), when n >= 100 */
void report_p99(struct out *o, const char *name, const char *const *params, const char *unit,
		const double *x, size_t n)
{
	struct ci ci;

	if (n < STATS_P99_MIN_N || ci_quantile(x, n, 0.99, &ci))
		return;
	report_estimate(o, name, params, unit, stats_percentile(x, n, 0.99), n, &ci);
}

/* The figures of class @tc at the driver */
static void class_metrics(struct out *o, const struct pkts *p, int tc, const char *sname)
{
	const char *const *tcp;
	char tcs[8];
	double v = (double)p->viol[tc];
	int k;

	snprintf(tcs, sizeof(tcs), "%d", tc);
	tcp = (const char *[]){ "tc", tcs, "schedule", sname, NULL };
	in_window(o, p, tc, tcp, NULL);
	report_metric(o, "violations", tcp, "packets", &v, 1);
	for (k = 0; k < L_SENDER; k++)
		report_metric(o, lat_names[k], tcp, "us", p->lat[tc][k].x, p->lat[tc][k].n);
	report_p99(o, "gate_lateness_p99_us", tcp, "us", p->lat[tc][L_GATE].x,
		   p->lat[tc][L_GATE].n);
	report_metric(o, "sender_latency_us", (const char *[]){ "tc", tcs, "schedule", sname,
			      "packets", "all", NULL }, "us", p->lat[tc][L_SENDER].x,
		      p->lat[tc][L_SENDER].n);
	report_metric(o, "sender_latency_us", (const char *[]){ "tc", tcs, "schedule", sname,
			      "packets", "gate-open-at-wake", NULL }, "us",
		      p->lat[tc][L_SENDER_OPEN].x, p->lat[tc][L_SENDER_OPEN].n);
	report_metric(o, "wake_to_enqueue_us", tcp, "us", p->wq[tc].x, p->wq[tc].n);
	fprintf(stderr, "class %d: %zu sent, %zu inside their window, %zu outside, %zu with no TX "
		"timestamp, %zu not received\n", tc, p->sent[tc], p->inside[tc], p->viol[tc],
		p->notx[tc], p->norx[tc]);
}

/* The cycle (from the start) holding the median TX of class 0's packets, less one */
static int64_t middle_tx_cycle(const struct pkts *p, const struct run_record *rec)
{
	double *t = lab_calloc(p->rows, sizeof(*t), "TX times");
	int64_t k = 0, c = tsched_cycle(rec->s);
	size_t i, n = 0;

	for (i = 0; i < p->rows; i++)
		if (p->tcs_of[i] == 0 && p->txs[i] > rec->start)
			t[n++] = (double)(p->txs[i] - rec->start);
	if (n && c > 0) {
		qsort(t, n, sizeof(*t), stats_cmp_double);
		k = (int64_t)t[n / 2] / c - 1;
	}
	free(t);
	return k > 0 ? k : 0;
}

/* gates.csv: the open windows of cycles [@first, @first + 3) of the run, ms from its start */
static int write_gates(const char *dir, const struct tsched *s, int64_t first)
{
	int64_t c = tsched_cycle(s), k;
	struct atomic_file af;
	size_t i;
	int tc, err;

	err = csv_open(&af, dir, "gates.csv", "tc,entry,start_ms,end_ms");
	if (err)
		return err;
	for (k = first; k < first + 3; k++)
		for (i = 0; i < s->n_entries; i++) {
			int64_t st = k * c + tsched_entry_offset(s, i);
			int64_t en = st + s->entries[i].interval;

			if (en > (k + 1) * c)
				en = (k + 1) * c;
			for (tc = 0; tc < s->num_tc; tc++)
				if ((s->entries[i].gate_mask >> tc) & 1)
					fprintf(af.f, "%d,%zu,%.6f,%.6f\n", tc, i, (double)st / 1e6,
						(double)en / 1e6);
		}
	return atomic_commit(&af);
}

/*
 * gate-marks.csv: kind,tc,t_ms, in cycles [@first, @first + 3): each
 * packet's driver TX (kind inside or outside its window) and taprio's gate
 * decisions the probe saw (kind decision: start_ns of its tx lines, on the
 * lab kernel's tracepoint)
 */
static int write_marks(const char *dir, const char *pdir, const struct pkts *p,
		       const struct run_record *rec, int64_t first)
{
	int64_t c = tsched_cycle(rec->s), lo = rec->start + first * c, hi = lo + 3 * c;
	struct atomic_file af;
	struct csv pr;
	size_t i;
	int err, ctc, cst;

	err = csv_open(&af, dir, "gate-marks.csv", "kind,tc,t_ms");
	if (err)
		return err;
	for (i = 0; i < p->rows; i++)
		if (p->txs[i] >= lo && p->txs[i] <= hi)
			fprintf(af.f, "%s,%d,%.6f\n", p->in_of[i] ? "inside" : "outside", p->tcs_of[i],
				(double)(p->txs[i] - rec->start) / 1e6);
	if (!csv_open_in(&pr, pdir, "probe-taprio_gate.csv")) {
		ctc = csv_col(&pr, "tc");
		cst = csv_col(&pr, "start_ns");
		while (csv_next(&pr) > 0) {
			int64_t t = fint(&pr, cst);

			if (!strcmp(csv_field(&pr, 0), "tx") && *csv_field(&pr, ctc) && t >= lo &&
			    t <= hi)
				fprintf(af.f, "decision,%s,%.6f\n", csv_field(&pr, ctc),
					(double)(t - rec->start) / 1e6);
		}
		csv_read_close(&pr);
	}
	return atomic_commit(&af);
}

/*
 * latency.csv: tc,measure,latency_us,fraction: per class, the CDF of the
 * gate lateness and of the path delay as fractions of all packets sent (a
 * packet without the timestamps a latency needs is never reached)
 */
static int write_latency(const char *dir, const struct pkts *p)
{
	struct atomic_file af;
	char prefix[64];
	int tc, err;

	err = csv_open(&af, dir, "latency.csv", "tc,measure,latency_us,fraction");
	if (err)
		return err;
	for (tc = 0; tc <= p->maxtc; tc++) {
		snprintf(prefix, sizeof(prefix), "%d,gate_lateness", tc);
		write_cdf(af.f, prefix, p->lat[tc][L_GATE].x, p->lat[tc][L_GATE].n,
			  (double)p->sent[tc]);
		snprintf(prefix, sizeof(prefix), "%d,path_delay", tc);
		write_cdf(af.f, prefix, p->lat[tc][L_PATH].x, p->lat[tc][L_PATH].n,
			  (double)p->sent[tc]);
	}
	return atomic_commit(&af);
}

/*
 * The figures' CSV files of the measurement (@p of @rec) into @dir; the
 * gates and their marks from the run the printing probe watched (@mp of
 * @mrec in @mdir: the probe pass, or the measurement itself in a run made
 * before the probe had a pass of its own). 0 or -errno (the file named).
 */
static int packet_figures(const char *dir, const struct pkts *p, const char *mdir,
			  const struct pkts *mp, const struct run_record *mrec)
{
	int64_t first = middle_tx_cycle(mp, mrec);
	int rc = write_gates(dir, mrec->s, first);

	if (!rc)
		rc = write_marks(dir, mdir, mp, mrec, first);
	if (!rc)
		rc = write_latency(dir, p);
	if (rc)
		fprintf(stderr, "%s: the figures of %s could not be written: %s\n", lab_prog, dir,
			strerror(-rc));
	return rc;
}

bool probe_pass_read(const char *dir, char *pdir, size_t len, struct run_record *rec)
{
	char path[4200];

	snprintf(pdir, len, "%s/probe-pass", dir);
	snprintf(path, sizeof(path), "%s/run.json", pdir);
	return !access(path, F_OK) && !record_read(path, rec);
}

int report_packets(struct out *o, const char *dir, const struct run_record *rec,
		   struct pkt_counts *pc)
{
	struct pkts *p = new_packets(), *pp = p;
	struct run_record prec, *mrec = (struct run_record *)rec;
	char pdir[4096];
	const char *mdir = dir;
	int tc, rc;

	memset(pc, 0, sizeof(*pc));
	pc->maxtc = -1;
	for (tc = 0; tc < TSCHED_MAX_TC; tc++)
		pc->seen[tc] = -1;
	rc = read_packets(dir, rec, p);
	if (rc)
		goto out;
	/* The printing probe's own run, when it had one */
	if (probe_pass_read(dir, pdir, sizeof(pdir), &prec)) {
		pp = new_packets();
		if (!read_packets(pdir, &prec, pp)) {
			mdir = pdir;
			mrec = &prec;
		} else {
			free_packets(pp);
			record_free(&prec);
			pp = p;
		}
	}
	report_dequeues(o, mdir, mrec, pp, pc);
	for (tc = 0; tc <= p->maxtc; tc++)
		class_metrics(o, p, tc, rec->name);
	pc->maxtc = p->maxtc;
	for (tc = 0; tc <= p->maxtc; tc++)
		pc->cls[tc] = (struct taprio_class_counts){ p->sent[tc], p->inside[tc], p->viol[tc],
							    p->notx[tc] };
	rc = packet_figures(dir, p, mdir, pp, mrec);
	if (pp != p) {
		free_packets(pp);
		record_free(&prec);
	}
out:
	free_packets(p);
	return rc;
}

/* The rounds @dir/round-1, round-2, ... of a sender beside the measurement, read into @p */
static int read_rounds(const char *dir, struct pkts *p)
{
	struct run_record rec;
	char sub[4096], path[4200];
	int k, rc = 0;

	for (k = 1; !rc; k++) {
		snprintf(sub, sizeof(sub), "%s/round-%d", dir, k);
		snprintf(path, sizeof(path), "%s/run.json", sub);
		if (access(path, F_OK))
			break;
		rc = record_read(path, &rec);
		p->round = k;
		p->rounds = k;
		if (!rc) {
			rc = read_packets(sub, &rec, p);
			record_free(&rec);
		}
	}
	return k == 1 ? -ENOENT : rc;
}

int report_sender(struct out *o, const char *dir, const char *sname, const char *tag,
		  struct vec *lat0, struct vec *round0)
{
	struct pkts *p = new_packets();
	char tcs[8];
	int tc, rc;

	rc = read_rounds(dir, p);
	for (tc = 0; !rc && tc <= p->maxtc; tc++) {
		const char *const *tp;

		snprintf(tcs, sizeof(tcs), "%d", tc);
		tp = (const char *[]){ "tc", tcs, "schedule", sname, "packets", tag, NULL };
		report_metric(o, "enqueue_to_tx_us", tp, "us", p->lat[tc][L_ENQ_TX].x,
			      p->lat[tc][L_ENQ_TX].n);
		report_metric(o, "sender_latency_us", tp, "us", p->lat[tc][L_SENDER].x,
			      p->lat[tc][L_SENDER].n);
		report_metric(o, "wake_to_enqueue_us", tp, "us", p->wq[tc].x, p->wq[tc].n);
		if (lat0 && tc == 0)
			for (size_t i = 0; i < p->lat[0][L_SENDER].n; i++) {
				vpush(lat0, p->lat[0][L_SENDER].x[i]);
				vpush(round0, p->srnd[0].x[i]);
			}
	}
	free_packets(p);
	return rc;
}

int report_variant(struct out *o, const char *dir, const char *variant, struct tune_figures *f,
		   int nf)
{
	struct ci ci;
	struct pkts *p = new_packets();
	struct run_record rec;
	char tcs[8], path[4200];
	struct stats st;
	int tc, rc;

	/* its rounds (round-K/), or one run (a sweep made before the rounds) */
	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (access(path, F_OK)) {
		rc = read_rounds(dir, p);
	} else {
		rc = record_read(path, &rec);
		if (!rc) {
			rc = read_packets(dir, &rec, p);
			record_free(&rec);
		}
	}
	for (tc = 0; tc < nf; tc++)
		f[tc] = (struct tune_figures)TUNE_NONE;
	for (tc = 0; !rc && tc <= p->maxtc; tc++) {
		const char *const *tp;
		double v = (double)p->viol[tc];
		const struct vec *g = &p->lat[tc][L_GATE];

		snprintf(tcs, sizeof(tcs), "%d", tc);
		tp = (const char *[]){ "tc", tcs, "schedule", variant, NULL };
		in_window(o, p, tc, tp, &ci);
		report_metric(o, "violations", tp, "packets", &v, 1);
		report_metric(o, "gate_lateness_us", tp, "us", g->x, g->n);
		report_p99(o, "gate_lateness_p99_us", tp, "us", g->x, g->n);
		if (tc >= nf)
			continue;
		f[tc] = (struct tune_figures)TUNE_NONE;
		f[tc].violations = v;
		f[tc].rounds = p->rounds ? p->rounds : 1;
		f[tc].bad_rounds = 0;
		for (int k = 0; k <= TUNE_MAX_ROUNDS; k++)
			f[tc].bad_rounds += p->bad_round[tc][k];
		if (p->sent[tc]) {
			f[tc].packets = (double)p->sent[tc];
			f[tc].in_window = 100.0 * (double)p->inside[tc] / (double)p->sent[tc];
			/* too few half-second blocks for their interval: the packets' own */
			if (isnan(ci.lo)) {
				ci_wilson(p->inside[tc], p->sent[tc], &ci);
				ci.lo *= 100;
				ci.hi *= 100;
			}
			f[tc].in_lo = ci.lo;
			f[tc].in_hi = ci.hi;
		}
		/* a p99 only with its interval (order statistics need n >= 368) */
		if (g->n && !stats_compute(g->x, g->n, &st)) {
			f[tc].median = st.median;
			if (g->n >= ci_quantile_min_n(0.99) && !ci_quantile(g->x, g->n, 0.99, &ci)) {
				f[tc].p99 = st.p99;
				f[tc].p99_lo = ci.lo;
				f[tc].p99_hi = ci.hi;
			}
		}
	}
	free_packets(p);
	return rc;
}

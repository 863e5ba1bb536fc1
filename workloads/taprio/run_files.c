// SPDX-License-Identifier: GPL-2.0
/*
 * The files of a measurement: packets.csv (each packet's timestamps and
 * where it fell in the gates), gates.csv (the windows of three cycles, for
 * the plot) and run-info.csv (the schedule, its base time, the counts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "stats.h"
#include "taprio.h"

/* One packet's row: its timestamps, the entry at TX, the derived latencies */
static void packet_row(FILE *f, const struct run *r, int tc, size_t i)
{
	const struct prec *p = &r->rec[tc][i];
	bool in = false, open_wake;
	int entry = -1;
	int64_t opening;

	open_wake = tsched_gate(r->s, r->base, tc, p->wake, NULL, NULL, NULL);
	fprintf(f, "%d,%zu,%u,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64, tc, i,
		p->size, p->wake, p->sched, p->tx, p->rx);
	if (p->tx)
		in = tsched_gate(r->s, r->base, tc, p->tx, &entry, NULL, NULL);
	fprintf(f, ",%d,%s,%d", entry, p->tx ? (in ? "1" : "0") : "", open_wake ? 1 : 0);
	if (p->tx)
		fprintf(f, ",%.3f", (double)(p->tx - p->wake) / 1e3);
	else
		fputs(",", f);
	if (p->tx && p->sched) {
		opening = tsched_next_open(r->s, r->base, tc, p->sched);
		fprintf(f, ",%.3f,%.3f", (double)(p->tx - p->sched) / 1e3,
			(double)(p->tx - opening) / 1e3);
	} else {
		fputs(",,", f);
	}
	if (p->tx && p->rx)
		fprintf(f, ",%.3f", (double)(p->rx - p->tx) / 1e3);
	else
		fputs(",", f);
	if (p->tx)
		fprintf(f, ",%.6f\n", (double)(p->tx - r->start) / 1e6);
	else
		fputs(",\n", f);
}

static int write_packets(const struct run *r, const char *dir)
{
	struct atomic_file af;
	int tc, err;
	size_t i;

	err = csv_open(&af, dir, "packets.csv",
		       "tc,seq,size,wake_ns,sched_ns,tx_ns,rx_ns,entry_at_tx,in_window,"
		       "gate_open_at_wake,sender_latency_us,enqueue_to_tx_us,gate_lateness_us,"
		       "path_delay_us,tx_rel_ms");
	if (err)
		return err;
	for (tc = 0; tc < r->s->num_tc; tc++)
		for (i = 0; i < r->count; i++)
			if (r->rec[tc][i].sent)
				packet_row(af.f, r, tc, i);
	return atomic_commit(&af);
}

/* The gates of @cycles cycles from cycle @first of the measurement: one bar per open window */
static int write_gates(const struct run *r, const char *dir, int first, int cycles)
{
	struct atomic_file af;
	int64_t c = tsched_cycle(r->s);
	size_t i;
	int k, tc, err;

	err = csv_open(&af, dir, "gates.csv", "tc,entry,start_ms,end_ms");
	if (err)
		return err;
	for (k = first; k < first + cycles; k++)
		for (i = 0; i < r->s->n_entries; i++) {
			int64_t st = (int64_t)k * c + tsched_entry_offset(r->s, i);
			int64_t en = st + r->s->entries[i].interval;

			if (en > (int64_t)(k + 1) * c)
				en = (int64_t)(k + 1) * c;
			for (tc = 0; tc < r->s->num_tc; tc++)
				if ((r->s->entries[i].gate_mask >> tc) & 1)
					fprintf(af.f, "%d,%zu,%.6f,%.6f\n", tc, i, (double)st / 1e6,
						(double)en / 1e6);
		}
	return atomic_commit(&af);
}

/* The cycle (from the start) holding the median TX of class 0's packets */
static int middle_tx_cycle(const struct run *r, int64_t c)
{
	double *t = lab_calloc(r->count, sizeof(*t), "TX times");
	int64_t k = 0;
	size_t i, n = 0;

	for (i = 0; i < r->count; i++)
		if (r->rec[0][i].tx > r->start)
			t[n++] = (double)(r->rec[0][i].tx - r->start);
	if (n) {
		qsort(t, n, sizeof(*t), stats_cmp_double);
		k = (int64_t)t[n / 2] / c - 1;
	}
	free(t);
	return k > 0 ? (int)k : 0;
}

static int write_run_info(const struct run *r, const char *dir)
{
	char *tcargs = tsched_text(r->s, r->base, " ");
	struct atomic_file af;
	int rc;

	if (!tcargs) {
		fprintf(stderr, "%s: run-info.csv: the schedule as tc arguments: out of memory\n",
			lab_prog);
		return -ENOMEM;
	}
	rc = csv_open(&af, dir, "run-info.csv", "key,value");
	if (!rc) {
		fprintf(af.f, "schedule,%s\nbase_ns,%" PRId64 "\nstart_ns,%" PRId64
			"\ncycle_ns,%" PRId64 "\ntai_offset_s,%" PRId64 "\ncount,%zu\nrate,%g\n"
			"received,%zu\ntc_args,\"%s\"\n", r->s->file, r->base, r->start,
			tsched_cycle(r->s), r->tai_off / 1000000000, r->count, r->rate, r->received,
			tcargs);
		rc = atomic_commit(&af);
	}
	free(tcargs);
	return rc;
}

int run_write_files(const struct run *r, const char *dir)
{
	int rc = write_packets(r, dir);

	if (!rc)
		/* Three cycles around the middle TX of the first class's packets */
		rc = write_gates(r, dir, middle_tx_cycle(r, tsched_cycle(r->s)), 3);
	if (!rc)
		rc = write_run_info(r, dir);
	return rc;
}

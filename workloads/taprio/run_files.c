// SPDX-License-Identifier: GPL-2.0
/*
 * The files of a measurement: packets.csv, each packet sent with its
 * timestamps as taken (CLOCK_TAI ns, 0 when missing), and the record
 * run.json (record.c), which says what they were taken against. Nothing
 * here judges a packet: `taprio report` does, from these two.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>

#include "output.h"
#include "taprio.h"

static int write_packets(const struct run *r, const char *dir)
{
	struct atomic_file af;
	int tc, err;
	size_t i;

	err = csv_open(&af, dir, "packets.csv", "tc,seq,size,wake_ns,sched_ns,tx_ns,rx_ns");
	if (err)
		return err;
	for (tc = 0; tc < r->s->num_tc; tc++)
		for (i = 0; i < r->count; i++) {
			const struct prec *p = &r->rec[tc][i];

			if (p->sent)
				fprintf(af.f, "%d,%zu,%u,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
					tc, i, p->size, p->wake, p->sched, p->tx, p->rx);
		}
	return atomic_commit(&af);
}

int run_write_files(const struct run *r, const char *dir)
{
	int rc = write_packets(r, dir);

	return rc ? rc : record_write(r, dir);
}

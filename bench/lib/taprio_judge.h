/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets of the taprio workload, judged from numbers only (no files),
 * so that each can be unit-tested (tests/unit/test_taprio_judge.c):
 *
 *   taprio_judge_window  class N: every packet sent shown inside its window
 *                        by its TX timestamp. Counted out of all packets
 *                        sent: a packet without a TX timestamp is not shown
 *                        inside, so it fails the target like one outside.
 *   taprio_judge_ratio   our sender's median latency over isochron's within
 *                        +-@tol_pct, on the ratio's 95 % interval
 *                        (verdict_range): met when it lies inside
 *                        [1 - tol, 1 + tol], NOT MET when wholly outside,
 *                        undecided when it straddles an end.
 *
 * Each returns the verdict and writes into @why how it came about.
 */
#ifndef BENCH_TAPRIO_JUDGE_H
#define BENCH_TAPRIO_JUDGE_H

#include <stddef.h>

#include "interval.h"
#include "output.h"

/* One class's packets: sent = inside + outside + notx */
struct taprio_class_counts {
	size_t sent;	/* every packet the sender sent */
	size_t inside;	/* TX timestamp inside the class's window */
	size_t outside;	/* TX timestamp outside it */
	size_t notx;	/* no TX timestamp ("no timestamp") */
};

/* *@measured: the packets not shown inside (sent - inside) */
enum target_verdict taprio_judge_window(const struct taprio_class_counts *c, double *measured,
					char *why, size_t len);

/*
 * @ratio: median(ours) / median(theirs) with its interval @ci (ci_ratio);
 * @n_ours, @n_theirs: the samples of each side. *@measured: how far the
 * interval's farther end lies from 1, in % (NAN when not judged), so that
 * the target is met exactly when *@measured <= @tol_pct.
 */
enum target_verdict taprio_judge_ratio(double ratio, const struct ci *ci, size_t n_ours,
				       size_t n_theirs, double tol_pct, double *measured,
				       char *why, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * run: one measurement. The clock sync checked, the schedule configured on
 * the device with its base time, the packets sent and received (run.c),
 * taprio removed again, and the raw files and the record written
 * (run_files.c, record.c). Its failure goes to --fail-file with a kind the
 * driver acts on: "unsynced" (|PHC - CLOCK_TAI| above the threshold),
 * "refused" (the kernel refused the schedule), "error" (anything else).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "cli.h"
#include "phc.h"
#include "progress.h"
#include "taprio.h"
#include "timing.h"

/*
 * Wait until |PHC - CLOCK_TAI| stays below @threshold for 10 readings in a
 * row (1 s); returns 0, or -ETIMEDOUT after @timeout_s with the last offset.
 */
static int sync_wait(int fd, int64_t threshold, double timeout_s, int64_t *last)
{
	uint64_t end = mono_ns() + (uint64_t)(timeout_s * 1e9);
	int good = 0;

	while (mono_ns() < end) {
		struct phc_reading rd;

		if (phc_read(fd, 5, &rd))
			return -EIO;
		*last = phc_offset(&rd) - tai_offset_ns();
		good = llabs(*last) <= threshold ? good + 1 : 0;
		if (good >= 10)
			return 0;
		sleep_ns(100000000);
	}
	return -ETIMEDOUT;
}

/* Check the clock sync before measuring: 0, or -EAGAIN with the reason in @f */
static int run_sync(struct run *r, struct run_failure *f)
{
	long long threshold = r->sync_threshold;
	int64_t last = 0;

	if (threshold < 0)
		return 0;
	if (r->phc_fd < 0) {
		fprintf(stderr, "%s: %s reports no PHC: no clock sync to check (stock kernel?)\n",
			lab_prog, r->dev);
		return 0;
	}
	if (sync_wait(r->phc_fd, threshold, 30, &last)) {
		f->kind = "unsynced";
		snprintf(f->why, sizeof(f->why), "refusing to measure: |PHC - CLOCK_TAI| is %" PRId64
			 " ns, above the threshold of %lld ns (30 s of waiting)",
			 (int64_t)llabs(last), threshold);
		fprintf(stderr, "%s: %s\n", lab_prog, f->why);
		return -EAGAIN;
	}
	fprintf(stderr, "%s: clock sync: |PHC - CLOCK_TAI| = %" PRId64 " ns, within %lld ns\n",
		lab_prog, (int64_t)llabs(last), threshold);
	return 0;
}

/* sync-workload.csv, filled by the sampler while the run lasts (with a PHC) */
static int open_sync(struct run *r, const char *out)
{
	char path[4096];

	if (r->phc_fd < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/sync-workload.csv", out);
	r->sync = fopen(path, "w");
	if (!r->sync || fprintf(r->sync, "t_s,offset_ns\n") < 0) {
		fprintf(stderr, "%s: %s: %s\n", lab_prog, path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int close_sync(struct run *r, const char *out)
{
	int rc = 0;

	if (r->sync && (ferror(r->sync) | fclose(r->sync))) {
		fprintf(stderr, "%s: %s/sync-workload.csv: write failed\n", lab_prog, out);
		rc = -EIO;
	}
	r->sync = NULL;
	return rc;
}

/*
 * The measurement on a configured device: from taprio's configuration to
 * its removal (with @keep it stays). Every path out removes what it set up.
 */
static int run_measure(struct run *r, const char *out, bool keep, struct run_failure *f)
{
	struct nl_sock n = { 0 };
	int ifindex = dev_index(r->dev), rc;

	if (!ifindex || taprio_nl_open(&n)) {
		snprintf(f->why, sizeof(f->why), "no interface %s or no netlink socket", r->dev);
		return 1;
	}
	r->tai_off = tai_offset_ns();
	r->base = choose_base(r->s, "next", CLOCK_TAI);
	/* 300 ms for the schedule (and the guest) to settle, then the first send */
	r->start = tsched_next_cycle_start(r->s, r->base, r->base + 300000000);
	if (taprio_apply(&n, ifindex, r->dev, r->s, r->base, f->why, sizeof(f->why))) {
		fprintf(stderr, "%s\n", f->why);
		f->kind = "refused";
		taprio_clear(&n, ifindex, r->dev);
		nl_close(&n);
		return 1;
	}
	rc = open_sync(r, out) ? 1 : 0;
	if (rc)
		snprintf(f->why, sizeof(f->why), "cannot write %s/sync-workload.csv", out);
	if (!rc && run_threads(r)) {
		snprintf(f->why, sizeof(f->why), "a thread of the measurement could not start");
		rc = 1;
	}
	if (close_sync(r, out) && !rc) {
		snprintf(f->why, sizeof(f->why), "cannot write %s/sync-workload.csv", out);
		rc = 1;
	}
	if (rc || !keep)
		taprio_clear(&n, ifindex, r->dev);
	nl_close(&n);
	return rc;
}

static void add_size(const char *item, void *arg)
{
	struct run *r = arg;

	if (r->n_sizes >= 16)
		lab_usage_error("--sizes: more than 16 sizes ('%s')", item);
	r->sizes[r->n_sizes++] = (int)lab_parse_uint("--sizes: packet size", item, PKT_HDR_SIZE,
						     1472);
}

/* What the options say against the schedule: usage errors (exit 2) */
static void run_check(const struct run *r, const struct tsched *s)
{
	if (r->only_tc >= s->num_tc)
		lab_usage_error("--tc %d: %s has %d traffic classes (0 to %d)", r->only_tc,
				s->file, s->num_tc, s->num_tc - 1);
	if (r->phase >= (int64_t)(1e9 / r->rate))
		lab_usage_error("--phase %" PRId64 ": beyond the period of %.0f ns at %g/s",
				r->phase, 1e9 / r->rate, r->rate);
}

static void run_alloc(struct run *r)
{
	int tc;

	for (tc = 0; tc < r->s->num_tc; tc++)
		r->rec[tc] = lab_calloc(r->count, sizeof(struct prec), "the packet records");
}

static void run_free(struct run *r)
{
	int tc;

	for (tc = 0; tc < TSCHED_MAX_TC; tc++)
		free(r->rec[tc]);
	if (r->phc_fd >= 0)
		close(r->phc_fd);
}

int run_measurement(struct run *r, const char *out, bool keep, struct run_failure *f)
{
	int rc, phc;

	f->kind = "error";
	f->why[0] = 0;
	/* Everything allocated before taprio is configured: no exit leaves it behind */
	run_alloc(r);
	/* Clock sync first: taprio's CLOCK_TAI must follow the PHC */
	phc = phc_index_of(r->dev, NULL);
	if (phc >= 0)
		r->phc_fd = phc_open(phc);
	rc = run_sync(r, f) ? 1 : 0;
	if (!rc)
		rc = run_measure(r, out, keep, f);
	if (!rc && r->failed) {
		snprintf(f->why, sizeof(f->why), "a sender or the receiver failed (see the messages)");
		rc = 1;
	}
	if (!rc && run_write_files(r, out)) {
		snprintf(f->why, sizeof(f->why), "cannot write the files of the run in %s", out);
		rc = 1;
	}
	run_free(r);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run r = { .dev = "eth0", .netns = "rx", .only_tc = -1, .phase = -1, .phc_fd = -1 };
	const char *out = NULL, *dst = "198.18.0.2", *sizes = "64,512,1400", *name = NULL;
	unsigned long long count = 1000, port = 7788;
	long long tc = -1, phase = -1;
	bool keep = false;
	struct in_addr addr;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &out, "DIR", "where the CSV files and the record go", true),
		LAB_OPT_STR("dev", &r.dev, "DEV", "the device (eth0)", false),
		LAB_OPT_U64("count", &count, 1, 10000000, "packets per class (1000)"),
		LAB_OPT_DBL("rate", &r.rate, 0.001, 100000, "packets per second per class (100)"),
		LAB_OPT_STR("sizes", &sizes, "B,B..", "UDP payload sizes in turn (64,512,1400)",
			    false),
		LAB_OPT_STR("dst", &dst, "IP", "the receiver (198.18.0.2)", false),
		LAB_OPT_U64("port", &port, 1, 65535, "its UDP port (7788)"),
		LAB_OPT_STR("rx-netns", &r.netns, "NS", "its network namespace (rx)", false),
		LAB_OPT_S64("sync-threshold", &r.sync_threshold, 0, 1000000000,
			    "measure only with |PHC - CLOCK_TAI| below NS"),
		LAB_OPT_FLAG("keep", &keep, "leave taprio configured after the run"),
		LAB_OPT_S64("tc", &tc, 0, TSCHED_MAX_TC - 1, "send on class N only"),
		LAB_OPT_S64("phase", &phase, 0, INT32_MAX,
			    "send NS into each period (default: at random)"),
		LAB_OPT_FLAG("errqueue-thread", &r.errq_thread,
			     "read the TX timestamps in a second thread"),
		LAB_OPT_STR("name", &name, "NAME", "the schedule's name in messages and the record",
			    false),
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};
	struct run_failure f;
	const char *file;
	struct tsched *s;
	int rc;

	r.rate = 100;
	r.sync_threshold = -1;
	file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	lab_each_item("--sizes", sizes, add_size, &r);
	if (!inet_aton(dst, &addr))
		lab_usage_error("--dst '%s' is not an IPv4 address", dst);
	r.dst = addr.s_addr;
	r.port = (int)port;
	r.count = (size_t)count;
	r.only_tc = (int)tc;
	r.phase = phase;
	s = schedule_load(file, true, name);
	if (!s)
		lab_die("the schedule %s cannot be measured (see above)", file);
	r.s = s;
	run_check(&r, s);
	if (s->clockid != CLOCK_TAI)
		lab_die("%s: the workload measures schedules on CLOCK_TAI only", s->file);
	progress_start(1);
	rc = run_measurement(&r, out, keep, &f);
	if (rc)
		lab_fail(f.kind, "%s", f.why);
	free(s);
	return rc;
}

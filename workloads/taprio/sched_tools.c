// SPDX-License-Identifier: GPL-2.0
/*
 * The schedule tools of the taprio workload: check a schedule file, apply
 * it to a device or clear it, and answer the shell drivers' questions about
 * it (a class's windows, num_tc, a class's priority, a scaled variant), so
 * that no shell script reads tc's syntax itself. And the kernel's TAI offset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <unistd.h>

#include "cli.h"
#include "phc.h"
#include "progress.h"
#include "taprio.h"
#include "timing.h"

/*
 * The TX queues the device will have, when known before it exists (the
 * host checks a schedule before the guest boots): num_tc and every queue
 * range must fit in them, or the kernel refuses the schedule.
 */
static int check_queues(const struct tsched *s, unsigned long long queues)
{
	int i;

	if ((unsigned long long)s->num_tc > queues) {
		fprintf(stderr, "%s:%d: num_tc %d is more than the %llu TX queues of the device "
			"(the kernel would refuse it: more traffic classes than queues)\n",
			s->file, s->line[TSCHED_NUM_TC], s->num_tc, queues);
		return -EINVAL;
	}
	for (i = 0; i < s->n_queues; i++)
		if ((unsigned long long)s->offset[i] + s->count[i] > queues) {
			fprintf(stderr, "%s:%d: queues: the range of traffic class %d (%u@%u) goes "
				"beyond the %llu TX queues of the device\n", s->file,
				s->line[TSCHED_QUEUES], i, s->count[i], s->offset[i], queues);
			return -EINVAL;
		}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	unsigned long long queues = 0;
	bool json = false;
	const struct lab_opt opts[] = {
		LAB_OPT_U64("queues", &queues, 1, TSCHED_MAX_TC * 64,
			    "also check against a device of N TX queues"),
		LAB_OPT_FLAG("json", &json, "print it as a run's record holds it (JSON)"),
		LAB_OPT_END
	};
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct tsched *s = schedule_load(file, true, NULL);
	char *text;
	int rc = 1;

	if (!s)
		return 1;
	if (queues && check_queues(s, queues))
		goto out;
	if (json) {
		json_t *j = tsched_json(s);

		rc = !j || json_dumpf(j, stdout, JSON_INDENT(2)) || puts("") == EOF || fflush(stdout);
		json_decref(j);
		goto out;
	}
	text = tsched_text(s, s->base_time, " ");
	if (!text) {
		fprintf(stderr, "%s: %s: out of memory\n", lab_prog, file);
		goto out;
	}
	rc = printf("%s\n", text) < 0 || fflush(stdout) ? 1 : 0;
	free(text);
out:
	free(s);
	return rc;
}

int cmd_apply(int argc, char **argv)
{
	const char *dev = "eth0", *how = "next", *name = NULL;
	bool no_check = false;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("dev", &dev, "DEV", "the device (eth0)", false),
		LAB_OPT_STR("base-time", &how, "next|file|NS",
			    "the next cycle start from now (next), the file's, or NS", false),
		LAB_OPT_FLAG("no-check", &no_check, "leave every check to the kernel"),
		LAB_OPT_STR("name", &name, "NAME", "the schedule's name in messages", false),
		LAB_OPT_END
	};
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct nl_sock n = { 0 };
	struct tsched *s;
	char err[1024];
	int ifindex, rc, cleared;
	int64_t base;

	if (strcmp(how, "next") && strcmp(how, "file"))
		lab_parse_int("--base-time", how, INT64_MIN, INT64_MAX);
	ifindex = dev_index(dev);
	if (!ifindex)
		return 1;
	rc = taprio_nl_open(&n);
	if (rc) {
		fprintf(stderr, "%s: netlink socket: %s\n", lab_prog, strerror(-rc));
		return 1;
	}
	s = schedule_load(file, !no_check, name);
	rc = s ? 0 : -EINVAL;
	if (s) {
		base = choose_base(s, how, s->clockid >= 0 ? s->clockid : CLOCK_TAI);
		rc = taprio_apply(&n, ifindex, dev, s, base, err, sizeof(err));
		if (rc)
			fprintf(stderr, "%s\n", err);
		else
			printf("base-time %" PRId64 "\n", base);
	}
	if (rc) {
		/* Nothing of ours stays configured after a failure */
		cleared = taprio_clear(&n, ifindex, dev);
		fprintf(stderr, "%s: %s\n", dev, cleared == 1 ? "the taprio qdisc there was removed: "
			"no taprio is configured" : "no taprio is configured");
	}
	nl_close(&n);
	free(s);
	return rc ? 1 : 0;
}

int cmd_clear(int argc, char **argv)
{
	const char *dev = "eth0";
	const struct lab_opt opts[] = {
		LAB_OPT_STR("dev", &dev, "DEV", "the device (eth0)", false),
		LAB_OPT_END
	};
	struct nl_sock n = { 0 };
	int ifindex, rc;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	ifindex = dev_index(dev);
	if (!ifindex || taprio_nl_open(&n))
		return 1;
	rc = taprio_clear(&n, ifindex, dev);
	nl_close(&n);
	return rc < 0 ? 1 : 0;
}

/* The option --tc N of window and prio: a traffic class, required */
#define TC_REQUIRED(p) \
	{ .name = "tc", .type = LAB_OPT_INT, .value = (p), .arg = "N", \
	  .help = "the traffic class", .min = 0, .max = TSCHED_MAX_TC - 1, .required = true }

/* The schedule of a verb taking FILE and --tc N (N must be one of its classes) */
static struct tsched *load_with_tc(int argc, char **argv, const struct lab_opt *opts,
				   const long long *tcp)
{
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct tsched *s = schedule_load(file, true, NULL);
	long long tc = *tcp;

	if (!s)
		exit(1);
	if (tc >= s->num_tc)
		lab_usage_error("--tc %lld: %s has %d traffic classes (0 to %d)", tc, s->file,
				s->num_tc, s->num_tc - 1);
	return s;
}

void class_windows(const struct tsched *s, int tc, struct class_windows *w)
{
	size_t e;

	*w = (struct class_windows){ .cycle = tsched_cycle(s), .first = -1 };
	for (e = 0; e < s->n_entries; e++) {
		int64_t start = tsched_entry_offset(s, e);
		int64_t end = start + s->entries[e].interval;

		if (!((s->entries[e].gate_mask >> tc) & 1) || start >= w->cycle)
			continue;
		if (end > w->cycle)
			end = w->cycle;
		w->open += end - start;
		if (w->first < 0) {
			w->first = start;
			w->len = end - start;
		}
	}
}

/*
 * window: class N's windows in the cycle: one line "CYCLE OPEN FIRST_START
 * FIRST_LENGTH" in ns (OPEN: its open time per cycle; FIRST_START -1 and
 * FIRST_LENGTH 0 when no entry opens it).
 */
int cmd_window(int argc, char **argv)
{
	long long tc = 0;
	const struct lab_opt opts[] = { TC_REQUIRED(&tc), LAB_OPT_END };
	struct tsched *s = load_with_tc(argc, argv, opts, &tc);
	struct class_windows w;

	class_windows(s, (int)tc, &w);
	printf("%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n", w.cycle, w.open, w.first, w.len);
	free(s);
	return 0;
}

/*
 * isochron-args: the options of the senders of class N that run beside the
 * measurement, one word a line, from the record of the measurement (or a
 * schedule file). Both wake a quarter into the class's first window of each
 * cycle and send --frames frames of 128 bytes, one a cycle: --for isochron,
 * `isochron send`'s (its priority by the map, base time 0, the cycle, a
 * shift of the wake-up point plus isochron's advance time of 500 us, the
 * window); --for ours, `taprio run`'s (--count, --rate of one a cycle,
 * --tc, --phase, --sizes 86: 86 bytes of UDP payload make the 128-byte
 * frame). Fails, with the reason in --fail-file, when the class has no
 * window or no priority.
 */
int cmd_isochron_args(int argc, char **argv)
{
	const char *who = NULL;
	long long tc = 0;
	unsigned long long frames = 0;
	const struct lab_opt opts[] = {
		TC_REQUIRED(&tc),
		LAB_OPT_STR("for", &who, "isochron|ours", "whose options", true),
		{ .name = "frames", .type = LAB_OPT_UINT, .value = &frames, .arg = "N",
		  .help = "frames to send", .min = 1, .max = 10000000, .required = true },
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};
	struct tsched *s = load_with_tc(argc, argv, opts, &tc);
	struct class_windows w;
	int64_t wake;
	int prio = tsched_prio_of_tc(s, (int)tc);

	if (strcmp(who, "isochron") && strcmp(who, "ours"))
		lab_usage_error("--for '%s': expected isochron or ours", who);
	class_windows(s, (int)tc, &w);
	if (w.first < 0 || w.cycle <= 0)
		lab_die("%s: no entry opens traffic class %lld", s->file, tc);
	if (prio < 0)
		lab_die("%s: no priority of the map goes to traffic class %lld", s->file, tc);
	wake = w.first + w.len / 4;
	if (!strcmp(who, "isochron"))
		printf("--priority\n%d\n--base-time\n0\n--cycle-time\n%.9f\n--shift-time\n%.9f\n"
		       "--advance-time\n0.000500000\n--window-size\n%.9f\n--num-frames\n%llu\n"
		       "--frame-size\n128\n", prio, (double)w.cycle / 1e9,
		       (double)(wake + 500000) / 1e9, (double)w.len / 1e9, frames);
	else
		printf("--count\n%llu\n--rate\n%.6f\n--tc\n%lld\n--phase\n%" PRId64 "\n--sizes\n86\n",
		       frames, 1e9 / (double)w.cycle, tc, wake);
	free(s);
	return fflush(stdout) ? 1 : 0;
}

/* prio: the first priority (SO_PRIORITY) the map sends to class N; exit 1 when none */
int cmd_prio(int argc, char **argv)
{
	long long tc = 0;
	const struct lab_opt opts[] = { TC_REQUIRED(&tc), LAB_OPT_END };
	struct tsched *s = load_with_tc(argc, argv, opts, &tc);
	int prio = tsched_prio_of_tc(s, (int)tc);

	if (prio < 0)
		fprintf(stderr, "%s: %s: no priority of the map goes to traffic class %lld\n",
			lab_prog, s->file, tc);
	else
		printf("%d\n", prio);
	free(s);
	return prio < 0 ? 1 : 0;
}

/* num-tc: the number of traffic classes of the schedule */
int cmd_num_tc(int argc, char **argv)
{
	const struct lab_opt opts[] = { LAB_OPT_END };
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct tsched *s = schedule_load(file, true, NULL);

	if (!s)
		return 1;
	printf("%d\n", s->num_tc);
	free(s);
	return 0;
}

void scale_windows(struct tsched *s, long long tc, double scale)
{
	int64_t ct = s->cycle_time, sum_before, sum_after;
	size_t e;

	s->cycle_time = 0;
	sum_before = tsched_cycle(s);
	for (e = 0; e < s->n_entries; e++) {
		struct tsched_entry *x = &s->entries[e];
		double iv = x->interval;

		if (tc < 0 || (x->gate_mask >> tc) & 1)
			iv = round(iv * scale / 1000) * 1000;
		if (iv < 1000)
			iv = 1000;
		x->interval = (uint32_t)fmin(iv, UINT32_MAX);
	}
	sum_after = tsched_cycle(s);
	/* A cycle-time moves with the windows: the list cut as much as before */
	if (ct) {
		ct += sum_after - sum_before;
		s->cycle_time = ct > 0 ? ct : sum_after;
	}
}

/*
 * variant: the schedule with the windows of class N (all entries without
 * --tc) scaled by S, rounded to whole microseconds, as a schedule file;
 * every other keyword as the file has it.
 */
int cmd_variant(int argc, char **argv)
{
	long long tc = -1;
	double scale = 0;
	const struct lab_opt opts[] = {
		LAB_OPT_S64("tc", &tc, 0, TSCHED_MAX_TC - 1, "scale the windows of class N only"),
		{ .name = "scale", .type = LAB_OPT_DOUBLE, .value = &scale, .arg = "S",
		  .help = "the factor", .min = 0.001, .max = 1000, .required = true },
		LAB_OPT_END
	};
	struct tsched *s = load_with_tc(argc, argv, opts, &tc);
	int rc;

	printf("# %s, %s scaled by %g\n", s->file,
	       tc < 0 ? "every window" : "the windows of one class", scale);
	scale_windows(s, tc, scale);
	rc = tsched_write(s, s->base_time, stdout);
	if (!rc && fflush(stdout))
		rc = -errno;
	if (rc)
		fprintf(stderr, "%s: variant of %s: %s\n", lab_prog, s->file, strerror(-rc));
	free(s);
	return rc ? 1 : 0;
}

/*
 * sync-setup: where the clock sync starts from. The kernel's TAI offset set
 * to --tai S; then, when --dev reports a PHC: the PHC given an error for
 * phc2sys to correct (at CLOCK_REALTIME + S s + 1.5 ms, +20 ppm) when the
 * boot left it at the system time rather than near TAI, and its device
 * printed (/dev/ptpN). Nothing printed when there is no PHC.
 */
int cmd_sync_setup(int argc, char **argv)
{
	const char *dev = "eth0";
	unsigned long long tai = 37;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("dev", &dev, "DEV", "the device (eth0)", false),
		LAB_OPT_U64("tai", &tai, 0, 1000, "the TAI offset, s (37)"),
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};
	struct timex tx = { .modes = ADJ_TAI };
	struct timespec ts;
	int idx, fd;
	int64_t off;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	tx.constant = (long)tai;
	if (adjtimex(&tx) < 0)
		lab_die("adjtimex(ADJ_TAI, %llu): %s", tai, strerror(errno));
	idx = phc_index_of(dev, NULL);
	if (idx < 0)
		return 0;
	fd = phc_open(idx);
	if (fd < 0)
		lab_die("/dev/ptp%d of %s: %s", idx, dev, strerror(-fd));
	if (clock_gettime(PHC_CLOCKID(fd), &ts))
		lab_die("/dev/ptp%d: %s", idx, strerror(errno));
	off = (int64_t)timespec_to_ns(&ts) - (int64_t)real_ns();
	/* A PHC near REALTIME + TAI was set so at boot: phc2sys has that error to correct */
	if (llabs(off - (int64_t)tai * 1000000000) > 1000000000LL) {
		struct timex fx = { .modes = ADJ_FREQUENCY, .freq = 20 * 65536 };

		fprintf(stderr, "%s: the PHC runs at the system time: giving it an error of +1.5 ms "
			"and +20 ppm for phc2sys to correct\n", lab_prog);
		ts = ns_to_timespec(real_ns() + tai * NSEC_PER_SEC + 1500000);
		if (clock_settime(PHC_CLOCKID(fd), &ts) || clock_adjtime(PHC_CLOCKID(fd), &fx) < 0)
			lab_die("/dev/ptp%d: setting its time and frequency: %s", idx, strerror(errno));
	}
	close(fd);
	printf("/dev/ptp%d\n", idx);
	return fflush(stdout) ? 1 : 0;
}

int cmd_set_tai(int argc, char **argv)
{
	const struct lab_opt opts[] = { LAB_OPT_END };
	int i = lab_parse(argc, argv, opts);
	struct timex tx = { .modes = ADJ_TAI };

	lab_positionals(argc, argv, i, 1, "SECONDS");
	tx.constant = lab_parse_int("SECONDS", argv[i], 0, 1000);
	if (adjtimex(&tx) < 0) {
		fprintf(stderr, "%s: adjtimex(ADJ_TAI, %ld): %s\n", lab_prog, tx.constant,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* tai-mono: CLOCK_TAI - CLOCK_MONOTONIC in ns, the narrowest of 10 brackets */
int cmd_tai_mono(int argc, char **argv)
{
	const struct lab_opt opts[] = { LAB_OPT_END };
	int64_t best = INT64_MAX, off = 0;
	int i;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	for (i = 0; i < 10; i++) {
		int64_t a = (int64_t)mono_ns(), t = (int64_t)tai_ns(), b = (int64_t)mono_ns();

		if (b - a < best) {
			best = b - a;
			off = t - (a + (b - a) / 2);
		}
	}
	printf("%" PRId64 "\n", off);
	return 0;
}

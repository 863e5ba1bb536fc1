// SPDX-License-Identifier: GPL-2.0
/*
 * tune: the schedule tuning sweep (./run-lab.sh tune-taprio FILE) in one
 * process, the schedule FILE parsed once. Around it: for each traffic class
 * its windows scaled by 0.25, 0.5, 0.75, 1 and 1.5 (the other entries as
 * they are, so the cycle changes with them), and every window scaled by
 * 0.5, 1 and 2 (the cycle time). Each variant is measured as `taprio run`
 * measures (100 packets per second, sizes 64, 512, 1400), in --rounds
 * rounds: the sweep goes over every variant, then over every variant again,
 * and so on, so that a drift of the host over the minutes falls on all the
 * variants alike and each variant is replicated; round K of a variant
 * (--count / --rounds packets per class) goes into
 * DIR/tune/<variant>/round-K/ (its record and packets.csv), the variant's
 * schedule.sched, to read, into DIR/tune/<variant>/. DIR/tune.json, the
 * sweep's record, rewritten after each run: the schedule and its name, the
 * bound, the count, the rounds, and each variant with its schedule and
 * status ("ok", or "failed" with the reason of its first failed round). A
 * variant that cannot be measured is recorded so and the sweep goes on. `taprio report` makes the figures, tune.csv and the
 * recommendation from them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <arpa/inet.h>

#include "cli.h"
#include "output.h"
#include "progress.h"
#include "taprio.h"

static const char *const window_scales[] = { "0.25", "0.5", "0.75", "1", "1.5" };
static const char *const cycle_scales[] = { "0.5", "1", "2" };

struct sweep {
	const char *out;
	const struct tsched *s;
	unsigned long long count;
	unsigned int rounds;
	long long threshold;
	json_t *record, *variants;
};

static int write_record(const struct sweep *w)
{
	struct atomic_file af;
	char path[4096];
	int rc;

	snprintf(path, sizeof(path), "%s/tune.json", w->out);
	rc = atomic_open(&af, path);
	if (rc)
		return rc;
	if (json_dumpf(w->record, af.f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
	    fputc('\n', af.f) == EOF) {
		atomic_abort(&af);
		return -EIO;
	}
	return atomic_commit(&af);
}

/* DIR/tune/NAME/schedule.sched: the variant to read (the record has it as measured) */
static int write_schedule(const char *dir, const struct tsched *v)
{
	struct atomic_file af;
	char path[4200];
	int rc;

	snprintf(path, sizeof(path), "%s/schedule.sched", dir);
	rc = atomic_open(&af, path);
	if (rc)
		return rc;
	fprintf(af.f, "# %s\n", v->file);
	rc = tsched_write(v, v->base_time, af.f);
	if (rc) {
		atomic_abort(&af);
		return rc;
	}
	return atomic_commit(&af);
}

/* The variant @name's entry in the record, or NULL */
static json_t *variant_entry(const struct sweep *w, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(w->variants, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "name")) ?: "", name))
			return e;
	return NULL;
}

/*
 * Round @round of one variant: class @tc's windows (every window when
 * @tc < 0) scaled by @scale
 */
static void measure_variant(struct sweep *w, int tc, const char *scale, unsigned int round)
{
	struct run r = { .dev = "eth0", .netns = "rx", .only_tc = -1, .phase = -1, .phc_fd = -1,
			 .rate = 100, .sizes = { 64, 512, 1400 }, .n_sizes = 3, .port = 7788 };
	struct tsched *v = lab_calloc(1, sizeof(*v), "a variant");
	struct run_failure f = { .kind = "error" };
	char name[64], tcs[16] = "all", dir[4096 + 80], rdir[4096 + 100];
	json_t *e;
	int rc;

	*v = *w->s;
	if (tc >= 0)
		snprintf(tcs, sizeof(tcs), "%d", tc);
	snprintf(name, sizeof(name), "%s-tc%s-x%s", tc < 0 ? "cycle" : "window", tcs, scale);
	snprintf(v->file, sizeof(v->file), "%s", name);
	scale_windows(v, tc, strtod(scale, NULL));
	r.dst = inet_addr("198.18.0.2");
	r.count = (size_t)((w->count + w->rounds - 1) / w->rounds);
	r.sync_threshold = w->threshold;
	r.s = v;
	snprintf(dir, sizeof(dir), "%s/tune/%s", w->out, name);
	snprintf(rdir, sizeof(rdir), "%s/round-%u", dir, round);
	rc = mkdir(dir, 0755) && errno != EEXIST ? -errno : write_schedule(dir, v);
	if (!rc && mkdir(rdir, 0755) && errno != EEXIST)
		rc = -errno;
	if (rc)
		snprintf(f.why, sizeof(f.why), "cannot write the schedule of %s: %s", name, strerror(-rc));
	else
		rc = run_measurement(&r, rdir, false, &f);
	if (rc)
		fprintf(stderr, "%s: tune: %s round %u not measured: %s\n", lab_prog, name, round, f.why);
	e = variant_entry(w, name);
	if (!e) {
		e = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:i}", "name", name, "kind",
			      tc < 0 ? "cycle" : "window", "tc", tcs, "scale", scale, "schedule",
			      tsched_json(v), "status", "ok", "rounds", 0);
		json_array_append_new(w->variants, e);
	}
	if (rc && !strcmp(json_string_value(json_object_get(e, "status")) ?: "", "ok")) {
		json_object_set_new(e, "status", json_string("failed"));
		json_object_set_new(e, "reason", json_sprintf("round %u: %s", round, f.why));
	}
	if (!rc)
		json_object_set_new(e, "rounds", json_integer(json_integer_value(json_object_get(e, "rounds")) + 1));
	free(v);
}

int cmd_tune(int argc, char **argv)
{
	const char *out = NULL, *name = NULL;
	unsigned long long count = 200;
	unsigned long long rounds = 1;
	long long threshold = -1;
	double bound = 1000;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &out, "DIR", "the sweep's folder (its variants in DIR/tune/)", true),
		LAB_OPT_U64("count", &count, 1, 10000000, "packets per class per variant, over its rounds (200)"),
		LAB_OPT_U64("rounds", &rounds, 1, 100, "rounds over every variant, each a replicate (1)"),
		LAB_OPT_DBL("bound-us", &bound, 0, 1e9, "the p99 gate lateness bound, for the report (1000)"),
		LAB_OPT_S64("sync-threshold", &threshold, 0, 1000000000,
			    "measure only with |PHC - CLOCK_TAI| below NS"),
		LAB_OPT_STR("name", &name, "NAME", "the schedule's name in messages and the record",
			    false),
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};
	const char *file = verb_file(argc, argv, lab_parse(argc, argv, opts));
	struct sweep w = { .out = out, .count = count, .rounds = (unsigned int)rounds, .threshold = threshold };
	struct tsched *s = schedule_load(file, true, name);
	char path[4096];
	unsigned int k;
	size_t i;
	int tc, rc;

	if (!s)
		lab_die("the schedule %s cannot be swept (see above)", file);
	if (rounds > count)
		lab_usage_error("--rounds %llu is more than --count %llu: a round would have no packet",
				rounds, count);
	if (s->clockid != CLOCK_TAI)
		lab_die("%s: the workload measures schedules on CLOCK_TAI only", s->file);
	snprintf(path, sizeof(path), "%s/tune", out);
	if ((mkdir(out, 0755) && errno != EEXIST) || (mkdir(path, 0755) && errno != EEXIST))
		lab_die("cannot create %s: %s", path, strerror(errno));
	w.s = s;
	w.variants = json_array();
	w.record = json_pack("{s:i, s:s, s:s, s:s, s:o, s:f, s:I, s:i, s:f, s:o}", "format_version",
			     RECORD_FORMAT_VERSION, "program", "taprio", "verb", "tune",
			     "schedule_name", strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file,
			     "schedule", tsched_json(s), "bound_us", bound, "count", (json_int_t)count,
			     "rounds", (int)rounds, "rate", 100.0, "variants", json_incref(w.variants));
	progress_start((s->num_tc * 5 + 3) * rounds);
	for (k = 1; k <= w.rounds; k++)
		for (tc = 0; tc <= s->num_tc; tc++)
			for (i = 0; i < (tc < s->num_tc ? 5 : 3); i++) {
				measure_variant(&w, tc < s->num_tc ? tc : -1,
						tc < s->num_tc ? window_scales[i] : cycle_scales[i], k);
				rc = write_record(&w);
				if (rc)
					lab_die("cannot write %s/tune.json: %s", out, strerror(-rc));
			}
	json_decref(w.variants);
	json_decref(w.record);
	free(s);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * noise run: timerlat, then osnoise, on every online CPU for --seconds each,
 * in chunks of at most CHUNK_S seconds with the buffer read between them
 * (the tracers stopped meanwhile). Raw data only, into --out DIR:
 *
 *   timerlat-LOAD.csv  every activation: cpu,chunk,seq,context,latency_ns,t_ns
 *                      (context irq: the timer IRQ's latency; thread: the
 *                      thread's wake-up latency; t_ns CLOCK_MONOTONIC, to
 *                      the microsecond)
 *   osnoise-LOAD.csv   every period of every CPU: osnoise's summary (runtime,
 *                      noise, longest gap in us, the interference counters)
 *                      and its events since the CPU's period before, summed
 *                      by cause in ns (unexplained_ns: the part of the gaps
 *                      no interference that started in them covers), with
 *                      the events the ring buffer lost on that CPU in that
 *                      chunk (lost)
 *   osnoise-LOAD.trace.gz  osnoise's text trace as read, every chunk
 *   run-LOAD.json      the record: the tracers' settings, the accelerator,
 *                      every chunk with its lost events
 *
 * The load is a label: the driver starts and stops the load around it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "cli.h"
#include "noise.h"
#include "progress.h"
#include "timing.h"
#include "tracefs.h"

#define OSN_PERIOD_US 1000000ULL	/* osnoise's period and runtime: the kernel's defaults */

struct run_opts {
	const char *out, *load, *accel, *tracers;
	unsigned long long seconds, period_us, buffer_kb;
};

/* What the sinks write into, for one tracer */
struct run_state {
	struct atomic_file csv;
	unsigned long chunk;
	unsigned long periods[MAX_CPUS];	/* this chunk's periods per CPU */
	unsigned long long seen[MAX_CPUS];	/* rows per CPU, every chunk */
	long lost[MAX_CPUS];			/* this chunk's lost events per CPU */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void timerlat_row(void *arg, int cpu, int64_t t_ns, unsigned long seq, const char *ctx,
			 unsigned long long lat_ns)
{
	struct run_state *s = arg;

	fprintf(s->csv.f, "%d,%lu,%lu,%s,%llu,%lld\n", cpu, s->chunk, seq, ctx, lat_ns,
		(long long)t_ns);
	s->seen[cpu]++;
}

static void osnoise_row(void *arg, int cpu, int64_t t_ns, const struct osn_period *p)
{
	struct run_state *s = arg;

	fprintf(s->csv.f, "%d,%lu,%lu,%lld,%llu,%llu,%llu,%lu,%lu,%lu,%lu,%lu,%llu,%llu,%llu,%llu,"
		"%llu,%lu,%llu,%ld\n", cpu, s->chunk, s->periods[cpu]++, (long long)t_ns,
		p->s.runtime_us, p->s.noise_us, p->s.max_single_us, p->s.hw, p->s.nmi, p->s.irq,
		p->s.softirq, p->s.thread, p->cause_ns[CAUSE_IRQ], p->cause_ns[CAUSE_SOFTIRQ],
		p->cause_ns[CAUSE_THREAD], p->cause_ns[CAUSE_NMI], p->cause_ns[CAUSE_HW],
		p->samples, p->sample_ns, s->lost[cpu]);
	s->seen[cpu]++;
}

static void parse_run(int argc, char **argv, struct run_opts *o)
{
	const struct lab_opt opts[] = {
		LAB_OPT_STR("out", &o->out, "DIR", "results folder", true),
		LAB_OPT_STR("load", &o->load, "NAME", "the load's label, 1-16 of a-z 0-9 _ (idle)",
			    false),
		LAB_OPT_U64("seconds", &o->seconds, 1, 3600, "seconds of each tracer (10)"),
		LAB_OPT_STR("tracer", &o->tracers, "timerlat|osnoise|both", "what to run (both)",
			    false),
		LAB_OPT_U64("period-us", &o->period_us, 100, 1000000,
			    "timerlat's period, the kernel's range 100..1000000 (1000)"),
		LAB_OPT_U64("buffer-kb", &o->buffer_kb, 1024, 262144,
			    "ring buffer per CPU in KiB (osnoise 8192; timerlat what a chunk needs)"),
		LAB_OPT_STR("accel", &o->accel, "tcg|kvm|none|unknown",
			    "the accelerator the guest runs on, for the record (unknown)", false),
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	lab_check_label("--load", o->load);
	if (strcmp(o->tracers, "timerlat") && strcmp(o->tracers, "osnoise") &&
	    strcmp(o->tracers, "both"))
		lab_usage_error("--tracer '%s' is not a tracer (expected timerlat, osnoise or both)",
				o->tracers);
	if (strcmp(o->accel, "tcg") && strcmp(o->accel, "kvm") && strcmp(o->accel, "none") &&
	    strcmp(o->accel, "unknown"))
		lab_usage_error("--accel '%s' is not an accelerator (expected tcg, kvm, none or "
				"unknown)", o->accel);
}

/* Sleep @ns, less when a signal asks to stop */
static void nap(uint64_t ns)
{
	uint64_t end = mono_ns() + ns, now;

	while (!stop_signal && (now = mono_ns()) < end) {
		uint64_t left = end - now > 100000000ULL ? 100000000ULL : end - now;
		struct timespec ts = ns_to_timespec(left);

		nanosleep(&ts, NULL);
	}
}

/* A string knob of the tracers, for the record; "" when unreadable */
static json_t *knob(const char *file)
{
	char buf[256];

	return json_string(tracefs_read(file, buf, sizeof(buf)) ? "" : buf);
}

/* One chunk of @t: trace @secs, stop, read into @sink; its entry in @chunks */
static void chunk(struct tracer *t, struct run_state *s, const struct trace_sink *sink,
		  double secs, gzFile raw, int ncpu, json_t *chunks)
{
	struct trace_counts c;
	json_t *lost = json_array();
	uint64_t t0, t1;
	FILE *in;
	int cpu, err;

	err = tracer_clear(t);
	if (!err)
		err = tracer_start(t);
	if (err)
		lab_die("cannot start the %s tracer (%s): %s", t->name, t->dir, strerror(-err));
	t0 = mono_ns();
	nap((uint64_t)(secs * 1e9));
	err = tracer_stop(t);
	t1 = mono_ns();
	if (err)
		lab_die("cannot stop the %s tracer (%s/tracing_on): %s", t->name, t->dir,
			strerror(-err));
	for (cpu = 0; cpu < ncpu; cpu++)
		s->lost[cpu] = tracer_overrun(t, cpu);
	memset(s->periods, 0, sizeof(s->periods));
	if (raw)
		gzprintf(raw, "# chunk %lu\n", s->chunk);
	in = tracer_trace(t);
	if (!in || trace_read(in, sink, &c, raw))
		lab_die("cannot read the %s trace of %s: %s", t->name, t->dir, strerror(errno));
	fclose(in);
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (c.lost[cpu] > s->lost[cpu])
			s->lost[cpu] = c.lost[cpu];
		json_array_append_new(lost, json_integer(s->lost[cpu]));
	}
	json_array_append_new(chunks, json_pack("{s:s, s:I, s:I, s:I, s:o, s:I, s:I}", "tracer",
						t->name, "chunk", (json_int_t)s->chunk, "t_start_ns",
						(json_int_t)t0, "t_end_ns", (json_int_t)t1,
						"lost", lost, "lines", (json_int_t)c.lines,
						"other_lines", (json_int_t)c.other));
}

/* One tracer for o->seconds in chunks; CPUs that gave nothing are failed */
static void trace_for(const struct run_opts *o, const char *name, int ncpu, json_t *chunks)
{
	bool tl = !strcmp(name, "timerlat");
	struct run_state *s = lab_calloc(1, sizeof(*s), "run state");
	const struct trace_sink sink = { tl ? timerlat_row : NULL, tl ? NULL : osnoise_row, s };
	unsigned long long kb = o->buffer_kb, n, k, total;
	char file[96], missing[256] = "";
	struct tracer t;
	gzFile raw = NULL;
	int cpu;

	if (!kb)	/* a chunk's activations, 2 entries of about 40 bytes each, twice */
		kb = tl ? CHUNK_S * 1000000ULL / o->period_us * 2 * 40 * 2 / 1024 : 8192;
	if (kb < 1024)
		kb = 1024;
	if (tracer_open(&t, name, kb))
		lab_die("cannot set up the %s tracer (see above)", name);
	snprintf(file, sizeof(file), "%s-%s.csv", name, o->load);
	if (csv_open(&s->csv, o->out, file, tl ? "cpu,chunk,seq,context,latency_ns,t_ns" :
		     "cpu,chunk,period,t_ns,runtime_us,noise_us,max_single_us,hw_count,nmi_count,"
		     "irq_count,softirq_count,thread_count,irq_ns,softirq_ns,thread_ns,nmi_ns,unexplained_ns,"
		     "samples,sample_ns,lost"))
		lab_die("cannot write %s/%s", o->out, file);
	if (!tl) {
		snprintf(file, sizeof(file), "%s/osnoise-%s.trace.gz", o->out, o->load);
		raw = gzopen(file, "wb6");
		if (!raw)
			lab_die("cannot write %s", file);
	}
	n = (o->seconds + CHUNK_S - 1) / CHUNK_S;
	progress_part(n, "chunks", "%s on %d CPUs, %s guest, %llu s", name, ncpu, o->load,
		      o->seconds);
	for (k = 0; k < n && !stop_signal; k++) {
		unsigned long long secs = k + 1 < n ? CHUNK_S : o->seconds - k * CHUNK_S;

		s->chunk = k;
		chunk(&t, s, &sink, (double)secs, raw, ncpu, chunks);
		progress_add(1);
	}
	tracer_close(&t);
	if (raw && gzclose(raw) != Z_OK)
		lab_die("cannot write %s/osnoise-%s.trace.gz", o->out, o->load);
	if (atomic_commit(&s->csv))
		lab_die("cannot write %s/%s-%s.csv", o->out, name, o->load);
	if (stop_signal)
		lab_die("stopped by signal %d during %s", (int)stop_signal, name);
	for (cpu = 0; cpu < ncpu; cpu++)
		if (!s->seen[cpu])
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), " %d",
				 cpu);
	if (missing[0])
		lab_die("the %s tracer gave no %s on CPU%s of %d in %llu s", name,
			tl ? "activation" : "period", missing, ncpu, o->seconds);
	for (cpu = 0, total = 0; cpu < ncpu; cpu++)
		total += s->seen[cpu];
	fprintf(stderr, "%s: %s: %llu %s over %d CPUs in %llu s\n", lab_prog, name, total,
		tl ? "samples" : "periods", ncpu, o->seconds);
	free(s);
}

static void write_record(const struct run_opts *o, int ncpu, json_t *chunks, uint64_t t0)
{
	struct atomic_file af;
	struct utsname u;
	char path[512];
	json_t *j;
	int rc;

	uname(&u);
	j = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:s, s:I, s:I}",
		      "format_version", 1, "program", WORKLOAD, "verb", "run", "load", o->load,
		      "accel", o->accel, "kernel_release", u.release, "cpus", ncpu,
		      "seconds", (json_int_t)o->seconds, "chunk_seconds", (json_int_t)CHUNK_S,
		      "timerlat_period_us", (json_int_t)o->period_us,
		      "osnoise_period_us", (json_int_t)OSN_PERIOD_US,
		      "osnoise_runtime_us", (json_int_t)OSN_PERIOD_US, "trace_clock", "mono",
		      "t_start_ns", (json_int_t)t0, "t_end_ns", (json_int_t)mono_ns());
	if (!j)
		lab_die("out of memory for the record");
	json_object_set_new(j, "tracing_thresh", knob("tracing_thresh"));
	json_object_set_new(j, "osnoise_cpus", knob("osnoise/cpus"));
	json_object_set_new(j, "osnoise_options", knob("osnoise/options"));
	json_object_set_new(j, "stop_tracing_us", knob("osnoise/stop_tracing_us"));
	json_object_set_new(j, "stop_tracing_total_us", knob("osnoise/stop_tracing_total_us"));
	json_object_set(j, "chunks", chunks);
	snprintf(path, sizeof(path), "%s/run-%s.json", o->out, o->load);
	rc = atomic_open(&af, path);
	if (!rc) {
		if (json_dumpf(j, af.f, JSON_INDENT(2)) || fputc('\n', af.f) == EOF) {
			atomic_abort(&af);
			rc = -EIO;
		} else {
			rc = atomic_commit(&af);
		}
	}
	json_decref(j);
	if (rc)
		lab_die("cannot write %s: %s", path, strerror(-rc));
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .load = "idle", .accel = "unknown", .tracers = "both",
			      .seconds = 10, .period_us = 1000 };
	struct sigaction sa = { .sa_handler = on_signal };
	json_t *chunks = json_array();
	int ncpu = online_cpus();
	uint64_t t0 = mono_ns();
	bool both;

	parse_run(argc, argv, &o);
	if (mkdir(o.out, 0755) && errno != EEXIST)
		lab_die("cannot create %s: %s", o.out, strerror(errno));
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	knobs_save();
	if (knobs_set(o.period_us, OSN_PERIOD_US, OSN_PERIOD_US))
		lab_die("cannot set the tracers' knobs in " TRACEFS "/osnoise (see above)");
	both = !strcmp(o.tracers, "both");
	progress_start(both ? 2 : 1);
	if (both || !strcmp(o.tracers, "timerlat"))
		trace_for(&o, "timerlat", ncpu, chunks);
	if (both || !strcmp(o.tracers, "osnoise"))
		trace_for(&o, "osnoise", ncpu, chunks);
	knobs_restore();
	write_record(&o, ncpu, chunks, t0);
	json_decref(chunks);
	return 0;
}

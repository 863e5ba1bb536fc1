// SPDX-License-Identifier: GPL-2.0
/*
 * The text of the osnoise and timerlat tracers, as Linux 6.1 and 6.12 print
 * it (kernel/trace/trace_output.c, include/trace/events/osnoise.h):
 *
 *   timerlat/1-87 [001] ....  54.029339: #1     context thread timer_latency  11700 ns
 *   osnoise/0-80  [000] ....  81.637220: 1000000   190  99.98100   9  18  0  1007  18  1
 *   osnoise/0-80  [000] d.h.  81.100000: irq_noise: local_timer:236 start 81.099998 duration 1845 ns
 *   osnoise/0-80  [000] ....  81.100010: sample_threshold: start 81.099998 duration 8812 ns interference 2
 *
 * The summary line ends each period of a CPU: runtime, noise (us), the CPU
 * available (%), the longest gap (us), then the interference counters HW,
 * NMI, IRQ, SIRQ, THREAD. The events are net durations of each
 * interference, and sample_threshold is every gap of the period, with the
 * interferences counted in it: a gap with none is "hardware" noise. The
 * events of the interferences come before the gap they fell in, each with
 * its start: the part of a gap they do not cover is noise no interference
 * explains (in a VM: the vCPU not running guest code).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "noise.h"
#include "tracefs.h"

const char *const cause_names[NCAUSES] = { "irq", "softirq", "thread", "nmi", "hw" };

int parse_timerlat(const char *text, unsigned long *seq, char *ctx, size_t len,
		   unsigned long long *lat_ns)
{
	char c[16];
	int end = 0;

	if (sscanf(text, "#%lu context %15s timer_latency %llu ns%n", seq, c, lat_ns, &end) != 3 ||
	    !end)
		return -1;
	snprintf(ctx, len, "%s", c);
	return 0;
}

int parse_osnoise_summary(const char *text, struct osn_summary *s)
{
	unsigned long pct_int, pct_dec;
	int end = 0;

	if (sscanf(text, "%llu %llu %lu.%lu %llu %lu %lu %lu %lu %lu%n", &s->runtime_us,
		   &s->noise_us, &pct_int, &pct_dec, &s->max_single_us, &s->hw, &s->nmi, &s->irq,
		   &s->softirq, &s->thread, &end) != 10 || !end)
		return -1;
	return 0;
}

int parse_osnoise_event(const char *text, enum cause *cause, unsigned long long *start_ns,
			unsigned long long *dur_ns, long *interference)
{
	static const struct {
		const char *name;
		enum cause cause;
	} events[] = {
		{ "irq_noise: ", CAUSE_IRQ },
		{ "softirq_noise: ", CAUSE_SOFTIRQ },
		{ "thread_noise: ", CAUSE_THREAD },
		{ "nmi_noise: ", CAUSE_NMI },
		{ "sample_threshold: ", NCAUSES },
	};
	const char *d, *i;
	char *end, sec[16];
	size_t k;

	for (k = 0; k < sizeof(events) / sizeof(*events); k++)
		if (!strncmp(text, events[k].name, strlen(events[k].name)))
			break;
	if (k == sizeof(events) / sizeof(*events))
		return -1;
	/* the last " duration ": a thread's name may hold the word */
	for (d = strstr(text, " duration "); d && (i = strstr(d + 1, " duration ")); d = i)
		;
	if (!d)
		return -1;
	/* " start SEC.NSEC" right before it */
	for (i = d; i > text && strncmp(i, "start ", 6); i--)
		;
	if (strncmp(i, "start ", 6) || sscanf(i + 6, "%llu.%9s", start_ns, sec) != 2 ||
	    strlen(sec) != 9)
		return -1;
	*start_ns = *start_ns * 1000000000ULL + strtoull(sec, NULL, 10);
	*dur_ns = strtoull(d + 10, &end, 10);
	if (end == d + 10 || strncmp(end, " ns", 3))
		return -1;
	*cause = events[k].cause;
	*interference = 0;
	if (*cause == NCAUSES) {
		i = strstr(end, " interference ");
		if (!i)
			return -1;
		*interference = strtol(i + 14, &end, 10);
		if (end == i + 14)
			return -1;
	}
	return 0;
}

/* An interference of @p, kept for the gap it falls in (the oldest dropped when full) */
static void pend_add(struct osn_period *p, unsigned long long start, unsigned long long ns)
{
	if (p->npend == OSN_PENDING) {
		memmove(p->pend_start, p->pend_start + 1, (OSN_PENDING - 1) * sizeof(*p->pend_start));
		memmove(p->pend_ns, p->pend_ns + 1, (OSN_PENDING - 1) * sizeof(*p->pend_ns));
		p->npend--;
	}
	p->pend_start[p->npend] = start;
	p->pend_ns[p->npend++] = ns;
}

/*
 * The gap [@start, @start + @dur] of @p: the part of it that the
 * interferences which started inside it do not explain (the ones before it
 * fell in gaps below the threshold); the kept ones are dropped
 */
static unsigned long long gap_unexplained(struct osn_period *p, unsigned long long start,
					  unsigned long long dur)
{
	unsigned long long in = 0;
	unsigned int i;

	for (i = 0; i < p->npend; i++)
		if (p->pend_start[i] >= start && p->pend_start[i] <= start + dur)
			in += p->pend_ns[i];
	p->npend = 0;
	return dur > in ? dur - in : 0;
}

/* One osnoise line of @cpu: an event added to its period, or the period's end */
static void osnoise_line(const struct trace_sink *sink, struct osn_period *cur, bool *open,
			 const struct trace_line *tl, struct trace_counts *c)
{
	struct osn_period *p = &cur[tl->cpu];
	unsigned long long start, dur;
	enum cause cause;
	long interf;

	if (!parse_osnoise_summary(tl->text, &p->s)) {
		if (sink->period)
			sink->period(sink->arg, tl->cpu, tl->t_ns, p);
		memset(p, 0, sizeof(*p));
		open[tl->cpu] = false;
		return;
	}
	if (parse_osnoise_event(tl->text, &cause, &start, &dur, &interf)) {
		c->other++;
		return;
	}
	open[tl->cpu] = true;
	if (cause == NCAUSES) {
		p->samples++;
		p->sample_ns += dur;
		p->events[CAUSE_HW] += !interf;
		p->cause_ns[CAUSE_HW] += gap_unexplained(p, start, dur);
		return;
	}
	p->cause_ns[cause] += dur;
	p->events[cause]++;
	pend_add(p, start, dur);
}

int trace_read(FILE *in, const struct trace_sink *sink, struct trace_counts *c, gzFile raw)
{
	struct osn_period *cur = lab_calloc(MAX_CPUS, sizeof(*cur), "osnoise periods");
	bool open[MAX_CPUS] = { false };
	char *line = NULL, ctx[16];
	unsigned long long lat;
	struct trace_line tl;
	unsigned long seq;
	size_t len = 0;
	long lost;
	int cpu;

	memset(c, 0, sizeof(*c));
	c->max_cpu = -1;
	while (getline(&line, &len, in) > 0) {
		c->lines++;
		if (raw)
			gzputs(raw, line);
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || !line[0])
			continue;
		lost = trace_lost_events(line, &cpu);
		if (lost < 0 && !strncmp(line, "CPU:", 4) && strstr(line, "[LOST EVENTS]") &&
		    sscanf(line, "CPU:%d", &cpu) == 1)
			lost = 1;	/* a count the ring buffer did not know */
		if (lost >= 0) {
			if (cpu >= 0 && cpu < MAX_CPUS)
				c->lost[cpu] += lost;
			continue;
		}
		if (trace_line_split(line, &tl) || tl.cpu < 0 || tl.cpu >= MAX_CPUS) {
			c->other++;
			continue;
		}
		if (tl.cpu > c->max_cpu)
			c->max_cpu = tl.cpu;
		if (!parse_timerlat(tl.text, &seq, ctx, sizeof(ctx), &lat)) {
			if (sink->timerlat)
				sink->timerlat(sink->arg, tl.cpu, tl.t_ns, seq, ctx, lat);
			continue;
		}
		osnoise_line(sink, cur, open, &tl, c);
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (open[cpu])
			c->tail[cpu] = (long)(cur[cpu].samples + cur[cpu].events[CAUSE_IRQ] +
					      cur[cpu].events[CAUSE_SOFTIRQ] +
					      cur[cpu].events[CAUSE_THREAD] +
					      cur[cpu].events[CAUSE_NMI]);
	free(line);
	free(cur);
	return ferror(in) ? -EIO : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The conformance suite's kernel observer: an ftrace kprobe event on
 * uleds_brightness_set (the LED's name and the brightness: %di and %si on
 * x86-64) in a trace instance of its own, with the "mono" trace clock, so
 * its timestamps are CLOCK_MONOTONIC. Unlike uleds, which keeps only the
 * latest value, it sees every step; unlike bpftrace it is ready at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ledjitter.h"
#include "timing.h"

static int write_file(const char *path, const char *val, bool append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		err = -errno;
	close(fd);
	return err;
}

void ktrace_close(struct ktrace *k)
{
	char path[PATH_MAX], cmd[128];

	if (!k->on)
		return;
	snprintf(path, sizeof(path), "%s/events/%s/enable", k->dir, k->event);
	write_file(path, "0", false);
	rmdir(k->dir);
	snprintf(path, sizeof(path), "%s/kprobe_events", k->base);
	snprintf(cmd, sizeof(cmd), "-:%s\n", k->event);
	write_file(path, cmd, true);
	k->on = false;
}

/* Returns 0, or -errno with the reason on stderr (the suite then uses uleds alone) */
int ktrace_open(struct ktrace *k)
{
	static const char *const bases[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[PATH_MAX], def[256];
	size_t i;
	int err;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < sizeof(bases) / sizeof(*bases); i++) {
		snprintf(path, sizeof(path), "%s/kprobe_events", bases[i]);
		if (!access(path, W_OK)) {
			k->base = bases[i];
			break;
		}
	}
	if (!k->base) {
		fprintf(stderr, "%s: no tracefs with kprobe_events: the suite times uleds reads\n", lab_prog);
		return -ENOENT;
	}
	snprintf(k->event, sizeof(k->event), "ledjitter/set_%d", (int)getpid());
	snprintf(def, sizeof(def), "p:%s uleds_brightness_set name=+0(+0(%%di)):string "
		 "value=%%si:u32\n", k->event);
	snprintf(path, sizeof(path), "%s/kprobe_events", k->base);
	err = write_file(path, def, true);
	if (err) {
		fprintf(stderr, "%s: cannot add a kprobe event on uleds_brightness_set: %s\n", lab_prog,
			strerror(-err));
		return err;
	}
	snprintf(k->dir, sizeof(k->dir), "%s/instances/ledjitter-%d", k->base, (int)getpid());
	k->on = true;
	if (mkdir(k->dir, 0755) && errno != EEXIST) {
		err = -errno;
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/trace_clock", k->dir);
	err = write_file(path, "mono", false);
	if (!err) {
		snprintf(path, sizeof(path), "%s/events/%s/enable", k->dir, k->event);
		err = write_file(path, "1", false);
	}
	if (!err)
		return 0;
fail:
	fprintf(stderr, "%s: cannot set up the trace instance %s: %s\n", lab_prog, k->dir,
		strerror(-err));
	ktrace_close(k);
	return err;
}

void ktrace_clear(struct ktrace *k)
{
	char path[PATH_MAX];

	if (!k->on)
		return;
	snprintf(path, sizeof(path), "%s/trace", k->dir);
	write_file(path, "", false);
}

/*
 * ktrace_changes - the brightness changes of @led (from @initial) in the
 * instance's buffer, in time order: lines like
 *   <idle>-0 [001] ..s1. 1234.567890: set_42: (uleds_brightness_set+0x0/0x40) name="x" value=12
 * Returns the count, or -1 when the observer is off.
 */
long ktrace_changes(struct ktrace *k, const char *led, int initial, struct reads *out)
{
	char path[PATH_MAX], *line = NULL, *p, *q, needle[96];
	size_t len = 0;
	unsigned long sec, usec;
	int v, cur = initial;
	FILE *in;

	out->n = 0;
	if (!k->on)
		return -1;
	snprintf(path, sizeof(path), "%s/trace", k->dir);
	in = fopen(path, "r");
	if (!in)
		return -1;
	snprintf(needle, sizeof(needle), "name=\"%s\" value=", led);
	while (getline(&line, &len, in) > 0) {
		if (line[0] == '#' || !(q = strstr(line, needle)))
			continue;
		v = atoi(q + strlen(needle));
		/* the timestamp ends in ": " before the event name */
		p = strstr(line, ": ");
		if (!p)
			continue;
		while (p > line && p[-1] != ' ')
			p--;
		if (sscanf(p, "%lu.%lu:", &sec, &usec) != 2 || v == cur)
			continue;
		cur = v;
		reads_add(out, (uint64_t)sec * NSEC_PER_SEC + usec * 1000, v);
	}
	free(line);
	fclose(in);
	return (long)out->n;
}


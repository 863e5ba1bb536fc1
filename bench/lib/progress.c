// SPDX-License-Identifier: GPL-2.0
/* A long verb's progress lines and its failure reason, for the driver (progress.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "progress.h"
#include "timing.h"

const char *progress_path, *lab_fail_path;

static struct {
	int fd;				/* --progress FILE, -1: none */
	int parts, part;		/* the verb's parts, the one running (1-based) */
	char what[200], unit[32];
	uint64_t total, done;
	uint64_t t0, t_part, t_line;	/* CLOCK_MONOTONIC ns; t_line 0: no line yet */
} pg = { .fd = -1 };

static bool failed;

void progress_start(int parts)
{
	pg.parts = parts;
	pg.part = 0;
	pg.t0 = mono_ns();
	pg.t_line = 0;
	if (progress_path && pg.fd < 0) {
		pg.fd = open(progress_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (pg.fd < 0)
			fprintf(stderr, "%s: --progress %s: %s (no progress lines there)\n", lab_prog,
				progress_path, strerror(errno));
	}
}

/* "N s" or "N min" for an amount of seconds */
static void span(char *buf, size_t len, double s)
{
	if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else
		snprintf(buf, len, "%.0f min", s / 60);
}

/* One line, when the last one is PROGRESS_INTERVAL_S old (or there is none) */
static void progress_line(void)
{
	uint64_t now = mono_ns();
	char line[512], left[64] = "", all[32], of[48] = "", count[96];
	double part_s = (double)(now - pg.t_part) / 1e9;

	if (pg.t_line && now - pg.t_line < PROGRESS_INTERVAL_S * NSEC_PER_SEC)
		return;
	pg.t_line = now;
	if (pg.total) {
		snprintf(count, sizeof(count), "%llu/%llu %s (%.0f%%)", (unsigned long long)pg.done,
			 (unsigned long long)pg.total, pg.unit, 100.0 * (double)pg.done / (double)pg.total);
		if (pg.done && pg.done < pg.total) {
			span(all, sizeof(all), part_s / (double)pg.done * (double)(pg.total - pg.done));
			snprintf(left, sizeof(left), ", about %s left of this part", all);
		}
	} else {
		snprintf(count, sizeof(count), "%llu %s", (unsigned long long)pg.done, pg.unit);
	}
	if (pg.parts)
		snprintf(of, sizeof(of), " of %d", pg.parts);
	span(all, sizeof(all), (double)(now - pg.t0) / 1e9);
	snprintf(line, sizeof(line), "%s: %s: %s%s; part %d%s, %s in all", lab_verb_name, pg.what,
		 count, left, pg.part, of, all);
	fprintf(stderr, "%s: %s\n", lab_prog, line);
	if (pg.fd >= 0)
		dprintf(pg.fd, "note %s %s\n", lab_prog, line);
}

void progress_part(uint64_t total, const char *unit, const char *fmt, ...)
{
	va_list ap;

	if (!pg.t0)
		progress_start(0);
	va_start(ap, fmt);
	vsnprintf(pg.what, sizeof(pg.what), fmt, ap);
	va_end(ap);
	snprintf(pg.unit, sizeof(pg.unit), "%s", unit);
	pg.total = total;
	pg.done = 0;
	pg.part++;
	pg.t_part = mono_ns();
	progress_line();
}

void progress_what(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pg.what, sizeof(pg.what), fmt, ap);
	va_end(ap);
}

void progress_set(uint64_t done)
{
	pg.done = done;
	progress_line();
}

void progress_add(uint64_t n)
{
	progress_set(pg.done + n);
}

void lab_fail_v(const char *kind, const char *fmt, va_list ap)
{
	struct atomic_file af;
	char reason[2048];
	json_t *j;

	if (failed || !lab_fail_path)
		return;
	failed = true;
	vsnprintf(reason, sizeof(reason), fmt, ap);
	j = json_pack("{s:i, s:s, s:s, s:s, s:s}", "format_version", FAIL_FORMAT_VERSION, "program",
		      lab_prog, "verb", lab_verb_name ? lab_verb_name : "", "kind", kind, "reason",
		      reason);
	if (!j || atomic_open(&af, lab_fail_path)) {
		fprintf(stderr, "%s: --fail-file %s: the reason could not be written\n", lab_prog,
			lab_fail_path);
		json_decref(j);
		return;
	}
	if (json_dumpf(j, af.f, JSON_INDENT(2)) || fputc('\n', af.f) == EOF) {
		atomic_abort(&af);
		fprintf(stderr, "%s: --fail-file %s: write failed\n", lab_prog, lab_fail_path);
	} else if (atomic_commit(&af)) {
		fprintf(stderr, "%s: --fail-file %s: write failed\n", lab_prog, lab_fail_path);
	}
	json_decref(j);
}

void lab_fail(const char *kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_fail_v(kind, fmt, ap);
	va_end(ap);
}

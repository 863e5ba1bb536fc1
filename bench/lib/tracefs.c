// SPDX-License-Identifier: GPL-2.0
/* tracefs control files and trace line time stamps; see tracefs.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefs.h"

int tracefs_read(const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return rc;
}

int tracefs_write(const char *file, const char *val)
{
	char path[PATH_MAX];
	int fd, err = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int64_t trace_stamp(const char *line, const char *ev)
{
	const char *colon = ev - 2, *dot, *q, *p;

	/* "SEC.USEC: " right before the event name, USEC six digits */
	if (ev - line < 3 || ev[-1] != ' ' || *colon != ':')
		return INT64_MIN;
	for (q = colon; q > line && q[-1] != ' '; q--)
		;
	dot = memchr(q, '.', (size_t)(colon - q));
	if (!dot || dot == q || colon - dot != 7 || dot - q > 12)
		return INT64_MIN;
	for (p = q; p < colon; p++)
		if (p != dot && !isdigit((unsigned char)*p))
			return INT64_MIN;
	return strtoll(q, NULL, 10) * 1000000000 + strtoll(dot + 1, NULL, 10) * 1000;
}

int trace_line_split(const char *line, struct trace_line *tl)
{
	const char *p = line, *q, *colon;

	/* the CPU: " [" digits "] " */
	for (;;) {
		p = strstr(p, " [");
		if (!p)
			return -1;
		p += 2;
		for (q = p; isdigit((unsigned char)*q); q++)
			;
		if (q > p && q[0] == ']' && q[1] == ' ')
			break;
	}
	colon = strstr(q, ": ");
	if (!colon)
		return -1;
	tl->cpu = atoi(p);
	tl->text = colon + 2;
	tl->t_ns = trace_stamp(line, tl->text);
	return tl->t_ns == INT64_MIN ? -1 : 0;
}

long trace_lost_events(const char *line, int *cpu)
{
	long n;
	int c, end = 0;

	if (sscanf(line, "CPU:%d [LOST %ld EVENTS]%n", &c, &n, &end) != 2 || !end || n < 0)
		return -1;
	*cpu = c;
	return n;
}

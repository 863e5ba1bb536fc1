// SPDX-License-Identifier: GPL-2.0
/* The CSV reader; see csv.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* Split c->line in place into c->field; returns the count or -ENOMEM */
static int split(struct csv *c)
{
	char *p = c->line, *w;

	p[strcspn(p, "\r\n")] = '\0';
	c->nfield = 0;
	for (;;) {
		if (c->nfield == c->capfield) {
			size_t cap = c->capfield ? 2 * c->capfield : 16;
			char **f = realloc(c->field, cap * sizeof(*f));

			if (!f)
				return -ENOMEM;
			c->field = f;
			c->capfield = cap;
		}
		c->field[c->nfield++] = p;
		if (*p == '"') {
			/* quoted: copy down over the quotes, "" is one quote */
			for (w = p++; *p; p++) {
				if (*p == '"' && p[1] == '"')
					p++;
				else if (*p == '"')
					break;
				*w++ = *p;
			}
			if (*p == '"')
				p++;
			*w = '\0';
			p += strcspn(p, ",");
		} else {
			p += strcspn(p, ",");
		}
		if (*p != ',') {
			*p = '\0';
			return (int)c->nfield;
		}
		*p++ = '\0';
	}
}

int csv_read_open(struct csv *c, const char *path)
{
	int err;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->f = fopen(path, "r");
	if (!c->f) {
		err = errno;
		fprintf(stderr, "cannot read %s: %s\n", path, strerror(err));
		return -err;
	}
	c->path = strdup(path);
	err = csv_next(c);
	if (err <= 0) {
		if (!err)
			fprintf(stderr, "%s: no header line\n", path);
		csv_read_close(c);
		return err ? err : -ENODATA;
	}
	c->ncol = c->nfield;
	c->header = calloc(c->ncol, sizeof(*c->header));
	if (!c->header) {
		csv_read_close(c);
		return -ENOMEM;
	}
	for (i = 0; i < c->ncol; i++) {
		c->header[i] = strdup(c->field[i]);
		if (!c->header[i]) {
			csv_read_close(c);
			return -ENOMEM;
		}
	}
	return 0;
}

int csv_col(const struct csv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ncol; i++)
		if (!strcmp(c->header[i], name))
			return (int)i;
	return -1;
}

int csv_next(struct csv *c)
{
	ssize_t len;
	int n;

	errno = 0;
	len = getline(&c->line, &c->cap, c->f);
	if (len < 0) {
		if (ferror(c->f)) {
			n = errno ? -errno : -EIO;
			fprintf(stderr, "cannot read %s: %s\n", c->path, strerror(-n));
			return n;
		}
		return 0;
	}
	c->lineno++;
	n = split(c);
	if (n < 0)
		fprintf(stderr, "%s:%zu: out of memory\n", c->path, c->lineno);
	return n;
}

const char *csv_field(const struct csv *c, int i)
{
	return i >= 0 && (size_t)i < c->nfield ? c->field[i] : "";
}

void csv_read_close(struct csv *c)
{
	size_t i;

	if (c->f)
		fclose(c->f);
	for (i = 0; c->header && i < c->ncol; i++)
		free(c->header[i]);
	free(c->header);
	free(c->field);
	free(c->line);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

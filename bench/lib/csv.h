/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one CSV reader of the lab: the files the workloads and bench/probe2csv.sh
 * write (a header line, then rows; fields separated by commas; a field may
 * be double-quoted, with "" for a quote inside it).
 *
 *	struct csv c;
 *	if (csv_read_open(&c, path))
 *		return -errno-like;		// the reason is printed, naming the file
 *	int t = csv_col(&c, "t_ns");	// -1 when the header lacks it
 *	while (csv_next(&c) > 0)
 *		x = strtod(csv_field(&c, t), NULL);
 *	csv_read_close(&c);
 */
#ifndef LAB_CSV_H
#define LAB_CSV_H

#include <stdio.h>
#include <stddef.h>

struct csv {
	FILE *f;
	char *path;
	char *line;		/* the current row, split in place */
	size_t cap;
	char **field;
	size_t nfield, capfield;
	char **header;		/* the header's column names */
	size_t ncol;
	size_t lineno;		/* of the current row, 1 = the header */
};

/* Open @path and read its header. Returns 0 or -errno (printed). */
int csv_read_open(struct csv *c, const char *path);
/* Index of column @name in the header, -1 when there is none. */
int csv_col(const struct csv *c, const char *name);
/* The next row: its number of fields, 0 at the end, -errno on a read error. */
int csv_next(struct csv *c);
/* Field @i of the current row; "" when the row is shorter or @i < 0. */
const char *csv_field(const struct csv *c, int i);
void csv_read_close(struct csv *c);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs report, the probe's check: what probes/bpf_map.bt counted during
 * `bpfqs probe-load` (probe-bpf_map-maps.csv) against what the load did
 * (probe-expected.csv), into probe-check.csv: map,key,expected,counted,match.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "output.h"
#include "bpfqs.h"

struct counted {
	char *map, *key;
	char *value;
};

/* The rows of the probe's maps: map, key, value */
static struct counted *read_counted(const char *path, size_t *n)
{
	struct counted *c = NULL;
	int cv;
	struct csv f;

	*n = 0;
	if (csv_read_open(&f, path))
		return NULL;
	cv = csv_col(&f, "value");
	while (csv_next(&f) > 0) {
		c = realloc(c, (*n + 1) * sizeof(*c));
		if (!c)
			break;
		c[*n] = (struct counted){ strdup(csv_field(&f, 0)), strdup(csv_field(&f, 1)),
					  strdup(csv_field(&f, cv)) };
		(*n)++;
	}
	csv_read_close(&f);
	return c;
}

int probe_check(const char *dir, char *why, size_t len)
{
	char expected[4096], maps[4096];
	struct counted *got;
	struct atomic_file af;
	size_t n, i, bad = 0;
	struct csv e;
	int ce, rc = 0;

	snprintf(expected, sizeof(expected), "%s/probe-expected.csv", dir);
	snprintf(maps, sizeof(maps), "%s/probe-bpf_map-maps.csv", dir);
	if (access(expected, F_OK))
		return 0;	/* no load ran: the probe did not attach */
	if (access(maps, F_OK) || csv_read_open(&e, expected)) {
		snprintf(why, len, "probe: no probe-expected.csv or probe-bpf_map-maps.csv");
		return 1;
	}
	got = read_counted(maps, &n);
	ce = csv_col(&e, "value");
	if (csv_open(&af, dir, "probe-check.csv", "map,key,expected,counted,match")) {
		snprintf(why, len, "cannot write %s/probe-check.csv", dir);
		rc = -1;
	}
	while (!rc && csv_next(&e) > 0) {
		const char *map = csv_field(&e, 0), *key = csv_field(&e, 1), *want = csv_field(&e, ce);
		const char *count = "0";

		for (i = 0; i < n; i++)
			if (!strcmp(got[i].map, map) && !strcmp(got[i].key, key))
				count = got[i].value;
		bad += strcmp(count, want) != 0;
		fprintf(af.f, "%s,%s,%s,%s,%s\n", map, key, want, count, strcmp(count, want) ? "no" : "yes");
	}
	csv_read_close(&e);
	if (!rc && atomic_commit(&af)) {
		snprintf(why, len, "cannot write %s/probe-check.csv", dir);
		rc = -1;
	}
	for (i = 0; i < n; i++) {
		free(got[i].map);
		free(got[i].key);
		free(got[i].value);
	}
	free(got);
	if (!rc && bad) {
		snprintf(why, len, "probe: %zu count(s) differ from the known load, see probe-check.csv", bad);
		rc = 1;
	}
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The record of a measurement (DIR/run.json): everything `taprio run` knew
 * when it measured, which report needs to read its raw files: the schedule
 * as it was parsed (its entries, map, queues, clock, the file's lines for
 * messages), the name the user gave it, the base time configured, the
 * start of the first cycle sent in, the TAI offset, the device, the counts
 * and rates asked and the packets received.
 *
 *	{"format_version": 1, "program": "taprio", "verb": "run",
 *	 "schedule_name": NAME, "schedule": {...}, "cycle_ns": N,
 *	 "dev", "rx_netns", "dst", "port", "base_ns", "start_ns",
 *	 "tai_offset_ns", "count", "rate", "sizes": [...], "only_tc",
 *	 "phase_ns", "errqueue_thread", "sync_threshold_ns", "received",
 *	 "files": {"packets": "packets.csv", "sync": "sync-workload.csv" | null}}
 *
 * The schedule is written once, parsed from its file, and read back as it
 * was: the verbs that take a schedule FILE take a record in its place.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "taprio.h"

static const char *const line_keys[TSCHED_NKEYS] = {
	"num_tc", "map", "queues", "base-time", "sched-entry", "cycle-time",
	"cycle-time-extension", "clockid", "flags", "txtime-delay",
};

json_t *tsched_json(const struct tsched *s)
{
	json_t *map = json_array(), *queues = json_array(), *entries = json_array();
	json_t *lines = json_object();
	size_t i;
	int k;

	for (k = 0; k < s->n_map; k++)
		json_array_append_new(map, json_integer(s->map[k]));
	for (k = 0; k < s->n_queues; k++)
		json_array_append_new(queues, json_pack("{s:i, s:i}", "count", s->count[k], "offset",
							s->offset[k]));
	for (i = 0; i < s->n_entries; i++) {
		const struct tsched_entry *e = &s->entries[i];
		char cmd[2] = { e->cmd, 0 };

		json_array_append_new(entries, json_pack("{s:s, s:i, s:I, s:I, s:i}", "cmd", cmd,
							 "command", e->command, "gate_mask",
							 (json_int_t)e->gate_mask, "interval",
							 (json_int_t)e->interval, "line", e->line));
	}
	for (k = 0; k < TSCHED_NKEYS; k++)
		json_object_set_new(lines, line_keys[k], json_integer(s->line[k]));
	return json_pack("{s:s, s:i, s:o, s:o, s:I, s:I, s:I, s:i, s:s, s:I, s:I, s:o, s:o}",
			 "file", s->file, "num_tc", s->num_tc, "map", map, "queues", queues,
			 "base_time", (json_int_t)s->base_time, "cycle_time", (json_int_t)s->cycle_time,
			 "cycle_time_extension", (json_int_t)s->cycle_time_ext, "clockid", s->clockid,
			 "clock", tsched_clock_name(s->clockid), "flags", (json_int_t)s->flags,
			 "txtime_delay", (json_int_t)s->txtime_delay, "entries", entries, "lines",
			 lines);
}

/* A whole number of @j's member @key within [lo, hi] into *@v; -EINVAL (with @err) when not */
static int member(const json_t *j, const char *key, int64_t lo, int64_t hi, int64_t *v,
		  char *err, size_t len)
{
	json_t *m = json_object_get(j, key);

	if (!json_is_integer(m) || json_integer_value(m) < lo || json_integer_value(m) > hi) {
		snprintf(err, len, "'%s' is missing or not a whole number from %" PRId64 " to %" PRId64,
			 key, lo, hi);
		return -EINVAL;
	}
	*v = json_integer_value(m);
	return 0;
}

static int entries_from_json(const json_t *a, struct tsched *s, char *err, size_t len)
{
	json_t *e;
	size_t i;

	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > TSCHED_MAX_ENTRIES) {
		snprintf(err, len, "'entries' is not a list of 1 to %d entries", TSCHED_MAX_ENTRIES);
		return -EINVAL;
	}
	json_array_foreach(a, i, e) {
		const char *cmd = json_string_value(json_object_get(e, "cmd"));
		int64_t command, mask, interval, line;

		if (!cmd || strlen(cmd) != 1 || member(e, "command", 0, 255, &command, err, len) ||
		    member(e, "gate_mask", 0, UINT32_MAX, &mask, err, len) ||
		    member(e, "interval", 0, UINT32_MAX, &interval, err, len) ||
		    member(e, "line", 0, INT32_MAX, &line, err, len)) {
			if (!cmd || strlen(cmd) != 1)
				snprintf(err, len, "entry %zu has no 'cmd' of one letter", i);
			return -EINVAL;
		}
		s->entries[i] = (struct tsched_entry){ cmd[0], (uint8_t)command, (uint32_t)mask,
						      (uint32_t)interval, (int)line };
	}
	s->n_entries = json_array_size(a);
	return 0;
}

static int lists_from_json(const json_t *j, struct tsched *s, char *err, size_t len)
{
	json_t *map = json_object_get(j, "map"), *queues = json_object_get(j, "queues"), *x;
	json_t *lines = json_object_get(j, "lines");
	int64_t v, w;
	size_t i;
	int k;

	if (!json_is_array(map) || json_array_size(map) > TSCHED_MAX_PRIO ||
	    !json_is_array(queues) || json_array_size(queues) > TSCHED_MAX_TC ||
	    !json_is_object(lines)) {
		snprintf(err, len, "'map', 'queues' or 'lines' is missing or too long");
		return -EINVAL;
	}
	json_array_foreach(map, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) >= TSCHED_MAX_TC) {
			snprintf(err, len, "map item %zu is not a traffic class", i);
			return -EINVAL;
		}
		s->map[i] = (uint8_t)json_integer_value(x);
	}
	s->n_map = (int)json_array_size(map);
	json_array_foreach(queues, i, x) {
		if (member(x, "count", 0, UINT16_MAX, &v, err, len) ||
		    member(x, "offset", 0, UINT16_MAX, &w, err, len))
			return -EINVAL;
		s->count[i] = (uint16_t)v;
		s->offset[i] = (uint16_t)w;
	}
	s->n_queues = (int)json_array_size(queues);
	for (k = 0; k < TSCHED_NKEYS; k++) {
		if (member(lines, line_keys[k], 0, INT32_MAX, &v, err, len))
			return -EINVAL;
		s->line[k] = (int)v;
	}
	return 0;
}

int tsched_from_json(const json_t *j, struct tsched *s, char *err, size_t len)
{
	const char *file = json_string_value(json_object_get(j, "file"));
	int64_t num_tc, base, cycle, ext, clockid, flags, delay;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j) || !file) {
		snprintf(err, len, "no schedule with its 'file'");
		return -EINVAL;
	}
	snprintf(s->file, sizeof(s->file), "%s", file);
	if (member(j, "num_tc", 0, TSCHED_MAX_TC, &num_tc, err, len) ||
	    member(j, "base_time", INT64_MIN, INT64_MAX, &base, err, len) ||
	    member(j, "cycle_time", 0, INT64_MAX, &cycle, err, len) ||
	    member(j, "cycle_time_extension", 0, INT64_MAX, &ext, err, len) ||
	    member(j, "clockid", -1, INT32_MAX, &clockid, err, len) ||
	    member(j, "flags", 0, UINT32_MAX, &flags, err, len) ||
	    member(j, "txtime_delay", 0, UINT32_MAX, &delay, err, len) ||
	    lists_from_json(j, s, err, len) ||
	    entries_from_json(json_object_get(j, "entries"), s, err, len))
		return -EINVAL;
	s->num_tc = (int)num_tc;
	s->base_time = base;
	s->cycle_time = cycle;
	s->cycle_time_ext = ext;
	s->clockid = (int)clockid;
	s->flags = (uint32_t)flags;
	s->txtime_delay = (uint32_t)delay;
	return 0;
}

int record_write(const struct run *r, const char *dir)
{
	const char *name = strrchr(r->s->file, '/') ? strrchr(r->s->file, '/') + 1 : r->s->file;
	json_t *sizes = json_array(), *j;
	struct atomic_file af;
	char path[4096], dst[32];
	int k, rc;

	for (k = 0; k < r->n_sizes; k++)
		json_array_append_new(sizes, json_integer(r->sizes[k]));
	snprintf(dst, sizeof(dst), "%u.%u.%u.%u", ((unsigned char *)&r->dst)[0],
		 ((unsigned char *)&r->dst)[1], ((unsigned char *)&r->dst)[2],
		 ((unsigned char *)&r->dst)[3]);
	j = json_pack("{s:i, s:s, s:s, s:s, s:o, s:I, s:s, s:s, s:s, s:i, s:I, s:I, s:I}",
		      "format_version", RECORD_FORMAT_VERSION, "program", "taprio", "verb", "run",
		      "schedule_name", name, "schedule", tsched_json(r->s),
		      "cycle_ns", (json_int_t)tsched_cycle(r->s), "dev", r->dev, "rx_netns",
		      r->netns ? r->netns : "", "dst", dst, "port", r->port,
		      "base_ns", (json_int_t)r->base, "start_ns", (json_int_t)r->start,
		      "tai_offset_ns", (json_int_t)r->tai_off);
	if (!j)
		return -ENOMEM;
	json_object_set_new(j, "count", json_integer((json_int_t)r->count));
	json_object_set_new(j, "rate", json_real(r->rate));
	json_object_set_new(j, "sizes", sizes);
	json_object_set_new(j, "only_tc", json_integer(r->only_tc));
	json_object_set_new(j, "phase_ns", json_integer(r->phase));
	json_object_set_new(j, "errqueue_thread", json_boolean(r->errq_thread));
	json_object_set_new(j, "sync_threshold_ns", json_integer(r->sync_threshold));
	json_object_set_new(j, "received", json_integer((json_int_t)r->received));
	json_object_set_new(j, "files", json_pack("{s:s, s:s?}", "packets", "packets.csv", "sync",
						  r->phc_fd >= 0 ? "sync-workload.csv" : NULL));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	rc = atomic_open(&af, path);
	if (!rc) {
		if (json_dumpf(j, af.f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
		    fputc('\n', af.f) == EOF) {
			atomic_abort(&af);
			rc = -EIO;
		} else {
			rc = atomic_commit(&af);
		}
	}
	if (rc)
		fprintf(stderr, "%s: cannot write %s: %s\n", lab_prog, path, strerror(-rc));
	json_decref(j);
	return rc;
}

/* The record's members besides the schedule */
static int record_fields(const json_t *j, struct run_record *rec, char *err, size_t len)
{
	const char *name = json_string_value(json_object_get(j, "schedule_name"));
	int64_t count, received, only_tc;

	if (!name) {
		snprintf(err, len, "no 'schedule_name'");
		return -EINVAL;
	}
	snprintf(rec->name, sizeof(rec->name), "%s", name);
	if (member(j, "base_ns", INT64_MIN, INT64_MAX, &rec->base, err, len) ||
	    member(j, "start_ns", INT64_MIN, INT64_MAX, &rec->start, err, len) ||
	    member(j, "tai_offset_ns", INT64_MIN, INT64_MAX, &rec->tai_off, err, len) ||
	    member(j, "count", 0, INT64_MAX, &count, err, len) ||
	    member(j, "received", 0, INT64_MAX, &received, err, len) ||
	    member(j, "only_tc", -1, TSCHED_MAX_TC - 1, &only_tc, err, len) ||
	    member(j, "phase_ns", -1, INT64_MAX, &rec->phase, err, len))
		return -EINVAL;
	rec->count = (size_t)count;
	rec->received = (size_t)received;
	rec->only_tc = (int)only_tc;
	rec->rate = json_number_value(json_object_get(j, "rate"));
	return 0;
}

int record_read(const char *path, struct run_record *rec)
{
	char err[512];
	json_error_t je;
	json_t *j;
	int64_t v = 0;

	memset(rec, 0, sizeof(*rec));
	j = json_load_file(path, 0, &je);
	if (!j) {
		fprintf(stderr, "%s: %s: %s\n", lab_prog, path, je.text);
		return -EINVAL;
	}
	rec->s = lab_calloc(1, sizeof(*rec->s), "the schedule");
	if (member(j, "format_version", 0, INT32_MAX, &v, err, sizeof(err)) ||
	    v != RECORD_FORMAT_VERSION) {
		snprintf(err, sizeof(err), "format_version %" PRId64 " (this taprio reads %d)", v,
			 RECORD_FORMAT_VERSION);
		goto bad;
	}
	if (tsched_from_json(json_object_get(j, "schedule"), rec->s, err, sizeof(err)) ||
	    record_fields(j, rec, err, sizeof(err)))
		goto bad;
	json_decref(j);
	return 0;
bad:
	fprintf(stderr, "%s: %s is not a record of taprio run: %s\n", lab_prog, path, err);
	json_decref(j);
	free(rec->s);
	rec->s = NULL;
	return -EINVAL;
}

void record_free(struct run_record *rec)
{
	free(rec->s);
	rec->s = NULL;
}

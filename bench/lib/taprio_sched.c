// SPDX-License-Identifier: GPL-2.0
/* taprio schedules in tc's syntax, their checks and gate model; see taprio_sched.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "taprio_sched.h"

/* TC_TAPRIO_CMD_* of linux/pkt_sched.h */
#define CMD_SET_GATES 0x00
#define CMD_SET_AND_HOLD 0x01
#define CMD_SET_AND_RELEASE 0x02

static const char *const key_names[TSCHED_NKEYS] = {
	[TSCHED_NUM_TC] = "num_tc",
	[TSCHED_MAP] = "map",
	[TSCHED_QUEUES] = "queues",
	[TSCHED_BASE_TIME] = "base-time",
	[TSCHED_SCHED_ENTRY] = "sched-entry",
	[TSCHED_CYCLE_TIME] = "cycle-time",
	[TSCHED_CYCLE_TIME_EXT] = "cycle-time-extension",
	[TSCHED_CLOCKID] = "clockid",
	[TSCHED_FLAGS] = "flags",
	[TSCHED_TXTIME_DELAY] = "txtime-delay",
};

static const struct {
	const char *name;
	int id;
} clocks[] = {
	{ "CLOCK_REALTIME", CLOCK_REALTIME },
	{ "CLOCK_TAI", CLOCK_TAI },
	{ "CLOCK_BOOTTIME", CLOCK_BOOTTIME },
	{ "CLOCK_MONOTONIC", CLOCK_MONOTONIC },
};

/* err = "FILE:LINE: ..." (or "FILE: ..." for line 0); returns -EINVAL */
static int fail(const struct tsched *s, int line, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(const struct tsched *s, int line, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line > 0)
		n = snprintf(err, errlen, "%s:%d: ", s->file, line);
	else
		n = snprintf(err, errlen, "%s: ", s->file);
	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Tokens with their line numbers */
struct tokens {
	char **tok;
	int *line;
	size_t n, cap, pos;
};

static int tokens_add(struct tokens *t, const char *start, size_t len, int line)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **tok = realloc(t->tok, cap * sizeof(*tok));
		int *ln;

		if (!tok)
			return -ENOMEM;
		t->tok = tok;
		ln = realloc(t->line, cap * sizeof(*ln));
		if (!ln)
			return -ENOMEM;
		t->line = ln;
		t->cap = cap;
	}
	t->tok[t->n] = strndup(start, len);
	if (!t->tok[t->n])
		return -ENOMEM;
	t->line[t->n++] = line;
	return 0;
}

static void tokens_free(struct tokens *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->tok[i]);
	free(t->tok);
	free(t->line);
}

static int tokenize(const char *text, struct tokens *t)
{
	const char *p = text;
	int line = 1, err;

	while (*p) {
		if (*p == '\n') {
			line++;
			p++;
		} else if (*p == '#') {
			while (*p && *p != '\n')
				p++;
		} else if (isspace((unsigned char)*p)) {
			p++;
		} else {
			const char *start = p;

			while (*p && !isspace((unsigned char)*p) && *p != '#')
				p++;
			err = tokens_add(t, start, (size_t)(p - start), line);
			if (err)
				return err;
		}
	}
	return 0;
}

static bool parse_u64(const char *s, int base, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > max)
		return false;
	*v = x;
	return true;
}

static bool parse_s64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

static bool is_keyword(const char *tok)
{
	int k;

	for (k = 0; k < TSCHED_NKEYS; k++)
		if (!strcmp(tok, key_names[k]))
			return true;
	return false;
}

static int parse_clockid(const char *tok, int *id)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(tok, clocks[i].name) || !strcasecmp(tok, clocks[i].name + 6)) {
			*id = clocks[i].id;
			return 0;
		}
	if (parse_u64(tok, 10, INT_MAX, &v)) {
		*id = (int)v;
		return 0;
	}
	return -EINVAL;
}

const char *tsched_clock_name(int clockid)
{
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (clocks[i].id == clockid)
			return clocks[i].name;
	return "unknown";
}


/* map: numbers up to the next keyword, as tc reads them */
static int parse_map(struct tsched *s, struct tokens *t, int line, char *err, size_t errlen)
{
	uint64_t v;

	while (t->pos < t->n && !is_keyword(t->tok[t->pos])) {
		const char *tok = t->tok[t->pos];
		int tl = t->line[t->pos];

		if (s->n_map == TSCHED_MAX_PRIO)
			return fail(s, tl, err, errlen, "map: more than %d priorities ('%s')",
				    TSCHED_MAX_PRIO, tok);
		if (!parse_u64(tok, 10, TSCHED_MAX_TC - 1, &v))
			return fail(s, tl, err, errlen, "map: '%s' is not a traffic class 0..%d",
				    tok, TSCHED_MAX_TC - 1);
		s->map[s->n_map++] = (uint8_t)v;
		t->pos++;
	}
	if (!s->n_map)
		return fail(s, line, err, errlen, "map: no traffic class given");
	return 0;
}

/* queues: COUNT@OFFSET up to the next keyword */
static int parse_queues(struct tsched *s, struct tokens *t, int line, char *err, size_t errlen)
{
	while (t->pos < t->n && !is_keyword(t->tok[t->pos])) {
		const char *tok = t->tok[t->pos];
		int tl = t->line[t->pos];
		unsigned int count, offset;
		char c;

		if (sscanf(tok, "%u@%u%c", &count, &offset, &c) != 2 ||
		    strchr(tok, '-') || count > UINT16_MAX || offset > UINT16_MAX)
			return fail(s, tl, err, errlen, "queues: '%s' is not COUNT@OFFSET", tok);
		if (s->n_queues == TSCHED_MAX_TC)
			return fail(s, tl, err, errlen, "queues: more than %d ranges ('%s')",
				    TSCHED_MAX_TC, tok);
		s->count[s->n_queues] = (uint16_t)count;
		s->offset[s->n_queues++] = (uint16_t)offset;
		t->pos++;
	}
	if (!s->n_queues)
		return fail(s, line, err, errlen, "queues: no COUNT@OFFSET given");
	return 0;
}

/* sched-entry COMMAND GATE_MASK INTERVAL; @tok is the command, already taken */
static int parse_entry(struct tsched *s, struct tokens *t, int line, const char *tok, int tl,
		       char *err, size_t errlen)
{
	struct tsched_entry *e;
	uint64_t v;

	if (s->n_entries == TSCHED_MAX_ENTRIES)
		return fail(s, line, err, errlen, "more than %d sched-entry lines",
			    TSCHED_MAX_ENTRIES);
	e = &s->entries[s->n_entries];
	e->line = line;
	if (!strcmp(tok, "S"))
		e->command = CMD_SET_GATES;
	else if (!strcmp(tok, "H"))
		e->command = CMD_SET_AND_HOLD;
	else if (!strcmp(tok, "R"))
		e->command = CMD_SET_AND_RELEASE;
	else
		return fail(s, tl, err, errlen,
			    "sched-entry: unknown command '%s' (expected S, H or R)", tok);
	e->cmd = tok[0];
	if (t->pos + 1 >= t->n)
		return fail(s, line, err, errlen, "sched-entry: expected COMMAND GATE_MASK INTERVAL");
	tok = t->tok[t->pos];
	tl = t->line[t->pos];
	if (!parse_u64(tok, 16, UINT32_MAX, &v))
		return fail(s, tl, err, errlen,
			    "sched-entry: gate mask '%s' is not a hexadecimal 32-bit mask", tok);
	e->gate_mask = (uint32_t)v;
	t->pos++;
	tok = t->tok[t->pos];
	tl = t->line[t->pos];
	if (!parse_u64(tok, 0, UINT32_MAX, &v))
		return fail(s, tl, err, errlen,
			    "sched-entry: interval '%s' is not a 32-bit number of ns", tok);
	e->interval = (uint32_t)v;
	t->pos++;
	s->n_entries++;
	return 0;
}

/* A keyword of one value, @tok on line @tl */
static int parse_value(struct tsched *s, int k, const char *kw, const char *tok, int tl,
		       char *err, size_t errlen)
{
	uint64_t v;
	int64_t x;

	switch (k) {
	case TSCHED_NUM_TC:
		if (!parse_u64(tok, 10, UINT8_MAX, &v) || v < 1 || v > TSCHED_MAX_TC)
			return fail(s, tl, err, errlen,
				    "num_tc '%s' is not a number of traffic classes 1..%d",
				    tok, TSCHED_MAX_TC);
		s->num_tc = (int)v;
		break;
	case TSCHED_BASE_TIME:
		if (!parse_s64(tok, &s->base_time))
			return fail(s, tl, err, errlen,
				    "base-time '%s' is not a time in ns (a signed 64-bit integer)",
				    tok);
		break;
	case TSCHED_CYCLE_TIME:
	case TSCHED_CYCLE_TIME_EXT:
		if (!parse_s64(tok, &x) || x < 0)
			return fail(s, tl, err, errlen, "%s '%s' is not a time in ns", kw, tok);
		if (k == TSCHED_CYCLE_TIME)
			s->cycle_time = x;
		else
			s->cycle_time_ext = x;
		break;
	case TSCHED_CLOCKID:
		if (parse_clockid(tok, &s->clockid))
			return fail(s, tl, err, errlen,
				    "clockid '%s' is not a clock (CLOCK_TAI, CLOCK_REALTIME, "
				    "CLOCK_MONOTONIC, CLOCK_BOOTTIME or a number)", tok);
		break;
	case TSCHED_FLAGS:
	case TSCHED_TXTIME_DELAY:
		if (!parse_u64(tok, 0, UINT32_MAX, &v))
			return fail(s, tl, err, errlen, "%s '%s' is not a 32-bit number", kw, tok);
		if (k == TSCHED_FLAGS)
			s->flags = (uint32_t)v;
		else
			s->txtime_delay = (uint32_t)v;
		break;
	default:
		break;
	}
	return 0;
}

static int parse_tokens(struct tsched *s, struct tokens *t, char *err, size_t errlen)
{
	while (t->pos < t->n) {
		const char *kw = t->tok[t->pos], *tok;
		int line = t->line[t->pos], k, tl, rc;

		for (k = 0; k < TSCHED_NKEYS; k++)
			if (!strcmp(kw, key_names[k]))
				break;
		if (k == TSCHED_NKEYS)
			return fail(s, line, err, errlen,
				    "unknown keyword '%s' (expected num_tc, map, queues, base-time, "
				    "sched-entry, cycle-time, cycle-time-extension, clockid, flags "
				    "or txtime-delay)", kw);
		t->pos++;
		if (k != TSCHED_SCHED_ENTRY && s->line[k])
			return fail(s, line, err, errlen, "%s given twice (first on line %d)", kw,
				    s->line[k]);
		if (!s->line[k])
			s->line[k] = line;
		if (k == TSCHED_MAP || k == TSCHED_QUEUES) {
			rc = k == TSCHED_MAP ? parse_map(s, t, line, err, errlen) :
					       parse_queues(s, t, line, err, errlen);
			if (rc)
				return rc;
			continue;
		}
		if (t->pos >= t->n)
			return fail(s, line, err, errlen, "%s: its value is missing", kw);
		tok = t->tok[t->pos];
		tl = t->line[t->pos];
		t->pos++;
		rc = k == TSCHED_SCHED_ENTRY ? parse_entry(s, t, line, tok, tl, err, errlen) :
					       parse_value(s, k, kw, tok, tl, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int tsched_parse_string(const char *name, const char *text, struct tsched *s,
			char *err, size_t errlen)
{
	struct tokens t = { 0 };
	int rc;

	memset(s, 0, sizeof(*s));
	s->clockid = -1;
	snprintf(s->file, sizeof(s->file), "%s", name);
	rc = tokenize(text, &t);
	if (rc)
		snprintf(err, errlen, "%s: %s", name, strerror(-rc));
	else
		rc = parse_tokens(s, &t, err, errlen);
	tokens_free(&t);
	return rc;
}

int tsched_parse_file(const char *path, struct tsched *s, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *m;
	int c, rc;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	m = open_memstream(&text, &len);
	if (!m) {
		fclose(f);
		return -ENOMEM;
	}
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	if (memchr(text, 0, len)) {
		free(text);
		memset(s, 0, sizeof(*s));
		snprintf(s->file, sizeof(s->file), "%s", path);
		return fail(s, 0, err, errlen, "not a text file (it holds a NUL byte)");
	}
	rc = tsched_parse_string(path, text, s, err, errlen);
	free(text);
	return rc;
}

int64_t tsched_cycle(const struct tsched *s)
{
	int64_t sum = 0;
	size_t i;

	if (s->cycle_time)
		return s->cycle_time;
	for (i = 0; i < s->n_entries; i++)
		sum += s->entries[i].interval;
	return sum;
}

int tsched_check(const struct tsched *s, char *err, size_t errlen)
{
	int64_t sum = 0;
	size_t i;
	int a, b;

	if (!s->line[TSCHED_NUM_TC])
		return fail(s, 0, err, errlen, "num_tc is missing (the schedule needs num_tc, "
			    "map and queues)");
	if (!s->line[TSCHED_MAP])
		return fail(s, 0, err, errlen, "map is missing (which priority goes to which "
			    "traffic class)");
	if (!s->line[TSCHED_QUEUES])
		return fail(s, 0, err, errlen, "queues is missing (one COUNT@OFFSET per traffic "
			    "class)");
	for (i = 0; i < (size_t)s->n_map; i++)
		if (s->map[i] >= s->num_tc)
			return fail(s, s->line[TSCHED_MAP], err, errlen,
				    "map: priority %zu goes to traffic class %u, beyond num_tc %d",
				    i, s->map[i], s->num_tc);
	if (s->n_queues != s->num_tc)
		return fail(s, s->line[TSCHED_QUEUES], err, errlen,
			    "queues: %d ranges for num_tc %d traffic classes (one per class)",
			    s->n_queues, s->num_tc);
	for (a = 0; a < s->n_queues; a++) {
		if (!s->count[a])
			return fail(s, s->line[TSCHED_QUEUES], err, errlen,
				    "queues: the range of traffic class %d is empty (0@%u)", a,
				    s->offset[a]);
		for (b = 0; b < a; b++)
			if (s->offset[a] < s->offset[b] + s->count[b] &&
			    s->offset[b] < s->offset[a] + s->count[a])
				return fail(s, s->line[TSCHED_QUEUES], err, errlen,
					    "queues: the ranges of traffic classes %d (%u@%u) and %d "
					    "(%u@%u) overlap", b, s->count[b], s->offset[b], a,
					    s->count[a], s->offset[a]);
	}
	if (!s->n_entries)
		return fail(s, 0, err, errlen, "empty schedule: no sched-entry");
	for (i = 0; i < s->n_entries; i++) {
		const struct tsched_entry *e = &s->entries[i];
		uint32_t beyond = s->num_tc < 32 ? e->gate_mask & ~((1u << s->num_tc) - 1) : 0;

		if (!e->interval)
			return fail(s, e->line, err, errlen, "sched-entry: interval 0");
		if (beyond)
			return fail(s, e->line, err, errlen,
				    "sched-entry: gate mask 0x%x opens traffic class %d, beyond "
				    "num_tc %d", e->gate_mask, __builtin_ctz(beyond), s->num_tc);
		sum += e->interval;
	}
	if (s->cycle_time && s->cycle_time > sum)
		return fail(s, s->line[TSCHED_CYCLE_TIME], err, errlen,
			    "cycle-time %" PRId64 " is longer than the sum of the intervals (%" PRId64
			    "): Linux 6.1 then restarts the list early, which the lab does not "
			    "model", s->cycle_time, sum);
	if (s->clockid < 0 && !(s->flags & 0x3))
		return fail(s, 0, err, errlen, "clockid is missing (taprio in software mode "
			    "needs it, e.g. clockid CLOCK_TAI)");
	return 0;
}

int64_t tsched_entry_offset(const struct tsched *s, size_t i)
{
	int64_t off = 0;
	size_t j;

	for (j = 0; j < i && j < s->n_entries; j++)
		off += s->entries[j].interval;
	return off;
}

int tsched_tc_of_prio(const struct tsched *s, int prio)
{
	if (prio < 0 || prio >= TSCHED_MAX_PRIO)
		return -1;
	/* Priorities beyond the map given go to class 0, as in the kernel */
	return prio < s->n_map ? s->map[prio] : 0;
}

int tsched_prio_of_tc(const struct tsched *s, int tc)
{
	int p;

	for (p = 0; p < s->n_map; p++)
		if (s->map[p] == tc)
			return p;
	return -1;
}

/* floor((t - base) / c) for any sign */
static int64_t cycles_since(int64_t base, int64_t c, int64_t t)
{
	int64_t d = t - base;

	return d >= 0 ? d / c : -((-d + c - 1) / c);
}

int64_t tsched_next_cycle_start(const struct tsched *s, int64_t base, int64_t t)
{
	int64_t c = tsched_cycle(s), k;

	if (c <= 0 || t <= base)
		return base;
	k = cycles_since(base, c, t);
	if (base + k * c < t)
		k++;
	return base + k * c;
}

bool tsched_gate(const struct tsched *s, int64_t base, int tc, int64_t t,
		 int *entry, int64_t *start, int64_t *end)
{
	int64_t c = tsched_cycle(s), cstart, off = 0;
	size_t i;

	if (entry)
		*entry = -1;
	if (t < base || c <= 0 || !s->n_entries) {
		if (start)
			*start = INT64_MIN;
		if (end)
			*end = base;
		return true;
	}
	cstart = base + cycles_since(base, c, t) * c;
	for (i = 0; i < s->n_entries; i++) {
		int64_t e0 = cstart + off, e1 = e0 + s->entries[i].interval;

		if (e1 > cstart + c)
			e1 = cstart + c;
		if (t >= e0 && t < e1) {
			if (entry)
				*entry = (int)i;
			if (start)
				*start = e0;
			if (end)
				*end = e1;
			return tc >= 0 && tc < 32 && (s->entries[i].gate_mask >> tc) & 1;
		}
		off += s->entries[i].interval;
	}
	/* Not reached for a checked schedule (the intervals cover the cycle) */
	return false;
}

int64_t tsched_next_open(const struct tsched *s, int64_t base, int tc, int64_t t)
{
	int64_t c = tsched_cycle(s), cstart, off;
	size_t i;
	int k;

	if (tsched_gate(s, base, tc, t, NULL, NULL, NULL))
		return t;
	if (c <= 0)
		return INT64_MAX;
	cstart = base + cycles_since(base, c, t) * c;
	for (k = 0; k < 2; k++, cstart += c) {
		for (i = 0, off = 0; i < s->n_entries && off < c; i++) {
			int64_t e0 = cstart + off;

			off += s->entries[i].interval;
			if (e0 > t && tc >= 0 && tc < 32 && (s->entries[i].gate_mask >> tc) & 1)
				return e0;
		}
	}
	return INT64_MAX;
}

int tsched_check_dequeue(const struct tsched *s, int64_t base, const struct tsched_dequeue *d,
			 bool *stale)
{
	int64_t start = INT64_MIN, t = d->now, tx_end = d->tx_end;
	int bad = 0;

	/* The start of the window that ends at d->end */
	tsched_gate(s, base, d->tc, d->end - 1, NULL, &start, NULL);
	*stale = d->now < start;
	if (*stale && d->recorded != INT64_MIN) {
		t = d->recorded;
		tx_end = d->recorded + (d->tx_end - d->now);
	}
	if (!tsched_gate(s, base, d->tc, t, NULL, NULL, NULL))
		bad |= TSCHED_DEQ_CLOSED;
	if (tx_end > d->end)
		bad |= TSCHED_DEQ_LATE;
	return bad;
}

/* A growing string */
struct sbuf {
	char *p;
	size_t n, cap;
	bool oom;
};

static void sbuf_put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbuf_put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		r = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (r < 0) {
			b->oom = true;
			return;
		}
		if (b->p && (size_t)r < b->cap - b->n) {
			b->n += (size_t)r;
			return;
		}
		b->cap = (b->cap + (size_t)r + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			b->oom = true;
			return;
		}
	}
}

/*
 * The one writer of schedule text: every keyword the file can hold, in
 * tc's syntax, separated by @sep (" " for tc's arguments on one line, "\n"
 * for a schedule file).
 */
char *tsched_text(const struct tsched *s, int64_t base, const char *sep)
{
	struct sbuf b = { 0 };
	size_t i;

	sbuf_put(&b, "num_tc %d%smap", s->num_tc, sep);
	for (i = 0; i < (size_t)s->n_map; i++)
		sbuf_put(&b, " %u", s->map[i]);
	sbuf_put(&b, "%squeues", sep);
	for (i = 0; i < (size_t)s->n_queues; i++)
		sbuf_put(&b, " %u@%u", s->count[i], s->offset[i]);
	sbuf_put(&b, "%sbase-time %" PRId64, sep, base);
	for (i = 0; i < s->n_entries; i++)
		sbuf_put(&b, "%ssched-entry %c %02x %u", sep, s->entries[i].cmd,
			 s->entries[i].gate_mask, s->entries[i].interval);
	if (s->cycle_time)
		sbuf_put(&b, "%scycle-time %" PRId64, sep, s->cycle_time);
	if (s->line[TSCHED_CYCLE_TIME_EXT])
		sbuf_put(&b, "%scycle-time-extension %" PRId64, sep, s->cycle_time_ext);
	if (s->clockid >= 0)
		sbuf_put(&b, "%sclockid %s", sep, tsched_clock_name(s->clockid));
	if (s->line[TSCHED_FLAGS])
		sbuf_put(&b, "%sflags 0x%x", sep, s->flags);
	if (s->line[TSCHED_TXTIME_DELAY])
		sbuf_put(&b, "%stxtime-delay %u", sep, s->txtime_delay);
	if (b.oom) {
		free(b.p);
		errno = ENOMEM;
		return NULL;
	}
	return b.p;
}

int tsched_format(const struct tsched *s, int64_t base, char *buf, size_t len)
{
	char *t = tsched_text(s, base, " ");
	size_t n;

	if (!t)
		return -ENOMEM;
	n = strlen(t);
	if (n >= len) {
		free(t);
		return -ENOSPC;
	}
	memcpy(buf, t, n + 1);
	free(t);
	return 0;
}

int tsched_write(const struct tsched *s, int64_t base, FILE *f)
{
	char *t = tsched_text(s, base, "\n");
	int rc = 0;

	if (!t)
		return -ENOMEM;
	if (fprintf(f, "%s\n", t) < 0)
		rc = -EIO;
	free(t);
	return rc;
}

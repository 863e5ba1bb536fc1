// SPDX-License-Identifier: GPL-2.0
/*
 * The led suite: the LED pattern trigger (and the lab's abs_pattern) on a
 * uleds LED. The main thread writes random and edge-value patterns to
 * pattern and abs_pattern (malformed text, zero and huge durations, runs of
 * tuples without duration, brightness beyond the LED's maximum, too many
 * tuples), and
 * repeat counts; a second thread switches the trigger (pattern, none, a
 * trigger that does not exist) and writes repeat while the patterns run;
 * now and then the uleds LED is removed and made again under a running
 * pattern. Checks: every refusal is an errno; a pattern with a brightness
 * beyond the maximum, a single tuple, or (abs_pattern) no duration at all
 * is refused; a valid pattern is taken and reads back as written, a refused
 * one leaves no pattern behind; the LED never gets a brightness beyond its
 * maximum (read through uleds). A regression case first: abs_pattern with a
 * thousand tuples without duration in every 2 ms cycle, which the trigger
 * must step through without keeping a CPU (it once replayed them for every
 * millisecond it ran late).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/uleds.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "labfuzz.h"
#include "tap.h"
#include "timing.h"

#define LEDS "/sys/class/leds"
#define MAX_PATTERNS 1024	/* the trigger's limit */
#define TEXT_MAX 8192

static const int E_PATTERN[] = { EINVAL, E2BIG, ENODEV, 0 };
static const int E_REPEAT[] = { EINVAL, ERANGE, ENODEV, 0 };
static const int E_TRIGGER[] = { EINVAL, ENODEV, 0 };

struct led_ctx {
	char name[64];
	int fd;			/* /dev/uleds: the LED lives while it is open */
	int max;
	/* Switches (trigger, repeat, the LED made again) by either thread:
	 * those in progress, and those done. A readback or a refusal is only
	 * judged when no switch came between the write and the check. (One
	 * counter bumped at both ends by two threads lost its parity: a remake
	 * overlapping a repeat write looked like no switch at all.) */
	volatile unsigned int busy, gen;
	pthread_mutex_t lock;	/* the uleds device while it is made again */
	bool abs;		/* the trigger has abs_pattern */
	uint64_t events, beyond_max;
	int worst;
};

static int uled_open(struct led_ctx *l)
{
	struct uleds_user_dev dev = { .max_brightness = l->max };
	int fd;

	snprintf(dev.name, sizeof(dev.name), "%s", l->name);
	fd = open("/dev/uleds", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, &dev, sizeof(dev)) != (ssize_t)sizeof(dev)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* -errno of opening or writing; 1 when the file is not there (no trigger, no LED) */
static int attr_write(const struct led_ctx *l, const char *attr, const char *text, size_t len)
{
	char path[PATH_MAX];
	ssize_t w;
	int fd, err = 0;

	snprintf(path, sizeof(path), LEDS "/%s/%s", l->name, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENODEV ? 1 : -errno;
	w = write(fd, text, len);
	if (w < 0)
		err = -errno;
	close(fd);
	return err;
}

static int attr_read(const struct led_ctx *l, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), LEDS "/%s/%s", l->name, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, len - 1);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	return 0;
}

/* Read what uleds has: every brightness must be within 0..max */
static void drain(struct led_ctx *l)
{
	int b;

	pthread_mutex_lock(&l->lock);
	while (l->fd >= 0 && read(l->fd, &b, sizeof(b)) == (ssize_t)sizeof(b)) {
		l->events++;
		if (b < 0 || b > l->max) {
			if (!l->beyond_max++)
				l->worst = b;
		}
	}
	pthread_mutex_unlock(&l->lock);
}

struct tuple {
	uint64_t brightness, duration;
};

/*
 * A pattern as text: numeric tuples (the model knows what the kernel must
 * do with them), or malformed text (any errno from the list will do).
 * Returns true when the model applies.
 */
static bool make_pattern(struct fz *f, const struct led_ctx *l, char *text, size_t cap,
			 struct tuple *t, size_t *nt)
{
	static const char *const junk[] = {
		"", "\n", " ", "abc", "-1 10 0 10", "1 2 3", "0x10 20 0 20", "255 10 0 10 extra",
		"10 -5 0 5", "1e3 10 0 10", "0 10\n0 10\n", "\t0\t10\t0\t10", "+5 10 0 10",
		"4294967296 10 0 10", "0 4294967296 0 10", "99999999999999999999 1 0 1",
	};
	size_t n, i, off = 0;
	bool zeros = false;

	if (fuzz_chance(&f->rng, 15)) {
		const char *j = junk[fuzz_below(&f->rng, sizeof(junk) / sizeof(*junk))];

		snprintf(text, cap, "%s", j);
		return false;
	}
	switch (fuzz_below(&f->rng, 10)) {
	case 0:
		n = fuzz_below(&f->rng, 2);	/* 0 or 1 tuples */
		break;
	case 1:
		n = MAX_PATTERNS - 1 + fuzz_below(&f->rng, 3);	/* at the limit */
		break;
	case 2:
		n = 2 + fuzz_below(&f->rng, MAX_PATTERNS - 1);	/* mostly without duration */
		zeros = true;
		break;
	default:
		n = 2 + fuzz_below(&f->rng, 7);
	}
	for (i = 0; i < n && off < cap - 64; i++) {
		uint64_t b, d;

		if (fuzz_chance(&f->rng, 85))
			b = fuzz_below(&f->rng, (uint64_t)l->max + 1);
		else if (fuzz_chance(&f->rng, 50))
			b = (uint64_t)l->max + 1 + fuzz_below(&f->rng, 3);
		else
			b = fuzz_edge_u32(&f->rng);
		switch (zeros && fuzz_chance(&f->rng, 95) ? 0 : fuzz_below(&f->rng, 8)) {
		case 0:
			d = 0;
			break;
		case 1:
			d = (uint64_t)FUZZ_PICK(&f->rng, ((const int64_t[]){ 1, 49, 50, 51, 100 }));
			break;
		case 2:
			d = fuzz_edge_u32(&f->rng);
			break;
		default:
			d = 1 + fuzz_below(&f->rng, 120);
		}
		t[i].brightness = b;
		t[i].duration = d;
		off += (size_t)snprintf(text + off, cap - off, "%" PRIu64 " %" PRIu64 " ", b, d);
	}
	*nt = i;
	if (fuzz_chance(&f->rng, 50) && off < cap - 1)
		text[off++] = '\n', text[off] = '\0';
	return true;
}

/* The tuples of a pattern as the trigger shows it: "B D B D ..." */
static size_t parse_shown(const char *s, struct tuple *t, size_t cap)
{
	size_t n = 0;
	long long b;
	unsigned long long d;
	int used;

	while (n < cap && sscanf(s, "%lld %llu %n", &b, &d, &used) == 2) {
		t[n].brightness = (uint64_t)b;
		t[n].duration = d;
		n++;
		s += used;
	}
	return n;
}

#define SWITCH_BUSY 0x80000000u

static void switch_begin(struct led_ctx *l)
{
	__atomic_add_fetch(&l->busy, 1, __ATOMIC_ACQ_REL);
}

static void switch_end(struct led_ctx *l)
{
	__atomic_add_fetch(&l->gen, 1, __ATOMIC_ACQ_REL);
	__atomic_sub_fetch(&l->busy, 1, __ATOMIC_ACQ_REL);
}

/* The switches done so far, SWITCH_BUSY set while one is going on */
static unsigned int switch_snap(const struct led_ctx *l)
{
	unsigned int gen = __atomic_load_n(&l->gen, __ATOMIC_ACQUIRE) & ~SWITCH_BUSY;

	return __atomic_load_n(&l->busy, __ATOMIC_ACQUIRE) ? gen | SWITCH_BUSY : gen;
}

/* A switch came since the snapshot @gen was taken, or was going on then */
static bool switched(const struct led_ctx *l, unsigned int gen)
{
	return (gen & SWITCH_BUSY) || switch_snap(l) != gen;
}

static void write_pattern(struct fz *f, struct led_ctx *l, struct fz_kind *k)
{
	static char text[TEXT_MAX], shown[TEXT_MAX];
	static struct tuple t[MAX_PATTERNS + 8], back[MAX_PATTERNS + 8];
	const char *attr = l->abs && fuzz_chance(&f->rng, 60) ? "abs_pattern" : "pattern";
	size_t nt = 0, nb, i, len;
	bool model = make_pattern(f, l, text, sizeof(text), t, &nt), beyond = false, nodur = true;
	bool must_refuse, must_take, clean;
	unsigned int gen = switch_snap(l);
	char what[200];
	int err;

	len = strlen(text);
	for (i = 0; i < nt; i++) {
		beyond = beyond || t[i].brightness > (uint64_t)l->max;
		nodur = nodur && !t[i].duration;
	}
	snprintf(what, sizeof(what), "%s '%.60s%s' (%zu tuples, %zu bytes)", attr, text,
		 len > 60 ? "..." : "", nt, len);
	err = attr_write(l, attr, text, len);
	if (err == 1)
		return;	/* the trigger is not pattern just now */
	fz_result(f, k, err, E_PATTERN, what);
	/* ENODEV: kernfs refused the write because the file went away under it
	 * (the trigger thread switched the trigger, or the LED was made again,
	 * between open and write); with the trigger left alone it is a refusal
	 * like any other */
	if (err == -ENODEV && switched(l, gen))
		return;
	/* sysfs takes at most a page: longer text is refused whole (E2BIG) */
	if (!model || len >= 4096)
		return;
	/* What the trigger must refuse: a brightness beyond the maximum, one tuple */
	must_refuse = beyond || nt == 1 ||
		      (!strcmp(attr, "abs_pattern") && nt >= 2 && nodur && !beyond);
	must_take = !beyond && nt >= 2 && nt <= MAX_PATTERNS && len < 4096 &&
		    !(!strcmp(attr, "abs_pattern") && nodur);
	if (!err && must_refuse)
		fz_bad(f, k, "%s: taken, but it must be refused", what);
	if (err && must_take)
		fz_bad(f, k, "%s: a valid pattern refused with %s", what, lab_errname(err));
	/* It reads back as written, or, refused, leaves no pattern */
	if (attr_read(l, attr, shown, sizeof(shown)))
		return;
	if (switched(l, gen))
		return;	/* the trigger was switched meanwhile */
	nb = parse_shown(shown, back, MAX_PATTERNS + 8);
	if (!err && must_take) {
		clean = nb == nt;
		for (i = 0; clean && i < nt; i++)
			clean = back[i].brightness == t[i].brightness &&
				back[i].duration == t[i].duration;
		if (!clean)
			fz_bad(f, k, "%s: taken, but reads back as %zu tuples '%.60s'", what, nb,
			       shown);
	}
	if (err && nb)
		fz_bad(f, k, "%s: refused with %s, but %zu tuples are left behind: '%.60s'", what,
		       lab_errname(err), nb, shown);
}

static const char *pick_repeat(struct fz *f, char *buf, size_t len, long long *value, bool *numeric)
{
	static const char *const junk[] = { "abc", "", " 3", "3x", "0x10", "2147483648", "-2147483649",
					    "99999999999999999999", "1.5" };

	*numeric = false;
	if (fuzz_chance(&f->rng, 20)) {
		snprintf(buf, len, "%s", junk[fuzz_below(&f->rng, sizeof(junk) / sizeof(*junk))]);
		return buf;
	}
	*numeric = true;
	*value = fuzz_chance(&f->rng, 60) ? fuzz_range(&f->rng, -3, 5)
					  : (long long)(int32_t)fuzz_edge_u32(&f->rng);
	snprintf(buf, len, fuzz_chance(&f->rng, 50) ? "%lld\n" : "%lld", *value);
	return buf;
}

static void write_repeat(struct fz *f, struct led_ctx *l, struct fz_kind *k, bool check)
{
	char text[64], what[100], back[64];
	long long v = 0;
	bool numeric, valid;
	unsigned int gen = switch_snap(l);
	int err;

	pick_repeat(f, text, sizeof(text), &v, &numeric);
	snprintf(what, sizeof(what), "repeat '%.*s'", (int)strcspn(text, "\n"), text);
	err = attr_write(l, "repeat", text, strlen(text));
	if (err == 1)
		return;
	fz_result(f, k, err, E_REPEAT, what);
	if (!numeric)
		return;
	valid = v == -1 || (v >= 1 && v <= INT32_MAX);
	if (!err && !valid)
		fz_bad(f, k, "%s: taken, but only -1 and 1..INT_MAX are repeat counts", what);
	if (err == -ENODEV && switched(l, gen))
		return;	/* the file went away under the write */
	if (err && valid)
		fz_bad(f, k, "%s: a valid count refused with %s", what, lab_errname(err));
	if (!check || err || attr_read(l, "repeat", back, sizeof(back)))
		return;
	if (!switched(l, gen) && atoll(back) != v)
		fz_bad(f, k, "%s: taken, but reads back as %s", what, back);
}

/* The second thread: trigger switches and repeat writes while patterns run */
struct trig_fuzz {
	struct fz f;
	struct led_ctx *l;
	struct fz_kind trigger, repeat;
	volatile int stop;
};

static void *trigger_thread(void *arg)
{
	struct trig_fuzz *s = arg;
	struct fz *f = &s->f;
	static const char *const names[] = { "pattern", "none", "pattern\n", "nosuchtrigger", "",
					     "timer", "pattern pattern" };
	const char *name;
	char what[64];
	int err;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		f->iteration++;
		if (fuzz_chance(&f->rng, 60)) {
			name = fuzz_chance(&f->rng, 70) ? (fuzz_chance(&f->rng, 50) ? "none" : "pattern")
							: names[fuzz_below(&f->rng, 7)];
			snprintf(what, sizeof(what), "trigger '%.*s'", (int)strcspn(name, "\n"), name);
			switch_begin(s->l);
			err = attr_write(s->l, "trigger", name, strlen(name));
			switch_end(s->l);
			if (err != 1)
				fz_result(f, &s->trigger, err, E_TRIGGER, what);
			if (!err && (!strcmp(name, "nosuchtrigger") || !strcmp(name, "timer")))
				fz_bad(f, &s->trigger, "%s: taken, but there is no such trigger", what);
		} else {
			switch_begin(s->l);
			write_repeat(f, s->l, &s->repeat, false);
			switch_end(s->l);
		}
		usleep((useconds_t)(1000 + fuzz_below(&f->rng, 20000)));
	}
	return NULL;
}

/* Remove the LED under its running pattern and make it again */
static int remake(struct led_ctx *l)
{
	int fd;

	pthread_mutex_lock(&l->lock);
	switch_begin(l);
	if (l->fd >= 0)
		close(l->fd);
	fd = uled_open(l);
	l->fd = fd < 0 ? -1 : fd;
	if (fd >= 0)
		attr_write(l, "trigger", "pattern", 7);
	switch_end(l);
	pthread_mutex_unlock(&l->lock);
	return fd < 0 ? fd : 0;
}

/* The LED still works: a two-tuple abs_pattern (or pattern) reaches uleds within 2 s */
static void check_alive(struct led_ctx *l, const char *attr)
{
	uint64_t before, t0 = mono_ns();
	char text[64];
	int err;

	attr_write(l, "trigger", "pattern", 7);
	drain(l);
	before = l->events;
	snprintf(text, sizeof(text), "%d 20 0 20", l->max);
	err = attr_write(l, attr, text, strlen(text));
	while (!err && l->events < before + 2 && mono_ns() - t0 < 2 * NSEC_PER_SEC) {
		usleep(20000);
		drain(l);
	}
	if (err)
		tap_fail("led: after the suite a pattern is taken", "writing '%s' to %s: %s", text,
			 attr, err == 1 ? "no such file" : lab_errname(err));
	else
		tap_ok(l->events >= before + 2, "led: after the suite a %s blinks the LED (%" PRIu64
		       " changes seen through uleds in %.2f s)", attr, l->events - before,
		       (double)(mono_ns() - t0) / 1e9);
	attr_write(l, "trigger", "none", 4);
}

/* CPU time spent in softirqs, all CPUs, in clock ticks (/proc/stat) */
static long long softirq_ticks(void)
{
	long long v[7] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return -1;
	if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6]) != 7)
		v[6] = -1;
	fclose(f);
	return v[6];
}

/*
 * abs_pattern "MAX 1 0 1" and 999 tuples "0 0": a cycle of 2 ms with a
 * thousand tuples without duration to step through, for 2 s
 */
static void zero_runs_case(struct led_ctx *l)
{
	static char text[TEXT_MAX];
	const char *what = "led: regression: abs_pattern with 999 tuples without duration in a "
			   "2 ms cycle";
	long long ticks0, ticks1;
	uint64_t before, t0;
	char stuck[256];
	size_t off;
	int i, err, bad;

	if (!l->abs) {
		tap_skip("no abs_pattern (a kernel without the lab's patch)", "%s", what);
		return;
	}
	off = (size_t)snprintf(text, sizeof(text), "%d 1 0 1", l->max);
	for (i = 0; i < 999; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off, " 0 0");
	drain(l);
	before = l->events;
	ticks0 = softirq_ticks();
	err = attr_write(l, "abs_pattern", text, off);
	t0 = mono_ns();
	while (mono_ns() - t0 < 2 * NSEC_PER_SEC) {
		usleep(5000);
		drain(l);
	}
	ticks1 = softirq_ticks();
	bad = fz_cpus_answer(20, stuck, sizeof(stuck));
	attr_write(l, "trigger", "none", 4);
	attr_write(l, "trigger", "pattern", 7);
	tap_ok(!err, "%s (%zu bytes) is taken%s%s", what, off, err ? ": " : "",
	       err ? lab_errname(err > 0 ? -ENOENT : err) : "");
	tap_ok(!bad, "%s: every CPU answers while it runs%s%s", what, bad ? ": stuck " : "",
	       bad ? stuck : "");
	tap_ok(l->events - before >= 10, "%s: the LED blinks (%" PRIu64 " changes in 2 s through "
	       "uleds)", what, l->events - before);
	tap_diag("%s: %lld ticks of softirq time over the 2 s, all CPUs", what, ticks1 - ticks0);
}

int cmd_led(int argc, char **argv)
{
	static const int64_t maxes[] = { 1, 255, 1000, 65535 };
	struct fz f;
	struct led_ctx l = { .fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER };
	struct fz_kind k_pattern = { .name = "pattern and abs_pattern writes" },
		       k_repeat = { .name = "repeat writes" },
		       k_remake = { .name = "LED removed and made again under a pattern" };
	struct trig_fuzz s;
	pthread_t th;
	bool threaded;
	char probe[16];
	int err;

	fz_setup(&f, "led", argc, argv, NULL);
	l.max = (int)FUZZ_PICK(&f.rng, maxes);
	snprintf(l.name, sizeof(l.name), "labfuzz-%d", (int)getpid());
	err = uled_open(&l);
	if (err < 0) {
		tap_skip("no /dev/uleds (CONFIG_LEDS_USER)", "led: the LED pattern trigger's fuzz "
			 "suite: %s", lab_errname(err));
		return fz_finish(&f);
	}
	l.fd = err;
	err = attr_write(&l, "trigger", "pattern", 7);
	if (err) {
		tap_skip("no pattern trigger", "led: the LED pattern trigger's fuzz suite (%s)",
			 err == 1 ? "no trigger file" : lab_errname(err));
		close(l.fd);
		return fz_finish(&f);
	}
	l.abs = !attr_read(&l, "abs_pattern", probe, sizeof(probe));
	tap_diag("led: LED %s, max_brightness %d, abs_pattern %s", l.name, l.max,
		 l.abs ? "present" : "absent (a kernel without the lab's patch: pattern only)");
	zero_runs_case(&l);
	fz_start_clock(&f);

	memset(&s, 0, sizeof(s));
	s.f = f;
	fuzz_seed(&s.f.rng, f.seed ^ 0x1edf0221edf0221eULL);
	s.l = &l;
	s.trigger.name = "trigger switches (second thread)";
	s.repeat.name = "repeat writes (second thread)";
	threaded = !pthread_create(&th, NULL, trigger_thread, &s);

	while (fz_more(&f)) {
		unsigned int r = (unsigned int)fuzz_below(&f.rng, 100);

		if (r < 60) {
			write_pattern(&f, &l, &k_pattern);
		} else if (r < 75) {
			write_repeat(&f, &l, &k_repeat, true);
		} else if (r < 80) {
			/* brightness 0 takes the trigger off the LED */
			char b[16];

			snprintf(b, sizeof(b), "%u", fuzz_chance(&f.rng, 50) ? 0U : fuzz_u32(&f.rng));
			attr_write(&l, "brightness", b, strlen(b));
		} else if (r < 82) {
			err = remake(&l);
			fz_result(&f, &k_remake, err, (const int[]){ 0 }, "remove and make the LED");
		} else if (r < 90) {
			attr_write(&l, "trigger", "pattern", 7);
		} else {
			usleep((useconds_t)fuzz_below(&f.rng, 30000));
		}
		drain(&l);
	}
	if (threaded) {
		__atomic_store_n(&s.stop, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
	}
	drain(&l);

	fz_report_kind(&f, &k_pattern, "every refusal an errno, brightness beyond max, one tuple "
		       "and (abs_pattern) no duration refused, valid patterns taken and read back, "
		       "nothing left by a refusal");
	fz_report_kind(&f, &k_repeat, "every refusal an errno, only -1 and 1..INT_MAX taken, read back");
	fz_report_kind(&f, &k_remake, "the LED can be removed under a running pattern and made again");
	fz_report_kind(&s.f, &s.trigger, "every refusal an errno, no unknown trigger taken");
	fz_report_kind(&s.f, &s.repeat, "every refusal an errno, only -1 and 1..INT_MAX taken");
	tap_diag("led: the second thread made %" PRIu64 " writes; uleds saw %" PRIu64
		 " brightness changes", s.f.iteration, l.events);
	if (l.beyond_max)
		tap_fail("led: the LED never gets a brightness beyond its maximum",
			 "%" PRIu64 " of %" PRIu64 " brightness values read through uleds were "
			 "outside 0..%d, e.g. %d", l.beyond_max, l.events, l.max, l.worst);
	else
		tap_ok(true, "led: the LED never gets a brightness beyond its maximum (%" PRIu64
		       " values read through uleds, all within 0..%d)", l.events, l.max);
	check_alive(&l, l.abs ? "abs_pattern" : "pattern");
	close(l.fd);
	return fz_finish(&f);
}

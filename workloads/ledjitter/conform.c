// SPDX-License-Identifier: GPL-2.0
/*
 * ledjitter conform: the pattern trigger's ABI (Documentation/ABI/testing/
 * sysfs-class-led-trigger-pattern) as TAP, for pattern, on the lab kernels
 * abs_pattern, and on Linux 6.10 and later mainline's hr_pattern: repeat values, malformed patterns, the read-back
 * format, a finite repeat's final brightness, and the ABI's dimming and
 * step examples timed by the kernel observer (ktrace.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ledjitter.h"
#include "tap.h"
#include "timing.h"

static struct ktrace conform_kt;
static int conform_seq;

/* A fresh uleds LED with the pattern trigger; its name goes into @name */
static int conform_led(const char *mode, char *name, size_t len)
{
	int fd;

	snprintf(name, len, "ljc-%d-%s-%d", (int)getpid(), mode, ++conform_seq);
	fd = uled_create(name);
	led_set_trigger(name);
	return fd;
}

/* Check that writing @val to @attr gives @want (0 or -errno) */
static bool expect_write(const char *led, const char *attr, const char *val, int want,
			 const char *what)
{
	int err = sysfs_write(led, attr, val);

	if (err == want)
		return tap_ok(true, "%s", what);
	return tap_fail(what, "writing '%s' to %s: expected %s, got %s", val, attr,
			want ? lab_errname(want) : "success", err ? lab_errname(err) : "success");
}

static void conform_repeat(const char *mode)
{
	char led[64], buf[64], what[160];
	static const char *const good[] = { "-1", "1", "5", "1000" };
	static const char *const bad[] = { "0", "-2", "-100" };
	size_t i;
	int fd = conform_led(mode, led, sizeof(led));

	/* a running pattern of this mode, restarted by every accepted repeat */
	sysfs_write(led, mode, "255 20 255 0 0 20 0 0");
	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		snprintf(what, sizeof(what), "%s: repeat %s is accepted and reads back as %s", mode,
			 good[i], good[i]);
		if (sysfs_write(led, "repeat", good[i])) {
			tap_fail(what, "writing '%s' to repeat: %s", good[i],
				 lab_errname(sysfs_write(led, "repeat", good[i])));
			continue;
		}
		sysfs_read(led, "repeat", buf, sizeof(buf));
		tap_eq_str(buf, good[i], what);
	}
	sysfs_write(led, "repeat", "-1");
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(what, sizeof(what), "%s: repeat %s is refused with EINVAL", mode, bad[i]);
		expect_write(led, "repeat", bad[i], -EINVAL, what);
	}
	sysfs_read(led, "repeat", buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: a refused repeat leaves the last one written (-1)", mode);
	tap_eq_str(buf, "-1", what);
	sysfs_read(led, mode, buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: the pattern survives repeat writes", mode);
	tap_eq_str(buf, "255 20 255 0 0 20 0 0", what);
	close(fd);
}

static void conform_malformed(const char *mode)
{
	static const char *const bad[][2] = {
		{ "255 20 0", "an odd count of numbers" },
		{ "255 20 abc 20", "a word" },
		{ "256 20 0 20", "a brightness above max_brightness (255)" },
	};
	char led[64], buf[256], what[200];
	struct reads r = { 0 };
	size_t i;
	int fd = conform_led(mode, led, sizeof(led));

	sysfs_write(led, "repeat", "-1");
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		/* start a good pattern, check it runs, then write a malformed one */
		sysfs_write(led, mode, "255 20 255 0 0 20 0 0");
		r.n = 0;
		collect(fd, &r, 3, 1000, 0, mono_ns() + 2000000000ULL);
		snprintf(what, sizeof(what), "%s: a square wave of 20 ms steps runs (3 changes seen)",
			 mode);
		tap_eq_int((long long)r.n, 3, what);
		snprintf(what, sizeof(what), "%s: a malformed pattern (%s) is refused with EINVAL",
			 mode, bad[i][1]);
		expect_write(led, mode, bad[i][0], -EINVAL, what);
		/* drain what changed before the write, then nothing may change */
		usleep(50000);
		r.n = 0;
		collect(fd, &r, SIZE_MAX, 0, 0, mono_ns() + 1000000000ULL);
		r.n = 0;
		collect(fd, &r, SIZE_MAX, 300, 0, mono_ns() + 2000000000ULL);
		snprintf(what, sizeof(what), "%s: after the malformed pattern the LED stops (changes "
			 "in 300 ms)", mode);
		tap_eq_int((long long)r.n, 0, what);
		buf[0] = 'x';
		sysfs_read(led, mode, buf, sizeof(buf));
		snprintf(what, sizeof(what), "%s: after the malformed pattern %s reads back empty",
			 mode, mode);
		tap_eq_str(buf, "", what);
	}
	free(r.t);
	free(r.b);
	close(fd);
}

static void conform_single_and_format(const char *mode)
{
	const char *other = strcmp(mode, "pattern") ? "pattern" : "abs_pattern";
	char led[64], buf[256], what[200];
	int fd = conform_led(mode, led, sizeof(led));

	snprintf(what, sizeof(what), "%s: a single tuple is refused with EINVAL", mode);
	expect_write(led, mode, "100 50", -EINVAL, what);

	sysfs_write(led, "repeat", "-1");
	snprintf(what, sizeof(what), "%s: the ABI's dimming example is accepted", mode);
	expect_write(led, mode, "0 1000 255 2000", 0, what);
	sysfs_read(led, mode, buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: reads back as 'brightness duration' pairs, one space "
		 "apart, ending in a newline", mode);
	tap_eq_str(buf, "0 1000 255 2000", what);
	snprintf(what, sizeof(what), "%s: a pattern with tabs, newlines and runs of spaces is "
		 "accepted", mode);
	expect_write(led, mode, "  0   10\n255\t10\n", 0, what);
	sysfs_read(led, mode, buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: any whitespace in, the documented format out", mode);
	tap_eq_str(buf, "0 10 255 10", what);
	if (led_has(led, other)) {
		buf[0] = 'x';
		sysfs_read(led, other, buf, sizeof(buf));
		snprintf(what, sizeof(what), "%s: %s reads back empty while %s is active", mode, other,
			 mode);
		tap_eq_str(buf, "", what);
	}
	if (mode_is_abs(mode)) {
		snprintf(what, sizeof(what), "%s: a pattern whose durations are all zero is refused "
			 "with EINVAL", mode);
		expect_write(led, mode, "0 0 255 0", -EINVAL, what);
	} else if (!strcmp(mode, mode_names[MODE_HR])) {
		snprintf(what, sizeof(what), "%s: a pattern whose durations are all zero is taken "
			 "(mainline's hr_pattern steps it every 50 ms as pattern does; the lab's "
			 "abs_pattern refuses it)", mode);
		expect_write(led, mode, "0 0 255 0", 0, what);
	}
	close(fd);
}

/* A finite repeat leaves the LED at the model's final brightness */
static void conform_finite(const char *mode, const char *pattern, int repeat)
{
	struct led_tuple t[8];
	struct reads r = { 0 };
	char led[64], buf[64], what[200];
	unsigned int fin;
	uint64_t end_ms, t0;
	int fd = conform_led(mode, led, sizeof(led)), n;

	n = led_pattern_parse(pattern, MAX_BRIGHTNESS, t, 8, NULL);
	led_model_final(t, (size_t)n, repeat, &fin, &end_ms);
	snprintf(buf, sizeof(buf), "%d", repeat);
	sysfs_write(led, "repeat", buf);
	t0 = mono_ns();
	sysfs_write(led, mode, pattern);
	/* wait until no change for 500 ms after twice the pattern's length */
	collect(fd, &r, SIZE_MAX, 500, t0 + (2 * end_ms + 200) * 1000000ULL,
		t0 + (4 * end_ms + 3000) * 1000000ULL);
	sysfs_read(led, "brightness", buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: '%s' with repeat %d ends at brightness %u", mode, pattern,
		 repeat, fin);
	tap_eq_int(atoi(buf), fin, what);
	free(r.t);
	free(r.b);
	close(fd);
}

/* Whether @got[0..n) are the @nc model values, in order */
static bool same_values(const struct reads *got, const struct led_step *s, size_t nc,
			size_t *bad)
{
	size_t i;

	for (i = 0; i < got->n && i < nc; i++)
		if (got->b[i] != (int)s[i].brightness)
			break;
	*bad = i;
	return got->n == nc && i == nc;
}

/* led_model_match_skipping() on @got, its times from @t0 (ns) */
static bool skipped_values(const struct reads *got, const struct led_step *s, size_t nc,
			   uint64_t t0, size_t *bad, size_t *skipped)
{
	uint64_t *t = lab_calloc(got->n + 1, sizeof(*t), "change times");
	size_t i;
	bool ok;

	for (i = 0; i < got->n; i++)
		t[i] = got->t[i] > t0 ? got->t[i] - t0 : 0;
	ok = led_model_match_skipping(got->b, t, got->n, s, nc, bad, skipped);
	free(t);
	return ok;
}

/*
 * The ABI's dimming example: a ramp 0 to 255 in 1000 ms and back in 2000 ms,
 * a step every 50 ms; one cycle (repeat 1). The kernel observer must see the
 * model's 60 changes exactly (pattern), or in order with only the steps
 * skipped that had ended when the trigger ran (abs_pattern, after a stall);
 * the uleds reads must be among them in order (uleds keeps only the latest
 * value, so a reader the host kept waiting misses some).
 */
static void conform_dimming(const char *mode)
{
	struct led_tuple t[2];
	struct led_step s[128];
	struct reads r = { 0 }, kr = { 0 };
	char led[64], what[200];
	size_t nc, i, j, miss = 0, bad, skipped = 0;
	bool hr = mode_is_abs(mode), same;
	long ns, nk;
	int fd = conform_led(mode, led, sizeof(led));
	uint64_t t0;

	led_pattern_parse("0 1000 255 2000", MAX_BRIGHTNESS, t, 2, NULL);
	ns = led_model_steps(t, 2, 1, s, 128);
	nc = led_model_changes(s, (size_t)ns, 0);
	sysfs_write(led, "repeat", "1");
	ktrace_clear(&conform_kt);
	t0 = mono_ns();
	sysfs_write(led, mode, "0 1000 255 2000");
	/* the jiffies pattern takes 3.1 s and more, a stall of the host on top */
	collect(fd, &r, SIZE_MAX, 1000, t0 + 4000000000ULL, t0 + 15000000000ULL);
	nk = ktrace_changes(&conform_kt, led, 0, &kr);

	snprintf(what, sizeof(what), "%s: dimming example: the kernel sets the documented ramp, %zu "
		 "changes: 0, 12, 25 .. 242, 255, 249 .. 7, 0%s", mode, nc,
		 hr ? " (a step missing only where it had ended when the trigger ran)" : "");
	same = hr ? skipped_values(&kr, s, nc, t0, &bad, &skipped) : same_values(&kr, s, nc, &bad);
	if (nk < 0)
		tap_skip("no ftrace kprobe events", "%s", what);
	else if (same)
		tap_ok(true, "%s", what);
	else if (hr && bad < kr.n)
		tap_fail(what, "change %zu, %d at %.1f ms, is not the next step's, nor that of a step "
			 "ended by then (%zu changes)", bad, kr.b[bad], (kr.t[bad] - t0) / 1e6, kr.n);
	else if (bad < kr.n && bad < nc)
		tap_fail(what, "change %zu: expected %u, got %d (%zu changes)", bad, s[bad].brightness,
			 kr.b[bad], kr.n);
	else
		tap_fail(what, "expected %zu changes, got %zu", nc, kr.n);
	if (hr && nk >= 0)
		tap_diag("%s: dimming example (kernel): %zu of %zu steps skipped after a stall", mode,
			 skipped, nc);
	for (i = 0; i < kr.n && kr.b[i] != 255; i++)
		;
	if (kr.n == nc && i < kr.n)
		tap_diag("%s: dimming example (kernel): 255 at %.1f ms, 0 at %.1f ms after the write "
			 "(documented: 1000 and 3000)", mode, (kr.t[i] - t0) / 1e6,
			 (kr.t[nc - 1] - t0) / 1e6);

	for (i = 0, j = 0; i < r.n; i++, j++) {
		while (j < nc && (int)s[j].brightness != r.b[i])
			j++, miss++;
		if (j >= nc)
			break;
	}
	snprintf(what, sizeof(what), "%s: dimming example: the values read through uleds are the "
		 "ramp's, in order, ending at 0", mode);
	if (i == r.n && r.n && r.b[r.n - 1] == 0)
		tap_ok(true, "%s", what);
	else if (i < r.n)
		tap_fail(what, "read %zu, %d, is not among the ramp's values after the previous read",
			 i, r.b[i]);
	else
		tap_fail(what, "%zu values read, the last %d", r.n, r.n ? r.b[r.n - 1] : -1);
	tap_diag("%s: dimming example (uleds): %zu of %zu changes read, %zu coalesced", mode, r.n,
		 nc, miss);
	free(r.t);
	free(r.b);
	free(kr.t);
	free(kr.b);
	close(fd);
}

/*
 * The ABI's step example: off for 1 s, on for 2 s. The LED starts at 1 so
 * the first step (to 0) is a change; repeat 2 gives off, on, off, on, timed
 * by the kernel observer (uleds reads without it).
 */
static void conform_steps(const char *mode)
{
	struct reads r = { 0 }, kr = { 0 }, *use;
	char led[64], what[200];
	double low, high;
	uint64_t t0;
	int fd;

	/* set the LED to 1 before the trigger takes it */
	snprintf(led, sizeof(led), "ljc-%d-%s-%d", (int)getpid(), mode, ++conform_seq);
	fd = uled_create(led);
	sysfs_write(led, "brightness", "1");
	usleep(20000);
	collect(fd, &r, SIZE_MAX, 0, 0, mono_ns() + 1000000000ULL);
	r.n = 0;
	led_set_trigger(led);
	sysfs_write(led, "repeat", "2");
	ktrace_clear(&conform_kt);
	t0 = mono_ns();
	sysfs_write(led, mode, "0 1000 0 0 255 2000 255 0");
	collect(fd, &r, 4, 3000, 0, t0 + 10000000000ULL);
	use = ktrace_changes(&conform_kt, led, 1, &kr) >= 0 ? &kr : &r;

	snprintf(what, sizeof(what), "%s: step example: the values are 0, 255, 0, 255 (%s)", mode,
		 use == &kr ? "kernel" : "uleds");
	if (use->n == 4 && use->b[0] == 0 && use->b[1] == 255 && use->b[2] == 0 && use->b[3] == 255)
		tap_ok(true, "%s", what);
	else
		tap_fail(what, "got %zu values: %d %d %d %d", use->n, use->n > 0 ? use->b[0] : -1,
			 use->n > 1 ? use->b[1] : -1, use->n > 2 ? use->b[2] : -1,
			 use->n > 3 ? use->b[3] : -1);
	snprintf(what, sizeof(what), "%s: step example: on for 2000 ms, off for 1000 ms (25 %%): a "
		 "square wave", mode);
	if (use->n == 4) {
		/*
		 * Timed between the changes after the first (the first step's
		 * own lateness shortens the first phase of abs_pattern, whose
		 * later steps keep to the clock). 25 % tolerance: the jiffies
		 * timer adds a few ticks of 4 ms, but TCG on a shared 2-core
		 * host stalls the guest for up to a few hundred ms now and
		 * then (cyclictest sees them), which lengthens one phase and,
		 * for abs_pattern, shortens the next; durations swapped or of
		 * the wrong scale are off by 50 % or more.
		 */
		high = (double)(use->t[2] - use->t[1]) / 1e6;
		low = (double)(use->t[3] - use->t[2]) / 1e6;
		if (fabs(low - 1000) <= 250 && fabs(high - 2000) <= 500)
			tap_ok(true, "%s", what);
		else
			tap_fail(what, "expected 2000 and 1000 ms, got %.1f and %.1f ms", high, low);
		tap_diag("%s: step example (%s): changes at %.1f, %.1f, %.1f, %.1f ms after the write "
			 "(model: 0, 1000, 3000, 4000)", mode, use == &kr ? "kernel" : "uleds",
			 (use->t[0] - t0) / 1e6, (use->t[1] - t0) / 1e6, (use->t[2] - t0) / 1e6,
			 (use->t[3] - t0) / 1e6);
	} else {
		tap_fail(what, "not 4 changes to time");
	}
	free(r.t);
	free(r.b);
	free(kr.t);
	free(kr.b);
	close(fd);
}

/* The suite for one mode */
static void conform_mode(const char *mode)
{
	tap_diag("%s", mode);
	conform_repeat(mode);
	conform_malformed(mode);
	conform_single_and_format(mode);
	conform_finite(mode, "10 20 10 0 200 20 200 0", 3);
	conform_finite(mode, "0 100 255 100", 2);
	conform_dimming(mode);
	conform_steps(mode);
}

int cmd_conform(int argc, char **argv)
{
	const char *mode_opt = NULL;
	const struct lab_opt opts[] = {
		LAB_OPT_STR("mode", &mode_opt, "pattern|abs_pattern|hr_pattern|both|all",
			    "the trigger files (all: hr_pattern where it is mainline's)", false),
		LAB_OPT_END
	};
	bool modes[NMODES] = { true, true, true }, has[NMODES];
	char led[64];
	int m, fd;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	if (mode_opt)
		parse_modes(mode_opt, modes);

	kernel_modes(has);
	if (!mode_opt && !has[MODE_HR]) {
		modes[MODE_HR] = false;
		tap_diag("no hr_pattern of mainline's (Linux 6.10 and later) in this kernel: its cases "
			 "are not run");
	}
	go_realtime(80);
	if (ktrace_open(&conform_kt))
		tap_diag("no ftrace kprobe event on uleds_brightness_set: the kernel-side cases "
			 "are skipped, uleds reads time the rest");
	fd = conform_led("any", led, sizeof(led));
	tap_ok(led_has(led, "pattern") && led_has(led, "repeat"),
	       "the pattern trigger offers pattern and repeat on a uleds LED");
	tap_ok(!led_has(led, "hw_pattern"),
	       "hw_pattern is not offered for a device without pattern_set (uleds)");
	close(fd);

	for (m = 0; m < NMODES; m++) {
		const char *mode = mode_names[m];

		if (!modes[m])
			continue;
		if (m == MODE_ABS && !has[m]) {
			tap_skip("this kernel has no abs_pattern (the lab's patch; the stock kernels)",
				 "abs_pattern: every case");
			continue;
		}
		if (m == MODE_HR && !has[m]) {
			tap_skip("this kernel has no hr_pattern of mainline's (Linux 6.10 and later)",
				 "hr_pattern: every case");
			continue;
		}
		conform_mode(mode);
	}
	ktrace_close(&conform_kt);
	return tap_finish();
}


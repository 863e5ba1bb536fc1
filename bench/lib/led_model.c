// SPDX-License-Identifier: GPL-2.0
/* The expected timeline of an LED pattern; see led_model.h. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "led_model.h"

int led_pattern_parse(const char *s, unsigned int max_brightness,
		      struct led_tuple *t, size_t max, const char **bad)
{
	const char *p = s, *start = s;
	unsigned long long v;
	size_t count = 0;	/* numbers read */

	if (bad)
		*bad = s;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		if (!isdigit((unsigned char)*p))
			goto invalid;
		v = 0;
		while (isdigit((unsigned char)*p)) {
			v = v * 10 + (unsigned int)(*p - '0');
			if (v > UINT_MAX)
				goto invalid;
			p++;
		}
		if (*p && !isspace((unsigned char)*p))
			goto invalid;
		if (count / 2 >= max) {
			if (bad)
				*bad = start;
			return -E2BIG;
		}
		if (count % 2 == 0) {
			if (v > max_brightness)
				goto invalid;
			t[count / 2].brightness = (unsigned int)v;
		} else {
			t[count / 2].duration_ms = (unsigned int)v;
		}
		count++;
	}
	if (count == 0 || count % 2) {
		start = p;
		goto invalid;
	}
	return (int)(count / 2);

invalid:
	if (bad)
		*bad = start;
	return -EINVAL;
}

uint64_t led_model_cycle_ms(const struct led_tuple *t, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += t[i].duration_ms;
	return sum;
}

int led_model_check(const struct led_tuple *t, size_t n, int repeat)
{
	if (n < 2 || n > LED_MODEL_MAX_TUPLES)
		return -EINVAL;
	if (repeat != -1 && repeat < 1)
		return -EINVAL;
	if (!led_model_cycle_ms(t, n))
		return -EINVAL;
	return 0;
}

static bool is_dimming(const struct led_tuple *t, size_t n, size_t i)
{
	return t[i].duration_ms >= LED_MODEL_DIM_MS &&
	       t[i].brightness != t[(i + 1) % n].brightness;
}

/* The kernel's pattern_trig_compute_brightness() at @dt ms into tuple @i */
static unsigned int dim_brightness(const struct led_tuple *t, size_t n, size_t i,
				   unsigned int dt)
{
	unsigned int from = t[i].brightness, to = t[(i + 1) % n].brightness;
	unsigned long long step;

	step = (unsigned long long)dt * (to > from ? to - from : from - to) /
	       t[i].duration_ms;
	return to > from ? from + (unsigned int)step : from - (unsigned int)step;
}

/* The last tuple with a non-zero duration (the one a finite pattern ends in) */
static size_t last_lasting(const struct led_tuple *t, size_t n)
{
	size_t i = n - 1;

	while (i > 0 && !t[i].duration_ms)
		i--;
	return i;
}

long led_model_steps(const struct led_tuple *t, size_t n, int repeat,
		     struct led_step *out, size_t max)
{
	uint64_t cycle_ms, c, tuple_t;
	size_t count = 0, i;
	unsigned int dt;

	if (led_model_check(t, n, repeat))
		return -EINVAL;
	cycle_ms = led_model_cycle_ms(t, n);

#define EMIT(time, b)							\
	do {								\
		if (repeat == -1 && count >= max)			\
			return (long)max;				\
		if (out && count < max) {				\
			out[count].t_ms = (time);			\
			out[count].brightness = (b);			\
			out[count].tuple = (unsigned int)i;		\
			out[count].cycle = c;				\
		}							\
		count++;						\
	} while (0)

	for (c = 0; repeat == -1 || c < (uint64_t)repeat; c++) {
		tuple_t = c * cycle_ms;
		for (i = 0; i < n; i++) {
			if (!t[i].duration_ms)
				continue;
			if (!is_dimming(t, n, i)) {
				EMIT(tuple_t, t[i].brightness);
			} else {
				for (dt = 0; dt < t[i].duration_ms; dt += LED_MODEL_DIM_MS)
					EMIT(tuple_t + dt, dim_brightness(t, n, i, dt));
			}
			tuple_t += t[i].duration_ms;
		}
	}
	/* A finite pattern that ends in dimming ends at the dimming's target */
	i = last_lasting(t, n);
	if (is_dimming(t, n, i)) {
		c = (uint64_t)repeat - 1;
		EMIT((uint64_t)repeat * cycle_ms, t[(i + 1) % n].brightness);
	}
#undef EMIT
	return (long)count;
}

int led_model_final(const struct led_tuple *t, size_t n, int repeat,
		    unsigned int *brightness, uint64_t *end_ms)
{
	size_t i;

	if (led_model_check(t, n, repeat) || repeat == -1)
		return -EINVAL;
	i = last_lasting(t, n);
	*brightness = is_dimming(t, n, i) ? t[(i + 1) % n].brightness : t[i].brightness;
	*end_ms = (uint64_t)repeat * led_model_cycle_ms(t, n);
	return 0;
}

size_t led_model_changes(struct led_step *s, size_t n, unsigned int initial)
{
	unsigned int cur = initial;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i].brightness == cur)
			continue;
		cur = s[i].brightness;
		s[k++] = s[i];
	}
	return k;
}

bool led_model_match_skipping(const int *b, const uint64_t *t, size_t n,
			      const struct led_step *s, size_t nc, size_t *bad,
			      size_t *skipped)
{
	size_t i, j = 0;

	*skipped = 0;
	for (i = 0; i < n; i++, j++) {
		for (; j < nc && b[i] != (int)s[j].brightness; j++, ++*skipped)
			if (j + 1 >= nc || t[i] < s[j + 1].t_ms * 1000000)
				break;
		if (j >= nc || b[i] != (int)s[j].brightness)
			break;
	}
	*bad = i;
	return i == n && j == nc;
}

double led_model_jiffies_ms(unsigned int ms, unsigned int hz)
{
	unsigned long long ticks;

	if (!hz)
		return 0;
	ticks = ((unsigned long long)ms * hz + 999) / 1000 + 1;
	return (double)ticks * 1000.0 / hz;
}

enum target_verdict led_target_mean_interval(const struct ci *mean_ci, double model_ms, char *why, size_t len)
{
	if (isnan(model_ms) || model_ms <= 0) {
		snprintf(why, len, "not judged: no jiffies model (HZ unknown)");
		return TARGET_NOT_JUDGED;
	}
	return verdict_range(mean_ci, model_ms * (1 - LED_MEAN_TOLERANCE), model_ms * (1 + LED_MEAN_TOLERANCE), why,
			     len);
}

enum target_verdict led_target_drift(const struct ci *ci, double limit, char *why, size_t len)
{
	return verdict_range(ci, -limit, limit, why, len);
}

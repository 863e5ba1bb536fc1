/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The expected timeline of an LED pattern (the pattern trigger):
 * from the tuples and the repeat count, the ideal time and brightness of
 * every step the trigger takes, as the ABI describes it
 * (Documentation/ABI/testing/sysfs-class-led-trigger-pattern and
 * Documentation/devicetree/bindings/leds/leds-trigger-pattern.txt).
 *
 * Tuple i is (brightness b_i, duration d_i ms) and the tuple after the last
 * one is the first. The pattern's start is time 0; tuple i starts when the
 * tuples before it have lasted their durations, so cycle c starts at
 * c * (sum of all durations).
 *
 *  - d_i = 0: no step. The next tuple's brightness applies at once (the
 *    ABI's "zero-time length", an instant change).
 *  - b_i = b_{i+1}, or d_i < 50 ms: one step at the tuple's start to b_i
 *    (a step change lasting d_i).
 *  - otherwise gradual dimming: a step every 50 ms from the tuple's start,
 *    at k * 50 ms for k * 50 < d_i, to b_i + (b_{i+1} - b_i) * k * 50 / d_i
 *    with the kernel's integer arithmetic (the magnitude of the change is
 *    rounded down).
 *
 * A finite pattern (repeat N > 0) runs N cycles. It then leaves the LED at
 * the brightness its last tuple with a non-zero duration ends at: b_i for a
 * step change, b_{i+1} for dimming (that final step, when it is a dimming
 * end, is a step of the timeline at the end time). repeat -1 repeats
 * indefinitely.
 *
 * The 6.1 software pattern (the "pattern" file, a jiffies timer) takes the
 * same steps, but times each one relative to when the previous step ran,
 * rounded up to the tick; and it holds the end of a dimming tuple for one
 * more 50 ms interval, and a dimming tuple shorter than 50 ms for 50 ms.
 * The model is the documented timeline, which abs_pattern follows.
 */
#ifndef BENCH_LED_MODEL_H
#define BENCH_LED_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"

/* The kernel's limit of tuples in a pattern (MAX_PATTERNS) */
#define LED_MODEL_MAX_TUPLES	1024
/* Gradual dimming updates the brightness this often (UPDATE_INTERVAL) */
#define LED_MODEL_DIM_MS	50

struct led_tuple {
	unsigned int brightness;
	unsigned int duration_ms;
};

struct led_step {
	uint64_t t_ms;		/* ideal time from the pattern's start */
	unsigned int brightness;
	unsigned int tuple;	/* index of the tuple that sets it */
	uint64_t cycle;		/* 0-based repetition */
};

/*
 * led_pattern_parse - tuples from a pattern string as the sysfs files take
 * it: whitespace-separated unsigned decimal numbers, brightness and duration
 * in turn. Returns the number of tuples (at least 1), or -EINVAL for an odd
 * count of numbers, anything but digits, a brightness above @max_brightness,
 * a number above UINT_MAX or no number at all; -E2BIG for more than @max
 * tuples. On error *@bad (when not NULL) points at the offending text.
 */
int led_pattern_parse(const char *s, unsigned int max_brightness,
		      struct led_tuple *t, size_t max, const char **bad);

/* Sum of the durations, ms: the length of one cycle. */
uint64_t led_model_cycle_ms(const struct led_tuple *t, size_t n);

/*
 * led_model_check - whether a software pattern can run: at least 2 tuples,
 * repeat -1 or positive, and (for a timeline to exist) a non-zero cycle.
 * Returns 0 or -EINVAL.
 */
int led_model_check(const struct led_tuple *t, size_t n, int repeat);

/*
 * led_model_steps - the steps of the timeline in order, at most @max of them
 * into @out (which may be NULL to count). Returns the number of steps of the
 * whole pattern, or for repeat -1 @max (the pattern never ends); -EINVAL
 * when led_model_check() fails. A finite pattern's steps include the final
 * dimming end (see above).
 */
long led_model_steps(const struct led_tuple *t, size_t n, int repeat,
		     struct led_step *out, size_t max);

/*
 * led_model_final - the brightness a finite pattern leaves the LED at, and
 * the time it ends (ms from the start, @repeat cycles). -EINVAL when
 * led_model_check() fails or repeat is -1.
 */
int led_model_final(const struct led_tuple *t, size_t n, int repeat,
		    unsigned int *brightness, uint64_t *end_ms);

/*
 * led_model_changes - keep the steps that change the brightness, starting
 * from @initial: what a uleds reader can see (uleds reports changes only).
 * Compacts @s in place and returns the new count.
 */
size_t led_model_changes(struct led_step *s, size_t n, unsigned int initial);

/*
 * led_model_match_skipping - whether the observed changes @b[0..n) at @t
 * (ns, from the start of the timeline) are the model's @nc changes @s in
 * order, the way abs_pattern takes them: a change may be missing only when
 * the next one observed came once the missing step had ended (after a stall
 * abs_pattern skips the steps that ended, and sets the brightness once), and
 * the last one must be the model's last. Returns true or false; *@bad is
 * the first observed change that does not fit (@n when all fit), *@skipped
 * the count of model changes passed over.
 */
bool led_model_match_skipping(const int *b, const uint64_t *t, size_t n,
			      const struct led_step *s, size_t nc, size_t *bad,
			      size_t *skipped);

/*
 * led_model_jiffies_ms - the shortest interval the 6.1 software pattern
 * gets for a step of @ms at @hz, in ms: it re-arms with mod_timer(jiffies +
 * msecs_to_jiffies(ms)), the duration rounded up to whole ticks, and the
 * timer wheel runs a timer one tick after its expiry at the earliest
 * (calc_index() in kernel/time/timer.c rounds the expiry up by a granule,
 * so that no timer fires early). At HZ=250 a 10 ms step takes 3 + 1 ticks,
 * 16 ms. Lateness comes on top. 0 when @hz is 0.
 */
double led_model_jiffies_ms(unsigned int ms, unsigned int hz);

/*
 * The ledjitter workload's targets, judged on numbers alone (so that each
 * has a fixture test). Each returns TARGET_MET, TARGET_NOT_MET, or
 * TARGET_NOT_JUDGED when a figure is missing (NAN).
 */

/* pattern's mean interval within this fraction of the jiffies model */
#define LED_MEAN_TOLERANCE	0.02
/* abs_pattern's drift interval inside +-this, ms per 1000 steps */
#define LED_DRIFT_LIMIT_MS	1.0

/*
 * led_target_mean_interval - the software pattern's mean step interval
 * @mean_ms against the jiffies model's @model_ms (led_model_jiffies_ms()):
 * MET when |mean / model - 1| <= LED_MEAN_TOLERANCE. Not judged when a
 * figure is NAN or the model is 0 (HZ unknown).
 */
enum target_verdict led_target_mean_interval(double mean_ms, double model_ms);

/*
 * led_target_within - a tail figure @measured (an interval-error p99, an
 * observer gap p99) within the reference @limit (cyclictest's p99 wake-up
 * latency of the same run and guest state): MET when measured <= limit.
 */
enum target_verdict led_target_within(double measured, double limit);

/*
 * led_target_drift - a drift slope's 95 % interval [@lo, @hi] (ms per 1000
 * steps) inside [-@limit, @limit]: MET only when the whole interval is, so
 * a slope too noisy to tell is NOT MET rather than passed.
 */
enum target_verdict led_target_drift(double lo, double hi, double limit);

#endif

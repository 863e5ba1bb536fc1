// SPDX-License-Identifier: GPL-2.0
/* ledjitter model: the ideal timeline of a pattern, as CSV (bench/lib/led_model.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "ledjitter.h"

int cmd_model(int argc, char **argv)
{
	unsigned long long repeat = 1;
	const struct lab_opt opts[] = {
		LAB_OPT_U64("repeat", &repeat, 1, 10000, "cycles of the pattern (1)"),
		LAB_OPT_END
	};
	struct led_tuple *t;
	struct led_step *s;
	const char *bad, *pattern;
	unsigned int fin;
	uint64_t end;
	long ns, i;
	int n, first = lab_parse(argc, argv, opts);

	lab_positionals(argc, argv, first, 1, "the pattern ('0 1000 255 2000')");
	pattern = argv[first];
	t = lab_calloc(LED_MODEL_MAX_TUPLES, sizeof(*t), "pattern tuples");
	n = led_pattern_parse(pattern, MAX_BRIGHTNESS, t, LED_MODEL_MAX_TUPLES, &bad);
	if (n < 0)
		lab_usage_error("invalid pattern '%s' at '%s' (%s)", pattern, bad,
			    n == -E2BIG ? "more than 1024 tuples" :
			    "expected pairs of brightness 0..255 and duration in ms");
	if (led_model_check(t, (size_t)n, (int)repeat))
		lab_usage_error("pattern '%s' cannot run in software: it needs 2 tuples or more and a "
			    "non-zero duration", pattern);
	ns = led_model_steps(t, (size_t)n, (int)repeat, NULL, SIZE_MAX);
	s = lab_calloc((size_t)ns, sizeof(*s), "model steps");
	led_model_steps(t, (size_t)n, (int)repeat, s, (size_t)ns);
	printf("t_ms,brightness,tuple,cycle\n");
	for (i = 0; i < ns; i++)
		printf("%llu,%u,%u,%llu\n", (unsigned long long)s[i].t_ms, s[i].brightness,
		       s[i].tuple, (unsigned long long)s[i].cycle);
	led_model_final(t, (size_t)n, (int)repeat, &fin, &end);
	printf("# ends at %llu ms with brightness %u\n", (unsigned long long)end, fin);
	free(s);
	free(t);
	return 0;
}


// SPDX-License-Identifier: GPL-2.0
/*
 * labfuzz - the fuzz suites of the lab's kernel interfaces (see labfuzz.h):
 *
 *	build/labfuzz ptp --seed S --iterations N --seconds T
 *
 * replays a suite exactly from its seed (the iteration count bounds it; the
 * time bound may cut it short on a slower machine).
 */
#include "cli.h"
#include "labfuzz.h"

static const struct lab_verb verbs[] = {
	{ "ptp", cmd_ptp, "fuzz the emulated PTP clock: ioctls and sysfs, regression cases (TAP)" },
	{ "led", cmd_led, "fuzz the LED pattern trigger on a uleds LED (TAP)" },
	{ "taprio", cmd_taprio, "fuzz taprio schedules over netlink while traffic flows (TAP)" },
	{ "kmsg-check", cmd_kmsg_check,
	  "check a saved kernel log FILE as the suites check /dev/kmsg: exit 1 on trouble" },
	{ NULL },
};

int main(int argc, char **argv)
{
	return lab_main("labfuzz", verbs, argc, argv);
}

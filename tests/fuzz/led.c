// SPDX-License-Identifier: GPL-2.0
#include "labfuzz.h"
#include "tap.h"

int cmd_led(int argc, char **argv)
{
	struct fz f;

	fz_setup(&f, "led", argc, argv, NULL);
	return fz_finish(&f);
}

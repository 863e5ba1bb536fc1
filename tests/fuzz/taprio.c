// SPDX-License-Identifier: GPL-2.0
#include "labfuzz.h"
#include "tap.h"

int cmd_taprio(int argc, char **argv)
{
	struct fz f;

	fz_setup(&f, "taprio", argc, argv, NULL);
	return fz_finish(&f);
}

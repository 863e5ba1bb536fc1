/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ptp suite of labfuzz: what its files share. ptp.c: the clock's ioctls
 * and sysfs files, the suite; ptp_enable.c: requests that switch the
 * periodic output, raced; ptp_net.c: hardware timestamps of the NIC that
 * reports the clock (SIOCSHWTSTAMP, and packets stamped while the clock is
 * set and adjusted).
 */
#ifndef PTP_FUZZ_H
#define PTP_FUZZ_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "labfuzz.h"

struct ptp_ctx {
	int fd;
	int index;		/* N of /dev/ptpN */
	clockid_t clk;
	char sysdir[PATH_MAX];
	long freq;		/* the last adjfine taken, scaled ppm */
	bool usec_checked;	/* the core refuses ADJ_SETOFFSET microseconds out of range */
	bool known_bugs;
	uint64_t usec_bug;	/* requests taken with them, where it does not */
};

/* The clock's time, ns (-1 when it cannot be read) */
int64_t ptp_now(const struct ptp_ctx *c);
/* @text written to the clock's sysfs file @file: 0 or -errno */
int ptp_sysfs_write(const char *dir, const char *file, const char *text);

/* ptp_enable.c: enable requests from sysfs and the ioctl at once */
void ptp_enable_race(struct fz *f, struct ptp_ctx *c);

/* ptp_net.c: the NIC that reports the clock */
struct ptp_stamper {
	char ifname[32];	/* "" when no NIC reports the clock */
	pthread_t th;
	bool running;
	volatile int stop;
	uint64_t sent, tx_stamps;
};

/* SIOCSHWTSTAMP cases on the NIC that reports the clock (found into @s) */
void ptp_hwtstamp_cases(struct fz *f, struct ptp_ctx *c, struct ptp_stamper *s);
/* A thread that sends packets through it with hardware timestamps on */
void ptp_stamper_start(struct ptp_stamper *s);
void ptp_stamper_stop(struct ptp_stamper *s);

#endif

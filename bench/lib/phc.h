/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PTP hardware clocks (PHC) from user space: which clock an interface
 * reports (ETHTOOL_GET_TS_INFO, what `ethtool -T` prints), opening
 * /dev/ptpN as a POSIX clock, and readings of the clock bracketed by the
 * system time (PTP_SYS_OFFSET_EXTENDED, the narrowest of several samples).
 *
 * Errors: functions return 0 (or an index or descriptor) or -errno, and
 * print nothing; phc_strerror-style messages are left to the caller.
 */
#ifndef BENCH_PHC_H
#define BENCH_PHC_H

#include <stdint.h>
#include <time.h>

/* The POSIX clock id of an open /dev/ptpN (as in the kernel's testptp) */
#define PHC_CLOCKID(fd) ((clockid_t)((~(unsigned int)(fd) << 3) | 3))

/*
 * phc_index_of - the PHC index that @ifname reports through get_ts_info.
 * Returns the index (>= 0), -ENODEV when the interface reports no clock,
 * or -errno of the socket or ioctl.  *@so_caps gets the SOF_TIMESTAMPING_*
 * capabilities when not NULL.
 */
int phc_index_of(const char *ifname, unsigned int *so_caps);

/* Open /dev/ptp@index read-write; returns the descriptor or -errno. */
int phc_open(int index);

/* One reading of a PHC between two readings of CLOCK_REALTIME, in ns */
struct phc_reading {
	int64_t sys_before;
	int64_t phc;
	int64_t sys_after;
};

/*
 * phc_read - the narrowest of @samples (1..25) readings of the PHC behind
 * @fd, each bracketed by CLOCK_REALTIME in the kernel (PTP_SYS_OFFSET_
 * EXTENDED). Returns 0 or -errno (-EOPNOTSUPP when the driver has no
 * gettimex64).
 */
int phc_read(int fd, int samples, struct phc_reading *r);

/* PHC minus CLOCK_REALTIME at the middle of the bracket, ns */
static inline int64_t phc_offset(const struct phc_reading *r)
{
	return r->phc - (r->sys_before + (r->sys_after - r->sys_before) / 2);
}

/* Width of the bracket, ns: the uncertainty of phc_offset() is half of it */
static inline int64_t phc_window(const struct phc_reading *r)
{
	return r->sys_after - r->sys_before;
}

#endif

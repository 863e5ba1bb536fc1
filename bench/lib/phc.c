// SPDX-License-Identifier: GPL-2.0
/* PTP hardware clocks from user space; see phc.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/ptp_clock.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "phc.h"

int phc_index_of(const char *ifname, unsigned int *so_caps)
{
	struct ethtool_ts_info info = { .cmd = ETHTOOL_GET_TS_INFO };
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = (void *)&info;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		err = -errno;
	close(fd);
	if (err)
		return err;
	if (so_caps)
		*so_caps = info.so_timestamping;
	return info.phc_index >= 0 ? info.phc_index : -ENODEV;
}

int phc_open(int index)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), "/dev/ptp%d", index);
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int64_t pct_ns(const struct ptp_clock_time *t)
{
	return (int64_t)t->sec * 1000000000 + t->nsec;
}

int phc_read(int fd, int samples, struct phc_reading *r)
{
	struct ptp_sys_offset_extended ext = { 0 };
	unsigned int i, best = 0;

	if (samples < 1 || samples > PTP_MAX_SAMPLES)
		return -EINVAL;
	ext.n_samples = samples;
	if (ioctl(fd, PTP_SYS_OFFSET_EXTENDED, &ext))
		return -errno;
	for (i = 1; i < ext.n_samples; i++)
		if (pct_ns(&ext.ts[i][2]) - pct_ns(&ext.ts[i][0]) <
		    pct_ns(&ext.ts[best][2]) - pct_ns(&ext.ts[best][0]))
			best = i;
	r->sys_before = pct_ns(&ext.ts[best][0]);
	r->phc = pct_ns(&ext.ts[best][1]);
	r->sys_after = pct_ns(&ext.ts[best][2]);
	return 0;
}

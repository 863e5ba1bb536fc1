// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC that reports the emulated clock (virtio-net with the lab's
 * patches): SIOCSHWTSTAMP, and packets stamped by the clock while it is set
 * and adjusted.
 *
 * SIOCSHWTSTAMP: the driver takes TX timestamps off or on and any receive
 * filter, which becomes HWTSTAMP_FILTER_ALL; it refuses the one-step TX
 * types (ERANGE) and any flag (EINVAL: the only one is for bonds); the core
 * refuses unknown types, filters and flags before. A request taken is
 * echoed and reads back (SIOCGHWTSTAMP) as the driver set it; a refused one
 * changes nothing.
 *
 * The stamper: a thread that sends UDP datagrams through the NIC to the
 * lab's other end of the wire, with hardware TX timestamps asked for and the
 * NIC stamping every packet it sends and receives, while the main thread
 * sets and adjusts the clock. The driver reads the clock without a lock for
 * each packet (ptp_lab_read()); a read that races a writer retries, and must
 * not fault before it does (the kernel log is checked by the suite).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/ethtool.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "ptp_fuzz.h"
#include "tap.h"

#define PEER_ADDR "198.18.0.2"	/* the lab's other end of the wire (kernel/guest-net.sh) */
#define HWTS_ROUNDS 300

static int ifreq_ioctl(const char *ifname, unsigned long req, void *data)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = data;
	err = ioctl(fd, req, &ifr) ? -errno : 0;
	close(fd);
	return err;
}

/* The first interface whose get_ts_info reports PHC @index, into @ifname */
static bool find_nic(int index, char *ifname, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		struct ethtool_ts_info info = { .cmd = ETHTOOL_GET_TS_INFO };

		if (de->d_name[0] == '.' || strlen(de->d_name) >= IFNAMSIZ)
			continue;
		if (!ifreq_ioctl(de->d_name, SIOCETHTOOL, &info) && info.phc_index == index) {
			snprintf(ifname, len, "%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static int hwts_set(const char *ifname, struct hwtstamp_config *cfg)
{
	return ifreq_ioctl(ifname, SIOCSHWTSTAMP, cfg);
}

static const char *errstr(int err)
{
	return err ? lab_errname(err) : "accepted";
}

/* One request; the checks of its answer and of what reads back */
static void hwts_request(struct fz *f, struct fz_kind *k, const char *ifname,
			 const struct hwtstamp_config *want)
{
	static const int allowed[] = { EINVAL, ERANGE, 0 };
	struct hwtstamp_config cfg = *want, before = { 0 }, after = { 0 };
	bool valid_tx = want->tx_type == HWTSTAMP_TX_OFF || want->tx_type == HWTSTAMP_TX_ON;
	bool valid_rx = want->rx_filter >= 0 && want->rx_filter < __HWTSTAMP_FILTER_CNT;
	int want_rx = want->rx_filter == HWTSTAMP_FILTER_NONE ? HWTSTAMP_FILTER_NONE
							       : HWTSTAMP_FILTER_ALL;
	char what[160];
	int err;

	snprintf(what, sizeof(what), "SIOCSHWTSTAMP on %s: flags 0x%x tx_type %d rx_filter %d",
		 ifname, want->flags, want->tx_type, want->rx_filter);
	ifreq_ioctl(ifname, SIOCGHWTSTAMP, &before);
	err = hwts_set(ifname, &cfg);
	fz_result(f, k, err, allowed, what);
	ifreq_ioctl(ifname, SIOCGHWTSTAMP, &after);
	if (!err && (want->flags || !valid_tx || !valid_rx)) {
		fz_bad(f, k, "%s: taken, but it must be refused (%s)", what,
		       want->flags ? "a flag" : !valid_tx ? "a TX type the NIC has not" :
		       "an unknown filter");
	} else if (err && !want->flags && valid_tx && valid_rx) {
		fz_bad(f, k, "%s: a valid request refused with %s", what, lab_errname(err));
	} else if (!err && (cfg.flags || cfg.tx_type != want->tx_type || cfg.rx_filter != want_rx ||
			    memcmp(&cfg, &after, sizeof(cfg)))) {
		fz_bad(f, k, "%s: taken, but echoed as 0x%x/%d/%d and read back as 0x%x/%d/%d, "
		       "not 0x0/%d/%d", what, cfg.flags, cfg.tx_type, cfg.rx_filter, after.flags,
		       after.tx_type, after.rx_filter, want->tx_type, want_rx);
	} else if (err && memcmp(&before, &after, sizeof(before))) {
		fz_bad(f, k, "%s: refused with %s, but the configuration changed from %d/%d to "
		       "%d/%d", what, lab_errname(err), before.tx_type, before.rx_filter,
		       after.tx_type, after.rx_filter);
	}
}

void ptp_hwtstamp_cases(struct fz *f, struct ptp_ctx *c, struct ptp_stamper *s)
{
	struct fz_kind k = { .name = "SIOCSHWTSTAMP" };
	struct hwtstamp_config cfg = { .flags = HWTSTAMP_FLAG_BONDED_PHC_INDEX,
				       .tx_type = HWTSTAMP_TX_ON,
				       .rx_filter = HWTSTAMP_FILTER_ALL }, back = { 0 }, off = { 0 };
	int i, err;

	if (!find_nic(c->index, s->ifname, sizeof(s->ifname))) {
		s->ifname[0] = '\0';
		tap_skip("no interface reports the clock (the lab's veth mode?)",
			 "ptp: SIOCSHWTSTAMP on the NIC that reports the clock");
		return;
	}
	tap_diag("ptp: %s reports the clock: hardware timestamps through it", s->ifname);
	hwts_set(s->ifname, &off);
	err = hwts_set(s->ifname, &cfg);
	tap_ok(err == -EINVAL, "ptp: regression: SIOCSHWTSTAMP on %s with "
	       "HWTSTAMP_FLAG_BONDED_PHC_INDEX is refused with EINVAL (it was taken and echoed): %s",
	       s->ifname, errstr(err));
	ifreq_ioctl(s->ifname, SIOCGHWTSTAMP, &back);
	tap_ok(!back.flags && back.tx_type == HWTSTAMP_TX_OFF, "ptp: ... and leaves the "
	       "configuration as it was (flags 0x%x, tx_type %d)", back.flags, back.tx_type);
	cfg = (struct hwtstamp_config){ .tx_type = HWTSTAMP_TX_ONESTEP_SYNC };
	err = hwts_set(s->ifname, &cfg);
	tap_ok(err == -ERANGE, "ptp: SIOCSHWTSTAMP with a one-step TX type is refused with "
	       "ERANGE: %s", errstr(err));

	for (i = 0; i < HWTS_ROUNDS; i++) {
		cfg.flags = fuzz_chance(&f->rng, 70) ? 0 : fuzz_chance(&f->rng, 50) ?
			    HWTSTAMP_FLAG_BONDED_PHC_INDEX : fuzz_u32(&f->rng);
		cfg.tx_type = fuzz_chance(&f->rng, 80) ? (int)fuzz_below(&f->rng, 5)
						       : (int)fuzz_u32(&f->rng);
		cfg.rx_filter = fuzz_chance(&f->rng, 80) ? (int)fuzz_below(&f->rng, 17)
							 : (int)fuzz_u32(&f->rng);
		hwts_request(f, &k, s->ifname, &cfg);
	}
	fz_report_kind(f, &k, "flags and TX types the NIC has not refused, the rest taken, "
		       "echoed and read back as set (any filter ALL), a refusal changes nothing");
	hwts_set(s->ifname, &off);
}

static void *stamp_thread(void *arg)
{
	struct ptp_stamper *s = arg;
	int flags = SOF_TIMESTAMPING_TX_HARDWARE | SOF_TIMESTAMPING_RX_HARDWARE |
		    SOF_TIMESTAMPING_RAW_HARDWARE;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	char payload[64] = "labfuzz ptp stamper", ctrl[256], buf[256];
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	inet_pton(AF_INET, PEER_ADDR, &to.sin_addr);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, s->ifname, (socklen_t)strlen(s->ifname))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl,
				    .msg_controllen = sizeof(ctrl) };

		if (sendto(fd, payload, sizeof(payload), 0, (struct sockaddr *)&to, sizeof(to)) > 0)
			s->sent++;
		while (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
			struct cmsghdr *cm;

			for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
				if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPING &&
				    ((struct timespec *)CMSG_DATA(cm))[2].tv_sec)
					s->tx_stamps++;
			m.msg_controllen = sizeof(ctrl);
		}
		usleep(300);
	}
	close(fd);
	return NULL;
}

void ptp_stamper_start(struct ptp_stamper *s)
{
	struct hwtstamp_config on = { .tx_type = HWTSTAMP_TX_ON, .rx_filter = HWTSTAMP_FILTER_ALL };

	s->running = false;
	if (!s->ifname[0] || hwts_set(s->ifname, &on))
		return;
	s->running = !pthread_create(&s->th, NULL, stamp_thread, s);
}

void ptp_stamper_stop(struct ptp_stamper *s)
{
	struct hwtstamp_config off = { 0 };

	if (!s->running)
		return;
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	pthread_join(s->th, NULL);
	hwts_set(s->ifname, &off);
	tap_ok(s->tx_stamps > 0, "ptp: %" PRIu64 " datagrams sent through %s with hardware "
	       "timestamps while the clock was set and adjusted: %" PRIu64 " TX stamps read back",
	       s->sent, s->ifname, s->tx_stamps);
}

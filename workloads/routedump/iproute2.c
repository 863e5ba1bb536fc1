// SPDX-License-Identifier: GPL-2.0
/*
 * iproute2 as the anchor of the dumps: `ip route show` with the filter of
 * each mode, its output lines counted, its wall and CPU time measured; and
 * the baseline of ip's own start-up (a dump of one route).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "routedump.h"
#include "timing.h"

/*
 * The baseline table: one blackhole route of protocol 99 in table 999, so
 * that `ip route show table 999` is a run of ip whose dump costs next to
 * nothing (ip's start-up, its link cache, one route). The route is one of
 * the kernel's own as far as the counts go (outside the lab's tables).
 */
#define BASELINE_TABLE 999
#define BASELINE_PROTO 99

const char *mode_name(int m)
{
	return m == IP_STARTUP ? "startup" : modes[m].name;
}

int ip_mode_by_name(const char *s)
{
	return !strcmp(s, "startup") ? IP_STARTUP : mode_by_name(s) >= 0 ? mode_by_name(s) : -2;
}

/* Count the newlines of what comes from @fd until its end */
static uint64_t count_lines(int fd)
{
	uint64_t lines = 0;
	char buf[65536];
	ssize_t n, i;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	return lines;
}

/*
 * Run @argv with stdout into a pipe we count lines of; wall time from fork
 * to exit, CPU times of the child (wait4). Returns the exit status or -1.
 */
static int run_counted(char *const argv[], struct ip_row *row)
{
	struct rusage ru;
	int p[2], status;
	uint64_t t0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	t0 = mono_ns();
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(p[1], 1);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: exec %s: %s\n", lab_prog, argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	row->lines = count_lines(p[0]);
	close(p[0]);
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	row->wall_ns = mono_ns() - t0;
	row->user_us = tv_us(&ru.ru_utime);
	row->sys_us = tv_us(&ru.ru_stime);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int add_baseline_route(struct nl_sock *s, int family)
{
	static const uint8_t d4[4] = { 192, 0, 2, 0 };
	static const uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xff, 0xff };
	char buf[NL_MSG_MAX], e[300];
	struct nlmsghdr *nlh = nl_msg(s, buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	struct nl_reply r;
	int err;

	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_dst_len = family == AF_INET ? 24 : 48;
	rtm->rtm_protocol = BASELINE_PROTO;
	rtm->rtm_type = RTN_BLACKHOLE;
	mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, family == AF_INET ? d4 : d6);
	mnl_attr_put_u32(nlh, RTA_TABLE, BASELINE_TABLE);
	err = nl_transact(s, nlh, NULL, NULL, &r);
	if (err || r.error) {
		fprintf(stderr, "%s: the baseline route: %s\n", lab_prog,
			err ? lab_errname(err) : nl_reply_str(&r, e, sizeof(e)));
		return -1;
	}
	return 0;
}

/*
 * `ip -4|-6 route show ...` for the filter of mode @m; for IP_STARTUP
 * `ip route show table 999` (see add_baseline_route()).
 */
int ip_dump(int family, int m, const struct target *tg, struct ip_row *row)
{
	char table[16], oif[IF_NAMESIZE], proto[8];
	char *argv[16];
	int a = 0, f = m == IP_STARTUP ? F_NONE : modes[m].kernel;

	if (m == IP_STARTUP) {
		char *startup[] = { "ip", family == AF_INET ? "-4" : "-6", "route", "show", "table", "999", NULL };

		return run_counted(startup, row);
	}
	snprintf(table, sizeof(table), "%u", tg->table);
	snprintf(proto, sizeof(proto), "%u", tg->proto);
	if (!if_indextoname(tg->oif, oif))
		return -1;
	argv[a++] = "ip";
	argv[a++] = family == AF_INET ? "-4" : "-6";
	argv[a++] = "route";
	argv[a++] = "show";
	argv[a++] = "table";
	argv[a++] = filter_bits[f] & FB_TABLE ? table : "all";
	if (filter_bits[f] & FB_PROTO) {
		argv[a++] = "proto";
		argv[a++] = proto;
	}
	if (filter_bits[f] & FB_OIF) {
		argv[a++] = "dev";
		argv[a++] = oif;
	}
	argv[a] = NULL;
	return run_counted(argv, row);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * routedump populate and routedump dump: one population, or one dump of
 * it, for work by hand in a network namespace (ip netns exec NAME ...).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <linux/rtnetlink.h>

#include "cli.h"
#include "routedump.h"

static void need_netns(const char *verb)
{
	if (in_init_netns())
		lab_usage_error("%s configures routes: run it in a network namespace (ip netns exec NAME %s %s ...)",
				verb, lab_prog, verb);
}

int cmd_populate(int argc, char **argv)
{
	unsigned long long n = 0, batch = DEF_BATCH;
	const char *fam = "4", *acks = "errors";
	const struct lab_opt opts[] = {
		{ .name = "routes", .type = LAB_OPT_UINT, .value = &n, .arg = "N", .min = 1, .max = MAX_ROUTES,
		  .required = true, .help = "routes to insert" },
		LAB_OPT_STR("family", &fam, "4|6", "the family (4)", false),
		LAB_OPT_U64("batch", &batch, 4096, 200000, "bytes of RTM_NEWROUTE per sendmsg (196608)"),
		LAB_OPT_STR("acks", &acks, "errors|all", "what the kernel answers (errors)", false),
		LAB_OPT_END
	};
	struct insert_opts io = { .batch = batch };
	struct samples smp = { 0 };
	struct insert_run run;
	struct nl_sock s;
	int family, ifindex[2];

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	family = family_of(fam);
	if (strcmp(acks, "all") && strcmp(acks, "errors"))
		lab_usage_error("unknown ack mode '%s': expected all or errors", acks);
	io.batch = batch;
	io.all_acks = !strcmp(acks, "all");
	need_netns("populate");
	if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_rcvbuf(&s, 32 << 20))
		return 1;
	if (setup_dummies(&s, ifindex) || insert_routes(&s, family, 0, n, ifindex, &io, &smp, &run))
		return 1;
	printf("%llu %s routes in %.3f s: %.0f routes/s (%" PRIu64 " sendmsg, %" PRIu64 " recvmsg)\n", n,
	       family_name(family), run.ns / 1e9, n / (run.ns / 1e9), run.sendmsgs, run.recvmsgs);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	unsigned long long n = 0;
	const char *fam = "4", *mode_s = NULL, *buf_s = NULL;
	const struct lab_opt opts[] = {
		{ .name = "routes", .type = LAB_OPT_UINT, .value = &n, .arg = "N", .min = 1, .max = MAX_ROUTES,
		  .required = true, .help = "routes the namespace holds (routedump populate)" },
		LAB_OPT_STR("mode", &mode_s, "MODE", "the dump mode (see run --help)", true),
		LAB_OPT_STR("family", &fam, "4|6", "the family (4)", false),
		LAB_OPT_STR("bufsize", &buf_s, "BYTES", "recvmsg buffer size, >= one page (32768)", false),
		LAB_OPT_END
	};
	struct expect e = { 0 };
	struct dump_row d = { 0 };
	struct target tg;
	struct nl_sock s;
	int family, mode;
	size_t bufsize;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	family = family_of(fam);
	mode = mode_of(mode_s);
	bufsize = buf_s ? bufsize_of("buffer size (--bufsize)", buf_s) : DEF_BUFSIZE;
	need_netns("dump");
	if (nl_open(&s, NETLINK_ROUTE, bufsize) || nl_set_rcvbuf(&s, 32 << 20))
		return 1;
	tg = (struct target){ .table = points[0].table, .proto = points[0].proto, .oif = if_nametoindex("dum0") };
	e.n = n;
	expected_counts(n, &tg, e.exp);
	if (foreign_counts(&tg, family, &e))
		fprintf(stderr, "%s: the namespace does not hold the %llu routes of the lab\n", lab_prog, n);
	nl_set_strict(&s, modes[mode].strict);
	dump_once(&s, family, mode, &tg, &e, false, &d);
	printf("%s %s: %.3f ms wall, %.3f ms user, %.3f ms sys, %" PRIu64 " bytes, %" PRIu64 " recvmsg, %" PRIu64
	       " messages, %" PRIu64 " routes returned, answer %" PRIu64 " (expected %" PRIu64 "), filtered %c: %s\n",
	       modes[mode].name, family_name(family), ms(d.wall_ns), d.user_us / 1e3, d.sys_us / 1e3, d.bytes,
	       d.recvmsgs, d.msgs, d.returned, d.answer, d.expected, d.filtered, d.ok ? "ok" : d.why);
	return d.ok ? 0 : 1;
}

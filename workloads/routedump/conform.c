// SPDX-License-Identifier: GPL-2.0
/*
 * routedump conform: the strict-checking conformance suite, as TAP. Every
 * dump type of conform_cases.c with strict checking on (the header's
 * fields, a short header, an attribute the dump does not take: refused
 * with the kernel's extack message) and off (tolerated as before 4.20);
 * getsockopt(NETLINK_GET_STRICT_CHK); the route filters (conform_routes.c);
 * the fuzz (fuzz.c). Sub-suites with --suite: checks (sockopt and the
 * dump checks), filters (the route filters), fuzz; all by default.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "cli.h"
#include "conform.h"
#include "tap.h"
#include "timing.h"

int ask(struct nl_sock *s, const struct nlmsghdr *nlh, size_t len, mnl_cb_t cb, void *data,
	struct nl_reply *r)
{
	int err = nl_send_raw(s, nlh, len);

	if (!err)
		err = nl_recv(s, nlh->nlmsg_seq, cb, data, r, 10000);
	if (err) {
		int strict = 0;

		nl_getopt(s, NETLINK_GET_STRICT_CHK, &strict);
		nl_close(s);
		if (nl_open(s, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(s, strict))
			tap_bail("cannot reopen the netlink socket");
	}
	return err;
}

const char *err_or_ok(int err)
{
	return err ? lab_errname(err) : "ok";
}

/*
 * The extack a kernel gives for @msg: from Linux 6.12 rtnetlink's core
 * checks the mdb dump request, and its messages have no "bridge: " module
 * prefix (6.1: the bridge's own check); @what then names the difference
 */
static const char *msg_for_kernel(const char *msg, char *what, size_t len)
{
	struct utsname u;
	int major, minor;

	if (!msg || strncmp(msg, "bridge: ", 8) || !strstr(msg, "mdb dump") || uname(&u) ||
	    sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major * 1000 + minor < 6012)
		return msg;
	snprintf(what + strlen(what), len - strlen(what),
		 " (Linux %d.%d unlike 6.1: checked in rtnetlink's core, no bridge: prefix)",
		 major, minor);
	return msg + 8;
}

bool expect(struct nl_sock *s, const struct nlmsghdr *nlh, int exp_err, const char *exp_msg,
	    const char *fmt, ...)
{
	char what[300], got[300], want[300];
	struct nl_reply r;
	va_list ap;
	bool pass;
	int err;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	exp_msg = msg_for_kernel(exp_msg, what, sizeof(what));
	err = ask(s, nlh, nlh->nlmsg_len, NULL, NULL, &r);
	if (err)
		return tap_fail(what, "no clean answer: %s", strerror(-err));
	if (r.error == 0 && r.end == NLMSG_DONE)
		snprintf(got, sizeof(got), "a dump of %" PRIu64 " messages", r.data_msgs);
	else
		nl_reply_str(&r, got, sizeof(got));
	if (!exp_err) {
		pass = r.error == 0 && r.end == NLMSG_DONE;
		snprintf(want, sizeof(want), "a dump");
	} else {
		pass = r.error == exp_err && (!exp_msg || !strcmp(r.extack, exp_msg));
		if (exp_msg)
			snprintf(want, sizeof(want), "%s \"%s\"", err_or_ok(exp_err), exp_msg);
		else
			snprintf(want, sizeof(want), "%s", err_or_ok(exp_err));
	}
	if (pass)
		return tap_ok(true, "%s: %s", what, got);
	return tap_fail(what, "expected %s, got %s", want, got);
}

/* Strict off: what the legacy path does with the malformed requests of @d */
static void legacy_checks(struct nl_sock *legacy, const struct dcase *d)
{
	char buf[NL_MSG_MAX];
	int k;

	expect(legacy, case_request(legacy, buf, d, V_OK, 0), 0, NULL,
	       "%s legacy: the correct header dumps fine", d->name);
	if (d->short_msg)
		expect(legacy, case_request(legacy, buf, d, V_SHORT, 0), d->legacy_short_err,
		       d->legacy_short_msg, "%s legacy: a short header (1 byte) %s%s%s", d->name,
		       d->legacy_short_err ? "is " : "is tolerated",
		       d->legacy_short_err ? d->legacy_short_why : d->legacy_short_why ? ", " : "",
		       !d->legacy_short_err && d->legacy_short_why ? d->legacy_short_why : "");
	for (k = 0; k < d->nfields; k++)
		expect(legacy, case_request(legacy, buf, d, V_FIELD, k), 0, NULL,
		       "%s legacy: %s=%u is tolerated", d->name, d->fields[k].name, d->fields[k].val);
	expect(legacy, case_request(legacy, buf, d, V_ATTR, 0), d->legacy_attr_err, d->legacy_attr_msg,
	       "%s legacy: attribute %s is %s", d->name, d->attr_name,
	       d->legacy_attr_err ? d->legacy_attr_why : "tolerated (ignored)");
}

static void suite_dump_checks(struct nl_sock *strict, struct nl_sock *legacy)
{
	char buf[NL_MSG_MAX];
	int i, k;

	for (i = 0; i < ndcases; i++) {
		const struct dcase *d = &dcases[i];

		tap_diag("%s (family %u, %u-byte header)", d->name, d->family, d->hdrlen);
		expect(strict, case_request(strict, buf, d, V_OK, 0), 0, NULL,
		       "%s strict: the correct header dumps fine", d->name);
		if (d->short_msg)
			expect(strict, case_request(strict, buf, d, V_SHORT, 0), -EINVAL, d->short_msg,
			       "%s strict: a short header (1 byte) is rejected", d->name);
		for (k = 0; k < d->nfields; k++)
			expect(strict, case_request(strict, buf, d, V_FIELD, k), -EINVAL, d->fields[k].msg,
			       "%s strict: %s=%u is rejected", d->name, d->fields[k].name, d->fields[k].val);
		expect(strict, case_request(strict, buf, d, V_ATTR, 0), -EINVAL, d->attr_msg,
		       "%s strict: attribute %s is rejected", d->name, d->attr_name);
		legacy_checks(legacy, d);
	}
}

/* The old iproute2 link dump: rtgenmsg plus IFLA_EXT_MASK */
static void suite_old_link_dump(struct nl_sock *strict, struct nl_sock *legacy)
{
	char buf[NL_MSG_MAX];
	struct nl_sock *s;
	int i;

	for (i = 0; i < 2; i++) {
		struct nlmsghdr *nlh;
		struct rtgenmsg *g;

		s = i ? strict : legacy;
		nlh = nl_msg(s, buf, RTM_GETLINK, NLM_F_DUMP);
		g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
		g->rtgen_family = AF_UNSPEC;
		mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_VF);
		if (i)
			expect(s, nlh, -EINVAL, "Invalid header for link dump",
			       "RTM_GETLINK strict: the old rtgenmsg + IFLA_EXT_MASK link dump is rejected");
		else
			expect(s, nlh, 0, NULL,
			       "RTM_GETLINK legacy: the old rtgenmsg + IFLA_EXT_MASK link dump of iproute2 < 3.9 works");
	}
}

static void suite_sockopt(void)
{
	struct nl_sock s;
	int v = -1;

	if (nl_open(&s, NETLINK_ROUTE, DEF_BUFSIZE))
		tap_bail("no netlink socket");
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 0, "getsockopt(NETLINK_GET_STRICT_CHK) of a new socket reads 0");
	nl_set_strict(&s, true);
	v = -1;
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 1, "getsockopt(NETLINK_GET_STRICT_CHK) reads back 1 after setting 1");
	nl_set_strict(&s, false);
	v = -1;
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 0, "getsockopt(NETLINK_GET_STRICT_CHK) reads back 0 after setting 0");
	nl_setopt(&s, NETLINK_GET_STRICT_CHK, 7);
	v = -1;
	nl_getopt(&s, NETLINK_GET_STRICT_CHK, &v);
	tap_eq_int(v, 1, "getsockopt(NETLINK_GET_STRICT_CHK) reads 1 after setting 7 (a boolean)");
	nl_close(&s);
}

static void suite_stats_mask(struct nl_sock *strict, struct nl_sock *legacy)
{
	char buf[NL_MSG_MAX];
	int i;

	for (i = 0; i < 2; i++) {
		struct nl_sock *s = i ? legacy : strict;
		struct nlmsghdr *nlh = nl_msg(s, buf, RTM_GETSTATS, NLM_F_DUMP);
		struct if_stats_msg *m = mnl_nlmsg_put_extra_header(nlh, sizeof(*m));

		m->family = AF_UNSPEC;
		expect(s, nlh, -EINVAL, "Filter mask must be set for stats dump",
		       "RTM_GETSTATS %s: filter_mask 0 is rejected", i ? "legacy" : "strict");
	}
}

/* The namespace: lo, two dummies for routes (ifx), a bridge with a dummy port */
static void setup_namespace(struct nl_sock *s, int *ifx)
{
	uint8_t a4[4] = { 192, 0, 2, 1 }, a6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };
	int br, port;

	a6[15] = 1;
	if (nl_link_set(s, 1, true, -1) || (ifx[0] = nl_link_add(s, "dum0", "dummy")) < 0 ||
	    (ifx[1] = nl_link_add(s, "dum2", "dummy")) < 0 || (br = nl_link_add(s, "br0", "bridge")) < 0 ||
	    (port = nl_link_add(s, "dum1", "dummy")) < 0 || nl_link_set(s, ifx[0], true, -1) ||
	    nl_link_set(s, ifx[1], true, -1) || nl_link_set(s, port, true, br) ||
	    nl_link_set(s, br, true, -1) || nl_addr_add(s, AF_INET, ifx[0], a4, 24) ||
	    nl_addr_add(s, AF_INET6, ifx[0], a6, 64))
		tap_bail("setting up the namespace failed (see stderr)");
}

/* Which sub-suites run: --suite all|checks|filters|fuzz */
enum { S_CHECKS = 1, S_FILTERS = 2, S_FUZZ = 4, S_ALL = 7 };

static unsigned int suites_of(const char *s)
{
	static const struct {
		const char *name;
		unsigned int bits;
	} names[] = { { "all", S_ALL }, { "checks", S_CHECKS }, { "filters", S_FILTERS }, { "fuzz", S_FUZZ } };
	int i;

	for (i = 0; i < ARRAY_LEN(names); i++)
		if (!strcmp(s, names[i].name))
			return names[i].bits;
	lab_usage_error("unknown suite '%s': expected all, checks, filters or fuzz", s);
}

static void run_suites(unsigned int which, uint64_t fuzz, uint64_t seed, const char *out)
{
	struct nl_sock strict, legacy;
	uint64_t t0 = mono_ns();
	int ifx[2];

	if (nl_open(&strict, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&strict, true) ||
	    nl_open(&legacy, NETLINK_ROUTE, DEF_BUFSIZE) || nl_set_strict(&legacy, false))
		tap_bail("no netlink sockets");
	setup_namespace(&strict, ifx);
	tap_diag("set-up: %.1f s", (mono_ns() - t0) / 1e9);
	if (which & S_CHECKS) {
		t0 = mono_ns();
		suite_sockopt();
		suite_dump_checks(&strict, &legacy);
		suite_old_link_dump(&strict, &legacy);
		suite_stats_mask(&strict, &legacy);
		tap_diag("dump checks: %.1f s", (mono_ns() - t0) / 1e9);
	}
	if (which & S_FILTERS) {
		t0 = mono_ns();
		suite_route_filters(&strict, &legacy, ifx);
		tap_diag("route filters: %.1f s", (mono_ns() - t0) / 1e9);
	}
	if ((which & S_FUZZ) && fuzz) {
		t0 = mono_ns();
		suite_fuzz(fuzz, seed, out);
		tap_diag("fuzz: %.1f s", (mono_ns() - t0) / 1e9);
	}
	nl_close(&strict);
	nl_close(&legacy);
}

int cmd_conform(int argc, char **argv)
{
	unsigned long long fuzz = 2000;
	const char *seed_s = NULL, *out = NULL, *suite = "all";
	const struct lab_opt opts[] = {
		LAB_OPT_STR("suite", &suite, "NAME", "all (default), checks, filters or fuzz", false),
		LAB_OPT_U64("fuzz", &fuzz, 0, 100000000, "mutated dump requests (2000; 0: no fuzz)"),
		LAB_OPT_STR("seed", &seed_s, "S", "the fuzz's seed (random; printed for a replay)", false),
		LAB_OPT_STR("out", &out, "DIR", "a folder for fuzz.csv and fuzz-errno.csv (none)", false),
		LAB_OPT_END
	};
	unsigned int which;
	uint64_t seed;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "");
	which = suites_of(suite);
	seed = seed_s ? lab_parse_uint("--seed", seed_s, 0, UINT64_MAX) : real_ns() ^ (uint64_t)getpid();
	if (out && mkdir(out, 0755) && errno != EEXIST)
		lab_die("cannot create %s: %s", out, strerror(errno));
	if (private_netns())
		return 1;
	tap_diag("routedump conform: strict checking of dump requests (NETLINK_GET_STRICT_CHK), seed %" PRIu64,
		 seed);
	run_suites(which, fuzz, seed, out);
	return tap_finish();
}

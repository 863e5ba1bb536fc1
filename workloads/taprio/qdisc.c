// SPDX-License-Identifier: GPL-2.0
/*
 * taprio over rtnetlink with libmnl: configure a schedule as `tc qdisc
 * replace dev DEV parent root taprio ...` would, remove it, and on a refusal
 * say which line of the schedule file the kernel's extack is about.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>

#include <libmnl/libmnl.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "cli.h"
#include "progress.h"
#include "taprio.h"
#include "timing.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The rtnetlink socket of every command (bench/nl), 32 KiB reads as iproute2 */
int taprio_nl_open(struct nl_sock *n)
{
	return nl_open(n, NETLINK_ROUTE, 32768);
}

/* Where each attribute of a request came from: for the kernel's bad-attribute offset */
struct attr_line {
	size_t off, len;
	int line;
};

/*
 * Remove the taprio root qdisc of @ifindex, if there is one: 1 removed, 0
 * none. The delete names the kind, and the kernel compares it with the root
 * qdisc's ("Invalid qdisc name" when the root is another qdisc): no dump
 * first, since the dump of a long schedule does not fit in a netlink
 * message (measured: with 1,000 entries, tc qdisc show prints nothing).
 */
int taprio_clear(struct nl_sock *n, int ifindex, const char *dev)
{
	char buf[NL_MSG_MAX];
	struct nlmsghdr *h;
	struct tcmsg *tcm;
	struct nl_reply ans;
	int err;

	h = nl_msg(n, buf, RTM_DELQDISC, 0);
	tcm = mnl_nlmsg_put_extra_header(h, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(h, TCA_KIND, "taprio");
	err = nl_transact(n, h, NULL, NULL, &ans);
	if (!err)
		err = ans.error;
	if (!err)
		return 1;
	/* Another root qdisc, or none */
	if (err == -ENOENT || (err == -EINVAL && !strcmp(ans.extack, "Invalid qdisc name")))
		return 0;
	fprintf(stderr, "%s: removing taprio from %s: %s%s%s\n", lab_prog, dev, strerror(-err),
		ans.extack[0] ? ": " : "", ans.extack);
	return err;
}

static void note_attr(struct attr_line *al, size_t *nal, size_t max, const struct nlmsghdr *h,
		      const struct nlattr *a, int line)
{
	if (*nal < max) {
		al[*nal].off = (size_t)((const char *)a - (const char *)h);
		al[*nal].len = a->nla_len;
		al[*nal].line = line;
		(*nal)++;
	}
}

/* The line of the innermost attribute holding @offs, else 0 */
static int line_of_offset(const struct attr_line *al, size_t nal, long offs)
{
	size_t i;
	int line = 0;
	size_t best = 0;

	for (i = 0; i < nal; i++)
		if (offs >= (long)al[i].off && offs < (long)(al[i].off + al[i].len) &&
		    al[i].off >= best) {
			best = al[i].off;
			line = al[i].line;
		}
	return line;
}

/* The line a kernel message without a bad-attribute offset is about, else 0 */
static int line_of_message(const struct tsched *s, const char *msg)
{
	size_t i;

	if (strstr(msg, "queue mapping") || strstr(msg, "overlap"))
		return s->line[TSCHED_QUEUES];
	if (strstr(msg, "priority to traffic class"))
		return s->line[TSCHED_MAP];
	if (strstr(msg, "traffic classes") || strstr(msg, "mqprio"))
		return s->line[TSCHED_NUM_TC];
	if (strstr(msg, "interval")) {
		for (i = 0; i < s->n_entries; i++)
			if (!s->entries[i].interval)
				return s->entries[i].line;
		return s->line[TSCHED_SCHED_ENTRY];
	}
	if (strstr(msg, "cycle_time"))
		return s->line[TSCHED_CYCLE_TIME] ? s->line[TSCHED_CYCLE_TIME] :
						    s->line[TSCHED_SCHED_ENTRY];
	if (strstr(msg, "clockid"))
		return s->line[TSCHED_CLOCKID];
	if (strstr(msg, "flags") || strstr(msg, "offload"))
		return s->line[TSCHED_FLAGS];
	if (strstr(msg, "txtime"))
		return s->line[TSCHED_TXTIME_DELAY];
	return 0;
}

/* "FILE:LINE: the kernel refused the schedule on DEV: EXTACK (ERROR)" in @err */
static void refusal(const struct tsched *s, const char *dev, const struct nl_reply *ans, int line,
		    char *err, size_t errlen)
{
	const char *msg = ans->extack[0] ? ans->extack : "no message";

	if (!line)
		line = line_of_message(s, ans->extack);
	if (line)
		snprintf(err, errlen, "%s:%d: the kernel refused the schedule on %s: %s (%s)",
			 s->file, line, dev, msg, strerror(-ans->error));
	else
		snprintf(err, errlen, "%s: the kernel refused the schedule on %s: %s (%s)",
			 s->file, dev, msg, strerror(-ans->error));
}

/*
 * taprio_apply - configure @s on @ifindex (tc qdisc replace ... root taprio)
 * with base time @base. Returns 0, or -errno with "FILE:LINE: reason" in @err.
 */
int taprio_apply(struct nl_sock *n, int ifindex, const char *dev, const struct tsched *s,
			int64_t base, char *err, size_t errlen)
{
	/* Room for the message: about 28 bytes an entry, with TSCHED_MAX_ENTRIES of them */
	size_t size = NL_MSG_MAX + s->n_entries * 64;
	char *buf = calloc(1, size);
	struct attr_line al[3 * TSCHED_MAX_ENTRIES + 32];
	struct tc_mqprio_qopt qopt = { 0 };
	struct nlattr *opts, *list, *e, *a;
	struct nlmsghdr *h;
	struct tcmsg *tcm;
	struct nl_reply ans;
	size_t nal = 0, i;
	int rc, line;

	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", s->file);
		return -ENOMEM;
	}
	h = nl_msg(n, buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE);
	tcm = mnl_nlmsg_put_extra_header(h, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(h, TCA_KIND, "taprio");
	opts = mnl_attr_nest_start(h, TCA_OPTIONS);

	qopt.num_tc = (uint8_t)s->num_tc;
	memcpy(qopt.prio_tc_map, s->map, (size_t)s->n_map);
	for (i = 0; i < (size_t)s->n_queues; i++) {
		qopt.count[i] = s->count[i];
		qopt.offset[i] = s->offset[i];
	}
	a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
	mnl_attr_put(h, TCA_TAPRIO_ATTR_PRIOMAP, sizeof(qopt), &qopt);
	note_attr(al, &nal, ARRAY_SIZE(al), h, a,
		  s->line[TSCHED_QUEUES] ? s->line[TSCHED_QUEUES] : s->line[TSCHED_NUM_TC]);
	if (s->clockid >= 0) {
		a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
		mnl_attr_put_u32(h, TCA_TAPRIO_ATTR_SCHED_CLOCKID, (uint32_t)s->clockid);
		note_attr(al, &nal, ARRAY_SIZE(al), h, a, s->line[TSCHED_CLOCKID]);
	}
	a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
	mnl_attr_put_u64(h, TCA_TAPRIO_ATTR_SCHED_BASE_TIME, (uint64_t)base);
	note_attr(al, &nal, ARRAY_SIZE(al), h, a, s->line[TSCHED_BASE_TIME]);
	list = mnl_attr_nest_start(h, TCA_TAPRIO_ATTR_SCHED_ENTRY_LIST);
	for (i = 0; i < s->n_entries; i++) {
		e = mnl_attr_nest_start(h, TCA_TAPRIO_SCHED_ENTRY);
		mnl_attr_put_u8(h, TCA_TAPRIO_SCHED_ENTRY_CMD, s->entries[i].command);
		mnl_attr_put_u32(h, TCA_TAPRIO_SCHED_ENTRY_GATE_MASK, s->entries[i].gate_mask);
		mnl_attr_put_u32(h, TCA_TAPRIO_SCHED_ENTRY_INTERVAL, s->entries[i].interval);
		mnl_attr_nest_end(h, e);
		note_attr(al, &nal, ARRAY_SIZE(al), h, e, s->entries[i].line);
	}
	mnl_attr_nest_end(h, list);
	if (s->line[TSCHED_CYCLE_TIME]) {
		a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
		mnl_attr_put_u64(h, TCA_TAPRIO_ATTR_SCHED_CYCLE_TIME, (uint64_t)s->cycle_time);
		note_attr(al, &nal, ARRAY_SIZE(al), h, a, s->line[TSCHED_CYCLE_TIME]);
	}
	if (s->line[TSCHED_CYCLE_TIME_EXT]) {
		a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
		mnl_attr_put_u64(h, TCA_TAPRIO_ATTR_SCHED_CYCLE_TIME_EXTENSION,
				 (uint64_t)s->cycle_time_ext);
		note_attr(al, &nal, ARRAY_SIZE(al), h, a, s->line[TSCHED_CYCLE_TIME_EXT]);
	}
	if (s->line[TSCHED_FLAGS]) {
		a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
		mnl_attr_put_u32(h, TCA_TAPRIO_ATTR_FLAGS, s->flags);
		note_attr(al, &nal, ARRAY_SIZE(al), h, a, s->line[TSCHED_FLAGS]);
	}
	if (s->line[TSCHED_TXTIME_DELAY]) {
		a = (struct nlattr *)mnl_nlmsg_get_payload_tail(h);
		mnl_attr_put_u32(h, TCA_TAPRIO_ATTR_TXTIME_DELAY, s->txtime_delay);
		note_attr(al, &nal, ARRAY_SIZE(al), h, a, s->line[TSCHED_TXTIME_DELAY]);
	}
	mnl_attr_nest_end(h, opts);

	rc = nl_transact(n, h, NULL, NULL, &ans);
	free(buf);
	if (rc) {
		snprintf(err, errlen, "%s: netlink to the kernel failed: %s", s->file, strerror(-rc));
		return rc;
	}
	if (!ans.error)
		return 0;
	line = ans.extack_offs >= 0 ? line_of_offset(al, nal, (long)ans.extack_offs) : 0;
	refusal(s, dev, &ans, line, err, errlen);
	return ans.error;
}


/* The base time to configure: the file's, or the next cycle start >= now + 100 ms */
int64_t choose_base(const struct tsched *s, const char *how, clockid_t clk)
{
	int64_t now = (int64_t)clock_ns(clk), c = tsched_cycle(s);

	if (!strcmp(how, "file"))
		return s->base_time;
	if (strcmp(how, "next"))
		return lab_parse_int("--base-time", how, INT64_MIN, INT64_MAX);
	/* Aligned to a multiple of the cycle, as base-time 0 would give */
	return c > 0 ? tsched_next_cycle_start(s, 0, now + 100000000) : now;
}

int dev_index(const char *dev)
{
	int i = (int)if_nametoindex(dev);

	if (!i)
		fprintf(stderr, "%s: no interface %s: %s\n", lab_prog, dev, strerror(errno));
	return i;
}

/* Does @path hold a record of `taprio run` (JSON) rather than a schedule file? */
static bool is_record(const char *path)
{
	FILE *f = fopen(path, "r");
	int c = EOF;

	if (f) {
		while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\t')
			;
		fclose(f);
	}
	return c == '{';
}

struct tsched *schedule_load(const char *path, bool check, const char *name)
{
	struct tsched *s = lab_calloc(1, sizeof(*s), "the schedule");
	struct run_record rec;
	char err[512];
	int rc;

	if (is_record(path)) {
		rc = record_read(path, &rec);
		if (rc) {
			lab_fail("error", "%s is not a record of taprio run", path);
			free(s);
			return NULL;
		}
		*s = *rec.s;
		snprintf(s->file, sizeof(s->file), "%s", rec.name);
		record_free(&rec);
		rc = check ? tsched_check(s, err, sizeof(err)) : 0;
	} else {
		rc = tsched_parse_file(path, s, err, sizeof(err));
		if (!rc && check)
			rc = tsched_check(s, err, sizeof(err));
	}
	if (rc) {
		fprintf(stderr, "%s\n", err);
		lab_fail("error", "%s", err);
		free(s);
		return NULL;
	}
	if (name && *name)
		snprintf(s->file, sizeof(s->file), "%s", name);
	return s;
}

const char *verb_file(int argc, char **argv, int first)
{
	lab_positionals(argc, argv, first, 1, "the schedule FILE");
	return argv[first];
}

int64_t tai_offset_ns(void)
{
	struct timex tx = { .modes = 0 };

	if (adjtimex(&tx) < 0)
		return 0;
	return (int64_t)tx.tai * 1000000000;
}

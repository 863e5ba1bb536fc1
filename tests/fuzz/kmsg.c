// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log during a suite: /dev/kmsg read from where it stood when
 * the suite started. A line fails the suite when it shows a WARNING, a BUG,
 * an Oops, a lockup (soft or hard), an RCU stall or a sanitizer's report;
 * "hrtimer: interrupt took N ns" is a note only: under QEMU's TCG a vCPU
 * that the host does not run for a while makes the same line, so by itself
 * it proves nothing (a timer storm shows as a stall or a lockup, or as a CPU
 * that does not answer, which the suites check apart).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "labfuzz.h"
#include "tap.h"

/* Matched case-sensitively, as the kernel prints them */
static const char *const trouble[] = {
	"WARNING:",		/* WARN_ON and friends, lockdep's reports */
	"BUG:",			/* BUG: kernel NULL pointer, sleeping function, KASAN ... */
	"kernel BUG at",
	"Oops",
	"general protection fault",
	"Kernel panic",
	"UBSAN:",
	"KFENCE:",
	"ODEBUG:",		/* debug objects: a timer freed or re-armed while in use */
	"detected stall",	/* rcu: INFO: rcu_sched detected stalls on CPUs/tasks */
	"self-detected stall",	/* rcu: INFO: rcu_sched self-detected stall on CPU */
	"RCU stall",
	"Call Trace:",		/* any stack dump: only trouble prints one */
};

/* Matched ignoring case: soft lockup, hard LOCKUP */
static const char *const trouble_nocase[] = {
	"lockup",
	"hung_task",
	"blocked for more than",
};

static const char *const notes[] = {
	"hrtimer: interrupt took",
};

int kmsg_classify(const char *msg)
{
	size_t i;

	for (i = 0; i < sizeof(trouble) / sizeof(*trouble); i++)
		if (strstr(msg, trouble[i]))
			return 1;
	for (i = 0; i < sizeof(trouble_nocase) / sizeof(*trouble_nocase); i++)
		if (strcasestr(msg, trouble_nocase[i]))
			return 1;
	for (i = 0; i < sizeof(notes) / sizeof(*notes); i++)
		if (strstr(msg, notes[i]))
			return 2;
	return 0;
}

/*
 * The message of a record "PRI,SEQ,TIME,FLAGS;MESSAGE" or of a console line
 * "[   1.234567] MESSAGE" (else the line as it is)
 */
static const char *record_text(const char *rec)
{
	const char *semi = strchr(rec, ';');
	const char *p;

	if (rec[0] == '[' && (p = strchr(rec, ']')) && strspn(rec + 1, " 0123456789.") ==
							     (size_t)(p - rec - 1))
		return p[1] == ' ' ? p + 2 : p + 1;
	if (!semi)
		return rec;
	for (p = rec; p < semi; p++)
		if (!strchr("0123456789,-+c", *p))
			return rec;
	return semi + 1;
}

static void take(struct kmsg *k, const char *rec)
{
	char line[256];
	const char *msg = record_text(rec);
	size_t len = strcspn(msg, "\n");

	snprintf(line, sizeof(line), "%.*s", (int)len, msg);
	switch (kmsg_classify(line)) {
	case 1:
		if (k->trouble < sizeof(k->first) / sizeof(k->first[0]))
			snprintf(k->first[k->trouble], sizeof(k->first[0]), "%s", line);
		k->trouble++;
		break;
	case 2:
		if (!k->notes++)
			snprintf(k->first_note, sizeof(k->first_note), "%s", line);
		break;
	}
}

int kmsg_open(struct kmsg *k)
{
	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	/* From the end: only what the suite's requests make */
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		close(k->fd);
		k->fd = -1;
		return -errno;
	}
	return 0;
}

void kmsg_poll(struct kmsg *k)
{
	char rec[8192];
	ssize_t r;

	if (k->fd < 0)
		return;
	for (;;) {
		r = read(k->fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE) {
			/* Overwritten before we read them: count, go on */
			k->lost++;
			continue;
		}
		if (r <= 0)
			break;
		rec[r] = '\0';
		take(k, rec);
	}
}

bool kmsg_report(struct kmsg *k, const char *suite)
{
	unsigned int i;

	if (k->fd < 0) {
		tap_skip("/dev/kmsg cannot be read", "%s: the kernel log shows no WARNING, BUG, Oops, "
			 "lockup or RCU stall", suite);
		return true;
	}
	kmsg_poll(k);
	if (k->notes)
		tap_diag("%s: note: %u kernel log lines of timer interrupts that took long, the "
			 "first: %s", suite, k->notes, k->first_note);
	if (k->lost)
		tap_diag("%s: %u reads of /dev/kmsg found records already overwritten", suite,
			 k->lost);
	for (i = 0; i < k->trouble && i < sizeof(k->first) / sizeof(k->first[0]); i++)
		tap_diag("%s: kernel log: %s", suite, k->first[i]);
	if (k->trouble)
		return tap_fail("the kernel log shows no WARNING, BUG, Oops, lockup or RCU stall",
				"%s: %u lines of trouble since the suite started, the first: %s",
				suite, k->trouble, k->first[0]);
	return tap_ok(true, "%s: the kernel log shows no WARNING, BUG, Oops, lockup or RCU stall "
		      "since the suite started", suite);
}

void kmsg_close(struct kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/*
 * kmsg-check FILE: the checker on a saved log, one record or console line
 * a line ("6,123,456,-;text" as /dev/kmsg gives it, or "[   1.2] text").
 * Prints the lines of trouble and the notes; exit 1 when there is trouble.
 */
int cmd_kmsg_check(int argc, char **argv)
{
	const struct lab_opt opts[] = { LAB_OPT_END };
	int first = lab_parse(argc, argv, opts);
	struct kmsg k = { .fd = -1 };
	char line[8192];
	unsigned int i;
	FILE *in;

	lab_positionals(argc, argv, first, 1, "the log FILE");
	in = fopen(argv[first], "r");
	if (!in)
		lab_die("cannot read %s: %s", argv[first], strerror(errno));
	while (fgets(line, sizeof(line), in))
		take(&k, line);
	fclose(in);
	for (i = 0; i < k.trouble && i < sizeof(k.first) / sizeof(k.first[0]); i++)
		printf("trouble: %s\n", k.first[i]);
	if (k.notes)
		printf("note: %u lines, the first: %s\n", k.notes, k.first_note);
	printf("%u lines of trouble, %u notes\n", k.trouble, k.notes);
	return k.trouble ? 1 : 0;
}

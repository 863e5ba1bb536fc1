// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs conform: the maps' semantics as TAP, for queue and stack: creation
 * checks, push, peek and pop order, BPF_EXIST replacement, errors, value
 * sizes, and a SCHED_CLS program that relays values between two maps
 * (BPF_PROG_TEST_RUN); then the bad-input cases (conform_input.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "tap.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

/* An errno value's name, "success" for 0 */
static const char *err_str(int e)
{
	return e ? lab_errname(e) : "success";
}

/* Index of the first differing byte, or -1 */
static long first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

static int create(enum kind k, unsigned int ksz, unsigned int vsz, unsigned int n, unsigned int flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags);

	return bpf_map_create(kind_type[k], "bpfqs_conf", ksz, vsz, n, &o);
}

static void expect_err(int rc, int err, const char *what)
{
	tap_eq_str(err_str(rc < 0 ? -rc : 0), err_str(err), what);
}

#define NCONF 8

/* What map creation refuses: a key, no preallocation, sizes 0 or too big */
static void conf_create(enum kind k)
{
	static const struct {
		unsigned int ksz, vsz, n, flags;
		int err;
		const char *what;
	} cases[] = {
		{ 4, 4, NCONF, 0, EINVAL, "key_size 4 is refused with EINVAL" },
		{ 0, 4, NCONF, BPF_F_NO_PREALLOC, EINVAL, "BPF_F_NO_PREALLOC is refused with EINVAL" },
		{ 0, 0, NCONF, 0, EINVAL, "value_size 0 is refused with EINVAL" },
		{ 0, 4, 0, 0, EINVAL, "max_entries 0 is refused with EINVAL" },
		{ 0, KMALLOC_MAX_SIZE + 1, 1, 0, E2BIG,
		  "value_size 4194305 (KMALLOC_MAX_SIZE + 1) is refused with E2BIG" },
	};
	char what[160];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "%s: %s", kind_name[k], cases[i].what);
		rc = create(k, cases[i].ksz, cases[i].vsz, cases[i].n, cases[i].flags);
		expect_err(rc, cases[i].err, what);
		if (rc >= 0)
			close(rc);
	}
}

/* Fill the map of NCONF with 100.., then what a full map refuses, then peeks */
static void conf_fill(enum kind k, int fd)
{
	const char *m = kind_name[k];
	char what[160];
	__u32 v, got;
	int rc, i, key = 0;

	snprintf(what, sizeof(what), "%s: peek on the empty map fails with ENOENT", m);
	expect_err(bpf_map_lookup_elem(fd, NULL, &got), ENOENT, what);
	for (i = 0; i < NCONF; i++) {
		v = 100 + i;
		rc = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
		if (rc) {
			tap_fail("max_entries pushes succeed", "%s: push %d of %d: expected success, got %s",
				 m, i + 1, NCONF, err_str(-rc));
			break;
		}
	}
	if (i == NCONF)
		tap_ok(true, "%s: max_entries (%d) pushes succeed", m, NCONF);
	v = 999;
	snprintf(what, sizeof(what), "%s: one more push on the full map fails with E2BIG", m);
	expect_err(bpf_map_update_elem(fd, NULL, &v, BPF_ANY), E2BIG, what);
	snprintf(what, sizeof(what), "%s: a push with BPF_NOEXIST fails with EINVAL", m);
	expect_err(bpf_map_update_elem(fd, NULL, &v, BPF_NOEXIST), EINVAL, what);
	snprintf(what, sizeof(what), "%s: a push with a key fails with EINVAL (key_size is 0)", m);
	expect_err(bpf_map_update_elem(fd, &key, &v, BPF_ANY), EINVAL, what);

	snprintf(what, sizeof(what), "%s: peek returns the head (%s pushed)", m,
		 k == QUEUE ? "first" : "last");
	got = 0;
	rc = bpf_map_lookup_elem(fd, NULL, &got);
	tap_eq_int(rc ? -1 : (long long)got, k == QUEUE ? 100 : 100 + NCONF - 1, what);
	snprintf(what, sizeof(what), "%s: a second peek returns the same head (peek does not remove)", m);
	got = 0;
	rc = bpf_map_lookup_elem(fd, NULL, &got);
	tap_eq_int(rc ? -1 : (long long)got, k == QUEUE ? 100 : 100 + NCONF - 1, what);
}

/* Two pushes with BPF_EXIST on the full map drop the two oldest (100, 101); pop all */
static void conf_exist(enum kind k, int fd)
{
	const char *m = kind_name[k];
	__u32 v, got, expect[NCONF];
	bool ok = true;
	int rc, i;

	for (i = 0; i < 2; i++) {
		v = 200 + i;
		rc = bpf_map_update_elem(fd, NULL, &v, BPF_EXIST);
		if (rc)
			ok = tap_fail("BPF_EXIST push", "%s: push with BPF_EXIST on the full map: expected success, got %s",
				      m, err_str(-rc));
	}
	if (ok)
		tap_ok(true, "%s: pushes with BPF_EXIST on the full map succeed", m);
	/* content, oldest first: 102..107, 200, 201 */
	for (i = 0; i < NCONF - 2; i++)
		expect[i] = 102 + i;
	expect[NCONF - 2] = 200;
	expect[NCONF - 1] = 201;
	if (k == STACK)
		for (i = 0; i < NCONF / 2; i++) {
			v = expect[i];
			expect[i] = expect[NCONF - 1 - i];
			expect[NCONF - 1 - i] = v;
		}
	ok = true;
	for (i = 0; i < NCONF && ok; i++) {
		got = 0;
		rc = bpf_map_lookup_and_delete_elem(fd, NULL, &got);
		if (rc || got != expect[i]) {
			ok = false;
			tap_fail("pop order", "%s: pop %d after the BPF_EXIST pushes: expected %u, got %s%u",
				 m, i + 1, expect[i], rc ? err_str(-rc) : "", rc ? 0 : got);
		}
	}
	if (ok)
		tap_ok(true, "%s: BPF_EXIST replaced the oldest and pops come in %s order (%u %u ... %u)",
		       m, k == QUEUE ? "FIFO" : "LIFO", expect[0], expect[1], expect[NCONF - 1]);
}

/* A map of one entry: push, a refused push, BPF_EXIST replacing it, pop */
static void conf_one_entry(enum kind k)
{
	const char *m = kind_name[k];
	char what[160];
	int fd, rc, rc2, rc3, rc4;
	__u32 v, got = 0;
	bool ok;

	fd = create(k, 0, sizeof(__u32), 1, 0);
	if (!tap_ok(fd >= 0, "%s: max_entries 1 is accepted", m))
		return;
	v = 1;
	rc = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
	v = 2;
	rc2 = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
	v = 3;
	rc3 = bpf_map_update_elem(fd, NULL, &v, BPF_EXIST);
	rc4 = bpf_map_lookup_and_delete_elem(fd, NULL, &got);
	ok = !rc && rc2 == -E2BIG && !rc3 && !rc4 && got == 3;
	tap_ok(ok, "%s: max_entries 1: push ok, second push E2BIG, BPF_EXIST replaces, pop gives the new value%s",
	       m, ok ? "" : " (not as expected)");
	if (!ok)
		tap_diag("expected push success, E2BIG, success, pop 3; got %s, %s, %s, pop %s %u",
			 err_str(-rc), err_str(-rc2), err_str(-rc3), err_str(-rc4), got);
	snprintf(what, sizeof(what), "%s: max_entries 1: the map is empty again (pop ENOENT)", m);
	expect_err(bpf_map_lookup_and_delete_elem(fd, NULL, &got), ENOENT, what);
	close(fd);
}

static void conf_basic(enum kind k)
{
	const char *m = kind_name[k];
	char what[160];
	__u32 v, got;
	int fd;

	conf_create(k);
	fd = create(k, 0, sizeof(__u32), NCONF, 0);
	snprintf(what, sizeof(what), "%s: a map of %d u32 values is created", m, NCONF);
	expect_err(fd < 0 ? fd : 0, 0, what);
	if (fd < 0)
		return;
	conf_fill(k, fd);
	conf_exist(k, fd);
	snprintf(what, sizeof(what), "%s: pop on the empty map fails with ENOENT", m);
	expect_err(bpf_map_lookup_and_delete_elem(fd, NULL, &got), ENOENT, what);
	snprintf(what, sizeof(what), "%s: delete fails with EINVAL", m);
	expect_err(bpf_map_delete_elem(fd, NULL), EINVAL, what);
	v = 1;
	bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
	snprintf(what, sizeof(what), "%s: get_next_key fails with EINVAL", m);
	expect_err(bpf_map_get_next_key(fd, NULL, &got), EINVAL, what);
	close(fd);
	conf_one_entry(k);
}

/* Push two patterned values of @vsz bytes, peek and pop them back. */
static void conf_value_size(enum kind k, unsigned int vsz)
{
	const char *m = kind_name[k];
	unsigned char *a = malloc(vsz), *b = malloc(vsz), *g = malloc(vsz);
	const unsigned char *first, *second;
	const char *step = NULL;
	char detail[160] = "";
	int fd = -1, rc;
	long d;

	if (!a || !b || !g) {
		tap_fail("value size", "%s: value size %u: out of memory in user space", m, vsz);
		goto out;
	}
	fill_pattern(a, vsz, 1);
	fill_pattern(b, vsz, 2);
	first = k == QUEUE ? a : b;	/* head after pushing a, then b */
	second = k == QUEUE ? b : a;
	fd = create(k, 0, vsz, 2, 0);
	if (fd < 0) {
		step = "create";
		rc = fd;
		goto report;
	}
	if ((rc = bpf_map_update_elem(fd, NULL, a, BPF_ANY))) {
		step = "push 1";
		goto report;
	}
	if ((rc = bpf_map_update_elem(fd, NULL, b, BPF_ANY))) {
		step = "push 2";
		goto report;
	}
	memset(g, 0, vsz);
	if ((rc = bpf_map_lookup_elem(fd, NULL, g))) {
		step = "peek";
		goto report;
	}
	if ((d = first_diff(g, first, vsz)) >= 0) {
		snprintf(detail, sizeof(detail), "peek: byte %ld is %u, expected %u", d, g[d], first[d]);
		goto report;
	}
	memset(g, 0, vsz);
	if ((rc = bpf_map_lookup_and_delete_elem(fd, NULL, g))) {
		step = "pop 1";
		goto report;
	}
	if ((d = first_diff(g, first, vsz)) >= 0) {
		snprintf(detail, sizeof(detail), "pop 1: byte %ld is %u, expected %u", d, g[d], first[d]);
		goto report;
	}
	memset(g, 0, vsz);
	if ((rc = bpf_map_lookup_and_delete_elem(fd, NULL, g))) {
		step = "pop 2";
		goto report;
	}
	if ((d = first_diff(g, second, vsz)) >= 0) {
		snprintf(detail, sizeof(detail), "pop 2: byte %ld is %u, expected %u", d, g[d], second[d]);
		goto report;
	}
	rc = bpf_map_lookup_and_delete_elem(fd, NULL, g);
	if (rc != -ENOENT) {
		snprintf(detail, sizeof(detail), "pop 3: expected ENOENT, got %s", err_str(rc < 0 ? -rc : 0));
		goto report;
	}
	rc = 0;
report:
	if (step)
		snprintf(detail, sizeof(detail), "%s: expected success, got %s", step, err_str(-rc));
	if (detail[0])
		tap_fail("value size", "%s: value size %u bytes: %s", m, vsz, detail);
	else
		tap_ok(true, "%s: value size %u bytes: two values come back intact from peek and pops", m, vsz);
out:
	if (fd >= 0)
		close(fd);
	free(a);
	free(b);
	free(g);
}

#define RELAY_N 32

/*
 * RELAY_N + 1 runs of the relay program: the first RELAY_N move map_in's
 * values into daddr (checked: verdict, daddr in the map's order, checksum),
 * the last finds map_in empty. Returns -1 when a run could not be made.
 */
static int relay_runs(enum kind k, int prog)
{
	const char *m = kind_name[k];
	bool ok_ret = true, ok_daddr = true, ok_csum = true;
	struct pkt in, out;
	int i, rc;

	for (i = 0; i <= RELAY_N; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &in, .data_size_in = sizeof(in),
			    .data_out = &out, .data_size_out = sizeof(out), .repeat = 1);
		int j = k == QUEUE ? i : RELAY_N - 1 - i;

		make_pkt(&in, htonl(0x0a000001u + (unsigned int)i), htonl(0xc0000201u));
		memset(&out, 0, sizeof(out));
		rc = bpf_prog_test_run_opts(prog, &o);
		if (rc) {
			tap_fail("relay", "%s: BPF_PROG_TEST_RUN %d failed: %s", m, i + 1, err_str(-rc));
			return -1;
		}
		if (i == RELAY_N)
			break;
		if (ok_ret && o.retval != TC_ACT_OK) {
			ok_ret = false;
			tap_diag("%s: run %d: expected TC_ACT_OK (0), got %u", m, i + 1, o.retval);
		}
		if (ok_daddr && out.ip.daddr != htonl(0xc6120200u + (unsigned int)j)) {
			ok_daddr = false;
			tap_diag("%s: run %d: expected daddr 198.18.2.%d, got %08x", m, i + 1, j, ntohl(out.ip.daddr));
		}
		if (ok_csum && ip_csum((const char *)&out + sizeof(out.eth)) != 0) {
			ok_csum = false;
			tap_diag("%s: run %d: the IPv4 header checksum does not verify", m, i + 1);
		}
		if (o.data_size_out != sizeof(out)) {
			ok_ret = false;
			tap_diag("%s: run %d: expected %zu bytes out, got %u", m, i + 1, sizeof(out), o.data_size_out);
		}
	}
	tap_ok(ok_ret, "%s: %d runs of the relay program return TC_ACT_OK", m, RELAY_N);
	tap_ok(ok_daddr, "%s: the %d runs move map_in's values into daddr in %s order", m, RELAY_N,
	       k == QUEUE ? "FIFO" : "LIFO");
	tap_ok(ok_csum, "%s: the rewritten IPv4 headers keep a valid checksum", m);
	return 0;
}

/* map_out holds the runs' saddrs, in the map's order, and nothing more */
static void relay_out(enum kind k, int fd_out)
{
	const char *m = kind_name[k];
	bool ok_out = true;
	int i, rc;
	__u32 v;

	for (i = 0; i < RELAY_N; i++) {
		int j = k == QUEUE ? i : RELAY_N - 1 - i;

		rc = bpf_map_lookup_and_delete_elem(fd_out, NULL, &v);
		if (rc || v != htonl(0x0a000001u + (unsigned int)j)) {
			ok_out = false;
			tap_diag("%s: map_out pop %d: expected saddr 10.0.0.%d, got %s %08x", m, i + 1, j + 1,
				 rc ? err_str(-rc) : "", rc ? 0 : ntohl(v));
			break;
		}
	}
	if (ok_out && bpf_map_lookup_and_delete_elem(fd_out, NULL, &v) != -ENOENT) {
		ok_out = false;
		tap_diag("%s: map_out holds more than %d values", m, RELAY_N);
	}
	tap_ok(ok_out, "%s: map_out holds the %d saddrs in run order (popped %s)", m, RELAY_N,
	       k == QUEUE ? "first to last" : "last to first");
}

/* The in-program case: the relay program moves map_in's values into daddr. */
static void conf_relay(enum kind k)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .repeat = 1);
	const char *m = kind_name[k];
	struct bpfqs_bpf *skel;
	struct bpf_program *p;
	struct pkt in;
	int fd_in, prog, rc, i;
	__u32 v;

	skel = bpfqs_bpf__open();
	if (!skel) {
		tap_fail("relay", "%s: opening the BPF skeleton failed: %s", m, err_str(errno));
		return;
	}
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.relay);
	bpf_map__set_type(skel->maps.map_in, kind_type[k]);
	bpf_map__set_type(skel->maps.map_out, kind_type[k]);
	rc = bpfqs_bpf__load(skel);
	if (!tap_ok(!rc, "%s: the relay program (SCHED_CLS) loads with map_in and map_out of type %s%s%s",
		    m, m, rc ? ": " : "", rc ? err_str(-rc) : ""))
		goto out;
	fd_in = bpf_map__fd(skel->maps.map_in);
	prog = bpf_program__fd(skel->progs.relay);
	for (i = 0; i < RELAY_N; i++) {
		v = htonl(0xc6120200u + (unsigned int)i);	/* 198.18.2.i */
		if ((rc = bpf_map_update_elem(fd_in, NULL, &v, BPF_ANY))) {
			tap_fail("relay", "%s: pushing value %d into map_in: %s", m, i, err_str(-rc));
			goto out;
		}
	}
	if (relay_runs(k, prog))
		goto out;
	make_pkt(&in, htonl(0x0a0000ffu), htonl(0xc0000201u));
	o.data_in = &in;
	o.data_size_in = sizeof(in);
	rc = bpf_prog_test_run_opts(prog, &o);
	tap_eq_int(rc ? -1 : (long long)o.retval, TC_ACT_SHOT,
		   k == QUEUE ? "queue: run 33 on the empty map_in returns TC_ACT_SHOT (2)"
			      : "stack: run 33 on the empty map_in returns TC_ACT_SHOT (2)");
	relay_out(k, bpf_map__fd(skel->maps.map_out));
out:
	bpfqs_bpf__destroy(skel);
}

int cmd_conform(int argc, char **argv)
{
	static const unsigned int sizes[] = { 1, 2, 3, 4, 7, 8, 64, 4095, 4096, 65536, 1u << 20, KMALLOC_MAX_SIZE };
	const struct lab_opt opts[] = { LAB_OPT_END };
	enum kind k;
	size_t i;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "nothing");
	tap_diag("BPF queue and stack maps: semantics from user space and from a SCHED_CLS program");
	for (k = QUEUE; k <= STACK; k++) {
		conf_basic(k);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			conf_value_size(k, sizes[i]);
		conf_relay(k);
	}
	conf_bad_input();
	conf_bad_output();
	return tap_finish();
}

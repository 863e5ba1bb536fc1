// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs - the BPF queue and stack map lab (issue 3).
 *
 *   bpfqs conformance
 *	The maps' semantics as TAP, for queue and stack: creation checks, push,
 *	peek and pop order, BPF_EXIST replacement, errors, value sizes, and a
 *	SCHED_CLS program that relays values between two maps (BPF_PROG_TEST_RUN).
 *
 *   bpfqs bench --profile quick|full --out DIR [options]
 *	ns per operation from user space (bpf syscalls) and from BPF programs
 *	(bpf_loop of K operations per run, BPF_PROG_TEST_RUN with repeat, an
 *	empty loop subtracted), and the throughput of 1..P pinned threads on
 *	one shared map against per-thread maps. Writes summary.json and CSV
 *	files into DIR through the lab's output library.
 *
 *   bpfqs probe-load --ops N --out DIR
 *	A known load for probes/bpf_map.bt: N pushes, peeks and pops per map
 *	from user space and from a program; writes probe-expected.csv.
 *
 * Everything here creates maps and loads programs: run it in the lab's
 * guest, never on the host. Bad input exits 2 before anything is created.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "output.h"
#include "stats.h"
#include "tap.h"
#include "timing.h"
#include "bpfqs.skel.h"

/*
 * The kernel's value size limit: queue, stack and array maps refuse
 * value_size > KMALLOC_MAX_SIZE with E2BIG (1 << (MAX_ORDER + PAGE_SHIFT - 1),
 * 4 MiB on x86-64 with 6.1's MAX_ORDER 11); the hash map needs room for its
 * element header and the BPF stack below that (htab_map_alloc_check:
 * value_size >= KMALLOC_MAX_SIZE - MAX_BPF_STACK - sizeof(struct htab_elem)).
 */
#define KMALLOC_MAX_SIZE (4u << 20)
#define HTAB_ELEM_SIZE 48u
#define MAX_BPF_STACK 512u

/* Memory one benchmark map may take (capacity x value size) */
#define MAP_BUDGET (64u << 20)

#define CV_TARGET 0.05

enum kind { QUEUE, STACK, ARRAY, HASH, NKINDS };
static const char *const kind_name[NKINDS] = { "queue", "stack", "array", "hash" };
static const enum bpf_map_type kind_type[NKINDS] = {
	BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_HASH,
};

static unsigned int max_value_size(enum kind k)
{
	return k == HASH ? KMALLOC_MAX_SIZE - MAX_BPF_STACK - HTAB_ELEM_SIZE - 1 : KMALLOC_MAX_SIZE;
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case ENOMEM: return "ENOMEM";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	case EFAULT: return "EFAULT";
	case 524: return "ENOTSUPP";
	default: return strerror(e);
	}
}

/* Out of memory in user space: say where, and stop */
static void __attribute__((noreturn)) oom(const char *where, size_t bytes)
{
	fprintf(stderr, "bpfqs: out of memory in %s (%zu bytes): %s\n", where, bytes, strerror(errno));
	exit(1);
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* ------------------------------------------------------------------------ */
/* Usage errors: exit 2, naming the value                                    */

static const char usage_text[] =
	"usage: bpfqs conformance\n"
	"       bpfqs bench --profile quick|full --out DIR [--maps LIST] [--value-sizes LIST]\n"
	"                   [--threads LIST] [--samples N] [--warmup N] [--parts LIST] [--cpu N]\n"
	"       bpfqs probe-load --ops N --out DIR\n"
	"\n"
	"  --maps LIST         queue,stack,array,hash (default all; contention uses queue and stack)\n"
	"  --value-sizes LIST  bytes, 1 to the kernel's limit (default 4,64,256,1024,4096)\n"
	"  --threads LIST      contention threads, each pinned to its own vCPU (default 1,2,4)\n"
	"  --samples N         measured samples per figure after warm-up (>= 5)\n"
	"  --warmup N          warm-up samples dropped first\n"
	"  --parts LIST        user,prog,contention (default all)\n"
	"  --cpu N             vCPU of the single-thread measurements (default: the last)\n";

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bpfqs: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(usage_text, stderr);
	exit(2);
}

static unsigned long parse_num(const char *what, const char *s, unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		usage_error("%s '%s' is not a number", what, s);
	v = strtoul(s, &end, 10);
	if (errno || *end)
		usage_error("%s '%s' is not a number", what, s);
	if (v < lo || v > hi)
		usage_error("%s '%s' is out of range (%lu to %lu)", what, s, lo, hi);
	return v;
}

/* Split a comma-separated LIST; calls fn on each item. */
static void each_item(const char *list, const char *what, void (*fn)(const char *, void *), void *arg)
{
	char *copy = strdup(list), *save = NULL, *tok;

	if (!copy) {
		perror("strdup");
		exit(1);
	}
	if (!*list)
		usage_error("%s is empty", what);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		fn(tok, arg);
	free(copy);
}

static int kind_of(const char *s)
{
	int k;

	for (k = 0; k < NKINDS; k++)
		if (!strcmp(s, kind_name[k]))
			return k;
	return -1;
}

/* ------------------------------------------------------------------------ */
/* Configuration                                                             */

#define MAX_LIST 32

struct cfg {
	const char *profile;
	const char *out;
	bool kinds[NKINDS];
	unsigned int vsizes[MAX_LIST];
	size_t n_vsizes;
	unsigned int threads[MAX_LIST];
	size_t n_threads;
	size_t samples, warmup;
	bool part_user, part_prog, part_cont;
	int cpu;
	/* from the profile */
	unsigned int batches;		/* timed batches per sample; a sample is their median */
	unsigned int user_batch;	/* operations per user-space batch (at most) */
	unsigned int prog_k;		/* operations per program run (power of 2) */
	unsigned int prog_repeat;	/* runs per BPF_PROG_TEST_RUN call (one batch) */
	unsigned int cont_repeat;	/* runs per call in the contention test */
	double window_s;		/* contention: seconds per sample */
	unsigned int cont_vsize;	/* contention: value size */
	unsigned int ncpus;
};

static void add_kind(const char *s, void *arg)
{
	struct cfg *c = arg;
	int k = kind_of(s);

	if (k < 0)
		usage_error("unknown map type '%s' (expected queue, stack, array or hash)", s);
	c->kinds[k] = true;
}

static void add_vsize(const char *s, void *arg)
{
	struct cfg *c = arg;

	if (c->n_vsizes == MAX_LIST)
		usage_error("more than %d value sizes", MAX_LIST);
	c->vsizes[c->n_vsizes++] = (unsigned int)parse_num("value size", s, 0, UINT_MAX);
}

static void add_threads(const char *s, void *arg)
{
	struct cfg *c = arg;

	if (c->n_threads == MAX_LIST)
		usage_error("more than %d thread counts", MAX_LIST);
	c->threads[c->n_threads++] = (unsigned int)parse_num("threads", s, 0, UINT_MAX);
}

static void add_part(const char *s, void *arg)
{
	struct cfg *c = arg;

	if (!strcmp(s, "user"))
		c->part_user = true;
	else if (!strcmp(s, "prog"))
		c->part_prog = true;
	else if (!strcmp(s, "contention"))
		c->part_cont = true;
	else
		usage_error("unknown part '%s' (expected user, prog or contention)", s);
}

static unsigned int allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	return (unsigned int)CPU_COUNT(&set);
}

static void parse_bench(int argc, char **argv, struct cfg *c)
{
	static const struct option opts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "out", required_argument, NULL, 'o' },
		{ "maps", required_argument, NULL, 'm' },
		{ "value-sizes", required_argument, NULL, 'v' },
		{ "threads", required_argument, NULL, 't' },
		{ "samples", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "parts", required_argument, NULL, 'P' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *maps = "queue,stack,array,hash", *vs = "4,64,256,1024,4096";
	const char *threads = "1,2,4", *parts = "user,prog,contention";
	long samples = -1, warmup = -1, cpu = -1;
	bool any = false;
	size_t i;
	int o, k;

	memset(c, 0, sizeof(*c));
	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'p': c->profile = optarg; break;
		case 'o': c->out = optarg; break;
		case 'm': maps = optarg; break;
		case 'v': vs = optarg; break;
		case 't': threads = optarg; break;
		case 's': samples = (long)parse_num("samples", optarg, 5, 100000); break;
		case 'w': warmup = (long)parse_num("warmup", optarg, 0, 100000); break;
		case 'P': parts = optarg; break;
		case 'c': cpu = (long)parse_num("cpu", optarg, 0, 4095); break;
		case 'h': fputs(usage_text, stdout); exit(0);
		default:
			usage_error("unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!c->profile)
		usage_error("bench needs --profile quick|full");
	if (!c->out)
		usage_error("bench needs --out DIR");

	if (!strcmp(c->profile, "quick")) {
		c->samples = 10;
		c->warmup = 2;
		c->batches = 30;
		c->user_batch = 64;
		c->prog_k = 64;
		c->prog_repeat = 2;
		c->cont_repeat = 16;
		c->window_s = 0.2;
	} else if (!strcmp(c->profile, "full")) {
		c->samples = 30;
		c->warmup = 5;
		c->batches = 40;
		c->user_batch = 64;
		c->prog_k = 64;
		c->prog_repeat = 2;
		c->cont_repeat = 16;
		c->window_s = 1.0;
	} else {
		usage_error("unknown profile '%s' (expected quick or full)", c->profile);
	}
	c->cont_vsize = 4;
	if (samples > 0)
		c->samples = (size_t)samples;
	if (warmup >= 0)
		c->warmup = (size_t)warmup;

	each_item(maps, "--maps", add_kind, c);
	each_item(vs, "--value-sizes", add_vsize, c);
	each_item(threads, "--threads", add_threads, c);
	each_item(parts, "--parts", add_part, c);

	for (i = 0; i < c->n_vsizes; i++) {
		if (c->vsizes[i] == 0)
			usage_error("value size '0' is not allowed: the maps need at least 1 byte");
		for (k = 0; k < NKINDS; k++)
			if (c->kinds[k] && c->vsizes[i] > max_value_size(k))
				usage_error("value size '%u' is beyond the kernel's limit of %u bytes for %s maps",
					    c->vsizes[i], max_value_size(k), kind_name[k]);
	}
	c->ncpus = allowed_cpus();
	for (i = 0; i < c->n_threads; i++) {
		if (c->threads[i] == 0)
			usage_error("threads '0': at least one thread is needed");
		if (c->threads[i] > c->ncpus)
			usage_error("threads '%u' is beyond the %u vCPUs here (one pinned thread per vCPU)",
				    c->threads[i], c->ncpus);
	}
	if (cpu < 0)
		cpu = c->ncpus - 1;
	if ((unsigned long)cpu >= c->ncpus)
		usage_error("cpu '%ld' is beyond the %u vCPUs here", cpu, c->ncpus);
	c->cpu = (int)cpu;
	for (k = 0; k < NKINDS; k++)
		any |= c->kinds[k];
	if (!any)
		usage_error("--maps names no map");
}

/* ------------------------------------------------------------------------ */
/* Conformance                                                               */

static void fill_pattern(unsigned char *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + seed * 31 + (i >> 8));
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
	tap_eq_str(errname(rc < 0 ? -rc : 0), errname(err), what);
}

#define NCONF 8

static void conf_basic(enum kind k)
{
	const char *m = kind_name[k];
	char what[160];
	__u32 v, got, expect[NCONF];
	bool ok = true;
	int fd, rc, i, key = 0;

	snprintf(what, sizeof(what), "%s: key_size 4 is refused with EINVAL", m);
	rc = create(k, 4, 4, NCONF, 0);
	expect_err(rc, EINVAL, what);
	if (rc >= 0)
		close(rc);
	snprintf(what, sizeof(what), "%s: BPF_F_NO_PREALLOC is refused with EINVAL", m);
	rc = create(k, 0, 4, NCONF, BPF_F_NO_PREALLOC);
	expect_err(rc, EINVAL, what);
	if (rc >= 0)
		close(rc);
	snprintf(what, sizeof(what), "%s: value_size 0 is refused with EINVAL", m);
	rc = create(k, 0, 0, NCONF, 0);
	expect_err(rc, EINVAL, what);
	if (rc >= 0)
		close(rc);
	snprintf(what, sizeof(what), "%s: max_entries 0 is refused with EINVAL", m);
	rc = create(k, 0, 4, 0, 0);
	expect_err(rc, EINVAL, what);
	if (rc >= 0)
		close(rc);
	snprintf(what, sizeof(what), "%s: value_size %u (KMALLOC_MAX_SIZE + 1) is refused with E2BIG",
		 m, KMALLOC_MAX_SIZE + 1);
	rc = create(k, 0, KMALLOC_MAX_SIZE + 1, 1, 0);
	expect_err(rc, E2BIG, what);
	if (rc >= 0)
		close(rc);

	fd = create(k, 0, sizeof(__u32), NCONF, 0);
	snprintf(what, sizeof(what), "%s: a map of %d u32 values is created", m, NCONF);
	expect_err(fd < 0 ? fd : 0, 0, what);
	if (fd < 0)
		return;

	snprintf(what, sizeof(what), "%s: peek on the empty map fails with ENOENT", m);
	expect_err(bpf_map_lookup_elem(fd, NULL, &got), ENOENT, what);

	for (i = 0; i < NCONF; i++) {
		v = 100 + i;
		rc = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
		if (rc) {
			tap_fail("max_entries pushes succeed", "%s: push %d of %d: expected success, got %s",
				 m, i + 1, NCONF, errname(-rc));
			ok = false;
			break;
		}
	}
	if (ok)
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

	/* two pushes with BPF_EXIST on the full map drop the two oldest: 100, 101 */
	ok = true;
	for (i = 0; i < 2; i++) {
		v = 200 + i;
		rc = bpf_map_update_elem(fd, NULL, &v, BPF_EXIST);
		if (rc)
			ok = tap_fail("BPF_EXIST push", "%s: push with BPF_EXIST on the full map: expected success, got %s",
				      m, errname(-rc));
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
				 m, i + 1, expect[i], rc ? errname(-rc) : "", rc ? 0 : got);
		}
	}
	if (ok)
		tap_ok(true, "%s: BPF_EXIST replaced the oldest and pops come in %s order (%u %u ... %u)",
		       m, k == QUEUE ? "FIFO" : "LIFO", expect[0], expect[1], expect[NCONF - 1]);
	snprintf(what, sizeof(what), "%s: pop on the empty map fails with ENOENT", m);
	expect_err(bpf_map_lookup_and_delete_elem(fd, NULL, &got), ENOENT, what);
	snprintf(what, sizeof(what), "%s: delete fails with EINVAL", m);
	expect_err(bpf_map_delete_elem(fd, NULL), EINVAL, what);
	v = 1;
	bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
	snprintf(what, sizeof(what), "%s: get_next_key fails with EINVAL", m);
	expect_err(bpf_map_get_next_key(fd, NULL, &got), EINVAL, what);
	close(fd);

	/* max_entries 1 */
	fd = create(k, 0, sizeof(__u32), 1, 0);
	if (!tap_ok(fd >= 0, "%s: max_entries 1 is accepted", m))
		return;
	v = 1;
	rc = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
	v = 2;
	{
		int rc2 = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
		int rc3;

		v = 3;
		rc3 = bpf_map_update_elem(fd, NULL, &v, BPF_EXIST);
		got = 0;
		i = bpf_map_lookup_and_delete_elem(fd, NULL, &got);
		tap_ok(!rc && rc2 == -E2BIG && !rc3 && !i && got == 3,
		       "%s: max_entries 1: push ok, second push E2BIG, BPF_EXIST replaces, pop gives the new value%s",
		       m, (!rc && rc2 == -E2BIG && !rc3 && !i && got == 3) ? "" : " (not as expected)");
		if (!(!rc && rc2 == -E2BIG && !rc3 && !i && got == 3))
			tap_diag("expected push success, E2BIG, success, pop 3; got %s, %s, %s, pop %s %u",
				 errname(-rc), errname(-rc2), errname(-rc3), errname(-i), got);
	}
	snprintf(what, sizeof(what), "%s: max_entries 1: the map is empty again (pop ENOENT)", m);
	expect_err(bpf_map_lookup_and_delete_elem(fd, NULL, &got), ENOENT, what);
	close(fd);
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
		snprintf(detail, sizeof(detail), "pop 3: expected ENOENT, got %s", errname(rc < 0 ? -rc : 0));
		goto report;
	}
	rc = 0;
report:
	if (step)
		snprintf(detail, sizeof(detail), "%s: expected success, got %s", step, errname(-rc));
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

struct pkt {
	struct ethhdr eth;
	struct iphdr ip;
	unsigned char payload[20];
} __attribute__((packed));

/* The IPv4 header checksum of @hdr (20 bytes, any alignment) */
static __u16 ip_csum(const void *hdr)
{
	__u16 w[sizeof(struct iphdr) / 2];
	__u32 sum = 0;
	size_t i;

	memcpy(w, hdr, sizeof(w));
	for (i = 0; i < sizeof(w) / 2; i++)
		sum += w[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

static void make_pkt(struct pkt *p, __u32 saddr, __u32 daddr)
{
	memset(p, 0, sizeof(*p));
	memset(p->eth.h_dest, 0x02, ETH_ALEN);
	memset(p->eth.h_source, 0x04, ETH_ALEN);
	p->eth.h_proto = htons(ETH_P_IP);
	p->ip.version = 4;
	p->ip.ihl = 5;
	p->ip.ttl = 64;
	p->ip.protocol = 17;
	p->ip.tot_len = htons(sizeof(p->ip) + sizeof(p->payload));
	p->ip.saddr = saddr;
	p->ip.daddr = daddr;
	p->ip.check = ip_csum((const char *)p + sizeof(p->eth));
}

#define RELAY_N 32

/* The in-program case: the relay program moves map_in's values into daddr. */
static void conf_relay(enum kind k)
{
	const char *m = kind_name[k];
	struct bpfqs_bpf *skel;
	struct bpf_program *p;
	struct pkt in, out;
	__u32 v, expect;
	int fd_in, fd_out, prog, rc, i;
	bool ok_ret = true, ok_daddr = true, ok_csum = true, ok_out = true;

	skel = bpfqs_bpf__open();
	if (!skel) {
		tap_fail("relay", "%s: opening the BPF skeleton failed: %s", m, errname(errno));
		return;
	}
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.relay);
	bpf_map__set_type(skel->maps.map_in, kind_type[k]);
	bpf_map__set_type(skel->maps.map_out, kind_type[k]);
	rc = bpfqs_bpf__load(skel);
	if (!tap_ok(!rc, "%s: the relay program (SCHED_CLS) loads with map_in and map_out of type %s%s%s",
		    m, m, rc ? ": " : "", rc ? errname(-rc) : ""))
		goto out;
	fd_in = bpf_map__fd(skel->maps.map_in);
	fd_out = bpf_map__fd(skel->maps.map_out);
	prog = bpf_program__fd(skel->progs.relay);

	for (i = 0; i < RELAY_N; i++) {
		v = htonl(0xc6120200u + (unsigned int)i);	/* 198.18.2.i */
		if ((rc = bpf_map_update_elem(fd_in, NULL, &v, BPF_ANY))) {
			tap_fail("relay", "%s: pushing value %d into map_in: %s", m, i, errname(-rc));
			goto out;
		}
	}
	for (i = 0; i <= RELAY_N; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &in, .data_size_in = sizeof(in),
			    .data_out = &out, .data_size_out = sizeof(out), .repeat = 1);
		int j = k == QUEUE ? i : RELAY_N - 1 - i;

		make_pkt(&in, htonl(0x0a000001u + (unsigned int)i), htonl(0xc0000201u));
		memset(&out, 0, sizeof(out));
		rc = bpf_prog_test_run_opts(prog, &o);
		if (rc) {
			tap_fail("relay", "%s: BPF_PROG_TEST_RUN %d failed: %s", m, i + 1, errname(-rc));
			goto out;
		}
		if (i == RELAY_N)
			break;
		if (ok_ret && o.retval != TC_ACT_OK) {
			ok_ret = false;
			tap_diag("%s: run %d: expected TC_ACT_OK (0), got %u", m, i + 1, o.retval);
		}
		expect = htonl(0xc6120200u + (unsigned int)j);
		if (ok_daddr && out.ip.daddr != expect) {
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
	{
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &in, .data_size_in = sizeof(in), .repeat = 1);

		make_pkt(&in, htonl(0x0a0000ffu), htonl(0xc0000201u));
		rc = bpf_prog_test_run_opts(prog, &o);
		tap_eq_int(rc ? -1 : (long long)o.retval, TC_ACT_SHOT,
			   k == QUEUE ? "queue: run 33 on the empty map_in returns TC_ACT_SHOT (2)"
				      : "stack: run 33 on the empty map_in returns TC_ACT_SHOT (2)");
	}
	for (i = 0; i < RELAY_N; i++) {
		int j = k == QUEUE ? i : RELAY_N - 1 - i;

		rc = bpf_map_lookup_and_delete_elem(fd_out, NULL, &v);
		expect = htonl(0x0a000001u + (unsigned int)j);
		if (rc || v != expect) {
			ok_out = false;
			tap_diag("%s: map_out pop %d: expected saddr 10.0.0.%d, got %s %08x", m, i + 1, j + 1,
				 rc ? errname(-rc) : "", rc ? 0 : ntohl(v));
			break;
		}
	}
	if (ok_out && bpf_map_lookup_and_delete_elem(fd_out, NULL, &v) != -ENOENT) {
		ok_out = false;
		tap_diag("%s: map_out holds more than %d values", m, RELAY_N);
	}
	tap_ok(ok_out, "%s: map_out holds the %d saddrs in run order (popped %s)", m, RELAY_N,
	       k == QUEUE ? "first to last" : "last to first");
out:
	bpfqs_bpf__destroy(skel);
}

/*
 * Run this program with @args (NULL-terminated, after argv[0]); its exit
 * status and the first line of its stderr into @line.
 */
static int run_self(const char *const *args, char *line, size_t len)
{
	char *argv[16] = { "bpfqs" }, drain[256];
	posix_spawn_file_actions_t fa;
	int pfd[2], status = -1;
	size_t i, got = 0;
	ssize_t r;
	pid_t pid;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	line[0] = 0;
	if (pipe(pfd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	if (posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	while (got + 1 < len && (r = read(pfd[0], line + got, len - 1 - got)) > 0)
		got += (size_t)r;
	line[got] = 0;
	line[strcspn(line, "\n")] = 0;
	while (read(pfd[0], drain, sizeof(drain)) > 0)
		;
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Bad input: a usage error naming the value, exit code 2, before any BPF call */
static void conf_bad_input(void)
{
	char threads[16], quoted[24], line[512];
	struct {
		const char *what, *named;
		const char *args[12];
	} cases[] = {
		{ "an unknown map type", "'heap'",
		  { "bench", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--maps", "queue,heap", NULL } },
		{ "value size 0", "'0'",
		  { "bench", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--value-sizes", "4,0", NULL } },
		{ "a value size beyond the kernel's limit (KMALLOC_MAX_SIZE + 1)", "'4194305'",
		  { "bench", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--value-sizes", "4194305", NULL } },
		{ "more threads than vCPUs", quoted,
		  { "bench", "--profile", "quick", "--out", "/tmp/bpfqs-bad", "--threads", threads, NULL } },
		{ "an unknown profile", "'slow'",
		  { "bench", "--profile", "slow", "--out", "/tmp/bpfqs-bad", NULL } },
		{ "an unknown command", "'frobnicate'", { "frobnicate", NULL } },
	};
	size_t i;
	int rc;

	snprintf(threads, sizeof(threads), "%u", allowed_cpus() + 1);
	snprintf(quoted, sizeof(quoted), "'%s'", threads);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = run_self(cases[i].args, line, sizeof(line));
		if (rc == 2 && strstr(line, cases[i].named))
			tap_ok(true, "bad input: %s is refused with exit code 2, naming %s", cases[i].what,
			       cases[i].named);
		else
			tap_fail("bad input", "%s: expected exit code 2 and an error naming %s, got exit code %d and '%s'",
				 cases[i].what, cases[i].named, rc, line);
	}
	{
		struct stat st;

		tap_ok(stat("/tmp/bpfqs-bad", &st) != 0,
		       "bad input: nothing was created (no /tmp/bpfqs-bad results folder)");
	}
}

static int cmd_conformance(int argc, char **argv)
{
	static const unsigned int sizes[] = { 1, 2, 3, 4, 7, 8, 64, 4095, 4096, 65536, 1u << 20, KMALLOC_MAX_SIZE };
	enum kind k;
	size_t i;

	if (argc > 1)
		usage_error("conformance takes no arguments, got '%s'", argv[1]);
	tap_diag("BPF queue and stack maps: semantics from user space and from a SCHED_CLS program");
	for (k = QUEUE; k <= STACK; k++) {
		conf_basic(k);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			conf_value_size(k, sizes[i]);
		conf_relay(k);
	}
	conf_bad_input();
	return tap_finish();
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */

struct series {
	const char *metric;
	const char *unit;
	enum kind kind;
	char op[16];
	unsigned int vsize;		/* 0: none */
	unsigned int threads;		/* 0: none */
	bool shared;
	size_t warmup;			/* the first @warmup samples are dropped */
	size_t n;
	size_t cap;
	double *x;
	double *aux;			/* prog: the run's mean duration [ns] */
	double empty_ns;		/* prog: the empty loop's median [ns per run] */
	unsigned int k, repeat;		/* prog: operations per run, runs per call */
	struct stats st;		/* of the kept samples */
	bool have_st;
};

static struct series **all_series;
static size_t n_series;

static struct series *series_new(const char *metric, const char *unit, enum kind kind, const char *op,
				 unsigned int vsize, size_t warmup, size_t cap)
{
	struct series *s = calloc(1, sizeof(*s));
	struct series **grown = realloc(all_series, (n_series + 1) * sizeof(*all_series));

	if (!s || !grown || !(s->x = calloc(cap, sizeof(double))) || !(s->aux = calloc(cap, sizeof(double))))
		oom("series_new", cap * sizeof(double));
	all_series = grown;
	all_series[n_series++] = s;
	s->metric = metric;
	s->unit = unit;
	s->kind = kind;
	snprintf(s->op, sizeof(s->op), "%s", op ? op : "");
	s->vsize = vsize;
	s->warmup = warmup;
	s->cap = cap;
	return s;
}

static void series_add(struct series *s, double x, double aux)
{
	if (s->n < s->cap) {
		s->x[s->n] = x;
		s->aux[s->n] = aux;
		s->n++;
	}
}

static const double *kept(const struct series *s, size_t *n)
{
	*n = s->n;
	return stats_drop_warmup(s->x, n, s->warmup);
}

static int series_publish(struct out *o, struct series *s)
{
	const char *params[12];
	char vs[16], th[16];
	const double *x;
	size_t n, i = 0;

	params[i++] = "map";
	params[i++] = kind_name[s->kind];
	if (s->op[0]) {
		params[i++] = "op";
		params[i++] = s->op;
	}
	if (s->vsize) {
		snprintf(vs, sizeof(vs), "%u", s->vsize);
		params[i++] = "value_size";
		params[i++] = vs;
	}
	if (s->threads) {
		snprintf(th, sizeof(th), "%u", s->threads);
		params[i++] = "threads";
		params[i++] = th;
		params[i++] = "shared";
		params[i++] = s->shared ? "yes" : "no";
	}
	params[i] = NULL;
	x = kept(s, &n);
	s->have_st = n > 0 && !stats_compute(x, n, &s->st);
	return out_metric(o, s->metric, params, s->unit, x, n);
}

static struct series *find_series(const char *metric, enum kind k, const char *op, unsigned int vsize)
{
	size_t i;

	for (i = 0; i < n_series; i++) {
		struct series *s = all_series[i];

		if (!strcmp(s->metric, metric) && s->kind == k && !strcmp(s->op, op) && s->vsize == vsize)
			return s;
	}
	return NULL;
}

/* A failure that ends the benchmark: recorded, printed, then the run stops. */
static char failure[512];

static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	if (failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bpfqs: %s\n", failure);
}

static int pin(int cpu)
{
	int rc = pin_to_cpu(cpu);

	if (rc)
		fail("cannot pin to vCPU %d: %s", cpu, strerror(-rc));
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Batches, rounds and samples                                              */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n values; @x is sorted in place. */
static double median_inplace(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(double), cmp_double);
	return stats_percentile_sorted(x, n, 0.5);
}

static double median_of(const double *x, size_t n)
{
	double *t = malloc(n * sizeof(double)), m;

	if (!t)
		oom("median_of", n * sizeof(double));
	memcpy(t, x, n * sizeof(double));
	m = median_inplace(t, n);
	free(t);
	return m;
}

/*
 * The cost of one clock read pair (mono_ns(); mono_ns()), subtracted from
 * every user-space batch: the guest's clocksource may be one that traps
 * (hpet under TCG), where a read costs microseconds.
 */
static double clock_cost_ns;

static void measure_clock_cost(void)
{
	double d[101];
	size_t i;

	for (i = 0; i < 101; i++) {
		uint64_t a = mono_ns(), b = mono_ns();

		d[i] = (double)(b - a);
	}
	clock_cost_ns = median_inplace(d, 101);
}

/*
 * The measurement plan. Every single-thread figure is a "unit" (one map,
 * one value size, user space or in-program) measured in rounds: each round
 * runs one timed batch of every operation of every unit, so all figures see
 * the same host conditions. Under TCG on a shared host the vCPU's speed
 * switches between regimes for tens of milliseconds at a time (measured
 * here: an in-program 4-byte push at 130 ns or 210-250 ns); a figure
 * measured in one stretch would land in one regime by chance.
 *
 * The first warmup x batches rounds are the warm-up samples (consecutive
 * batches each). Then samples x batches rounds: round r belongs to sample
 * r mod samples, so each sample's batches are spread over the whole
 * measurement; a sample is its fastest batch (the cost when the host let
 * the vCPU run at full speed), anomalies left out (see ANOMALY_FRACTION).
 * Offline, on one run's batches, this gave the smallest CVs of the
 * estimators tried (fastest, 2nd and 3rd fastest, 10th percentile,
 * median). The batches themselves are in the *-batches.csv files.
 */
struct plan {
	size_t warmup, samples, batches;
	size_t rounds;		/* (warmup + samples) x batches */
};

/*
 * A batch faster than a third of the figure's median batch is taken for a
 * measurement anomaly and left out: the host's fast and slow periods differ
 * by a factor of about 2, but one run had a 4096-byte in-program push+pop
 * batch at an eighth of the median, which no host period explains.
 */
#define ANOMALY_FRACTION (1.0 / 3)

/* The floor below which a batch of the per-round values @v is an anomaly */
static double plan_floor(const struct plan *p, const double *v)
{
	return median_of(v, p->rounds) * ANOMALY_FRACTION;
}

/*
 * Sample @s (warm-up ones first) of the per-round values @v: the fastest
 * batch at or above @floor.
 */
static double plan_sample(const struct plan *p, const double *v, size_t s, double floor)
{
	double m = INFINITY;
	size_t b, r;

	for (b = 0; b < p->batches; b++) {
		if (s < p->warmup)
			r = s * p->batches + b;
		else
			r = p->warmup * p->batches + (s - p->warmup) + b * p->samples;
		if (v[r] >= floor && v[r] < m)
			m = v[r];
	}
	return m;
}

static size_t n_anomalies;

/* The sample a round belongs to, for the batches CSV */
static size_t plan_sample_of(const struct plan *p, size_t r)
{
	size_t w = p->warmup * p->batches;

	return r < w ? r / p->batches : p->warmup + (r - w) % p->samples;
}

#define MAX_OPS 4

/* One map of one value size, from user space or from programs */
struct unit {
	bool prog;
	enum kind kind;
	unsigned int vsize;
	size_t nops;
	const char *op[MAX_OPS];
	double *v[MAX_OPS];		/* per round: ns per operation (user) or per run (prog) */
	double *empty;			/* prog: per round, the empty loop's ns per run */
	double floor[MAX_OPS], floor_empty;	/* batches below are anomalies */
	/* user space */
	int fd;
	unsigned int b;			/* operations per batch */
	unsigned char *buf, *got;
	/* in-program */
	struct bpfqs_bpf *skel;
	struct bpf_program *progs[MAX_OPS];
	unsigned int kops, repeat;
};

static struct unit *units;
static size_t n_units;

static struct unit *unit_new(bool prog, enum kind k, unsigned int vsize, const struct plan *p)
{
	static const char *const user_ops[NKINDS][MAX_OPS] = {
		[QUEUE] = { "push", "peek", "pop" },
		[STACK] = { "push", "peek", "pop" },
		[ARRAY] = { "update", "lookup" },
		[HASH] = { "update", "lookup_delete" },
	};
	static const char *const prog_ops[NKINDS][MAX_OPS] = {
		[QUEUE] = { "push", "peek", "pop", "push_pop" },
		[STACK] = { "push", "peek", "pop", "push_pop" },
		[ARRAY] = { "update", "lookup" },
		[HASH] = { "update", "lookup_delete" },
	};
	struct unit *grown = realloc(units, (n_units + 1) * sizeof(*units)), *u;
	size_t j;

	if (!grown)
		oom("unit_new", (n_units + 1) * sizeof(*units));
	units = grown;
	u = &units[n_units++];
	memset(u, 0, sizeof(*u));
	u->prog = prog;
	u->kind = k;
	u->vsize = vsize;
	u->fd = -1;
	for (j = 0; j < MAX_OPS; j++) {
		u->op[j] = prog ? prog_ops[k][j] : user_ops[k][j];
		if (!u->op[j])
			break;
		u->nops++;
		if (!(u->v[j] = calloc(p->rounds, sizeof(double))))
			oom("unit_new", p->rounds * sizeof(double));
	}
	if (prog && !(u->empty = calloc(p->rounds, sizeof(double))))
		oom("unit_new", p->rounds * sizeof(double));
	return u;
}

/* ------------------------------------------------------------------------ */
/* From user space                                                          */

/*
 * A fresh map every MAP_ROUNDS rounds. One run measured a user-space 64-byte
 * queue push at twice its usual cost in every batch (CV 3 %) while the peek
 * on the same map was as usual; a value straddling a page boundary was
 * tested and ruled out, the cause is unknown. With a new map now and then
 * such a placement effect varies between the batches of a sample instead of
 * biasing a whole figure. Not every round: each closed map is freed later
 * by a kworker, work beside the measurement that fewer maps keep small.
 */
#define MAP_ROUNDS 30

static int user_map(struct unit *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = bpf_map_create(kind_type[u->kind], "bpfqs_user", u->kind == QUEUE || u->kind == STACK ? 0 : 4,
			       u->vsize, u->b, NULL);
	if (u->fd < 0) {
		fail("creating a %s map (value size %u, %u entries): %s", kind_name[u->kind], u->vsize, u->b,
		     errname(-u->fd));
		return u->fd;
	}
	return 0;
}

/*
 * A user-space unit: a map of @b values, new every MAP_ROUNDS. One round: @b
 * pushes (updates), @b peeks (lookups) of the now non-empty map, @b pops
 * (lookup-and-deletes) that empty it again; each batch timed, minus a clock
 * read pair.
 */
static int user_setup(const struct cfg *c, struct unit *u)
{
	unsigned int b = c->user_batch;

	/* big values: fewer operations per batch */
	if (b > 131072 / u->vsize)
		b = 131072 / u->vsize;
	if ((unsigned long long)b * u->vsize > MAP_BUDGET)
		b = MAP_BUDGET / u->vsize;
	u->b = b ? b : 1;
	/* page-aligned values: the same placement within a page in every run */
	if (posix_memalign((void **)&u->buf, 4096, u->vsize))
		u->buf = NULL;
	if (posix_memalign((void **)&u->got, 4096, u->vsize))
		u->got = NULL;
	if (!u->buf || !u->got) {
		fail("out of memory for value size %u", u->vsize);
		return -ENOMEM;
	}
	fill_pattern(u->buf, u->vsize, 3);
	return user_map(u);
}

static int user_round(struct unit *u, size_t r)
{
	enum kind k = u->kind;
	bool qs = k == QUEUE || k == STACK;
	unsigned int i = 0;
	size_t j;
	int rc = 0;

	if (r > 0 && r % MAP_ROUNDS == 0 && user_map(u))
		return -1;

	for (j = 0; j < u->nops && !rc; j++) {
		uint64_t t0 = mono_ns(), t1;

		for (i = 0; i < u->b && !rc; i++) {
			if (j == 0)
				rc = bpf_map_update_elem(u->fd, qs ? NULL : &i, u->buf,
							 k == HASH ? BPF_NOEXIST : BPF_ANY);
			else if (qs && j == 1)
				rc = bpf_map_lookup_elem(u->fd, NULL, u->got);
			else if (qs)
				rc = bpf_map_lookup_and_delete_elem(u->fd, NULL, u->got);
			else if (k == ARRAY)
				rc = bpf_map_lookup_elem(u->fd, &i, u->got);
			else
				rc = bpf_map_lookup_and_delete_elem(u->fd, &i, u->got);
		}
		t1 = mono_ns();
		u->v[j][r] = ((double)(t1 - t0) - clock_cost_ns) / u->b;
	}
	if (rc)
		fail("user space %s map, value size %u: %s %u of round %zu failed: %s", kind_name[k], u->vsize,
		     u->op[j - 1], i, r, errname(-rc));
	return rc;
}

/* ------------------------------------------------------------------------ */
/* From BPF programs                                                        */

static struct pkt bench_pkt;

/* One BPF_PROG_TEST_RUN of @prog with @repeat runs: the mean ns per run. */
static int test_run(struct bpfqs_bpf *skel, struct bpf_program *prog, unsigned int repeat, double *ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &bench_pkt, .data_size_in = sizeof(bench_pkt),
		    .repeat = repeat);
	int rc = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);

	if (rc)
		return rc;
	if (o.retval != TC_ACT_OK || skel->bss->errors) {
		fprintf(stderr, "bpfqs: %s: retval %u, %llu failed operations\n", bpf_program__name(prog),
			o.retval, (unsigned long long)skel->bss->errors);
		skel->bss->errors = 0;
		return -EIO;
	}
	*ns = o.duration;
	return 0;
}

static unsigned int pow2_floor(unsigned int x)
{
	unsigned int p = 1;

	while (p * 2 <= x && p * 2 != 0)
		p *= 2;
	return p;
}

/*
 * A skeleton for @k (queue or stack: qs; array: arr; hash: hsh), value size
 * @vsize, @kops operations per program run and capacity @cap, loading only the
 * programs it needs. @share: an fd of an existing qs map to use instead.
 */
static struct bpfqs_bpf *bench_skel(enum kind k, unsigned int vsize, unsigned int kops, unsigned int cap,
				    int share)
{
	struct bpfqs_bpf *skel = bpfqs_bpf__open();
	struct bpf_program *p;
	int rc;

	if (!skel) {
		fail("opening the BPF skeleton: %s", errname(errno));
		return NULL;
	}
	bpf_object__for_each_program(p, skel->obj) {
		const char *name = bpf_program__name(p);
		bool load;

		if (!strcmp(name, "bench_empty"))
			load = true;
		else if (k == ARRAY)
			load = !strncmp(name, "bench_arr_", 10);
		else if (k == HASH)
			load = !strncmp(name, "bench_hash_", 11);
		else
			load = !strcmp(name, "bench_push") || !strcmp(name, "bench_pop") ||
			       !strcmp(name, "bench_peek") || !strcmp(name, "bench_push_pop");
		bpf_program__set_autoload(p, load);
	}
	bpf_map__set_value_size(skel->maps.scratch, vsize);
	if (k == QUEUE || k == STACK) {
		bpf_map__set_type(skel->maps.qs, kind_type[k]);
		bpf_map__set_value_size(skel->maps.qs, vsize);
		bpf_map__set_max_entries(skel->maps.qs, cap);
		if (share >= 0 && (rc = bpf_map__reuse_fd(skel->maps.qs, share))) {
			fail("reusing the shared %s map: %s", kind_name[k], errname(-rc));
			goto err;
		}
	} else if (k == ARRAY) {
		bpf_map__set_value_size(skel->maps.arr, vsize);
		bpf_map__set_max_entries(skel->maps.arr, kops);
	} else {
		bpf_map__set_value_size(skel->maps.hsh, vsize);
		bpf_map__set_max_entries(skel->maps.hsh, cap);
	}
	skel->data->loop_k = kops;
	skel->bss->arr_mask = kops - 1;
	rc = bpfqs_bpf__load(skel);
	if (rc) {
		fail("loading the %s benchmark programs (value size %u): %s", kind_name[k], vsize, errname(-rc));
		goto err;
	}
	return skel;
err:
	bpfqs_bpf__destroy(skel);
	return NULL;
}


/*
 * An in-program unit: the programs of one map and value size, K operations
 * per run, @repeat runs per BPF_PROG_TEST_RUN call, the map holding
 * K x repeat values. One round: one call of the empty loop, then one of
 * each operation: the pushes fill the map, the peeks read it full, the pops
 * empty it, the push+pop pairs leave it empty (hash: updates insert keys
 * 0..cap-1, lookup-deletes remove them). A figure is (the sample's ns per
 * run - the median of the empty loop's samples) / K.
 */
static int prog_setup(const struct cfg *c, struct unit *u)
{
	unsigned int kops = c->prog_k, repeat = c->prog_repeat;

	/* keep the map within the memory budget: fewer operations per call */
	if ((unsigned long long)kops * u->vsize > MAP_BUDGET)
		kops = pow2_floor(MAP_BUDGET / u->vsize ? MAP_BUDGET / u->vsize : 1);
	if ((unsigned long long)kops * repeat * u->vsize > MAP_BUDGET)
		repeat = MAP_BUDGET / ((unsigned long long)kops * u->vsize) ?: 1;
	u->kops = kops;
	u->repeat = repeat;
	u->skel = bench_skel(u->kind, u->vsize, kops, kops * repeat, -1);
	if (!u->skel)
		return -1;
	if (u->kind == ARRAY) {
		u->progs[0] = u->skel->progs.bench_arr_update;
		u->progs[1] = u->skel->progs.bench_arr_lookup;
	} else if (u->kind == HASH) {
		u->progs[0] = u->skel->progs.bench_hash_update;
		u->progs[1] = u->skel->progs.bench_hash_lookup_delete;
	} else {
		u->progs[0] = u->skel->progs.bench_push;
		u->progs[1] = u->skel->progs.bench_peek;
		u->progs[2] = u->skel->progs.bench_pop;
		u->progs[3] = u->skel->progs.bench_push_pop;
	}
	return 0;
}

static int prog_round(struct unit *u, size_t r)
{
	size_t j;
	int rc;

	rc = test_run(u->skel, u->skel->progs.bench_empty, u->repeat, &u->empty[r]);
	for (j = 0; j < u->nops && !rc; j++) {
		u->skel->bss->next_key = 0;
		rc = test_run(u->skel, u->progs[j], u->repeat, &u->v[j][r]);
	}
	if (rc)
		fail("in-program %s, value size %u: BPF_PROG_TEST_RUN of %s in round %zu failed: %s",
		     kind_name[u->kind], u->vsize, j ? u->op[j - 1] : "the empty loop", r, errname(-rc));
	return rc;
}

static void unit_free(struct unit *u)
{
	size_t j;

	if (u->fd >= 0)
		close(u->fd);
	bpfqs_bpf__destroy(u->skel);
	free(u->buf);
	free(u->got);
	for (j = 0; j < u->nops; j++)
		free(u->v[j]);
	free(u->empty);
}

/* The samples of every unit into series */
static void units_to_series(const struct plan *p)
{
	size_t i, j, s, r, total = p->warmup + p->samples, en;
	const double *ek;

	for (i = 0; i < n_units; i++) {
		struct unit *u = &units[i];
		struct series *e = NULL;
		double empty = 0, floor;

		if (u->prog) {
			e = series_new("prog_empty_ns_per_run", "ns", u->kind, NULL, u->vsize, p->warmup, total);
			e->k = u->kops;
			e->repeat = u->repeat;
			u->floor_empty = floor = plan_floor(p, u->empty);
			for (s = 0; s < total; s++) {
				double x = plan_sample(p, u->empty, s, floor);

				series_add(e, x, x);
			}
			for (r = 0; r < p->rounds; r++)
				n_anomalies += u->empty[r] < floor;
			ek = kept(e, &en);	/* sets en: not in the same call (unspecified order) */
			empty = median_of(ek, en);
			e->empty_ns = empty;
		}
		for (j = 0; j < u->nops; j++) {
			struct series *x = series_new(u->prog ? "prog_ns_per_op" : "user_ns_per_op", "ns", u->kind,
						      u->op[j], u->vsize, p->warmup, total);

			x->k = u->prog ? u->kops : u->b;
			x->repeat = u->prog ? u->repeat : 1;
			x->empty_ns = empty;
			u->floor[j] = floor = plan_floor(p, u->v[j]);
			for (r = 0; r < p->rounds; r++)
				n_anomalies += u->v[j][r] < floor;
			for (s = 0; s < total; s++) {
				double v = plan_sample(p, u->v[j], s, floor);

				if (u->prog)
					series_add(x, (v - empty) / u->kops, v);
				else
					series_add(x, v, v);
			}
		}
	}
	if (n_anomalies)
		fprintf(stderr, "bpfqs: %zu batches faster than a third of their figure's median batch left out "
			"(anomalies; marked in the *-batches.csv files)\n", n_anomalies);
}

/* Every batch, for the record: user-batches.csv and prog-batches.csv */
static int write_batches(const struct cfg *c, const struct plan *p)
{
	struct atomic_file f;
	size_t i, j, r;
	int rc = 0, path;

	for (path = 0; path < 2; path++) {
		if (csv_open(&f, c->out, path ? "prog-batches.csv" : "user-batches.csv",
			     path ? "map,op,value_size,round,sample,warmup,k,repeat,ns_per_run,anomaly"
				  : "map,op,value_size,round,sample,warmup,batch_ops,ns_per_op,anomaly"))
			return -1;
		for (i = 0; i < n_units; i++) {
			struct unit *u = &units[i];

			if (u->prog != (path == 1))
				continue;
			for (j = 0; j <= u->nops; j++) {
				const double *v = j < u->nops ? u->v[j] : u->empty;
				const char *op = j < u->nops ? u->op[j] : "empty";
				double floor = j < u->nops ? u->floor[j] : u->floor_empty;

				if (!v)
					continue;
				for (r = 0; r < p->rounds; r++) {
					size_t s = plan_sample_of(p, r);

					if (path)
						fprintf(f.f, "%s,%s,%u,%zu,%zu,%d,%u,%u,%.0f,%d\n", kind_name[u->kind], op,
							u->vsize, r, s, s < p->warmup, u->kops, u->repeat, v[r],
							v[r] < floor);
					else
						fprintf(f.f, "%s,%s,%u,%zu,%zu,%d,%u,%.3f,%d\n", kind_name[u->kind], op,
							u->vsize, r, s, s < p->warmup, u->b, v[r], v[r] < floor);
				}
			}
		}
		rc |= atomic_commit(&f);
	}
	return rc;
}

/*
 * The single-thread figures: set every unit up, run the rounds, turn them
 * into series. Progress on stderr every tenth of the rounds.
 */
static void bench_single(const struct cfg *c)
{
	struct plan p = { c->warmup, c->samples, c->batches, (c->warmup + c->samples) * c->batches };
	size_t i, r;
	int k, path;
	uint64_t t0 = mono_ns();

	for (path = 0; path < 2; path++) {
		if (!(path ? c->part_prog : c->part_user))
			continue;
		for (k = 0; k < NKINDS; k++)
			for (i = 0; i < c->n_vsizes && c->kinds[k]; i++) {
				struct unit *u = unit_new(path == 1, k, c->vsizes[i], &p);

				if (path ? prog_setup(c, u) : user_setup(c, u))
					goto out;
			}
	}
	fprintf(stderr, "bpfqs: %zu units set up in %.1f s; %zu rounds\n", n_units, (mono_ns() - t0) / 1e9,
		p.rounds);
	for (r = 0; r < p.rounds && !failure[0]; r++) {
		for (i = 0; i < n_units && !failure[0]; i++)
			if (units[i].prog ? prog_round(&units[i], r) : user_round(&units[i], r))
				break;
		if ((r + 1) % (p.rounds / 10 ? p.rounds / 10 : 1) == 0)
			fprintf(stderr, "bpfqs: round %zu of %zu after %.1f s\n", r + 1, p.rounds,
				(mono_ns() - t0) / 1e9);
	}
	if (!failure[0]) {
		units_to_series(&p);
		if (write_batches(c, &p))
			fail("writing the batches CSV files into %s failed", c->out);
	}
out:
	for (i = 0; i < n_units; i++)
		unit_free(&units[i]);
	free(units);
	units = NULL;
	n_units = 0;
}

/* ------------------------------------------------------------------------ */
/* Contention                                                               */

#define MAX_CALLS 65536

struct worker {
	pthread_t tid;
	int cpu;
	struct bpfqs_bpf *skel;
	unsigned int repeat;
	double window_s;
	pthread_barrier_t *start;
	double *call_ns;		/* each call's mean ns per run */
	/* results of one window */
	unsigned int calls;
	unsigned long long ops;
	double seconds;
	int rc;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int per_call = 2 * w->skel->data->loop_k * w->repeat;
	uint64_t t0, t1, end;
	double ns;

	w->ops = 0;
	w->calls = 0;
	w->seconds = 0;
	w->rc = pin_to_cpu(w->cpu);
	pthread_barrier_wait(w->start);
	if (w->rc)
		return NULL;
	t0 = t1 = mono_ns();
	end = t0 + (uint64_t)(w->window_s * 1e9);
	do {
		w->rc = test_run(w->skel, w->skel->progs.bench_push_pop, w->repeat, &ns);
		if (w->rc)
			break;
		if (w->calls < MAX_CALLS)
			w->call_ns[w->calls++] = ns;
		w->ops += per_call;
		t1 = mono_ns();
	} while (t1 < end);
	w->seconds = (double)(t1 - t0) / 1e9;
	return NULL;
}

/* One contention configuration: a map type, P threads, shared map or not */
struct cont {
	enum kind kind;
	unsigned int nthreads;
	bool shared;
	struct worker w[MAX_LIST];
	unsigned int made;
	struct series *agg, *per, *run;
};

static int cont_setup(const struct cfg *c, struct cont *x)
{
	size_t total = c->warmup + c->samples;
	int share = -1;
	unsigned int i;

	x->agg = series_new("contended_mops", "Mops/s", x->kind, NULL, 0, c->warmup, total);
	x->per = series_new("contended_thread_mops", "Mops/s", x->kind, NULL, 0, c->warmup * x->nthreads,
			    total * x->nthreads);
	x->run = series_new("contended_running_mops", "Mops/s", x->kind, NULL, 0, c->warmup, total);
	x->agg->threads = x->run->threads = x->per->threads = x->nthreads;
	x->agg->shared = x->run->shared = x->per->shared = x->shared;
	x->agg->k = x->run->k = x->per->k = c->prog_k;
	x->agg->repeat = x->run->repeat = x->per->repeat = c->cont_repeat;
	for (i = 0; i < x->nthreads; i++) {
		struct worker *w = &x->w[i];

		w->skel = bench_skel(x->kind, c->cont_vsize, c->prog_k, 64, x->shared ? share : -1);
		if (!w->skel)
			return -1;
		x->made++;
		if (x->shared && share < 0)
			share = bpf_map__fd(w->skel->maps.qs);
		w->cpu = (int)i;
		w->repeat = c->cont_repeat;
		w->window_s = c->window_s;
		if (!(w->call_ns = calloc(MAX_CALLS, sizeof(double)))) {
			fail("out of memory");
			return -1;
		}
	}
	return 0;
}

/*
 * One window: P threads, thread i pinned to vCPU i, each running the
 * in-program push+pop loop (push and pop count as one operation each).
 * contended_mops: all threads' operations over the window's wall time;
 * contended_thread_mops: each thread's operations over its own wall time;
 * contended_running_mops: the sum of the threads' rates in their median
 * call (2 K operations per run over the kernel's mean ns per run), the
 * throughput while the vCPUs run, without the time the host took them away.
 */
static int cont_window(struct cont *x)
{
	pthread_barrier_t start;
	double wall = 0, sum = 0, rates = 0;
	unsigned int i;
	int rc;

	if (pthread_barrier_init(&start, NULL, x->nthreads + 1)) {
		fail("pthread_barrier_init failed");
		return -1;
	}
	for (i = 0; i < x->nthreads; i++) {
		x->w[i].start = &start;
		if ((rc = pthread_create(&x->w[i].tid, NULL, worker_main, &x->w[i]))) {
			fprintf(stderr, "bpfqs: pthread_create: %s\n", strerror(rc));
			exit(1);
		}
	}
	pthread_barrier_wait(&start);
	for (i = 0; i < x->nthreads; i++)
		pthread_join(x->w[i].tid, NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < x->nthreads; i++) {
		struct worker *w = &x->w[i];
		double r;

		if (w->rc || !w->calls) {
			fail("contention, %s, %u threads, %s: thread %u: %s", kind_name[x->kind], x->nthreads,
			     x->shared ? "shared map" : "per-thread maps", i,
			     w->rc ? errname(-w->rc) : "no call finished");
			return -1;
		}
		if (w->seconds > wall)
			wall = w->seconds;
		sum += (double)w->ops;
		r = 2.0 * x->agg->k / median_inplace(w->call_ns, w->calls) * 1e3;
		rates += r;
		series_add(x->per, (double)w->ops / w->seconds / 1e6, w->cpu);
	}
	series_add(x->agg, sum / wall / 1e6, wall);
	series_add(x->run, rates, wall);
	return 0;
}

/*
 * Every contention configuration, measured round-robin: sample s of every
 * configuration, then sample s + 1, so that all see the same host.
 */
static void bench_contention(const struct cfg *c)
{
	size_t total = c->warmup + c->samples, s, n = 0, i;
	struct cont *x = calloc(2 * 2 * c->n_threads, sizeof(*x));
	int k, sh;
	uint64_t t0 = mono_ns();

	if (!x) {
		fail("out of memory");
		return;
	}
	for (k = QUEUE; k <= STACK; k++)
		for (sh = 0; sh < 2 && c->kinds[k]; sh++)
			for (i = 0; i < c->n_threads; i++) {
				x[n].kind = k;
				x[n].nthreads = c->threads[i];
				x[n].shared = sh;
				if (cont_setup(c, &x[n++]))
					goto out;
			}
	fprintf(stderr, "bpfqs: %zu contention configurations set up in %.1f s\n", n, (mono_ns() - t0) / 1e9);
	for (s = 0; s < total && !failure[0]; s++) {
		for (i = 0; i < n && !failure[0]; i++)
			cont_window(&x[i]);
		fprintf(stderr, "bpfqs: contention sample %zu of %zu after %.1f s\n", s + 1, total,
			(mono_ns() - t0) / 1e9);
	}
out:
	for (i = 0; i < n; i++) {
		unsigned int t;

		for (t = 0; t < x[i].made; t++) {
			bpfqs_bpf__destroy(x[i].w[t].skel);
			free(x[i].w[t].call_ns);
		}
	}
	free(x);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                   */

static int cmp_series(const void *a, const void *b)
{
	const struct series *x = all_series[*(const size_t *)a], *y = all_series[*(const size_t *)b];
	int d;

	if ((d = strcmp(x->metric, y->metric)) || (d = (int)x->kind - (int)y->kind) || (d = strcmp(x->op, y->op)))
		return d;
	if (x->vsize != y->vsize)
		return x->vsize < y->vsize ? -1 : 1;
	if (x->shared != y->shared)
		return x->shared ? 1 : -1;
	return x->threads < y->threads ? -1 : x->threads > y->threads;
}

/*
 * The series in the order the figures' CSV files need: by metric, map, op,
 * then value size, shared and threads ascending, so that each line of a
 * figure is a run of consecutive rows. Free the result.
 */
static size_t *series_sorted(void)
{
	size_t *ix = malloc((n_series ? n_series : 1) * sizeof(*ix)), i;

	if (!ix)
		oom("series_sorted", n_series * sizeof(*ix));
	for (i = 0; i < n_series; i++)
		ix[i] = i;
	qsort(ix, n_series, sizeof(*ix), cmp_series);
	return ix;
}

/* The run's parameters, for the record */
static int write_setup(const struct cfg *c)
{
	struct atomic_file f;

	if (csv_open(&f, c->out, "setup.csv", "name,value"))
		return -1;
	fprintf(f.f, "profile,%s\nsamples,%zu\nwarmup,%zu\nbatches_per_sample,%u\n", c->profile, c->samples,
		c->warmup, c->batches);
	fprintf(f.f, "user_ops_per_batch_max,%u\nprog_ops_per_run,%u\nprog_runs_per_call,%u\n", c->user_batch,
		c->prog_k, c->prog_repeat);
	fprintf(f.f, "contention_runs_per_call,%u\ncontention_window_s,%.3f\ncontention_value_size,%u\n",
		c->cont_repeat, c->window_s, c->cont_vsize);
	fprintf(f.f, "sample,fastest of its batches not below a third of the figure's median batch; batches spread over the whole measurement (round r: sample r mod samples)\n");
	fprintf(f.f, "vcpus,%u\nsingle_thread_vcpu,%d\nclock_pair_ns,%.1f\ncv_target_pct,%.0f\n", c->ncpus, c->cpu,
		clock_cost_ns, CV_TARGET * 100);
	return atomic_commit(&f);
}

static int write_csvs(const struct cfg *c)
{
	struct atomic_file f;
	size_t i, j;
	int rc = 0;

	/* raw samples */
	if (!csv_open(&f, c->out, "user-samples.csv", "map,op,value_size,sample,warmup,batch_ops,ns_per_op")) {
		for (i = 0; i < n_series; i++) {
			struct series *s = all_series[i];

			if (strcmp(s->metric, "user_ns_per_op"))
				continue;
			for (j = 0; j < s->n; j++)
				fprintf(f.f, "%s,%s,%u,%zu,%d,%u,%.3f\n", kind_name[s->kind], s->op, s->vsize, j,
					j < s->warmup, s->k, s->x[j]);
		}
		rc |= atomic_commit(&f);
	} else {
		rc = -1;
	}
	if (!csv_open(&f, c->out, "prog-samples.csv",
		      "map,op,value_size,sample,warmup,k,repeat,run_ns,empty_median_ns,ns_per_op")) {
		for (i = 0; i < n_series; i++) {
			struct series *s = all_series[i];

			if (strcmp(s->metric, "prog_ns_per_op") && strcmp(s->metric, "prog_empty_ns_per_run"))
				continue;
			for (j = 0; j < s->n; j++)
				fprintf(f.f, "%s,%s,%u,%zu,%d,%u,%u,%.0f,%.1f,%.3f\n", kind_name[s->kind],
					s->op[0] ? s->op : "empty", s->vsize, j, j < s->warmup, s->k, s->repeat,
					s->aux[j], s->empty_ns, s->op[0] ? s->x[j] : s->x[j] / s->k);
		}
		rc |= atomic_commit(&f);
	} else {
		rc = -1;
	}
	if (!csv_open(&f, c->out, "contention-samples.csv",
		      "map,threads,shared,sample,warmup,what,cpu,mops")) {
		for (i = 0; i < n_series; i++) {
			struct series *s = all_series[i];
			const char *what = !strcmp(s->metric, "contended_mops") ? "aggregate"
					 : !strcmp(s->metric, "contended_running_mops") ? "running"
					 : !strcmp(s->metric, "contended_thread_mops") ? "thread" : NULL;
			bool thr = what && !strcmp(what, "thread");

			if (!what)
				continue;
			for (j = 0; j < s->n; j++)
				fprintf(f.f, "%s,%u,%s,%zu,%d,%s,%.0f,%.4f\n", kind_name[s->kind], s->threads,
					s->shared ? "yes" : "no", thr ? j / s->threads : j, j < s->warmup, what,
					thr ? s->aux[j] : -1.0, s->x[j]);
		}
		rc |= atomic_commit(&f);
	} else {
		rc = -1;
	}

	/* per figure: median and spread, what the plots read */
	if (!csv_open(&f, c->out, "ns-per-op.csv",
		      "path,map,op,value_size,n,median,mean,stddev,min,max,cv_pct")) {
		size_t *ix = series_sorted();

		for (i = 0; i < n_series; i++) {
			struct series *s = all_series[ix[i]];
			const char *path = !strcmp(s->metric, "user_ns_per_op") ? "user"
					 : !strcmp(s->metric, "prog_ns_per_op") ? "prog" : NULL;

			if (!path || !s->have_st)
				continue;
			fprintf(f.f, "%s,%s,%s,%u,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f\n", path, kind_name[s->kind],
				s->op, s->vsize, s->st.n, s->st.median, s->st.mean, s->st.stddev, s->st.min,
				s->st.max, s->st.cv * 100);
		}
		free(ix);
		rc |= atomic_commit(&f);
	} else {
		rc = -1;
	}
	if (!csv_open(&f, c->out, "contention.csv",
		      "map,threads,shared,n,median,stddev,min,max,thread_n,thread_median,thread_stddev,thread_min,thread_max,"
		      "running_median,running_stddev,running_min,running_max")) {
		for (i = 0; i < n_series; i++) {
			struct series *s = all_series[i], *t = NULL, *w = NULL;

			if (strcmp(s->metric, "contended_mops") || !s->have_st)
				continue;
			for (j = 0; j < n_series; j++) {
				struct series *o = all_series[j];

				if (o->kind != s->kind || o->threads != s->threads || o->shared != s->shared)
					continue;
				if (!strcmp(o->metric, "contended_thread_mops"))
					t = o;
				else if (!strcmp(o->metric, "contended_running_mops"))
					w = o;
			}
			if (!t || !t->have_st || !w || !w->have_st)
				continue;
			fprintf(f.f, "%s,%u,%s,%zu,%.4f,%.4f,%.4f,%.4f,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
				kind_name[s->kind], s->threads, s->shared ? "yes" : "no", s->st.n, s->st.median,
				s->st.stddev, s->st.min, s->st.max, t->st.n, t->st.median, t->st.stddev, t->st.min,
				t->st.max, w->st.median, w->st.stddev, w->st.min, w->st.max);
		}
		rc |= atomic_commit(&f);
	} else {
		rc = -1;
	}
	return rc;
}

/*
 * Whether an in-program figure is below what the empty-loop subtraction
 * resolves: not above zero, within 3 sd of the empty loop, or under a third
 * of the empty loop's cost per iteration. The last because the two loops'
 * code differs: across runs here the verifier-inlined array lookup came out
 * anywhere between -10 and +22 ns against an empty loop of 30-45 ns per
 * iteration.
 */
static bool below_resolution(const struct series *s, const struct series **empty)
{
	const struct series *e = find_series("prog_empty_ns_per_run", s->kind, "", s->vsize);

	*empty = e;
	if (strcmp(s->metric, "prog_ns_per_op") || !e || !e->have_st || !s->have_st)
		return false;
	return s->st.median <= 0 || s->st.median <= 3 * e->st.stddev / s->k ||
	       s->st.median < e->st.median / s->k / 3;
}

/* syscall_prog_ratio: user space ns/op over in-program ns/op, sample by sample */
static int publish_ratios(struct out *o, const struct cfg *c)
{
	struct atomic_file f;
	size_t i, j, *ix, n_before = n_series;
	int rc = 0;

	if (csv_open(&f, c->out, "ratio.csv",
		     "map,op,value_size,n,user_median,prog_median,ratio_median,ratio_min,ratio_max,note"))
		return -1;
	ix = series_sorted();
	for (i = 0; i < n_before; i++) {
		struct series *u = all_series[ix[i]], *p, *r;
		const struct series *e;
		const double *xu, *xp;
		size_t nu, np, n;

		if (strcmp(u->metric, "user_ns_per_op"))
			continue;
		p = find_series("prog_ns_per_op", u->kind, u->op, u->vsize);
		if (!p || !u->have_st || !p->have_st)
			continue;
		if (below_resolution(p, &e)) {
			fprintf(f.f, "%s,%s,%u,0,%.3f,%.3f,,,,in-program cost below the resolution: no ratio\n",
				kind_name[u->kind], u->op, u->vsize, u->st.median, p->st.median);
			continue;
		}
		xu = kept(u, &nu);
		xp = kept(p, &np);
		n = nu < np ? nu : np;
		r = series_new("syscall_prog_ratio", "ratio", u->kind, u->op, u->vsize, 0, n ? n : 1);
		for (j = 0; j < n; j++)
			if (xp[j] > 0)
				series_add(r, xu[j] / xp[j], 0);
		rc |= series_publish(o, r);
		if (r->have_st)
			fprintf(f.f, "%s,%s,%u,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,\n", kind_name[u->kind], u->op, u->vsize,
				r->st.n, u->st.median, p->st.median, r->st.median, r->st.min, r->st.max);
	}
	free(ix);
	rc |= atomic_commit(&f);
	return rc;
}

/* Why a figure missed the CV target, from its own samples */
static void cv_reason(const struct cfg *c, const struct series *s, char *buf, size_t len)
{
	const struct series *e = NULL;
	const double *x;
	size_t n, i, out = 0;

	if (below_resolution(s, &e)) {
		snprintf(buf, len, "below the resolution: %.1f ns per operation against an empty loop of %.1f ns "
			 "per iteration (sd %.1f), whose code differs from the measured loop's by more than that%s",
			 s->st.median, e->st.median / s->k, e->st.stddev / s->k,
			 s->kind == ARRAY && !strcmp(s->op, "lookup") ?
			 "; the verifier inlines array lookups into a few instructions" : "");
		return;
	}
	if (!strcmp(s->metric, "contended_mops")) {
		snprintf(buf, len, "wall-clock throughput: it includes the time the host takes the vCPUs away "
			 "(%u vCPUs under TCG; see meta.json for the host)", c->ncpus);
		return;
	}
	x = kept(s, &n);
	for (i = 0; i < n; i++)
		out += fabs(x[i] - s->st.median) > 0.1 * fabs(s->st.median);
	snprintf(buf, len, "host noise: %zu of %zu samples lie more than 10%% from the median (min %.4g, max %.4g)%s",
		 out, n, s->st.min, s->st.max,
		 strcmp(s->metric, "contended_running_mops") ?
		 ": no batch of the slow samples ran in a fast host period (see the *-batches.csv files)" :
		 ": the windows' median calls ran in different host periods");
}

/* The CV target: every ns/op and Mops/s figure, flagged where it is missed */
static int write_cv(const struct cfg *c)
{
	struct atomic_file f, md;
	size_t i, over = 0, all = 0;
	char reason[400], path[4096], vs[16], th[16];

	if (csv_open(&f, c->out, "cv.csv",
		     "metric,map,op,value_size,threads,shared,n,median,cv_pct,target_pct,met,reason"))
		return -1;
	snprintf(path, sizeof(path), "%s/notes.md", c->out);
	if (atomic_open(&md, path)) {
		atomic_abort(&f);
		return -1;
	}
	fprintf(md.f, "## bpfqs: figures that missed the CV target of %.0f %%\n\n", CV_TARGET * 100);
	fprintf(md.f, "| metric | map | op | value_size | threads | shared | n | median | CV %% | reason |\n");
	fprintf(md.f, "|---|---|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < n_series; i++) {
		struct series *s = all_series[i];
		bool met;

		if (!s->have_st || !strcmp(s->metric, "syscall_prog_ratio") ||
		    !strcmp(s->metric, "contended_thread_mops"))
			continue;
		met = s->st.cv <= CV_TARGET;
		all++;
		over += !met;
		reason[0] = 0;
		if (!met)
			cv_reason(c, s, reason, sizeof(reason));
		fprintf(f.f, "%s,%s,%s,%u,%u,%s,%zu,%.3f,%.2f,%.0f,%s,\"%s\"\n", s->metric, kind_name[s->kind], s->op,
			s->vsize, s->threads, s->threads ? (s->shared ? "yes" : "no") : "", s->st.n, s->st.median,
			s->st.cv * 100, CV_TARGET * 100, met ? "yes" : "no", reason);
		if (!met) {
			snprintf(vs, sizeof(vs), "%u", s->vsize);
			snprintf(th, sizeof(th), "%u", s->threads);
			fprintf(md.f, "| %s | %s | %s | %s | %s | %s | %zu | %.4g | %.1f | %s |\n", s->metric,
				kind_name[s->kind], s->op[0] ? s->op : "-", s->vsize ? vs : "-", s->threads ? th : "-",
				s->threads ? (s->shared ? "yes" : "no") : "-", s->st.n, s->st.median, s->st.cv * 100,
				reason);
			fprintf(stderr, "bpfqs: CV target missed: %s map=%s op=%s value_size=%u threads=%u shared=%s: "
				"cv %.1f%%: %s\n", s->metric, kind_name[s->kind], s->op, s->vsize, s->threads,
				s->threads ? (s->shared ? "yes" : "no") : "-", s->st.cv * 100, reason);
		}
	}
	fprintf(md.f, "\n%zu batches were left out as anomalies (faster than a third of their figure's median "
		"batch; the anomaly column of the *-batches.csv files).\n", n_anomalies);
	fprintf(md.f, "\n%zu of %zu figures met the target (CV = stddev / mean over the samples after warm-up; "
		"- means the parameter does not apply; all figures: cv.csv).\n", all - over, all);
	fprintf(stderr, "bpfqs: CV <= %.0f%%: %zu of %zu figures met the target\n", CV_TARGET * 100, all - over, all);
	if (atomic_commit(&md)) {
		atomic_abort(&f);
		return -1;
	}
	return atomic_commit(&f);
}

static int cmd_bench(int argc, char **argv)
{
	struct cfg c;
	struct out *o;
	size_t j;
	int rc = 0;
	uint64_t t0 = mono_ns();

	parse_bench(argc, argv, &c);
	if (mkdir(c.out, 0755) && errno != EEXIST) {
		fprintf(stderr, "bpfqs: cannot create --out '%s': %s\n", c.out, strerror(errno));
		return 1;
	}
	o = out_open(c.out, "bpfqs");
	if (!o)
		return 1;
	make_pkt(&bench_pkt, htonl(0x0a000001u), htonl(0xc6120002u));
	fprintf(stderr, "bpfqs: profile %s: %zu samples after %zu warm-up, %u vCPUs, single-thread work on vCPU %d\n",
		c.profile, c.samples, c.warmup, c.ncpus, c.cpu);

	if ((c.part_user || c.part_prog) && pin(c.cpu))
		goto done;
	measure_clock_cost();
	fprintf(stderr, "bpfqs: a clock read pair costs %.0f ns (subtracted from user-space batches)\n",
		clock_cost_ns);
	rc |= write_setup(&c);
	if (c.part_user || c.part_prog) {
		bench_single(&c);
		for (j = 0; j < n_series; j++)
			rc |= series_publish(o, all_series[j]);
	}
	fprintf(stderr, "bpfqs: single-thread figures done after %.1f s\n", (mono_ns() - t0) / 1e9);
	if (c.part_user && c.part_prog && !failure[0])
		rc |= publish_ratios(o, &c);
	if (c.part_cont && !failure[0]) {
		size_t first = n_series;

		bench_contention(&c);
		for (j = first; j < n_series && !failure[0]; j++)
			rc |= series_publish(o, all_series[j]);
	}
	fprintf(stderr, "bpfqs: contention done after %.1f s\n", (mono_ns() - t0) / 1e9);
done:
	rc |= write_csvs(&c);
	rc |= write_cv(&c);
	if (rc && !failure[0])
		fail("writing the results into %s failed", c.out);
	rc = out_close(o, failure[0] ? failure : NULL);
	return failure[0] || rc ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* A known load for the probe                                               */

static int cmd_probe_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'n' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int n = 0, i;
	const char *out = NULL;
	struct atomic_file f;
	enum kind k;
	int o, rc = 0;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'n': n = (unsigned int)parse_num("ops", optarg, 1, 1u << 20); break;
		case 'o': out = optarg; break;
		default: usage_error("unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!n || !out)
		usage_error("probe-load needs --ops N and --out DIR");
	n = pow2_floor(n);
	make_pkt(&bench_pkt, htonl(0x0a000001u), htonl(0xc6120002u));
	if (csv_open(&f, out, "probe-expected.csv", "map,key,value"))
		return 1;
	for (k = QUEUE; k <= STACK && !rc; k++) {
		struct bpfqs_bpf *skel;
		__u32 v = 7;
		double ns;
		int fd;

		fd = bpf_map_create(kind_type[k], "bpfqs_probe", 0, sizeof(v), n, NULL);
		if (fd < 0) {
			fprintf(stderr, "bpfqs: creating a %s map: %s\n", kind_name[k], errname(-fd));
			rc = 1;
			break;
		}
		/* the probe counts the syscalls of the thread named bpfqs-user */
		prctl(PR_SET_NAME, "bpfqs-user");
		for (i = 0; i < n && !rc; i++)
			rc = bpf_map_update_elem(fd, NULL, &v, BPF_ANY);
		for (i = 0; i < n && !rc; i++)
			rc = bpf_map_lookup_elem(fd, NULL, &v);
		for (i = 0; i < n && !rc; i++)
			rc = bpf_map_lookup_and_delete_elem(fd, NULL, &v);
		prctl(PR_SET_NAME, "bpfqs");
		close(fd);
		skel = rc ? NULL : bench_skel(k, sizeof(v), n, n, -1);
		if (!skel) {
			rc = 1;
			break;
		}
		rc = test_run(skel, skel->progs.bench_push, 1, &ns);
		rc = rc ? rc : test_run(skel, skel->progs.bench_peek, 1, &ns);
		rc = rc ? rc : test_run(skel, skel->progs.bench_pop, 1, &ns);
		bpfqs_bpf__destroy(skel);
	}
	/*
	 * What probes/bpf_map.bt should count, in its keys. The kprobes see
	 * every operation of the program, but of the syscalls only the pops:
	 * in 6.1 the syscall's push (bpf_map_update_value) and peek
	 * (bpf_map_copy_value) run the map op inside
	 * bpf_disable_instrumentation(), which makes trace_call_bpf() skip
	 * kprobe programs, while map_lookup_and_delete_elem() calls
	 * map_pop_elem without it. Pushes of both maps meet in one function;
	 * each peek and pop also passes __queue_map_get or __stack_map_get.
	 * The syscall tracepoints see all user-space operations of both maps.
	 */
	fprintf(f.f, "@calls,kprobe:queue_stack_map_push_elem,%u\n", 2 * n);
	fprintf(f.f, "@calls,kprobe:queue_map_peek_elem,%u\n@calls,kprobe:queue_map_pop_elem,%u\n", n, 2 * n);
	fprintf(f.f, "@calls,kprobe:stack_map_peek_elem,%u\n@calls,kprobe:stack_map_pop_elem,%u\n", n, 2 * n);
	fprintf(f.f, "@calls,kprobe:__queue_map_get,%u\n@calls,kprobe:__stack_map_get,%u\n", 3 * n, 3 * n);
	fprintf(f.f, "@sys_calls,BPF_MAP_UPDATE_ELEM,%u\n@sys_calls,BPF_MAP_LOOKUP_ELEM,%u\n", 2 * n, 2 * n);
	fprintf(f.f, "@sys_calls,BPF_MAP_LOOKUP_AND_DELETE_ELEM,%u\n", 2 * n);
	if (rc) {
		fprintf(stderr, "bpfqs: probe load failed: %s%s\n", failure, rc < 0 ? errname(-rc) : "");
		atomic_abort(&f);
		return 1;
	}
	return atomic_commit(&f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_log);
	if (argc < 2)
		usage_error("no command given");
	if (!strcmp(argv[1], "conformance"))
		return cmd_conformance(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "probe-load"))
		return cmd_probe_load(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	usage_error("unknown command '%s' (expected conformance, bench or probe-load)", argv[1]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs probe-load --ops N --out DIR: a known load for probes/bpf_map.bt,
 * N (rounded down to a power of 2) pushes, peeks and pops per map, queue
 * and stack, from user space and from a program; probe-expected.csv says
 * what the probe should count.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "output.h"
#include "progress.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

/* N pushes, peeks and pops of map kind @k from user space, then from a program */
static int load_one(enum kind k, unsigned int n)
{
	struct bpfqs_bpf *skel;
	unsigned int i, kops;
	__u32 v = 7;
	double ns;
	int fd, rc = 0;

	fd = bpf_map_create(kind_type[k], "bpfqs_probe", 0, sizeof(v), n, NULL);
	if (fd < 0) {
		run_fail("creating a %s map: %s", kind_name[k], lab_errname(fd));
		return -1;
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
	if (rc) {
		run_fail("%s map from user space: %s", kind_name[k], lab_errname(rc));
		return -1;
	}
	/* n operations as runs of at most the programs' loop bound */
	kops = n < BPFQS_LOOP_MAX ? n : BPFQS_LOOP_MAX;
	skel = bench_skel(k, sizeof(v), kops, n, -1);
	if (!skel)
		return -1;
	rc = test_run(skel, skel->progs.bench_push, n / kops, &ns);
	rc = rc ? rc : test_run(skel, skel->progs.bench_peek, n / kops, &ns);
	rc = rc ? rc : test_run(skel, skel->progs.bench_pop, n / kops, &ns);
	bpfqs_bpf__destroy(skel);
	if (rc)
		run_fail("%s map from a program: %s", kind_name[k], lab_errname(rc));
	return rc ? -1 : 0;
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
static void expected_rows(FILE *f, unsigned int n)
{
	fprintf(f, "@calls,kprobe:queue_stack_map_push_elem,%u\n", 2 * n);
	fprintf(f, "@calls,kprobe:queue_map_peek_elem,%u\n@calls,kprobe:queue_map_pop_elem,%u\n", n, 2 * n);
	fprintf(f, "@calls,kprobe:stack_map_peek_elem,%u\n@calls,kprobe:stack_map_pop_elem,%u\n", n, 2 * n);
	fprintf(f, "@calls,kprobe:__queue_map_get,%u\n@calls,kprobe:__stack_map_get,%u\n", 3 * n, 3 * n);
	fprintf(f, "@sys_calls,BPF_MAP_UPDATE_ELEM,%u\n@sys_calls,BPF_MAP_LOOKUP_ELEM,%u\n", 2 * n, 2 * n);
	fprintf(f, "@sys_calls,BPF_MAP_LOOKUP_AND_DELETE_ELEM,%u\n", 2 * n);
}

int cmd_probe_load(int argc, char **argv)
{
	unsigned long long ops = 0;
	const char *out = NULL;
	const struct lab_opt opts[] = {
		{ .name = "ops", .type = LAB_OPT_UINT, .value = &ops, .arg = "N", .min = 1, .max = 1u << 20,
		  .help = "operations of each kind per map (rounded down to a power of 2)", .required = true },
		LAB_OPT_STR("out", &out, "DIR", "where probe-expected.csv goes", true),
		LAB_OPT_PROGRESS,
		LAB_OPT_FAIL_FILE,
		LAB_OPT_END
	};
	struct atomic_file f;
	unsigned int n;
	enum kind k;

	lab_positionals(argc, argv, lab_parse(argc, argv, opts), 0, "nothing");
	n = pow2_floor((unsigned int)ops);
	if (csv_open(&f, out, "probe-expected.csv", "map,key,value"))
		lab_die("cannot write %s/probe-expected.csv", out);
	for (k = QUEUE; k <= STACK; k++)
		if (load_one(k, n)) {
			atomic_abort(&f);
			lab_die("probe load failed: %s", run_failure());
		}
	expected_rows(f.f, n);
	if (atomic_commit(&f))
		lab_die("cannot write %s/probe-expected.csv", out);
	return 0;
}

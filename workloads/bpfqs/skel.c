// SPDX-License-Identifier: GPL-2.0
/* bpfqs: the benchmark programs of bpfqs.bpf.c, loaded and run. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "bpfqs.h"
#include "bpfqs.skel.h"

/* The packet every benchmark run gets: 10.0.0.1 to 198.18.0.2 */
static struct pkt bench_pkt;

int test_run(struct bpfqs_bpf *skel, struct bpf_program *prog, unsigned int repeat, double *ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = &bench_pkt, .data_size_in = sizeof(bench_pkt),
		    .repeat = repeat);
	int rc;

	if (!bench_pkt.ip.version)
		make_pkt(&bench_pkt, htonl(0x0a000001u), htonl(0xc6120002u));
	rc = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);
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

/* Only the programs the map kind @k needs, and the empty loop */
static void select_programs(struct bpfqs_bpf *skel, enum kind k)
{
	struct bpf_program *p;

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
}

struct bpfqs_bpf *bench_skel(enum kind k, unsigned int vsize, unsigned int kops, unsigned int cap,
			     int share)
{
	struct bpfqs_bpf *skel;
	int rc;

	if (kops < 1 || kops > BPFQS_LOOP_MAX) {
		run_fail("%u operations per program run: must be 1..%u (the programs' loop bound)",
			 kops, BPFQS_LOOP_MAX);
		return NULL;
	}
	skel = bpfqs_bpf__open();
	if (!skel) {
		run_fail("opening the BPF skeleton: %s", lab_errname(errno));
		return NULL;
	}
	select_programs(skel, k);
	bpf_map__set_value_size(skel->maps.scratch, vsize);
	if (k == QUEUE || k == STACK) {
		bpf_map__set_type(skel->maps.qs, kind_type[k]);
		bpf_map__set_value_size(skel->maps.qs, vsize);
		bpf_map__set_max_entries(skel->maps.qs, cap);
		if (share >= 0 && (rc = bpf_map__reuse_fd(skel->maps.qs, share))) {
			run_fail("reusing the shared %s map: %s", kind_name[k], lab_errname(rc));
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
		run_fail("loading the %s benchmark programs (value size %u): %s", kind_name[k], vsize,
			 lab_errname(rc));
		goto err;
	}
	return skel;
err:
	bpfqs_bpf__destroy(skel);
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0
/* bpfqs: map kinds, value patterns, the test packet, a run's failure. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "bpfqs.h"

const char *const kind_name[NKINDS] = { "queue", "stack", "array", "hash" };
const enum bpf_map_type kind_type[NKINDS] = {
	BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_HASH,
};

unsigned int max_value_size(enum kind k)
{
	return k == HASH ? KMALLOC_MAX_SIZE - MAX_BPF_STACK - HTAB_ELEM_SIZE - 1 : KMALLOC_MAX_SIZE;
}

int kind_of(const char *s)
{
	int k;

	for (k = 0; k < NKINDS; k++)
		if (!strcmp(s, kind_name[k]))
			return k;
	return -1;
}

unsigned int allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	return (unsigned int)CPU_COUNT(&set);
}

void fill_pattern(unsigned char *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + seed * 31 + (i >> 8));
}

unsigned int pow2_floor(unsigned int x)
{
	unsigned int p = 1;

	while (p * 2 <= x && p * 2 != 0)
		p *= 2;
	return p;
}

/* The IPv4 header checksum of @hdr (20 bytes, any alignment) */
__u16 ip_csum(const void *hdr)
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

void make_pkt(struct pkt *p, __u32 saddr, __u32 daddr)
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

static char failure[512];

void run_fail(const char *fmt, ...)
{
	va_list ap;

	if (failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bpfqs: %s\n", failure);
	lab_fail("error", "%s", failure);
}

bool run_failed(void)
{
	return failure[0] != '\0';
}

const char *run_failure(void)
{
	return failure;
}

void csv_put_num(FILE *f, double x)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.15g", x);
	if (strtod(buf, NULL) != x)
		snprintf(buf, sizeof(buf), "%.17g", x);
	fputs(buf, f);
}

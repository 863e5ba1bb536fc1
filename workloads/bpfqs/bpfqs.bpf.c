// SPDX-License-Identifier: GPL-2.0
/*
 * bpfqs.bpf.c - BPF side of the queue/stack map lab (workloads/bpfqs/).
 *
 * Two groups of SCHED_CLS programs, all run with BPF_PROG_TEST_RUN:
 *
 * - relay: the conformance case of the in-program path. It pops a value
 *   from map_in into the packet's IPv4 daddr (fixing the header checksum)
 *   and pushes the packet's saddr to map_out; an empty map_in drops the
 *   packet (TC_ACT_SHOT).
 *
 * - bench_*: K = loop_k operations per program run in a bounded loop (at
 *   most BPFQS_LOOP_MAX; not bpf_loop, whose callbacks the kernel refuses
 *   without the JIT, so the programs also run with bpf_jit_enable=0), each
 *   on the map `qs` (queue or stack, chosen by user space before load) or
 *   on the baselines `arr` (array) and `hsh` (hash). bench_empty runs the
 *   same loop with an empty body: user space subtracts its duration, so a
 *   figure is the map operation alone, without the loop, the callback and
 *   the test-run overhead. Values come from and go to `scratch`, an array
 *   map whose value size equals the maps' (the verifier checks the helper's
 *   access against it). A failed operation counts in `errors`, which user
 *   space checks after every run.
 *
 * Value sizes and capacities are set by user space (bpf_map__set_value_size,
 * bpf_map__set_max_entries, bpf_map__set_type) before the skeleton is
 * loaded; the sizes below are placeholders.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <stddef.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

char LICENSE[] SEC("license") = "GPL";

/* --- the conformance relay ---------------------------------------------- */

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 32);
	__uint(value_size, sizeof(__u32));
} map_in SEC(".maps"), map_out SEC(".maps");

SEC("tc")
int relay(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	__u32 saddr, daddr, old;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_UNSPEC;
	saddr = ip->saddr;
	old = ip->daddr;
	if (bpf_map_pop_elem(&map_in, &daddr))
		return TC_ACT_SHOT;
	if (bpf_l3_csum_replace(skb, sizeof(*eth) + offsetof(struct iphdr, check), old, daddr, 4))
		return TC_ACT_SHOT;
	if (bpf_skb_store_bytes(skb, sizeof(*eth) + offsetof(struct iphdr, daddr), &daddr, 4, 0))
		return TC_ACT_SHOT;
	if (bpf_map_push_elem(&map_out, &saddr, BPF_ANY))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* --- the benchmark programs ----------------------------------------------- */

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);	/* or STACK, set before load */
	__uint(max_entries, 1);
	__uint(value_size, 4);
} qs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 4);
} arr SEC(".maps"), scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 4);
} hsh SEC(".maps");

/* the most operations of one run: the verifier walks the loop this often */
#define BPFQS_LOOP_MAX 64

/* operations per program run, and failed operations so far */
__u32 loop_k = 1;
__u64 errors;
/* keys of the array: its max_entries (a power of two) - 1; the next hash key */
__u32 arr_mask;
__u32 next_key;

struct loop_ctx {
	void *buf;	/* the scratch value: what is pushed, where pops go */
};

static __always_inline int setup(struct loop_ctx *c)
{
	__u32 zero = 0;

	c->buf = bpf_map_lookup_elem(&scratch, &zero);
	return c->buf ? 0 : -1;
}

static __always_inline void op_empty(__u32 i, struct loop_ctx *c)
{
}

static __always_inline void op_push(__u32 i, struct loop_ctx *c)
{
	if (bpf_map_push_elem(&qs, c->buf, BPF_ANY))
		errors++;
}

static __always_inline void op_pop(__u32 i, struct loop_ctx *c)
{
	if (bpf_map_pop_elem(&qs, c->buf))
		errors++;
}

static __always_inline void op_peek(__u32 i, struct loop_ctx *c)
{
	if (bpf_map_peek_elem(&qs, c->buf))
		errors++;
}

static __always_inline void op_push_pop(__u32 i, struct loop_ctx *c)
{
	if (bpf_map_push_elem(&qs, c->buf, BPF_ANY))
		errors++;
	if (bpf_map_pop_elem(&qs, c->buf))
		errors++;
}

static __always_inline void op_arr_update(__u32 i, struct loop_ctx *c)
{
	__u32 key = i & arr_mask;

	if (bpf_map_update_elem(&arr, &key, c->buf, BPF_ANY))
		errors++;
}

static __always_inline void op_arr_lookup(__u32 i, struct loop_ctx *c)
{
	__u32 key = i & arr_mask;

	if (!bpf_map_lookup_elem(&arr, &key))
		errors++;
}

/* inserts a new key each time: the hash is emptied by bench_hash_lookup_delete */
static __always_inline void op_hash_update(__u32 i, struct loop_ctx *c)
{
	__u32 key = next_key++;

	if (bpf_map_update_elem(&hsh, &key, c->buf, BPF_NOEXIST))
		errors++;
}

/* programs have no lookup-and-delete helper: a lookup, then a delete */
static __always_inline void op_hash_lookup_delete(__u32 i, struct loop_ctx *c)
{
	__u32 key = next_key++;

	if (!bpf_map_lookup_elem(&hsh, &key) || bpf_map_delete_elem(&hsh, &key))
		errors++;
}

/*
 * The loop: the same for every operation (barrier_var keeps the compiler
 * from dropping or unrolling the empty one), so the empty loop's time is
 * what the others pay besides their operation.
 */
#define BENCH_PROG(name, op)						\
SEC("tc")								\
int bench_##name(struct __sk_buff *skb)					\
{									\
	struct loop_ctx c;						\
	__u32 i;							\
									\
	if (setup(&c)) {						\
		errors++;						\
		return TC_ACT_SHOT;					\
	}								\
	_Pragma("clang loop unroll(disable)")				\
	for (i = 0; i < BPFQS_LOOP_MAX && i < loop_k; i++) {		\
		barrier_var(i);						\
		op(i, &c);						\
	}								\
	return TC_ACT_OK;						\
}

BENCH_PROG(empty, op_empty)
BENCH_PROG(push, op_push)
BENCH_PROG(pop, op_pop)
BENCH_PROG(peek, op_peek)
BENCH_PROG(push_pop, op_push_pop)
BENCH_PROG(arr_update, op_arr_update)
BENCH_PROG(arr_lookup, op_arr_lookup)
BENCH_PROG(hash_update, op_hash_update)
BENCH_PROG(hash_lookup_delete, op_hash_lookup_delete)

#!/bin/bash
# The BPF queue and stack map conformance suite in the guest, as TAP:
# `bpfqs conform` checks, for queue and stack maps, what creation refuses
# (key_size, BPF_F_NO_PREALLOC, value size 0 and beyond KMALLOC_MAX_SIZE,
# max_entries 0), push/peek/pop order and values, E2BIG when full,
# BPF_EXIST replacing the oldest, ENOENT when empty, EINVAL for delete and
# get_next_key, value sizes from 1 byte to 4 MiB, max_entries 1, the
# SCHED_CLS relay program run with BPF_PROG_TEST_RUN, and that bad command
# lines exit 2 naming the value. About 20 s under TCG.
set -eu

bin=$LAB_SRC/build/bpfqs
if [ ! -x "$bin" ]; then
	echo "not ok 1 - build/bpfqs exists: expected an executable, got none (run make all)"
	echo "1..1"
	exit 1
fi
exec "$bin" conform

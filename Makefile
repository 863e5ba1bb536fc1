# The kernel feature lab: build of the user-space parts, dependencies, tests.
# The kernel itself is built by kernel/build.sh into a cache outside the tree.

# Debian packages the lab needs (make deps installs the missing ones)
DEB_PACKAGES := linux-source-6.1 qemu-system-x86 bpftrace linux-perf trace-cmd \
	libbpf-dev bpftool iperf3 linuxptp isochron rt-tests gnuplot-nox ethtool \
	iproute2 iputils-ping dwarves flex bison bc libelf-dev libssl-dev libmnl-dev \
	clang llvm libjansson-dev zlib1g-dev pkg-config jq shellcheck gcc make \
	xz-utils patch util-linux procps kmod

BUILD := build
CC := gcc
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I bench -I $(BUILD)
LDLIBS := -lbpf -lelf -lz -lmnl -ljansson -lpthread -lm
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-I /usr/include/$(shell gcc -dumpmachine)

LIB_SRC := $(wildcard bench/*.c)
LIB_OBJ := $(LIB_SRC:bench/%.c=$(BUILD)/obj/bench/%.o)
BPF_SRC := $(wildcard workloads/*.bpf.c)
SKELS := $(BPF_SRC:workloads/%.bpf.c=$(BUILD)/%.skel.h)
WORKLOAD_SRC := $(filter-out $(BPF_SRC),$(wildcard workloads/*.c))
WORKLOADS := $(WORKLOAD_SRC:workloads/%.c=$(BUILD)/%)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_TESTS := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps kernel test unit-test lint clean
.DELETE_ON_ERROR:

all: $(BUILD)/guest-init $(BUILD)/labstat $(WORKLOADS) $(UNIT_TESTS)

deps:
	@bench/deps.sh $(DEB_PACKAGES)

kernel:
	kernel/build.sh $(LAB_KERNEL)

# PID 1 of the guest: static, so that starting it reads one file over 9p
$(BUILD)/guest-init: kernel/guest-init.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $<

# The kernel's testptp for tests/guest/ptp.sh (built here, not in the slow
# guest), from the tree kernel/build.sh unpacked: make build/testptp KTREE=DIR
# (bench/run.sh and tests/guest.sh do, after the kernel build)
$(BUILD)/testptp: $(KTREE)/tools/testing/selftests/ptp/testptp.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -o $@ $< -lrt

$(BUILD)/libbench.a: $(LIB_OBJ)
	ar rcs $@ $^

$(BUILD)/obj/bench/%.o: bench/%.c $(wildcard bench/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.bpf.o: workloads/%.bpf.c
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c -o $@ $<

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	bpftool gen skeleton $< >$@

$(BUILD)/obj/workloads/%.o: workloads/%.c $(wildcard bench/*.h) $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%: $(BUILD)/obj/workloads/%.o $(BUILD)/libbench.a
	$(CC) -o $@ $^ $(LDLIBS)

# Statistics for shell scripts (bench/compare.sh)
$(BUILD)/labstat: bench/tools/labstat.c $(BUILD)/libbench.a $(wildcard bench/*.h)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libbench.a $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libbench.a $(wildcard bench/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libbench.a $(LDLIBS)

# make test: host unit tests, lint, then the guest tests in the booted kernel
test: deps
	@tests/run.sh

unit-test: all
	@tests/run.sh unit

lint:
	@tests/run.sh lint

clean:
	rm -rf $(BUILD)

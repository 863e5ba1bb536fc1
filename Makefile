# The kernel feature lab: build of the user-space parts, dependencies, tests.
# The kernel itself is built by kernel/build.sh into a cache outside the tree.

# Debian packages the lab needs (make deps installs the missing ones)
DEB_PACKAGES := linux-source-6.1 qemu-system-x86 bpftrace linux-perf trace-cmd \
	libbpf-dev bpftool iperf3 linuxptp isochron rt-tests gnuplot-nox ethtool \
	iproute2 iputils-ping dwarves flex bison bc libelf-dev libssl-dev libmnl-dev \
	clang llvm libjansson-dev zlib1g-dev pkg-config jq shellcheck gcc make chromium \
	xz-utils patch util-linux procps kmod slurm-wlm

BUILD := build
CC := gcc
CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Werror -I bench/lib -I $(BUILD)/skel \
	-MMD -MP -MF $(BUILD)/deps/$(subst /,_,$@).d
LDLIBS := -lbpf -lelf -lz -lmnl -ljansson -lpthread -lm
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-I /usr/include/$(shell gcc -dumpmachine)

# The shared C library: bench/lib/*.c
LIB_SRC := $(wildcard bench/lib/*.c)
LIB_OBJ := $(LIB_SRC:bench/lib/%.c=$(BUILD)/obj/lib/%.o)
# A workload is a folder workloads/NAME/ with a main.c: its program is
# build/NAME, made of every .c there; its BPF objects (*.bpf.c) become
# skeletons build/skel/*.skel.h
WORKLOAD_NAMES := $(patsubst workloads/%/main.c,%,$(wildcard workloads/*/main.c))
WORKLOADS := $(WORKLOAD_NAMES:%=$(BUILD)/%)
BPF_SRC := $(wildcard workloads/*/*.bpf.c)
SKELS := $(patsubst %.bpf.c,$(BUILD)/skel/%.skel.h,$(notdir $(BPF_SRC)))
WL_SRC := $(filter-out $(BPF_SRC),$(wildcard workloads/*/*.c))
WL_OBJ := $(WL_SRC:workloads/%.c=$(BUILD)/obj/workloads/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_TESTS := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

vpath %.bpf.c $(sort $(dir $(BPF_SRC)))

.PHONY: all deps kernel test unit-test lint clean
.DELETE_ON_ERROR:

all: $(BUILD)/guest-init $(BUILD)/labstat $(BUILD)/labcompare $(BUILD)/labhost $(WORKLOADS) $(UNIT_TESTS) \
	$(BUILD)/labfuzz $(BUILD)/tap-fixture

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

$(BUILD)/obj/lib/%.o: bench/lib/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/skel/%.bpf.o: %.bpf.c
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c -o $@ $<

$(BUILD)/skel/%.skel.h: $(BUILD)/skel/%.bpf.o
	bpftool gen skeleton $< >$@

# workload objects wait for every skeleton (a main.c may include one)
$(BUILD)/obj/workloads/%.o: workloads/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I $(dir $<) -c -o $@ $<

# build/NAME from the objects of workloads/NAME/
define workload_rule
$(BUILD)/$(1): $(filter $(BUILD)/obj/workloads/$(1)/%,$(WL_OBJ)) $(BUILD)/libbench.a
	$$(CC) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach w,$(WORKLOAD_NAMES),$(eval $(call workload_rule,$(w))))

# Tools of the harness: labstat (sample statistics), labcompare (bench/compare.sh)
# for groups of runs, labhost (the host's load while a guest runs, bench/vm.sh)
$(BUILD)/labstat $(BUILD)/labcompare $(BUILD)/labhost: $(BUILD)/%: bench/tools/%.c $(BUILD)/libbench.a
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libbench.a $(LDLIBS)

# The guest's fuzz suites (tests/guest/fuzz-*.sh): build/labfuzz from tests/fuzz/*.c
FUZZ_SRC := $(wildcard tests/fuzz/*.c)
FUZZ_OBJ := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/obj/fuzz/%.o)

$(BUILD)/obj/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I tests/fuzz -c -o $@ $<

$(BUILD)/labfuzz: $(FUZZ_OBJ) $(BUILD)/libbench.a
	$(CC) -o $@ $^ $(LDLIBS)

# The test runner's fixture for tests/tap-selftest.sh (it fails on purpose)
$(BUILD)/tap-fixture: tests/tap-fixture.c $(BUILD)/libbench.a
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libbench.a $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libbench.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libbench.a $(LDLIBS)

$(shell mkdir -p $(BUILD)/deps)
-include $(wildcard $(BUILD)/deps/*.d)

# make test: host unit tests, lint, then the guest tests in the booted kernel
test: deps
	@tests/run.sh

unit-test: all
	@tests/run.sh unit

lint:
	@tests/run.sh lint

clean:
	rm -rf $(BUILD)

#!/bin/bash
# Guest tests, as TAP: boot the lab kernel and run tests/guest/*.sh in it
# (each prints TAP), then check that the harness turns a failing guest
# command and a kernel panic into failed runs. Test runs are kept in
# build/test-runs/, not in results/.
#
# LAB_KERNEL=debug boots the debug flavour (kernel/debug.config: lockdep,
# UBSAN, KFENCE, lockup detectors) instead, and runs the suites of the
# interfaces the lab's patches add: foundation (the kernel and its config),
# ptp, ledjitter, taprio and every tests/guest/fuzz-*.sh there is (or those
# LAB_GUEST_TESTS names), no harness boots. Any checker's report on the
# console fails the boot (bench/console-check.sh), and its lines are shown.
# LAB_KERNEL=lab-6.12, debug-6.12 do the same with Linux 6.12, and stock or
# stock-6.12 run the suites in the kernel without the series (each suite
# says what it skips there, and where a kernel's behaviour differs from the
# other version's); the harness boots run with the lab kernel of 6.1 only,
# or when LAB_GUEST_TESTS names "harness".
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"
# shellcheck source=bench/spec.sh
. "$LAB_ROOT/bench/spec.sh"

flavour=${LAB_KERNEL:-lab}
kbase=$(kernel_base_of "$flavour")
case "$kbase" in
lab | stock) ;;
debug)
	if [ -z "${LAB_GUEST_TESTS:-}" ]; then
		LAB_GUEST_TESTS="foundation ptp ledjitter taprio"
		for t in tests/guest/fuzz-*.sh; do
			[ -f "$t" ] && LAB_GUEST_TESTS+=" $(basename "$t" .sh)"
		done
	fi
	# the checkers slow the guest several times over
	LAB_TEST_DEADLINE=${LAB_TEST_DEADLINE:-3600}
	;;
*) usage_error "tests/guest.sh boots a lab, stock or debug kernel, not '$flavour'" ;;
esac

make -s build/guest-init
if ! kernel_build "$flavour" 2>/dev/null; then
	tap_result "not ok" "kernel/build.sh $flavour gives a kernel image"
	echo "1..$n"
	exit 1
fi
echo "# the $flavour kernel ${build[version]}, key ${build[key]}"
image=${build[image]}
expect_net=veth
[ "$(id -u)" -ne 0 ] || [ ! -c /dev/net/tun ] || expect_net=tap

base=$LAB_ROOT/build/test-runs/$(date -u +%Y%m%d-%H%M%S)
# newrun NAME [DEADLINE [GUEST_DEADLINE]]: a run folder with a job header
# and a run spec (the kernel, the guest's settings from the environment,
# the deadlines: LAB_TEST_DEADLINE or 1800 s, and the default rule); prints
# its path
newrun() {
	mkdir -p "$base/$1/guest"
	(
		declare -gA SPEC=()
		spec_from_env
		spec_set image "$image"
		spec_set deadline "${2:-${LAB_TEST_DEADLINE:-1800}}"
		spec_set guest_deadline "${3:-}"
		spec_write "$base/$1/run.spec"
	)
	printf 'export LAB_EXPECT_KEY=%q LAB_EXPECT_CONFIG_HASH=%q LAB_EXPECT_NET=%q LAB_EXPECT_FLAVOUR=%q\n' \
		"${build[key]}" "${build[config_hash]}" "$expect_net" "$flavour" >"$base/$1/guest/job.sh"
	# The fuzz suites' seed and bounds, and routedump-loop's loop count, when
	# given, reach the guest
	for v in LAB_FUZZ_SEED LAB_FUZZ_ITERATIONS LAB_FUZZ_SECONDS LAB_ROUTEDUMP_LOOPS; do
		[ -z "${!v:-}" ] || printf 'export %s=%q\n' "$v" "${!v}" >>"$base/$1/guest/job.sh"
	done
	echo "$base/$1"
}

# 1. The guest suites, one step each (LAB_GUEST_TESTS="a b" runs only those,
# named exactly: "ptp" is not "fuzz-ptp")
read -ra wanted <<<"${LAB_GUEST_TESTS:-}"
# listed NAME: NAME is one of the words of LAB_GUEST_TESTS
listed() {
	one_of "$1" "${wanted[@]}"
}
# (a suite whose header has the line "# guest-suite: on request" runs only
# when named: it takes too long for make test)
suites=()
for t in tests/guest/*.sh; do
	name=$(basename "$t" .sh)
	if [ "${#wanted[@]}" -gt 0 ] && ! listed "$name"; then
		continue
	fi
	if [ "${#wanted[@]}" -eq 0 ] && grep -qx '# guest-suite: on request' "$t"; then
		continue
	fi
	suites+=("$t")
done
for w in "${wanted[@]}"; do
	if [ "$w" != harness ] && [ ! -f "tests/guest/$w.sh" ]; then
		tap_result "not ok" "LAB_GUEST_TESTS names '$w', which is no suite of tests/guest/ (nor harness)"
	fi
done
suites_run=suites
[ "$flavour" = lab ] || suites_run=suites-$flavour
run=$(newrun "$suites_run")
for t in "${suites[@]}"; do
	printf 'step %q %q\n' "$(basename "$t" .sh)" "$t" >>"$run/guest/job.sh"
done
rc=0
bench/vm.sh "$run" 2>"$run/vm.err" || rc=$?
# each suite's TAP folded in: one that bailed out, stopped short of its plan
# or exited non-zero fails
for t in "${suites[@]}"; do
	name=$(basename "$t" .sh)
	echo "# guest suite $name"
	tap_fold "$run/guest/$name.log" "$(cat "$run/guest/$name.rc" 2>/dev/null || echo none)" "$name: "
done
check "the guest ran every suite and the console is clean ($flavour kernel)" 0 "$rc"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$run/failure.txt"
if [ "$kbase" = debug ]; then
	# what the checkers said: each report on the console, or that none came
	trouble=$(bench/console-check.sh "$run/console.log") && crc=0 || crc=$?
	check "console-check of the debug kernel's console passes (exit 0)" 0 "$crc"
	check "no lockdep, UBSAN, KFENCE, lockup, hung task or RCU stall report on the debug kernel's console" "" "$trouble"
	echo "# console: $run/console.log"
fi
echo "# boot: $(grep -E '^(accel|boot_seconds|net_mode)=' "$run/vm.env" | tr '\n' ' ')"

# The emulated clock's frequency error at the ends of its range and beyond,
# on the kernel command line, one boot each (with the suites, or when
# LAB_GUEST_TESTS names ptp-param): refused at init with a message, or a
# clock that runs at that error (tests/guest/ptp-param.sh)
if [ "$flavour" = lab ] && { [ "${#wanted[@]}" -eq 0 ] || listed ptp-param; }; then
	for v in -2147483648 2147483647 -250001 250001 -250000 250000; do
		run=$(LAB_CMDLINE_EXTRA="ptp_lab.freq_ppb=$v" newrun "ptp-freq$v" 300)
		echo "step ptp-param tests/guest/ptp-param.sh" >>"$run/guest/job.sh"
		rc=0
		bench/vm.sh "$run" 2>"$run/vm.err" || rc=$?
		tap_fold "$run/guest/ptp-param.log" "$(cat "$run/guest/ptp-param.rc" 2>/dev/null || echo none)" \
			"boot with ptp_lab.freq_ppb=$v: "
		check "boot with ptp_lab.freq_ppb=$v: the guest ran its job and the console is clean" 0 "$rc"
		[ "$rc" -eq 0 ] || sed 's/^/# /' "$run/failure.txt"
	done
fi

# LAB_GUEST_TESTS names suites only: the harness's own boots (2-7) run when
# it names "harness", or with the lab kernel of 6.1 when it is unset
if { [ "${#wanted[@]}" -eq 0 ] && [ "$flavour" != lab ]; } ||
	{ [ "${#wanted[@]}" -gt 0 ] && ! listed harness; }; then
	echo "1..$n"
	exit 0
fi

# Boots 4 and 5 spend most of their time in an idle guest, waiting for a
# deadline: both start first, in the background, and boots 2 and 3 run
# while they wait; each is checked when it has ended
# bg_boot RUN: bench/vm.sh in the background; its exit status and seconds
# go to RUN/test-rc
bg_boot() {
	(
		rc=0
		t0=$(date +%s)
		bench/vm.sh "$1" 2>"$1/vm.err" || rc=$?
		echo "$rc $(($(date +%s) - t0))" >"$1/test-rc"
	) &
}
# bg_wait PID RUN: wait for a bg_boot; sets rc and secs
bg_wait() {
	wait "$1"
	read -r rc secs <"$2/test-rc"
}
hang=$(newrun hang 120 45)
echo "step before_the_hang true" >>"$hang/guest/job.sh"
echo "step hang sleep 3600" >>"$hang/guest/job.sh"
bg_boot "$hang"
hang_pid=$!
hang_host=$(newrun hang-host 40 0)
echo "step hang sleep 3600" >>"$hang_host/guest/job.sh"
bg_boot "$hang_host"
hang_host_pid=$!

# 2. A failing guest command fails the run, and names the step
run=$(newrun failing 300)
echo "step deliberately_failing false" >>"$run/guest/job.sh"
echo "step after_the_failure true" >>"$run/guest/job.sh"
rc=0
bench/vm.sh "$run" 2>"$run/vm.err" || rc=$?
check "a failing guest command fails the run" 1 "$rc"
check "the failure names the failing step" yes \
	"$(grep -q "step 'deliberately_failing' exited 1" "$run/failure.txt" 2>/dev/null && echo yes || echo no)"
check "the steps after a failing one still run" 0 "$(cat "$run/guest/after_the_failure.rc" 2>/dev/null)"

# 3. A kernel panic fails the run within the deadline, and shows the panic
run=$(newrun panic 300)
echo "step crash sh -c 'echo c >/proc/sysrq-trigger'" >>"$run/guest/job.sh"
rc=0
t0=$(date +%s)
bench/vm.sh "$run" 2>"$run/vm.err" || rc=$?
check "a kernel panic fails the run" 1 "$rc"
check "the run ended before its deadline (QEMU exits on panic)" yes \
	"$([ $(($(date +%s) - t0)) -lt 300 ] && echo yes || echo no)"
check "the failure shows the panic" yes \
	"$(grep -q 'Kernel panic' "$run/failure.txt" 2>/dev/null && echo yes || echo no)"
check "the failure says the job did not finish" yes \
	"$(grep -q 'did not finish' "$run/failure.txt" 2>/dev/null && echo yes || echo no)"
# 4. A hung step is stopped at the guest's deadline by the guest itself,
# which powers off cleanly; what it wrote stays
run=$hang
bg_wait "$hang_pid" "$run"
check "a hung guest fails the run" 1 "$rc"
check "the hung step was stopped before the host's deadline (120 s)" yes \
	"$([ "$secs" -lt 120 ] && echo yes || echo no)"
check "the failure names the hung step and the guest's deadline" yes \
	"$(grep -q "guest hung: step 'hang' was still running at the guest's deadline of 45s" "$run/failure.txt" 2>/dev/null && echo yes || echo no)"
check "QEMU exited 0 after the guest stopped the hung step" 0 "$(sed -n 's/^qemu_exit=//p' "$run/vm.env")"
check "the guest powered off with a clean console after the hung step" "" \
	"$(bench/console-check.sh "$run/console.log" | head -1)"
check "what the guest wrote before the hang stays" 0 "$(cat "$run/guest/before_the_hang.rc" 2>/dev/null)"

# 5. A guest that does not stop itself (no guest deadline here) is asked to
# by the host at LAB_DEADLINE, through its ACPI power button (QEMU's
# system_powerdown): PID 1 stops the job and powers off cleanly
run=$hang_host
bg_wait "$hang_host_pid" "$run"
check "a guest past the host's deadline fails the run" 1 "$rc"
check "the host stopped it near its deadline (40 s)" yes \
	"$([ "$secs" -lt 80 ] && echo yes || echo no)"
check "the guest's PID 1 heard the power button and stopped the job" yes \
	"$(grep -aq 'lab-init: the power button was pressed; stopping the job' "$run/console.log" 2>/dev/null && echo yes || echo no)"
check "the failure says the guest powered off when the host pressed its power button" yes \
	"$(grep -q 'guest hung: the deadline of 40s passed; the guest powered off when the host pressed its power button' "$run/failure.txt" 2>/dev/null && echo yes || echo no)"
check "the guest powered off with a clean console after the power button" "" \
	"$(bench/console-check.sh "$run/console.log" | head -1)"
ns=$(sed -n 's/.*taps bridged in namespace \(lab-[^ ]*\).*/\1/p' "$run/vm.err")
if [ "$expect_net" = tap ]; then
	check "the run's network namespace ($ns) is gone" no \
		"$({ [ -z "$ns" ] || ip netns list | grep -qw -- "$ns"; } && echo yes || echo no)"
fi

# 6. Soak: many boots of a trivial job, each powered off by the guest; every
# one must end with QEMU's exit status 0 and a console the check passes
boots=${LAB_SOAK_BOOTS:-30}
clean=0
t0=$(date +%s)
for i in $(seq "$boots"); do
	run=$(newrun "soak-$i" 180)
	echo "step trivial true" >>"$run/guest/job.sh"
	rc=0
	bench/vm.sh "$run" 2>"$run/vm.err" || rc=$?
	qrc=$(sed -n 's/^qemu_exit=//p' "$run/vm.env" 2>/dev/null)
	trouble=$(bench/console-check.sh "$run/console.log" | head -3 | tr '\n' ' ')
	check "soak boot $i of $boots: run ok, QEMU exit 0, console clean" "0 0 ''" "$rc ${qrc:-none} '$trouble'"
	[ "$rc" -ne 0 ] || [ "${qrc:-}" != 0 ] || [ -n "$trouble" ] || clean=$((clean + 1))
done
echo "# soak: $clean of $boots boots powered off cleanly in $(($(date +%s) - t0)) s"
check "every soak boot powered off cleanly" "$boots" "$clean"

# 7. The interactive shell's exit powers the guest off cleanly
run=$(newrun interactive)
echo interactive >>"$run/guest/job.sh"
echo interactive=1 >>"$run/run.spec"
rc=0
# type "exit" once the shell is starting (the guest marks it with first-step)
type_exit() {
	for _ in $(seq 200); do
		[ ! -f "$run/guest/first-step" ] || break
		sleep 0.5
	done
	sleep 3
	printf 'exit\n'
}
type_exit | timeout 150 bench/vm.sh "$run" >"$run/console.log" 2>"$run/vm.err" || rc=$?
check "QEMU ends when the interactive shell exits" 0 "$rc"
check "the guest powered off after the shell" yes \
	"$(grep -aq 'reboot: Power down' "$run/console.log" && echo yes || echo no)"
check "the console is clean after the interactive shell" "" \
	"$(bench/console-check.sh "$run/console.log" | head -1)"
echo "1..$n"

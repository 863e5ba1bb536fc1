#!/bin/bash
# A FAKE guest, for the harness's own tests only (LAB_TEST_FAKE_GUEST=1):
# instead of booting a kernel (bench/vm.sh), it writes into RUN_DIR what a
# guest run leaves there (console.log, qemu.log, vm.env, progress.log,
# guest/: info.env, first-step, done, net_mode, each step's NAME.log and
# NAME.rc; failure.txt when it fails), and each workload's results from the
# fixtures in tests/fixtures/workloads/<workload>/ (summary.json,
# targets.json, notes.md), the median and mean of every time metric (unit s, ms, us or ns) scaled by a factor between
# 0.98 and 1.02 taken from the run's name, so that runs differ a little as
# boots do. Every file says it is fake. It takes LAB_TEST_FAKE_SECONDS (1)
# seconds, and fails like a guest whose step exited 1 when the run's folder
# name is in LAB_TEST_FAKE_FAIL (space-separated names).
# usage: bench/fake-guest.sh RUN_DIR   (called by bench/run.sh)
set -eu

. "$(dirname "$0")/lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
# shellcheck source=bench/progress.sh
. "$(dirname "$0")/progress.sh"

[ "${LAB_TEST_FAKE_GUEST:-}" = 1 ] ||
	die "bench/fake-guest.sh is for the harness's tests: it runs only with LAB_TEST_FAKE_GUEST=1"
rundir=$(cd "$1" && pwd)
name=$(basename -- "$rundir")
secs=${LAB_TEST_FAKE_SECONDS:-1}
[[ "$secs" =~ ^[0-9]+([.][0-9]+)?$ ]] || usage_error "LAB_TEST_FAKE_SECONDS='$secs' is not a number of seconds"
fixtures=$LAB_ROOT/tests/fixtures/workloads
[ -f "$rundir/guest/job.sh" ] || die "no job file $rundir/guest/job.sh"
spec_load "$rundir/run.spec" || exit 2

fail=0
for f in ${LAB_TEST_FAKE_FAIL:-}; do
	[ "$f" != "$name" ] || fail=1
done
# the factor: 0.98 .. 1.02 from the name's checksum
factor=$(printf '%s' "$name" | cksum | awk '{printf "%.3f", 0.98 + ($1 % 41) / 1000}')

log vm "FAKE guest (LAB_TEST_FAKE_GUEST=1): no kernel boots; results from $fixtures scaled by $factor"
t0=$(now_ns)
echo "FAKE guest of the lab's tests (LAB_TEST_FAKE_GUEST=1): no kernel booted" >"$rundir/console.log"
echo "FAKE guest: QEMU did not run" >"$rundir/qemu.log"
printf '# %s\n' "$(progress_key)" >"$rundir/progress.log"
g=$rundir/guest
{
	echo "kernel_release=fake"
	echo "kernel_version=FAKE guest (LAB_TEST_FAKE_GUEST=1)"
	echo "hz=250"
	echo "clocksource=fake"
	echo "guest_cpus=$(spec_get vcpus 4)"
} >"$g/info.env"
echo fake >"$g/net_mode"
: >"$g/first-step"
sleep "$secs"

rc=0
# the job's steps: sysctl-* and wl-* as bench/run.sh wrote them
while read -r kw step cmd; do
	[ "$kw" = step ] || continue
	step=${step//\'/}
	echo "lab-init: step $step" >>"$rundir/console.log"
	echo "FAKE step: $cmd" >"$g/$step.log"
	src=
	case "$step" in wl-*)
		w=${step#wl-}
		src=$fixtures/$w
		;;
	esac
	if [ "$fail" = 1 ]; then
		echo "FAKE failure asked by LAB_TEST_FAKE_FAIL" >>"$g/$step.log"
		echo 1 >"$g/$step.rc"
		rc=1
	elif [ -n "$src" ] && [ ! -f "$src/summary.json" ]; then
		echo "FAKE guest: no fixture $src/summary.json" >>"$g/$step.log"
		echo 1 >"$g/$step.rc"
		rc=1
	else
		if [ -n "$src" ]; then
			mkdir -p "$rundir/$w"
			jq --argjson f "$factor" '.fake = true | .metrics |= map(
				if (.unit // "" | test("^[mun]?s$")) | not then .
				elif (.median | type) == "number" then .median *= $f else . end
				| if (.unit // "" | test("^[mun]?s$")) and (.mean | type) == "number" then .mean *= $f else . end)' \
				"$src/summary.json" >"$rundir/$w/summary.json"
			for f in targets.json notes.md; do
				[ ! -f "$src/$f" ] || cp -- "$src/$f" "$rundir/$w/"
			done
		fi
		echo 0 >"$g/$step.rc"
	fi
done <"$g/job.sh"
elapsed=$(secs_since "$t0")
{
	echo "accel=fake"
	echo "vcpus=$(spec_get vcpus 4)"
	echo "mem_mb=$(spec_get mem_mb 2048)"
	echo "net_mode=fake"
	echo "qemu_version=fake"
	echo "boot_seconds=0"
	echo "vm_seconds=$elapsed"
	echo "qemu_exit=0"
} | atomic_write "$rundir/vm.env"
: >"$g/done"
if [ "$rc" -ne 0 ]; then
	{
		for f in "$g"/*.rc; do
			[ "$(cat "$f")" = 0 ] || echo "guest step '$(basename "$f" .rc)' exited $(cat "$f") (FAKE guest)"
		done
	} | atomic_write "$rundir/failure.txt"
	log vm "FAKE guest run failed: $(head -1 "$rundir/failure.txt")"
	exit 1
fi
log vm "FAKE guest job done in ${elapsed}s"

#!/bin/bash
# The LED pattern lab's tests in the guest, as TAP: the pattern trigger's
# ABI conformance suite (`ledjitter conform`, for pattern, on the lab
# kernels abs_pattern, and on Linux 6.10 and later mainline's hr_pattern), then the workload's handling of bad input: a pattern
# the kernel refuses is passed through and its error shown, invalid step
# durations and repeat counts are usage errors (exit 2) naming the value;
# then its failures: a report that cannot write a file fails naming it, and
# the driver's failures (here a probe that does not attach) reach
# summary.json as status "failed". About 60 s under TCG.
set -eu

bin=$LAB_SRC/build/ledjitter
# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

if [ ! -x "$bin" ]; then
	echo "not ok 1 - ledjitter: no $bin (make all)"
	echo "1..1"
	exit 1
fi

# 1. The conformance suite, renumbered into this stream
out=$(mktemp -d /tmp/ledjitter-test.XXXXXX)
trap 'rm -rf -- "$out"' EXIT
rc=0
"$bin" conform >"$out/conform.tap" 2>"$out/conform.err" || rc=$?
tap_fold "$out/conform.tap" "$rc"
check "ledjitter conform printed results and no errors" "" "$(cat "$out/conform.err")"

# 2. Bad input
# run_bad WHAT EXPECTED_RC TEXT ARGS...: ledjitter exits EXPECTED_RC and says TEXT
run_bad() {
	local what=$1 want=$2 text=$3 rc=0 err
	shift 3
	err=$("$bin" "$@" --out "$out" 2>&1 >/dev/null) || rc=$?
	check "$what: exit $want" "$want" "$rc"
	check "$what: the message names '$text'" yes \
		"$(grep -qF -- "$text" <<<"$err" && echo yes || echo "no: $err")"
}
run_bad "a step duration of 0 ms" 2 "'0'" run --step-ms 0
run_bad "a step duration that is no number" 2 "'ten'" run --step-ms 10,ten
run_bad "a step duration above 60000 ms" 2 "'60001'" run --step-ms 60001
run_bad "an odd step count" 2 "'7'" run --steps 7
run_bad "a repeat count of 0" 2 "'0'" run --pattern '0 10 255 10' --repeat 0
run_bad "a repeat count of -2" 2 "'-2'" run --pattern '0 10 255 10' --repeat -2
run_bad "a pattern the kernel refuses (a word)" 1 \
	"the kernel refused the pattern '0 10 abc 10'" run --mode pattern --pattern '0 10 abc 10'
run_bad "a pattern the kernel refuses shows the kernel's error" 1 "Invalid argument" \
	run --mode pattern --pattern '0 10 255'
rc=0
err=$("$bin" report 2>&1 >/dev/null) || rc=$?
check "report without --out: exit 2" 2 "$rc"
check "report without --out: the message names --out" yes "$(yes_no grep -qF -- --out <<<"$err")"
rc=0
err=$("$bin" report --out "$out" --failed 2>&1 >/dev/null) || rc=$?
check "--failed without a reason: exit 2" 2 "$rc"
check "--failed without a reason: the message names --failed" yes \
	"$(yes_no grep -qF -- "'--failed' needs a value" <<<"$err")"

# 3. Write failures: a short run of every mode, then reports that cannot write
run=$out/run
"$bin" run --step-ms 10 --steps 20 --out "$run" 2>"$out/run.err" ||
	sed 's/^/# /' "$out/run.err"
check "a short run of every mode leaves its cells" yes "$(yes_no test -s "$run/cells-idle.csv")"
# mainline's hr_pattern (Linux 6.10) is measured where the kernel has it,
# and each cell names the kernel it ran on
release=$(uname -r)
check "the short run measures hr_pattern exactly on Linux 6.10 or later (this is $release)" \
	"$(yes_no sort -V -C <<<"6.10
$release")" "$(yes_no grep -q '^[^,]*,hr_pattern,' "$run/cells-idle.csv")"
check "the cells name the kernel they ran on (column kernel)" "$release" \
	"$(jq -Rr 'split(",") | last' <<<"$(sed -n 2p "$run/cells-idle.csv")")"

# report_into DIR ARGS...: run report into DIR; sets $rc and $err
report_into() {
	local dir=$1
	shift
	rc=0
	err=$("$bin" report --out "$dir" "$@" 2>&1 >/dev/null) || rc=$?
}
# names WHAT TEXT: the last report's message names TEXT
names() {
	check "$1: the message names $2" yes \
		"$(grep -qF -- "$2" <<<"$err" && echo yes || echo "no: $(head -3 <<<"$err")")"
}
ro=$out/ro
cp -r "$run" "$ro"
if mount --bind "$ro" "$ro" && mount -o remount,ro,bind "$ro"; then
	report_into "$ro"
	umount "$ro"
	check "report into a folder that cannot be written: exit 1" 1 "$rc"
	names "report into a folder that cannot be written" "$ro/summary.json"
else
	check "a read-only bind mount for the write-failure case" 0 1
fi
blocked=$out/blocked
cp -r "$run" "$blocked"
mkdir "$blocked/errors.csv"
report_into "$blocked"
check "report that cannot write errors.csv: exit 1" 1 "$rc"
names "report that cannot write errors.csv" "$blocked/errors.csv"
check "report that cannot write errors.csv: summary.json says failed, naming it" \
	"failed: cannot write $blocked/errors.csv" \
	"$(jq -r '.status + ": " + .reason' "$blocked/summary.json")"
report_into "$run" --failed "cyclictest (idle) failed" --failed "a second reason"
check "report --failed twice: exit 0 (the summary is written)" 0 "$rc"
check "report --failed twice: status failed with both reasons" \
	"failed: cyclictest (idle) failed; a second reason" \
	"$(jq -r '.status + ": " + .reason' "$run/summary.json")"
report_into "$run"
check "report of the short run: status ok, targets.json written" "ok yes" \
	"$(jq -r .status "$run/summary.json") $(yes_no jq -e 'type == "array"' "$run/targets.json")"

# 4. The driver with a probe that does not attach: a source tree whose
# led_timer.bt bpftrace refuses, a ledjitter that runs short cells, and
# stubs for cyclictest and iperf3, so that it takes seconds
src=$out/src
mkdir -p "$src/build" "$src/probes" "$src/workloads/ledjitter" "$out/stubs" "$out/drv"
ln -s "$LAB_SRC/bench" "$src/bench"
cp "$LAB_SRC/workloads/ledjitter/driver.sh" "$src/workloads/ledjitter/"
echo 'kprobe:nosuch { this is not bpftrace' >"$src/probes/led_timer.bt"
cat >"$src/build/ledjitter" <<'WRAPPER'
#!/bin/bash
case "$1" in
conform) printf 'ok 1 - conformance (not run here)\n1..1\n' && exit 0 ;;
run) set -- "$@" --step-ms 10 --steps 20 ;;
esac
exec "$LEDJITTER_BIN" "$@"
WRAPPER
printf '#!/bin/sh\nexit 0\n' >"$out/stubs/cyclictest"
printf '#!/bin/sh\nexec sleep 3600\n' >"$out/stubs/iperf3"
chmod +x "$src/build/ledjitter" "$out/stubs/cyclictest" "$out/stubs/iperf3"
rc=0
# (its run spec: the quick profile; its results in $out/drv/ledjitter)
printf 'format_version=1\nprofile=quick\n' >"$out/drv/run.spec"
PATH=$out/stubs:$PATH LAB_SRC=$src LAB_OUT=$out/drv LEDJITTER_BIN=$bin \
	bash "$src/workloads/ledjitter/driver.sh" >"$out/drv.log" 2>&1 || rc=$?
check "driver with a probe that does not attach: exit 1" 1 "$rc"
check "driver with a probe that does not attach: summary.json says failed, naming the probe" \
	"failed yes" "$(jq -r .status "$out/drv/ledjitter/summary.json" 2>/dev/null) $(jq -r .reason \
	"$out/drv/ledjitter/summary.json" 2>/dev/null | grep -qF 'led_timer.bt' && echo yes || echo no)"
[ "$rc" = 1 ] || tail -20 "$out/drv.log" | sed 's/^/# /'
echo "1..$n"

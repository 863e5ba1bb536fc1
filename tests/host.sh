#!/bin/bash
# Host tests, as TAP: run-lab.sh's command line (usage errors exit 2 and name
# the value), the kernel build (config check, series errors, the cache).
# Builds the lab kernel if the cache does not have it (progress in the log).
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"

rc=0
./run-lab.sh --help >/dev/null || rc=$?
check "run-lab.sh --help exits 0" 0 "$rc"
expect_fail "unknown option" 2 "'--bogus'" ./run-lab.sh --bogus
expect_fail "bad profile" 2 "'slow'" ./run-lab.sh --profile slow
expect_fail "bad kernel flavour" 2 "'vanilla'" ./run-lab.sh --kernel vanilla
expect_fail "unknown command" 2 "'frobnicate'" ./run-lab.sh frobnicate
expect_fail "unknown workload" 2 "'nosuch'" ./run-lab.sh run nosuch
expect_fail "report of an unknown run" 2 "run 'no-such-run' not found" ./run-lab.sh report no-such-run
expect_fail "option without value" 2 "--accel" ./run-lab.sh --accel
expect_fail "tune-taprio without a schedule" 2 "one schedule file" ./run-lab.sh tune-taprio
expect_fail "tune-taprio, missing schedule" 2 "'/nonexistent.sched'" ./run-lab.sh tune-taprio /nonexistent.sched
expect_fail "tune-taprio, bad --bound-us" 2 "'-5'" \
	./run-lab.sh --bound-us -5 tune-taprio workloads/taprio/schedules/three-class-10ms.sched
expect_fail "--bound-us without tune-taprio" 2 "--bound-us" ./run-lab.sh --bound-us 10 run taprio
expect_fail "ab: --boots 0" 2 "'0' for --boots" ./run-lab.sh --boots 0 ab bpfqs
expect_fail "ab: --boots 3x" 2 "'3x' for --boots" ./run-lab.sh --boots 3x ab bpfqs
expect_fail "ab: --a vanilla" 2 "'vanilla' for --a" ./run-lab.sh --a vanilla ab bpfqs
expect_fail "ab: --b-sysctl without a value" 2 "'bpf_jit' for --b-sysctl" ./run-lab.sh --b-sysctl bpf_jit ab bpfqs
expect_fail "ab: --b-cmdline with a newline" 2 "for --b-cmdline" ./run-lab.sh --b-cmdline $'a\nb' ab bpfqs
expect_fail "ab options without ab" 2 "--boots goes with ab only, not with run" ./run-lab.sh --boots 2 run bpfqs
expect_fail "--kernel with ab (its sides are --a and --b)" 2 "--kernel goes with" ./run-lab.sh --kernel lab ab bpfqs
expect_fail "a bad LAB_VCPUS, before anything is built" 2 "vcpus 'many' (LAB_VCPUS)" env LAB_VCPUS=many ./run-lab.sh run bpfqs
expect_fail "a bad LAB_NET" 2 "net 'wifi' (LAB_NET)" env LAB_NET=wifi ./run-lab.sh run bpfqs
expect_fail "ab: an unknown workload" 2 "'nosuch'" ./run-lab.sh ab nosuch
expect_fail "compare with three runs" 2 "compare takes" ./run-lab.sh compare a b c
expect_fail "--schedule, missing file" 2 "'/nonexistent.sched'" ./run-lab.sh --schedule /nonexistent.sched run taprio
# A malformed schedule is refused on the host, before a guest boots for it
expect_fail "--schedule, malformed schedule" 1 "interval-zero.sched:7: sched-entry: interval 0" \
	./run-lab.sh --schedule tests/guest/taprio-bad/interval-zero.sched run taprio
expect_fail "tune-taprio, malformed schedule" 1 "unknown-command.sched:" \
	./run-lab.sh tune-taprio tests/guest/taprio-bad/unknown-command.sched
# taprio's schedule checks on the host: the guest's NIC has min(4, LAB_VCPUS)
# TX queues; a schedule needing more is refused before a guest boots, naming
# the file as given
expect_fail "--schedule, more classes than the guest's queues" 1 \
	"more-classes-than-queues.sched:2: num_tc 5 is more than the 4 TX queues" \
	./run-lab.sh --schedule tests/guest/taprio-bad/more-classes-than-queues.sched run taprio
expect_fail "--schedule, queue ranges beyond 3 vCPUs' queues" 1 \
	"three-class-10ms.sched:7: queues: the range of traffic class 2 (2@2) goes beyond the 3 TX queues" \
	env LAB_VCPUS=3 ./run-lab.sh --schedule workloads/taprio/schedules/three-class-10ms.sched run taprio
expect_fail "tune-taprio, more classes than the guest's queues" 1 "num_tc 5 is more than" \
	./run-lab.sh tune-taprio tests/guest/taprio-bad/more-classes-than-queues.sched
expect_fail "bad LAB_KERNEL for the build" 2 "'vanilla' (expected one of: lab stock debug lab-6.12" kernel/build.sh vanilla

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# taprio's schedule tools on the host (build/taprio from make all)
expect_fail "taprio tune: more rounds than packets, refused before anything is made" 2 \
	"--rounds 5 is more than --count 3" build/taprio tune --out "$tmp/no-sweep" --count 3 --rounds 5 \
	workloads/taprio/schedules/three-class-10ms.sched
check "taprio tune refused: no sweep folder left" no "$([ -e "$tmp/no-sweep" ] && echo yes || echo no)"
good=workloads/taprio/schedules/three-class-10ms.sched
{
	grep -E '^(num_tc|map|queues|base-time) ' "$good"
	for ((i = 0; i < 1000; i++)); do
		echo "sched-entry S 0$((1 << (i % 3))) 1000000"
	done
	echo "clockid CLOCK_TAI"
} >"$tmp/long.sched"
out=$(build/taprio check "$tmp/long.sched" 2>&1) && rc=0 || rc=$?
check "taprio check of 1000 entries exits 0" 0 "$rc"
check "taprio check prints all 1000 entries as tc arguments" 1000 "$(grep -o 'sched-entry' <<<"$out" | wc -l)"
printf '%s\n' "$(cat "$good")" "cycle-time 10000000" "cycle-time-extension 200000" \
	"flags 0x0" "txtime-delay 0" >"$tmp/full.sched"
build/taprio variant --tc 1 --scale 0.5 "$tmp/full.sched" >"$tmp/variant.sched"
for k in "cycle-time-extension 200000" "flags 0x0" "txtime-delay 0" "cycle-time 8500000"; do
	check "taprio variant keeps '$k' (the cycle-time moves with the window)" yes \
		"$(yes_no grep -qx -- "$k" "$tmp/variant.sched")"
done
check "the variant passes taprio check" yes "$(yes_no build/taprio check "$tmp/variant.sched")"
# The shell asks the parser, on a schedule all on one line as tc takes it
echo "num_tc 2 map 1 0 1 1 queues 1@0 1@1 sched-entry S 01 500000 sched-entry S 02 500000 clockid CLOCK_TAI" >"$tmp/one-line.sched"
check "taprio prio: class 0's priority on a one-line schedule" 1 "$(build/taprio prio --tc 0 "$tmp/one-line.sched")"
check "taprio num-tc on a one-line schedule" 2 "$(build/taprio num-tc "$tmp/one-line.sched")"
echo "num_tc 3 map 0 1 queues 1@0 1@1 1@2 sched-entry S 07 500000 clockid CLOCK_TAI" >"$tmp/no-prio.sched"
expect_fail "taprio prio of a class no priority goes to" 1 "no priority of the map goes to traffic class 2" \
	build/taprio prio --tc 2 "$tmp/no-prio.sched"
expect_fail "taprio run with a bad --count" 2 "'10x'" build/taprio run --out "$tmp" --count 10x "$good"
expect_fail "taprio report without --out" 2 "--out" build/taprio report
expect_fail "taprio report that cannot write its results" 1 "/nonexistent/run" \
	build/taprio report --out /nonexistent/run

# The host's load while a guest runs (build/labhost): the summary's verdict
# and its per-phase split, on fixture samples
printf '# k\n0\tstart setup\n2\tend setup 0\n2\tstart wl-x\n4\tphase x measure\n8\tphase-end x measure 0\n10\tend wl-x 0\n' \
	>"$tmp/progress.log"
hostload() { # hostload OTHERS_PCT OTHER_QEMU: samples at 1..9 s, the verdict
	{
		echo "t_s,ours_pct,others_pct,load1,other_qemu"
		for t in 1 3 5 7 9; do echo "$t,90,$1,3.5,$2"; done
	} >"$tmp/load.csv"
	build/labhost summary --load "$tmp/load.csv" --progress "$tmp/progress.log" >"$tmp/load.json"
	jq -r '.busy' "$tmp/load.json"
}
check "labhost: others using 2 % of the host, no other QEMU: not busy" false "$(hostload 2 0)"
check "labhost: others using 40 % of the host: busy" true "$(hostload 40 0)"
check "labhost: another QEMU running: busy" true "$(hostload 0 1)"
check "labhost: the load of the measure phase, split from its step's" "2 2" \
	"$(jq -r '"\(.phases["wl-x measure"].n) \(.phases["wl-x"].n)"' "$tmp/load.json")"
check "labhost: the setup step is no workload's" "4" "$(jq -r '.workloads.n' "$tmp/load.json")"

# The drivers' lifecycle (bench/guest-lib.sh) on the host: a toy workload
# whose conformance phase is declared once (wl_once) runs it on a first boot
# and skips it on a replicate boot (the run spec's replicate=1)
mkdir -p "$tmp/src/build" "$tmp/src/workloads/toy" "$tmp/out"
ln -s "$LAB_ROOT/bench" "$LAB_ROOT/tests" "$tmp/src/"
# shellcheck disable=SC2016 # the toy's own $3
printf '#!/bin/bash\n# toy report: report --out DIR\n: >"$3/summary.json"\n' >"$tmp/src/build/toy"
cat >"$tmp/src/workloads/toy/driver.sh" <<'EOF2'
#!/bin/bash
set -eu
. "$LAB_SRC/bench/guest-lib.sh"
checks() { echo ran >"$STAGE/checks.ran"; }
measurement() { echo ran >"$STAGE/measurement.ran"; }
wl_once checks
wl_main checks measurement
EOF2
chmod +x "$tmp/src/build/toy" "$tmp/src/workloads/toy/driver.sh"
toy() { # toy SPEC_LINES...: the toy's phases that ran, by the spec given
	rm -rf "$tmp/out"/* && mkdir -p "$tmp/out"
	printf '%s\n' format_version=1 "$@" >"$tmp/out/run.spec"
	LAB_SRC=$tmp/src LAB_OUT=$tmp/out "$tmp/src/workloads/toy/driver.sh" 2>/dev/null
	(cd "$tmp/out/toy" && printf '%s ' *.ran)
}
check "a first boot runs the phases declared once" "checks.ran measurement.ran " "$(toy profile=quick)"
check "a replicate boot skips them, and measures" "measurement.ran " "$(toy profile=quick replicate=1)"
# report_on=host (an A/B's boots): the guest leaves the report, and the
# reasons for it, to the host (bench/lib.sh host_report)
toy profile=quick report_on=host >/dev/null
check "report_on=host: the guest writes no summary, only failures.txt" "failures.txt" \
	"$(for f in summary.json failures.txt; do [ ! -f "$tmp/out/toy/$f" ] || echo "$f"; done)"
rc=0
(LAB_ROOT=$tmp/src && host_report "$tmp/out/toy") 2>/dev/null || rc=$?
check "report_on=host: host_report runs the workload's report on the host" "0 yes" \
	"$rc $([ -f "$tmp/out/toy/summary.json" ] && echo yes || echo no)"

mkdir -p "$tmp/kernel/patches/6.1"
cp kernel/lab.config "$tmp/kernel/"
echo "0001-does-not-exist.patch" >"$tmp/kernel/patches/6.1/series"
expect_fail "series naming a missing patch" 1 "0001-does-not-exist.patch" \
	env LAB_ROOT="$tmp" kernel/build.sh lab
# The cover letter (0000-*) is skipped: one with a diff would be lost
printf 'Subject: [PATCH 0/1] x\n\ndiff --git a/x b/x\n' >"$tmp/kernel/patches/6.1/0000-cover-letter.patch"
echo "0000-cover-letter.patch" >"$tmp/kernel/patches/6.1/series"
expect_fail "a cover letter with a diff" 1 "is the cover letter (0000-*) but has a diff" \
	env LAB_ROOT="$tmp" kernel/build.sh lab

# The lab kernel: built (or served by the cache), then a no-op rebuild
rc=0
kernel/build.sh lab >"$tmp/build1" 2>"$tmp/build1.err" || rc=$?
check "kernel/build.sh lab builds" 0 "$rc"
if [ "$rc" -ne 0 ]; then
	sed 's/^/# /' "$tmp/build1.err" | tail -20
	echo "1..$n"
	exit 1
fi
grep -E '^(key|build_seconds|version)=' "$tmp/build1" | sed 's/^/# first build: /'
kernel/build.sh lab >"$tmp/build2" 2>/dev/null
check "a second build with nothing changed is served by the cache" \
	"build_seconds=0" "$(grep '^build_seconds=' "$tmp/build2")"
check "the cached build has the same key" "$(grep '^key=' "$tmp/build1")" "$(grep '^key=' "$tmp/build2")"
config=$(sed -n 's/^config=//p' "$tmp/build2")
for f in kernel/lab.config kernel/patches/6.1/config; do
	out=$(kernel/check-config.sh "$f" "$config") && rc=0 || rc=$?
	check "every option of $f is set in the built .config" 0 "$rc"
	[ -z "$out" ] || sed 's/^/# /' <<<"$out"
done
{
	cat kernel/lab.config
	echo "CONFIG_LAB_NO_SUCH_OPTION=y"
} >"$tmp/frag"
expect_fail "the config check names an option Kconfig dropped" 1 "CONFIG_LAB_NO_SUCH_OPTION" \
	kernel/check-config.sh "$tmp/frag" "$config"
# The kernel measured is free of the debug flavour's checkers, and the check
# of that fails on a config with one of them
out=$(kernel/check-config.sh --absent kernel/debug.config "$config") && rc=0 || rc=$?
check "no option of kernel/debug.config is set in the lab kernel's .config" 0 "$rc"
[ -z "$out" ] || sed 's/^/# /' <<<"$out"
for opt in CONFIG_PROVE_LOCKING CONFIG_UBSAN CONFIG_KFENCE; do
	{
		grep -v "^# $opt is not set" "$config"
		echo "$opt=y"
	} >"$tmp/debug-config"
	expect_fail "the absence check names $opt set in a config" 1 "$opt: set in the config" \
		kernel/check-config.sh --absent kernel/debug.config "$tmp/debug-config"
done
echo "1..$n"

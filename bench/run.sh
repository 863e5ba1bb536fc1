#!/bin/bash
# One lab run: build the kernel (cached), make the run folder, boot the guest
# with the job, then write meta.json, plots and the report.
# usage: bench/run.sh all|run|shell KERNEL PROFILE TRACE [WORKLOAD...]
# Called by run-lab.sh, which has checked the arguments.
set -eu

. "$(dirname "$0")/lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
cd "$LAB_ROOT"

cmd=$1 kernel=$2 profile=$3 trace=$4
shift 4
selected=("$@")

# Kernel (cached) and its testptp
kernel_build "$kernel" || exit 1

# The run folder: never overwritten
stamp=$(date -u +%Y%m%d-%H%M%S)
# (LAB_RESULTS: the results root; LAB_RUN_NAME: the run's folder name, which
# must not exist yet, as bench/ab.sh names its boots a1, b1, ...)
if [ "$cmd" = shell ]; then
	base=$LAB_CACHE/shell
else
	base=${LAB_RESULTS:-$LAB_ROOT/results}
fi
mkdir -p "$base"
if [ -n "${LAB_RUN_NAME:-}" ]; then
	run_id=$LAB_RUN_NAME
	mkdir "$base/$run_id" || die "run folder $base/$run_id exists already"
else
	run_id=$stamp-$kernel
	n=1
	while ! mkdir "$base/$run_id" 2>/dev/null; do
		n=$((n + 1))
		run_id=$stamp-$kernel-$n
	done
fi
rundir=$base/$run_id
mkdir -p "$rundir/guest"
if [ "$cmd" != shell ] && [ -z "${LAB_RUN_NAME:-}" ]; then
	ln -sfn "$run_id" "$base/.latest.tmp.$$"
	mv -T "$base/.latest.tmp.$$" "$base/latest"
fi
log run "run $run_id in $rundir"
[ -z "${LAB_RUN_DIR_FILE:-}" ] || echo "$rundir" >"$LAB_RUN_DIR_FILE"

# taprio schedules given to run-lab.sh (--schedule, tune-taprio) travel in
# the run folder
[ -z "${LAB_TAPRIO_SCHEDULE_FILE:-}" ] || cp -- "$LAB_TAPRIO_SCHEDULE_FILE" "$rundir/taprio.sched"
[ -z "${LAB_TAPRIO_TUNE_FILE:-}" ] || cp -- "$LAB_TAPRIO_TUNE_FILE" "$rundir/taprio-tune.sched"

# The run spec (bench/spec.sh): what this run is, for the guest and the report
declare -gA SPEC=()
spec_set run_id "$run_id"
spec_set kernel "$kernel"
spec_set profile "$profile"
spec_set trace "$trace"
spec_set workloads "${selected[*]}"
spec_set host_cpus "$(nproc)"
spec_set cmdline "${LAB_CMDLINE_EXTRA:-}"
spec_set sysctls "${LAB_SYSCTLS:-}"
if [ -n "${LAB_TAPRIO_SCHEDULE_FILE:-}" ]; then
	spec_set taprio.schedule taprio.sched
	spec_set taprio.schedule_name "$(basename -- "$LAB_TAPRIO_SCHEDULE_FILE")"
fi
if [ -n "${LAB_TAPRIO_TUNE_FILE:-}" ]; then
	spec_set taprio.tune taprio-tune.sched
	spec_set taprio.tune_name "$(basename -- "$LAB_TAPRIO_TUNE_FILE")"
	spec_set taprio.tune_bound_us "${LAB_TAPRIO_TUNE_BOUND_US:-1000}"
fi
spec_write "$rundir/run.spec"
{
	# LAB_HOST_CPUS: the host's CPUs, which workloads compare with their vCPUs
	printf 'export LAB_RUN_ID=%q LAB_PROFILE=%q LAB_TRACE=%q LAB_HOST_CPUS=%q\n' "$run_id" "$profile" "$trace" "$(nproc)"
	# shellcheck disable=SC2016 # $LAB_OUT is the guest's
	if [ -n "${LAB_TAPRIO_SCHEDULE_FILE:-}" ]; then
		printf 'export LAB_TAPRIO_SCHEDULE="$LAB_OUT/taprio.sched"\n'
	fi
	# shellcheck disable=SC2016
	if [ -n "${LAB_TAPRIO_TUNE_FILE:-}" ]; then
		printf 'export LAB_TAPRIO_TUNE="$LAB_OUT/taprio-tune.sched" LAB_TAPRIO_TUNE_BOUND_US=%q LAB_TAPRIO_TUNE_NAME=%q\n' \
			"${LAB_TAPRIO_TUNE_BOUND_US:-1000}" "$(basename -- "$LAB_TAPRIO_TUNE_FILE")"
	fi
	if [ "$cmd" = shell ]; then
		echo interactive
	fi
	# sysctls asked for this boot (bench/ab.sh's --b-sysctl), before the workloads
	for kv in ${LAB_SYSCTLS:-}; do
		printf 'step %q sysctl -w %q\n' "sysctl-${kv%%=*}" "$kv"
	done
	for w in "${selected[@]}"; do
		printf 'step %q bench/guest-run.sh %q\n' "wl-$w" "$w"
	done
} | atomic_write "$rundir/guest/job.sh"

# runs with the same key estimate each other's time left (bench/progress.sh)
export LAB_PROGRESS_KEY="profile=$profile kernel=$kernel trace=$trace cmdline=${LAB_CMDLINE_EXTRA:-} sysctls=${LAB_SYSCTLS:-} workloads=${selected[*]}"

started=$(date -u +%FT%TZ)
lab_commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)
[ -z "$(git status --porcelain 2>/dev/null)" ] || lab_commit+=-dirty

write_meta() { # write_meta STATUS
	local -A vm=() info=()
	local k v
	if [ -f "$rundir/vm.env" ]; then
		while IFS='=' read -r k v; do vm[$k]=$v; done <"$rundir/vm.env"
	fi
	if [ -f "$rundir/guest/info.env" ]; then
		while IFS='=' read -r k v; do info[$k]=$v; done <"$rundir/guest/info.env"
	fi
	jq -n \
		--arg run_id "$run_id" --arg status "$1" --arg profile "$profile" \
		--arg lab_commit "$lab_commit" --arg kernel_flavour "$kernel" \
		--arg kernel_version "${info[kernel_release]:-${build[version]}}" \
		--arg kernel_banner "${info[kernel_version]:-}" \
		--arg kernel_key "${build[key]}" --arg series_hash "${build[series_hash]}" \
		--arg config_hash "${build[config_hash]}" \
		--arg hz "${info[hz]:-$(sed -n 's/^CONFIG_HZ=//p' "${build[config]}")}" \
		--arg clocksource "${info[clocksource]:-}" \
		--arg qemu_version "${vm[qemu_version]:-}" --arg accel "${vm[accel]:-}" \
		--arg vcpus "${vm[vcpus]:-}" --arg mem_mb "${vm[mem_mb]:-}" \
		--arg guest_cpus "${info[guest_cpus]:-}" \
		--arg host_cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" \
		--arg net_mode "${vm[net_mode]:-}" --arg trace "$trace" \
		--arg started "$started" --arg ended "$(date -u +%FT%TZ)" \
		--arg kernel_build_seconds "${build[build_seconds]}" \
		--arg boot_seconds "${vm[boot_seconds]:-null}" \
		--arg tune "${LAB_TAPRIO_TUNE_FILE:+$(basename -- "$LAB_TAPRIO_TUNE_FILE")}" \
		--arg schedule "${LAB_TAPRIO_SCHEDULE_FILE:+$(basename -- "$LAB_TAPRIO_SCHEDULE_FILE")}" \
		--arg tune_bound "${LAB_TAPRIO_TUNE_BOUND_US:-}" \
		--arg vm_seconds "${vm[vm_seconds]:-null}" \
		--arg cmdline_extra "${LAB_CMDLINE_EXTRA:-}" --arg sysctls "${LAB_SYSCTLS:-}" \
		--arg fake "${LAB_TEST_FAKE_GUEST:-}" \
		--args '{
			run_id: $run_id, status: $status, profile: $profile,
			workloads: $ARGS.positional,
			lab_commit: $lab_commit, kernel_flavour: $kernel_flavour,
			kernel_version: $kernel_version, kernel_banner: $kernel_banner,
			kernel_key: $kernel_key, series_hash: $series_hash,
			config_hash: $config_hash, hz: ($hz | tonumber? // null),
			clocksource: $clocksource, qemu_version: $qemu_version,
			accel: $accel, vcpus: ($vcpus | tonumber? // null),
			guest_cpus: ($guest_cpus | tonumber? // null),
			mem_mb: ($mem_mb | tonumber? // null), host_cpu: $host_cpu,
			net_mode: $net_mode, trace: ($trace == "1"),
			started: $started, ended: $ended,
			kernel_build_seconds: ($kernel_build_seconds | tonumber),
			boot_seconds: ($boot_seconds | tonumber? // null),
			vm_seconds: ($vm_seconds | tonumber? // null),
			cmdline_extra: $cmdline_extra, sysctls: $sysctls
		} + (if $fake == "1" then {fake_guest: true} else {} end) + (if $tune == "" then {} else
			{taprio_tune: {schedule: $tune, bound_us: ($tune_bound | tonumber)}} end)
		  + (if $schedule == "" then {} else {taprio_schedule: $schedule} end)' "${selected[@]}" | atomic_write "$rundir/meta.json"
}

write_meta running
trap 'write_meta interrupted; log run "interrupted: $rundir"; exit 130' INT TERM

if [ "$cmd" = shell ]; then
	bench/vm.sh "$rundir" "${build[image]}" --interactive
	log run "shell ended; its files are in $rundir"
	exit 0
fi

# The guest's deadline: 10 minutes, plus 15 per workload (45 in the full
# profile), unless LAB_DEADLINE says otherwise
per=900
[ "$profile" = quick ] || per=2700
export LAB_DEADLINE=${LAB_DEADLINE:-$((600 + per * ${#selected[@]}))}
status=ok
if [ -n "${LAB_TEST_FAKE_GUEST:-}" ]; then
	# the harness's tests only: a fake guest writes a run's files from fixtures
	[ "$LAB_TEST_FAKE_GUEST" = 1 ] ||
		die "LAB_TEST_FAKE_GUEST='$LAB_TEST_FAKE_GUEST': only 1 (a FAKE guest, for tests) or unset"
	log run "FAKE guest (LAB_TEST_FAKE_GUEST=1): this run measures nothing"
	bench/fake-guest.sh "$rundir" || status=failed
else
	bench/vm.sh "$rundir" "${build[image]}" || status=failed
fi
trap - INT TERM
echo "$status" | atomic_write "$rundir/status"
write_meta "$status"

# Plots and report (bench/report.sh draws the figures first)
log report "drawing plots and writing the report"
bench/report.sh "$rundir" >/dev/null || status=failed

# Short summary
echo
echo "run $run_id: $status${LAB_TEST_FAKE_GUEST:+ (FAKE guest: LAB_TEST_FAKE_GUEST=1)}"
[ "$kernel" != debug ] ||
	echo "  debug kernel (kernel/debug.config): the figures of this run are NOT performance figures"
for w in "${selected[@]}"; do
	s=$(jq -r '.status' "$rundir/$w/summary.json" 2>/dev/null || echo missing)
	m=$(jq -r '.metrics | length' "$rundir/$w/summary.json" 2>/dev/null || echo 0)
	t=
	if [ -f "$rundir/$w/conformance.tap" ]; then
		t=", conformance $(grep -c '^ok ' "$rundir/$w/conformance.tap" || true) ok"
		t+=" $(grep -c '^not ok ' "$rundir/$w/conformance.tap" || true) not ok"
	fi
	printf '  %-12s %s, %s metrics%s\n' "$w" "$s" "$m" "$t"
done
[ ! -f "$rundir/failure.txt" ] || sed 's/^/  /' "$rundir/failure.txt"
# the targets not met, one line each
for w in "${selected[@]}"; do
	[ -f "$rundir/$w/targets.json" ] || continue
	jq -r --arg w "$w" '.[] | select(.met == false)
		| "  NOT MET \($w): \(.target): \(.measured) \(.unit) against \(.limit) (\(.why))"' \
		"$rundir/$w/targets.json" 2>/dev/null || echo "  warning: $w/targets.json is not a readable array of targets"
done
if [ -f "$rundir/report.html" ]; then
	echo "report: $rundir/report.html"
else
	echo "results: $rundir"
fi
[ "$status" = ok ]

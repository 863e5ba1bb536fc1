#!/bin/bash
# One lab run: build the kernel (cached), make the run folder, boot the guest
# with the job, then write meta.json, plots and the report.
# usage: bench/run.sh SPEC_FILE
# SPEC_FILE is a run spec (bench/spec.sh; run-lab.sh, bench/ab.sh and the
# matrix cells write them): command (all, run or shell), kernel, profile,
# trace, workloads, the guest's settings, results (the results root) and
# run_name (the run folder's name, which must not exist yet; default
# <stamp>-<kernel>), and the workloads' own keys. The run folder gets the
# spec as run.spec, completed with run_id, host_cpus, image and the deadline.
set -eu

. "$(dirname "$0")/lib.sh"
# shellcheck source=bench/report-lib.sh
. "$(dirname "$0")/report-lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
cd "$LAB_ROOT"

[ $# -eq 1 ] || usage_error "usage: bench/run.sh SPEC_FILE"
spec_load "$1" || exit 2
spec_check_vm
cmd=$(spec_get command run)
kernel=$(spec_get kernel lab)
profile=$(spec_get profile quick)
trace=$(spec_get trace 0)
read -r -a selected <<<"$(spec_get workloads)"
one_of "$cmd" all run shell || usage_error "run spec $1: command '$cmd' (expected all, run or shell)"

# Kernel (cached) and its testptp
kernel_build "$kernel" || exit 1

# The run folder: never overwritten
stamp=$(date -u +%Y%m%d-%H%M%S)
if [ "$cmd" = shell ]; then
	base=$LAB_CACHE/shell
else
	base=$(spec_get results "$LAB_ROOT/results")
fi
mkdir -p "$base"
run_id=$(spec_get run_name)
if [ -n "$run_id" ]; then
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
if [ "$cmd" != shell ] && [ -z "$(spec_get run_name)" ]; then
	ln -sfn "$run_id" "$base/.latest.tmp.$$"
	mv -T "$base/.latest.tmp.$$" "$base/latest"
fi
log run "run $run_id in $rundir"

# The workloads' files into the run folder (workloads/<w>/host.sh), then the
# run's own spec: what the guest, vm.sh and the report read
lab_host_load
for w in "${selected[@]}"; do
	! declare -F "${w}_stage" >/dev/null || "${w}_stage" "$rundir"
done
# The guest's deadline: 10 minutes, plus 15 per workload (45 in the full
# profile), unless the spec (LAB_DEADLINE) says otherwise
per=900
[ "$profile" = quick ] || per=2700
spec_set deadline "$(spec_get deadline $((600 + per * ${#selected[@]})))"
spec_set run_id "$run_id"
spec_set host_cpus "$(nproc)"
spec_set image "${build[image]}"
[ "$cmd" != shell ] || spec_set interactive 1
spec_write "$rundir/run.spec"
{
	if [ "$cmd" = shell ]; then
		echo interactive
	fi
	# sysctls asked for this boot (ab's --b-sysctl), before the workloads
	for kv in $(spec_get sysctls); do
		printf 'step %q sysctl -w %q\n' "sysctl-${kv%%=*}" "$kv"
	done
	for w in "${selected[@]}"; do
		printf 'step %q bench/guest-run.sh %q\n' "wl-$w" "$w"
	done
} | atomic_write "$rundir/guest/job.sh"

started=$(date -u +%FT%TZ)
lab_commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo none)
[ -z "$(git status --porcelain 2>/dev/null)" ] || lab_commit+=-dirty

# workload_options: the workloads' own keys of the run spec (taprio.schedule
# ...), as a JSON object
workload_options() {
	local k
	for k in "${!SPEC[@]}"; do
		if [[ "$k" == *.* ]] && one_of "${k%%.*}" "${selected[@]}"; then
			printf '%s\t%s\n' "$k" "${SPEC[$k]}"
		fi
	done | LC_ALL=C sort | jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | {(.[0]): .[1]}) | add // {}'
}

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
		--arg kernel_source "${build[source]}" --arg kernel_source_version "${build[source_version]}" \
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
		--argjson options "$(workload_options)" \
		--slurpfile host_load <(cat "$rundir/host-load.json" 2>/dev/null || echo null) \
		--arg vm_seconds "${vm[vm_seconds]:-null}" \
		--arg cmdline_extra "$(spec_get cmdline)" --arg sysctls "$(spec_get sysctls)" \
		--arg fake "${LAB_TEST_FAKE_GUEST:-}" \
		--args '{
			run_id: $run_id, status: $status, profile: $profile,
			workloads: $ARGS.positional,
			lab_commit: $lab_commit, kernel_flavour: $kernel_flavour,
			kernel_version: $kernel_version, kernel_banner: $kernel_banner,
			kernel_key: $kernel_key, series_hash: $series_hash,
			kernel_source: $kernel_source, kernel_source_version: $kernel_source_version,
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
			cmdline_extra: $cmdline_extra, sysctls: $sysctls,
			workload_options: $options, host_load: $host_load[0]
		} + (if $fake == "1" then {fake_guest: true} else {} end)' "${selected[@]}" | atomic_write "$rundir/meta.json"
}

write_meta running
trap 'write_meta interrupted; log run "interrupted: $rundir"; exit 130' INT TERM

if [ "$cmd" = shell ]; then
	bench/vm.sh "$rundir"
	log run "shell ended; its files are in $rundir"
	exit 0
fi

status=ok
if [ -n "${LAB_TEST_FAKE_GUEST:-}" ]; then
	# the harness's tests only: a fake guest writes a run's files from fixtures
	[ "$LAB_TEST_FAKE_GUEST" = 1 ] ||
		die "LAB_TEST_FAKE_GUEST='$LAB_TEST_FAKE_GUEST': only 1 (a FAKE guest, for tests) or unset"
	log run "FAKE guest (LAB_TEST_FAKE_GUEST=1): this run measures nothing"
	bench/fake-guest.sh "$rundir" || status=failed
else
	bench/vm.sh "$rundir" || status=failed
fi
trap - INT TERM
# report_on=host (an A/B's boots): each workload's report runs here, on the
# files the guest left (report is a function of the run folder; under TCG
# bpfqs's report took 63 s in the guest and 8 s on the host)
if [ "$(spec_get report_on guest)" = host ]; then
	for w in "${selected[@]}"; do
		host_report "$rundir/$w" || status=failed
	done
fi
echo "$status" | atomic_write "$rundir/status"
write_meta "$status"

# Plots and report (bench/report.sh draws the figures first)
log report "drawing plots and writing the report"
t_report=$(now_ns)
bench/report.sh "$rundir" >/dev/null || status=failed
# the report's own time, for the comparisons' time split
jq --argjson s "$(secs_since "$t_report")" '.report_seconds = $s' "$rundir/meta.json" | atomic_write "$rundir/meta.json"

# Short summary
echo
echo "run $run_id: $status${LAB_TEST_FAKE_GUEST:+ (FAKE guest: LAB_TEST_FAKE_GUEST=1)}"
[ "$(kernel_base_of "$kernel")" != debug ] ||
	echo "  debug kernel (kernel/debug.config): the figures of this run are NOT performance figures"
# the targets NOT MET, then those undecided, one line each (a kind's in one), first
attention "$rundir" "${selected[@]}" 2>&1 |
	awk -F '\t' 'NF < 3 { print "  " $0; next } { printf "  %s %s: %s%s\n", $1, $2, $3, $4 == "" ? "" : ": " $4 }'
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
jq -r 'select(.busy == true) | "  warning: measured on a busy host: while the workloads ran, the rest of the host used \(.workloads.others_pct_median) % of its CPU (median; max \(.workloads.others_pct_max) %), load average up to \(.workloads.load1_max), \(.workloads.other_qemu_max) other QEMU: under TCG its stalls are in every timing figure (host-load.json)"' \
	"$rundir/host-load.json" 2>/dev/null || true
if [ -f "$rundir/report.html" ]; then
	echo "report: $rundir/report.html"
else
	echo "results: $rundir"
fi
[ "$status" = ok ]

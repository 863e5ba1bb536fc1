#!/bin/bash
# The kernel feature lab: build the lab kernel, boot it in QEMU, run the
# workloads in it, and leave results, plots and a report in results/<run-id>/.
set -eu

LAB_PROG=./run-lab.sh
. "$(dirname "$0")/bench/lib.sh"
cd "$LAB_ROOT"

usage() {
	cat <<'EOF'
usage: ./run-lab.sh [OPTIONS] [COMMAND]

Commands:
  (none)              the main job: install what is missing, build the kernel
                      (cached) and the workloads, boot, run every workload in
                      its profile, collect results, draw plots, write the report
  run WORKLOAD...     the same for the workloads named
  list                the workloads there are
  shell               an interactive shell in the booted guest
  report RUN          (re)write the report of a run (run id or path)
  compare RUN_A RUN_B compare two runs metric by metric
  ab [WORKLOAD...]    run on the stock kernel and on the lab kernel, then compare
  tune-taprio FILE    sweep the window of each traffic class (x0.25..x1.5) and
                      the cycle time (x0.5..x2) around the taprio schedule FILE
                      (tc syntax, see workloads/taprio/schedules/), measure each, and
                      recommend per class the shortest window with no packet
                      outside it and p99 gate lateness within --bound-us

Options:
  --profile quick|full  how long and how wide the workloads measure (quick)
  --accel kvm|tcg       QEMU accelerator (default: KVM when a probe boots, else TCG)
  --kernel lab|stock    the lab kernel (patch series applied) or the stock baseline
  --trace               record the workloads' probe events with trace-cmd
  --schedule FILE       the taprio schedule the taprio workload measures (tc
                        syntax; default workloads/taprio/schedules/three-class-10ms.sched)
  --bound-us N          tune-taprio's p99 gate lateness bound in us (1000)
  -h, --help            this text

Environment: LAB_CACHE (kernel cache, default ~/.cache/kernel-lab), LAB_VCPUS (4),
LAB_MEM_MB (2048), LAB_DEADLINE (guest deadline in seconds), LAB_NET (auto|tap|veth).
EOF
}

workloads() {
	local d
	for d in workloads/*/; do
		[ -f "$d/main.c" ] && [ -x "$d/driver.sh" ] && basename "$d"
	done
	return 0
}

# readable_schedule FILE: a usage error unless FILE is a readable file
readable_schedule() {
	{ [ -f "$1" ] && [ -r "$1" ]; } ||
		usage_error "schedule file '$1' does not exist or is not readable"
}
# check_schedule WHAT FILE: taprio's own parser on FILE, before a guest boots,
# and what the host knows of the guest's NIC: virtio-net with 4 queue pairs,
# of which the guest uses one per vCPU (LAB_VCPUS, 4), so num_tc and the
# queue ranges must fit in min(4, LAB_VCPUS) TX queues
check_schedule() {
	local vcpus=${LAB_VCPUS:-4} queues=4
	[[ "$vcpus" =~ ^[1-9][0-9]*$ ]] || usage_error "LAB_VCPUS='$vcpus' is not a positive number"
	[ "$vcpus" -ge "$queues" ] || queues=$vcpus
	build/taprio check --queues "$queues" "$2" >/dev/null ||
		die "$1 '$2' refused (see above; the guest's eth0 has $queues TX queues with LAB_VCPUS=$vcpus)"
}

profile=quick
kernel=${LAB_KERNEL:-lab}
trace=0
bound_us=
schedule=
cmd=
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		usage
		exit 0
		;;
	--profile | --accel | --kernel)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		case "$1=$2" in
		--profile=quick | --profile=full) profile=$2 ;;
		--accel=kvm | --accel=tcg) export LAB_ACCEL=$2 ;;
		--kernel=lab | --kernel=stock) kernel=$2 ;;
		*) usage_error "bad value '$2' for $1" ;;
		esac
		shift 2
		;;
	--trace)
		trace=1
		shift
		;;
	--schedule)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		readable_schedule "$2"
		schedule=$2
		shift 2
		;;
	--bound-us)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		{ [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v b="$2" 'BEGIN {exit !(b > 0)}'; } ||
			usage_error "bad value '$2' for --bound-us: expected a positive number of microseconds"
		bound_us=$2
		shift 2
		;;
	-*) usage_error "unknown option '$1'" ;;
	*)
		if [ -z "$cmd" ]; then
			cmd=$1
		else
			args+=("$1")
		fi
		shift
		;;
	esac
done

case "${cmd:-all}" in
list)
	workloads
	exit 0
	;;
report)
	[ "${#args[@]}" -eq 1 ] || usage_error "report takes one run (id or path)"
	exec bench/report.sh "${args[0]}"
	;;
compare)
	[ "${#args[@]}" -eq 2 ] || usage_error "compare takes two runs (ids or paths)"
	exec bench/compare.sh "${args[@]}"
	;;
all | run | shell | ab) ;;
tune-taprio)
	[ "${#args[@]}" -eq 1 ] || usage_error "tune-taprio takes one schedule file"
	readable_schedule "${args[0]}"
	;;
*) usage_error "unknown command '$cmd'" ;;
esac
[ -z "$bound_us" ] || [ "$cmd" = tune-taprio ] || usage_error "--bound-us goes with tune-taprio only"

# Which workloads
selected=()
if [ "$cmd" = run ] || [ "$cmd" = ab ]; then
	[ "$cmd" = ab ] || [ "${#args[@]}" -gt 0 ] || usage_error "run needs at least one workload (see ./run-lab.sh list)"
	known=$(workloads)
	for w in "${args[@]}"; do
		grep -qxF -- "$w" <<<"$known" || usage_error "unknown workload '$w' (known: $(echo "$known" | tr '\n' ' '))"
		selected+=("$w")
	done
fi
if [ "${#selected[@]}" -eq 0 ] && [ "$cmd" != shell ]; then
	mapfile -t selected < <(workloads)
fi

log deps "checking Debian packages"
make -s deps

if [ "$cmd" = ab ]; then
	opts=(--profile "$profile")
	[ "$trace" = 0 ] || opts+=(--trace)
	[ -z "${LAB_ACCEL:-}" ] || opts+=(--accel "$LAB_ACCEL")
	# Each run names its folder in LAB_RUN_DIR_FILE (results/latest may
	# meanwhile point at somebody else's run)
	LAB_RUN_DIR_FILE=$(mktemp)
	export LAB_RUN_DIR_FILE
	"$0" "${opts[@]}" --kernel stock run "${selected[@]}" || true
	a=$(cat "$LAB_RUN_DIR_FILE")
	"$0" "${opts[@]}" --kernel lab run "${selected[@]}" || true
	b=$(cat "$LAB_RUN_DIR_FILE")
	rm -f "$LAB_RUN_DIR_FILE"
	{ [ -n "$a" ] && [ -n "$b" ]; } || die "ab: a run did not start (see above)"
	exec bench/compare.sh "$a" "$b"
fi

log build "workloads and tests (make all)"
make -s all

if [ -n "$schedule" ]; then
	check_schedule "--schedule:" "$schedule"
	export LAB_TAPRIO_SCHEDULE_FILE=$schedule
fi
if [ "$cmd" = tune-taprio ]; then
	check_schedule "tune-taprio: schedule" "${args[0]}"
	export LAB_TAPRIO_TUNE_FILE=${args[0]} LAB_TAPRIO_TUNE_BOUND_US=${bound_us:-1000}
	exec bench/run.sh run "$kernel" "$profile" "$trace" taprio
fi
exec bench/run.sh "$cmd" "$kernel" "$profile" "$trace" "${selected[@]}"

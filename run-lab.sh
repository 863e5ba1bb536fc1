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
  compare A1,A2,... B1,B2,...   or   compare AB_FOLDER
                      compare runs, one run per boot: per-boot medians, a
                      test across boots with Benjamini-Hochberg, %change with
                      a 95% bootstrap interval (compare.txt/json/md/html);
                      one run a side (compare RUN_A RUN_B) gives %change only
  ab [WORKLOAD...]    replicated A/B: --boots N boots a side (3; 5 in the full
                      profile), interleaved A B A B, in results/<id>-ab/, then
                      compared as above
  matrix FILE         run the cells of a matrix file (kernels x variants x
                      workloads x profiles x schedules x boots; see the
                      README), one guest boot each, then merge them
                      (merge.txt: every cell's state, comparisons, tuning)
  matrix --status FILE|ID   the cells done, running and failed, with their
                      run folders
  matrix --dry-run FILE     print the cells, run nothing
  tune-taprio FILE    sweep the window of each traffic class (x0.25..x1.5) and
                      the cycle time (x0.5..x2) around the taprio schedule FILE
                      (tc syntax, see workloads/taprio/schedules/), measure each, and
                      recommend per class the shortest window with no packet
                      outside it and p99 gate lateness within --bound-us

Options:
  --profile quick|full  how long and how wide the workloads measure (quick)
  --accel kvm|tcg       QEMU accelerator (default: KVM when a probe boots, else TCG)
  --kernel lab|stock|debug
                        the lab kernel (patch series applied), the stock
                        baseline, or the lab kernel with lockdep, UBSAN, KFENCE
                        and the lockup detectors (kernel/debug.config): for
                        finding bugs, its figures are NOT performance figures
  --trace               record the workloads' probe events with trace-cmd
  --schedule FILE       the taprio schedule the taprio workload measures (tc
                        syntax; default workloads/taprio/schedules/three-class-10ms.sched)
  --bound-us N          tune-taprio's p99 gate lateness bound in us (1000)
  --boots N             ab: boots a side
  --a lab|stock, --b lab|stock
                        ab: the kernel of each side (stock and lab; --a lab
                        --b lab is an A/A comparison)
  --b-cmdline ARGS      ab: added to the B side's kernel command line
  --b-sysctl KEY=VALUE  ab: set in the B side's guest before the workloads
                        (repeatable)
  --engine local|slurm  matrix, ab, tune-taprio: run the boots one after
                        another here (local, the default) or as a Slurm job
                        array with the merge as a dependent job (slurm)
  --wait                slurm engine: wait for the merge and print it
  --slurm-partition P, --slurm-account A, --slurm-time T, --slurm-cpus N,
  --slurm-mem M         the slurm engine's job settings (or LAB_SLURM_PARTITION,
                        LAB_SLURM_ACCOUNT, LAB_SLURM_TIME, LAB_SLURM_CPUS,
                        LAB_SLURM_MEM); the defaults are printed when submitting
  -h, --help            this text

Environment: LAB_CACHE (kernel cache, default ~/.cache/kernel-lab), LAB_VCPUS (4),
LAB_MEM_MB (2048), LAB_DEADLINE (guest deadline in seconds), LAB_NET (auto|tap|veth),
LAB_RESULTS (the results root, default results/; shared by all nodes for the slurm
engine), LAB_VM_WRAPPER (a command QEMU runs under, e.g. one waiting for a guest slot).
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
boots=
side_a=stock side_b=lab b_cmdline='' b_sysctls=''
ab_opts=0
engine=
matrix_status=0 dry_run=0 wait_opt=0 explicit=
slurm_opts=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		usage
		exit 0
		;;
	--profile | --accel | --kernel)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		case "$1=$2" in
		--profile=quick | --profile=full) profile=$2 explicit+=" --profile" ;;
		--accel=kvm | --accel=tcg) export LAB_ACCEL=$2 ;;
		--kernel=lab | --kernel=stock | --kernel=debug) kernel=$2 explicit+=" --kernel" ;;
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
		schedule=$2 explicit+=" --schedule"
		shift 2
		;;
	--engine)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		case "$2" in local | slurm) ;; *) usage_error "bad value '$2' for --engine: expected local or slurm" ;; esac
		engine=$2
		shift 2
		;;
	--status)
		matrix_status=1
		shift
		;;
	--dry-run)
		dry_run=1
		shift
		;;
	--wait)
		wait_opt=1
		shift
		;;
	--slurm-partition | --slurm-account | --slurm-time | --slurm-cpus | --slurm-mem)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		case "$1" in
		--slurm-partition) export LAB_SLURM_PARTITION=$2 ;;
		--slurm-account) export LAB_SLURM_ACCOUNT=$2 ;;
		--slurm-time) export LAB_SLURM_TIME=$2 ;;
		--slurm-cpus) export LAB_SLURM_CPUS=$2 ;;
		--slurm-mem) export LAB_SLURM_MEM=$2 ;;
		esac
		slurm_opts=1
		shift 2
		;;
	--bound-us)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		{ [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v b="$2" 'BEGIN {exit !(b > 0)}'; } ||
			usage_error "bad value '$2' for --bound-us: expected a positive number of microseconds"
		bound_us=$2
		shift 2
		;;
	--boots)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		{ [[ "$2" =~ ^[1-9][0-9]*$ ]] && [ "$2" -le 50 ]; } ||
			usage_error "bad value '$2' for --boots: expected a whole number from 1 to 50"
		boots=$2 ab_opts=1
		shift 2
		;;
	--a | --b)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		case "$2" in lab | stock) ;; *) usage_error "bad value '$2' for $1: expected lab or stock" ;; esac
		if [ "$1" = --a ]; then side_a=$2; else side_b=$2; fi
		ab_opts=1
		shift 2
		;;
	--b-cmdline)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		re='^[[:graph:]]+( [[:graph:]]+)*$'
		[[ "$2" =~ $re ]] ||
			usage_error "bad value '$2' for --b-cmdline: expected kernel parameters separated by single spaces"
		b_cmdline=$2 ab_opts=1
		shift 2
		;;
	--b-sysctl)
		[ $# -ge 2 ] || usage_error "option $1 needs a value"
		[[ "$2" =~ ^[a-z0-9_]+(\.[a-z0-9_]+)+=[^[:space:]]+$ ]] ||
			usage_error "bad value '$2' for --b-sysctl: expected KEY=VALUE, for example net.core.bpf_jit_enable=0"
		b_sysctls+="${b_sysctls:+ }$2" ab_opts=1
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
	case "${#args[@]}" in
	1 | 2) exec bench/compare.sh "${args[@]}" ;;
	*) usage_error "compare takes two runs, two comma-separated lists of runs, or an ab folder" ;;
	esac
	;;
matrix)
	[ "${#args[@]}" -eq 1 ] || usage_error "matrix takes one matrix file (--status: a matrix file or id)"
	[ -z "$explicit" ] ||
		usage_error "matrix: the matrix file gives kernels, profiles and schedules; not${explicit}"
	[ "$ab_opts" = 0 ] || usage_error "matrix: boots and variants go in the matrix file, not as options"
	if [ "$matrix_status" = 1 ]; then
		exec bench/matrix.sh status "${args[0]}"
	fi
	# the file's errors before anything is installed or built
	bench/matrix.sh check "${args[0]}" >/dev/null
	;;
all | run | shell | ab) ;;
tune-taprio)
	[ "${#args[@]}" -eq 1 ] || usage_error "tune-taprio takes one schedule file"
	readable_schedule "${args[0]}"
	;;
*) usage_error "unknown command '$cmd'" ;;
esac
[ -z "$bound_us" ] || [ "$cmd" = tune-taprio ] || usage_error "--bound-us goes with tune-taprio only"
[ "$ab_opts" = 0 ] || [ "$cmd" = ab ] || usage_error "--boots, --a, --b, --b-cmdline and --b-sysctl go with ab only"
[ "$matrix_status$dry_run" = 00 ] || [ "$cmd" = matrix ] || usage_error "--status and --dry-run go with matrix only"
case "$cmd" in
matrix | ab | tune-taprio) ;;
*) [ -z "$engine" ] || usage_error "--engine goes with matrix, ab and tune-taprio only" ;;
esac
if [ "$engine" != slurm ]; then
	[ "$slurm_opts$wait_opt" = 00 ] || usage_error "--wait and --slurm-* options go with --engine slurm only"
fi
[ "$wait_opt" = 0 ] || export LAB_SLURM_WAIT=1

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

if [ "$cmd" = matrix ] && [ "$dry_run" = 1 ]; then
	exec bench/matrix.sh check "${args[0]}"
fi

if [ "$kernel" = debug ] && [ "$cmd" != shell ]; then
	log kernel "the debug kernel (lockdep, UBSAN, KFENCE, lockup detectors): its figures are NOT performance figures; it runs the workloads to find kernel bugs (the console check fails a run on any report)"
fi

log deps "checking Debian packages"
make -s deps

log build "workloads and tests (make all)"
make -s all

if [ "$cmd" = ab ]; then
	if [ -z "$boots" ]; then
		boots=3
		[ "$profile" = quick ] || boots=5
	fi
	if [ "${engine:-local}" = slurm ]; then
		exec bench/matrix.sh ab slurm "$boots" "$side_a" "$side_b" "$profile" "$trace" "$b_cmdline" "$b_sysctls" "${selected[@]}"
	fi
	exec bench/ab.sh "$boots" "$side_a" "$side_b" "$profile" "$trace" "$b_cmdline" "$b_sysctls" "${selected[@]}"
fi

if [ "$cmd" = matrix ]; then
	exec bench/matrix.sh run "${args[0]}" "${engine:-local}" "$trace"
fi

if [ -n "$schedule" ]; then
	check_schedule "--schedule:" "$schedule"
	export LAB_TAPRIO_SCHEDULE_FILE=$schedule
fi
if [ "$cmd" = tune-taprio ]; then
	check_schedule "tune-taprio: schedule" "${args[0]}"
	if [ "${engine:-local}" = slurm ]; then
		exec bench/matrix.sh tune slurm "${args[0]}" "${bound_us:-1000}" "$profile" "$kernel" "$trace"
	fi
	export LAB_TAPRIO_TUNE_FILE=${args[0]} LAB_TAPRIO_TUNE_BOUND_US=${bound_us:-1000}
	exec bench/run.sh run "$kernel" "$profile" "$trace" taprio
fi
exec bench/run.sh "$cmd" "$kernel" "$profile" "$trace" "${selected[@]}"

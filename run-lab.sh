#!/bin/bash
# The kernel feature lab: build the lab kernel, boot it in QEMU, run the
# workloads in it, and leave results, plots and a report in results/<run-id>/.
#
# The command line is read through tables (bench/cli.sh): each command
# declares its words and options, each option the run spec key it sets. What
# the user asked becomes one run spec (bench/spec.sh), which the scripts
# after this one read: bench/run.sh (one run), bench/ab.sh (replicated A/B),
# bench/matrix.sh (matrices). A workload's own options and commands come
# from its workloads/<w>/host.sh.
set -eu

LAB_PROG=./run-lab.sh
. "$(dirname "$0")/bench/lib.sh"
# shellcheck source=bench/spec.sh
. "$LAB_ROOT/bench/spec.sh"
# shellcheck source=bench/cli.sh
. "$LAB_ROOT/bench/cli.sh"
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
                      t-test across boots with Benjamini-Hochberg, %change with
                      its 95% interval (compare.txt/json/md/html);
                      one run a side (compare RUN_A RUN_B) gives %change only
  ab [WORKLOAD...]    replicated A/B: --boots N boots a side (3; 5 in the full
                      profile), in ABBA order, in results/<id>-ab/, then
                      compared as above
  matrix FILE         run the cells of a matrix file (kernels x variants x
                      workloads x profiles x schedules x boots; see
                      docs/matrices.md), one guest boot each, then merge them
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
  --kernel KERNEL       lab, stock or debug: the lab kernel (patch series
                        applied), the stock baseline, or the lab kernel with
                        lockdep, UBSAN, KFENCE and the lockup detectors
                        (kernel/debug.config: for finding bugs, its figures are
                        NOT performance figures); Linux 6.1, or 6.12 as
                        lab-6.12, stock-6.12, debug-6.12
  --trace               record the workloads' probe events with trace-cmd
  --schedule FILE       the taprio schedule the taprio workload measures (tc
                        syntax; default workloads/taprio/schedules/three-class-10ms.sched)
  --bound-us N          tune-taprio's p99 gate lateness bound in us (1000)
  --boots N             ab: boots a side
  --a KERNEL, --b KERNEL
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

Environment: LAB_CACHE (kernel cache, default ~/.cache/kernel-lab), LAB_KERNEL
(the default kernel), LAB_VCPUS (4), LAB_MEM_MB (2048), LAB_DEADLINE (guest
deadline in seconds), LAB_GUEST_DEADLINE, LAB_NET (auto|tap|veth), LAB_ACCEL,
LAB_CMDLINE_EXTRA (added to the guest's kernel command line), LAB_RESULTS (the
results root, default results/; shared by all nodes for the slurm engine),
LAB_VM_WRAPPER (a command QEMU runs under, e.g. one waiting for a guest slot).
EOF
}

# --- the tables --------------------------------------------------------------
# OPTION            KIND      RUN SPEC KEY
cli_option --profile profile profile
cli_option --accel accel accel
cli_option --kernel kernel kernel
cli_option --trace flag trace
cli_option --boots boots ab.boots
cli_option --a kernel ab.a
cli_option --b kernel ab.b
cli_option --b-cmdline cmdline ab.b_cmdline
cli_option --b-sysctl sysctl+ ab.b_sysctls
cli_option --engine engine engine
cli_option --wait flag slurm.wait
cli_option --slurm-partition text slurm.partition
cli_option --slurm-account text slurm.account
cli_option --slurm-time text slurm.time
cli_option --slurm-cpus text slurm.cpus
cli_option --slurm-mem text slurm.mem
cli_option --status flag matrix.status
cli_option --dry-run flag matrix.dry_run

# the options of a run, and of the engines that run many
RUN_OPTS="--profile --accel --kernel --trace"
ENGINE_OPTS="--engine --wait --slurm-partition --slurm-account --slurm-time --slurm-cpus --slurm-mem"
# shellcheck disable=SC2086 # the option lists are word lists
{
	# COMMAND WORDS USAGE                                    OPTIONS
	cli_command all 0 "takes no words" $RUN_OPTS
	cli_command run 1+ "needs at least one workload (see ./run-lab.sh list)" $RUN_OPTS
	cli_command list 0 "takes no words"
	cli_command shell 0 "takes no words" --accel --kernel --profile
	cli_command report 1 "takes one run (id or path)"
	cli_command compare 1-2 "takes two runs, two comma-separated lists of runs, or an ab folder"
	cli_command ab 0+ "takes workloads" --profile --accel --trace --boots --a --b --b-cmdline --b-sysctl $ENGINE_OPTS
	cli_command matrix 1 "takes one matrix file (--status: a matrix file or id)" \
		--accel --trace --status --dry-run $ENGINE_OPTS
}
cli_note matrix "the matrix file gives kernels, variants, workloads, profiles and schedules"

# the workloads' own options and commands (workloads/<w>/host.sh)
lab_host_load
for w in $(lab_workloads); do
	! declare -F "${w}_declare" >/dev/null || "${w}_declare"
done

# --- the command line into the run spec --------------------------------------
declare -gA SPEC=()
# what the user set in the environment, then the options
spec_from_env
spec_set profile quick
spec_set trace 0
cli_parse "$@"
cmd=$CLI_COMMAND
spec_set command "$cmd"
if [ "$cmd" = ab ]; then
	spec_set ab.a "$(spec_get ab.a stock)"
	spec_set ab.b "$(spec_get ab.b lab)"
fi
spec_check_vm

if [ "$(spec_get engine)" != slurm ] && [[ "$CLI_GIVEN" =~ \ --(wait|slurm-[a-z]+)\  ]]; then
	usage_error "--wait and --slurm-* options go with --engine slurm only"
fi

# which workloads: those named (run, ab), else all of them
if [ "$cmd" = run ] || [ "$cmd" = ab ]; then
	known=$(lab_workloads)
	for w in "${CLI_ARGS[@]}"; do
		grep -qxF -- "$w" <<<"$known" || usage_error "unknown workload '$w' (known: $(echo "$known" | tr '\n' ' '))"
	done
	spec_set workloads "${CLI_ARGS[*]}"
fi
if [ "$cmd" = all ] || [ "$cmd" = ab ]; then
	[ -n "$(spec_get workloads)" ] || spec_set workloads "$(lab_workloads | paste -sd ' ')"
fi

# --- commands that boot nothing ------------------------------------------------
case "$cmd" in
list)
	lab_workloads
	exit 0
	;;
report) exec bench/report.sh "${CLI_ARGS[0]}" ;;
compare) exec bench/compare.sh "${CLI_ARGS[@]}" ;;
matrix)
	[ -z "$(spec_get matrix.status)" ] || exec bench/matrix.sh status "${CLI_ARGS[0]}"
	# the file's errors before anything is installed or built
	bench/matrix.sh check "${CLI_ARGS[0]}" >/dev/null
	[ -z "$(spec_get matrix.dry_run)" ] || exec bench/matrix.sh check "${CLI_ARGS[0]}"
	;;
esac

if [ "$(kernel_base_of "$(spec_get kernel)")" = debug ] && [ "$cmd" != shell ]; then
	log kernel "the debug kernel (lockdep, UBSAN, KFENCE, lockup detectors): its figures are NOT performance figures; it runs the workloads to find kernel bugs (the console check fails a run on any report)"
fi

log deps "checking Debian packages"
make -s deps

log build "workloads and tests (make all)"
make -s all

# the workloads' checks of their options, before a guest boots
for w in $(spec_get workloads); do
	! declare -F "${w}_check" >/dev/null || "${w}_check"
done

spec=$(mktemp "${TMPDIR:-/tmp}/lab-spec.XXXXXX")
trap 'rm -f -- "$spec"' EXIT
# a workload's command: its host.sh runs it (tune-taprio: taprio_command)
if [ -n "${CLI_HANDLER[$cmd]:-}" ]; then
	"${CLI_HANDLER[$cmd]}" "$spec"
	exit
fi
spec_write "$spec"
case "$cmd" in
ab)
	if [ "$(spec_get engine)" = slurm ]; then
		bench/matrix.sh ab "$spec"
	else
		bench/ab.sh "$spec"
	fi
	;;
matrix) bench/matrix.sh run "${CLI_ARGS[0]}" "$spec" ;;
*) bench/run.sh "$spec" ;;
esac

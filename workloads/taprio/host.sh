# shellcheck shell=bash
# taprio's host side (a workload's host.sh: sourced by bench/lib.sh's
# lab_host_load for run-lab.sh, bench/run.sh and bench/matrix.sh):
#   taprio_declare           its options and its command, into run-lab.sh's
#                            tables (bench/cli.sh)
#   taprio_check             the schedules the run spec names, checked before
#                            a guest boots
#   taprio_stage RUN_DIR     the schedule files into the run folder, the run
#                            spec pointing at them there
#   taprio_command SPEC_FILE tune-taprio FILE: the sweep, in one boot or as a
#                            matrix (--engine slurm)
# Run spec keys: taprio.schedule (--schedule FILE), taprio.schedule_name,
# taprio.tune (tune-taprio FILE), taprio.tune_name, taprio.tune_bound_us.

taprio_declare() {
	cli_option --schedule file taprio.schedule
	cli_option --bound-us positive taprio.tune_bound_us
	cli_takes all --schedule
	cli_takes run --schedule
	cli_takes ab --schedule
	# shellcheck disable=SC2086 # the option lists are word lists
	cli_command tune-taprio 1 "takes one schedule file" $RUN_OPTS $ENGINE_OPTS --bound-us
	cli_word_kind tune-taprio file
	cli_handler tune-taprio taprio_command
}

# taprio_check_schedule WHAT FILE: taprio's own parser on FILE, before a
# guest boots, and what the host knows of the guest's NIC: virtio-net with 4
# queue pairs, of which the guest uses one per vCPU (vcpus, LAB_VCPUS), so
# num_tc and the queue ranges must fit in min(4, vcpus) TX queues
taprio_check_schedule() {
	local vcpus queues=4
	vcpus=$(spec_get vcpus 4)
	[ "$vcpus" -ge "$queues" ] || queues=$vcpus
	"$LAB_ROOT/build/taprio" check --queues "$queues" "$2" >/dev/null ||
		die "$1 '$2' refused (see above; the guest's eth0 has $queues TX queues with LAB_VCPUS=$vcpus)"
}

taprio_check() {
	[ -z "$(spec_get taprio.schedule)" ] || taprio_check_schedule "--schedule:" "$(spec_get taprio.schedule)"
}

# taprio_stage RUN_DIR: the schedules named by absolute path travel in the
# run folder (taprio.sched, taprio-tune.sched); the spec names them there
taprio_stage() {
	local f
	f=$(spec_get taprio.schedule)
	if [ -n "$f" ] && [ "${f#/}" != "$f" ]; then
		cp -- "$f" "$1/taprio.sched"
		spec_set taprio.schedule taprio.sched
		spec_set taprio.schedule_name "$(basename -- "$f")"
	fi
	f=$(spec_get taprio.tune)
	if [ -n "$f" ] && [ "${f#/}" != "$f" ]; then
		cp -- "$f" "$1/taprio-tune.sched"
		spec_set taprio.tune taprio-tune.sched
		spec_set taprio.tune_name "$(basename -- "$f")"
		spec_set taprio.tune_bound_us "$(spec_get taprio.tune_bound_us 1000)"
	fi
}

# taprio_variants FILE DIR: the variants of the sweep around FILE, as
# schedule files in DIR: each class's window x0.25 .. x1.5, the cycle x0.5
# .. x2 (the sweep of `taprio tune`, each variant a cell of its own)
taprio_variants() {
	local tc s num_tc bin=$LAB_ROOT/build/taprio
	num_tc=$("$bin" num-tc "$1")
	for ((tc = 0; tc < num_tc; tc++)); do
		for s in 0.25 0.5 0.75 1 1.5; do
			"$bin" variant --tc "$tc" --scale "$s" "$1" >"$2/window-tc$tc-x$s.sched"
		done
	done
	for s in 0.5 1 2; do
		"$bin" variant --scale "$s" "$1" >"$2/cycle-tcall-x$s.sched"
	done
}

# taprio_command SPEC_FILE: ./run-lab.sh tune-taprio FILE, with the run spec
# as parsed: one boot measuring the sweep (bench/run.sh), or with --engine
# slurm each variant a cell of a matrix (bench/matrix.sh)
taprio_command() {
	local spec=$1 file=${CLI_ARGS[0]} work rc=0
	taprio_check_schedule "tune-taprio: schedule" "$file"
	spec_set workloads taprio
	spec_set taprio.tune "$file"
	spec_set taprio.tune_bound_us "$(spec_get taprio.tune_bound_us 1000)"
	if [ "$(spec_get engine)" != slurm ]; then
		spec_set command run
		spec_write "$spec"
		"$LAB_ROOT/bench/run.sh" "$spec"
		return
	fi
	work=$(mktemp -d)
	mkdir -p "$work/schedules"
	taprio_variants "$file" "$work/schedules"
	{
		echo "# ./run-lab.sh tune-taprio $(basename -- "$file") --engine slurm: each variant of the"
		echo "# sweep around it measured in a boot of its own (schedules/)"
		echo "kernels $(spec_get kernel)"
		echo "workloads taprio"
		echo "profiles $(spec_get profile)"
		echo "schedules $(find "$work/schedules" -name '*.sched' | sort -V | tr '\n' ' ')"
		echo "tune-bound-us $(spec_get taprio.tune_bound_us)"
	} >"$work/matrix.txt"
	spec_set matrix.kind tune
	spec_write "$spec"
	"$LAB_ROOT/bench/matrix.sh" run "$work/matrix.txt" "$spec" || rc=$?
	rm -rf -- "$work"
	return "$rc"
}

#!/bin/bash
# Run matrices: cells (one guest boot each) from a matrix file, from
# ./run-lab.sh ab's options or from a taprio schedule to tune, run by the
# local engine (one after another here) or the slurm engine (a job array,
# one task per cell, and the merge as a job depending on it); their status.
# usage:
#   bench/matrix.sh check FILE              parse FILE, print its cells
#   bench/matrix.sh run FILE SPEC_FILE      run FILE's cells, then merge
#   bench/matrix.sh ab SPEC_FILE            ./run-lab.sh ab's boots as cells
#   bench/matrix.sh status FILE|ID|DIR      cells done, running, failed
# SPEC_FILE is the run spec run-lab.sh made of the command line
# (bench/spec.sh): engine (local or slurm), trace, the guest's settings, the
# slurm engine's settings (slurm.partition, slurm.account, slurm.time,
# slurm.cpus, slurm.mem from --slurm-* or LAB_SLURM_*; slurm.wait: wait for
# the merge and print it), matrix.kind (matrix, or tune for a schedule
# sweep: taprio.tune is then the schedule swept around), and for ab its keys
# (bench/ab.sh). Each cell runs with a run spec of its own, cells/CELL.spec.
set -eu

# shellcheck source=bench/matrix-lib.sh
. "$(dirname "$0")/matrix-lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
cd "$LAB_ROOT"
lab_host_load
LAB_PROG="./run-lab.sh matrix"

results=${LAB_RESULTS:-$LAB_ROOT/results}
declare -gA SPEC=()
# the states of a Slurm job that has not ended
SQ_ACTIVE=PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED

# print_cells: the parsed matrix's cells as a table
print_cells() {
	local n
	n=$(matrix_cells | wc -l)
	echo "$n cells ($M_BOOTS boot(s) of ${#M_KERNELS[@]} kernel(s) x ${#M_VARIANTS[@]} variant(s) x ${#M_WORKLOADS[@]} workload set(s) x ${#M_PROFILES[@]} profile(s) x $((${#M_SCHEDULES[@]} > 0 ? ${#M_SCHEDULES[@]} : 1)) schedule(s)), in the order they run:"
	matrix_cells | awk -F '\t' '{
		s = $9; sub(/.*\//, "", s)
		sched = $9 == "-" ? "" : " schedule " s
		extra = ($5 == "-" ? "" : " cmdline \"" $5 "\"") ($6 == "-" ? "" : " sysctl " $6)
		printf "  %-32s %s kernel, %s, %s%s%s\n", $1, $4, $7, $8, sched, extra }'
}

# check_schedules: taprio's own parser on every schedule, against the
# guest NIC's TX queues (workloads/taprio/host.sh)
check_schedules() {
	local s
	for s in "${M_SCHEDULES[@]}"; do
		taprio_check_schedule "matrix schedule" "$s"
	done
}

# new_matrix KIND FILE: a matrix folder for the parsed FILE: the file, the
# run spec it runs with (matrix.spec), its schedules (schedules/, which its
# cells use), cells.tsv and a run spec per cell (cells/CELL.spec); prints
# its path
new_matrix() {
	local mdir s name line
	mdir=$(matrix_new_dir "$results" "$1")
	cp -- "$2" "$mdir/matrix.txt"
	matrix_write_env "$mdir" "$1"
	[ -z "$M_TUNE_BOUND" ] || echo "tune_bound_us=$M_TUNE_BOUND" >>"$mdir/matrix.env"
	# the schedules travel in the matrix folder, and the cells use those
	if [ "${#M_SCHEDULES[@]}" -gt 0 ] || [ -n "$(spec_get taprio.tune)" ]; then
		mkdir -p "$mdir/schedules"
		for s in "${!M_SCHEDULES[@]}"; do
			name=$(basename -- "${M_SCHEDULES[$s]}")
			[ ! -e "$mdir/schedules/$name" ] || die "two schedules of the matrix are named $name"
			cp -- "${M_SCHEDULES[$s]}" "$mdir/schedules/$name"
			M_SCHEDULES[s]=$mdir/schedules/$name
		done
	fi
	if [ -n "$(spec_get taprio.tune)" ]; then
		cp -- "$(spec_get taprio.tune)" "$mdir/schedules/original.sched"
		echo "tune_schedule=$mdir/schedules/original.sched" >>"$mdir/matrix.env"
	fi
	spec_write "$mdir/matrix.spec"
	matrix_cells "$(spec_get trace 0)" | atomic_write "$mdir/cells.tsv"
	mkdir -p "$mdir/cells"
	while IFS= read -r line; do
		(
			cell_spec "$mdir" "$line"
			spec_write "$mdir/cells/$(cell_field "$line" name).spec"
		)
	done <"$mdir/cells.tsv"
	ln -sfn "$(basename -- "$mdir")" "$results/.latest.tmp.$$"
	mv -T "$results/.latest.tmp.$$" "$results/latest"
	printf '%s\n' "$mdir"
}

# slurm_settings: the slurm engine's settings from the environment, checked,
# in S_PARTITION S_ACCOUNT S_TIME S_CPUS S_MEM; S_TIME's default is the
# longest cell's guest deadline plus 30 min (a kernel build, the report)
slurm_settings() {
	local mdir=$1 per max=0 w n
	S_PARTITION=$(spec_get slurm.partition)
	S_ACCOUNT=$(spec_get slurm.account)
	S_CPUS=$(spec_get slurm.cpus "$(spec_get vcpus 4)")
	S_MEM=$(spec_get slurm.mem "$(($(spec_get mem_mb 2048) + 1024))M")
	while IFS= read -r line; do
		per=900
		[ "$(cell_field "$line" profile)" = quick ] || per=2700
		read -r -a w <<<"$(cell_field "$line" workloads)"
		n=$(spec_get deadline $((600 + per * ${#w[@]})))
		[ "$n" -le "$max" ] || max=$n
	done <"$mdir/cells.tsv"
	S_TIME=$(spec_get slurm.time $(((max + 1800 + 59) / 60)))
}

# slurm_check: for the slurm engine, sbatch and the settings of the run spec
# (--slurm-* or LAB_SLURM_*), checked before a matrix folder is made
slurm_check() {
	local v
	[ "$(spec_get engine local)" = slurm ] || return 0
	command -v sbatch >/dev/null ||
		die "the slurm engine needs sbatch (Debian's slurm-wlm, and a cluster), or use --engine local"
	v=$(spec_get slurm.cpus "$(spec_get vcpus 4)")
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || usage_error "bad Slurm CPUs per task '$v' (LAB_SLURM_CPUS, --slurm-cpus): expected a positive number"
	v=$(spec_get slurm.mem 1M)
	[[ "$v" =~ ^[1-9][0-9]*[KMGT]?$ ]] || usage_error "bad Slurm memory per task '$v' (LAB_SLURM_MEM, --slurm-mem): expected a size like 3072M or 4G"
	v=$(spec_get slurm.time 1)
	[[ "$v" =~ ^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$ ]] || usage_error "bad Slurm time limit '$v' (LAB_SLURM_TIME, --slurm-time): expected minutes, HH:MM:SS or D-HH:MM:SS"
	v=$(spec_get slurm.partition)$(spec_get slurm.account)
	[[ "$v" =~ ^[A-Za-z0-9_.,-]*$ ]] || usage_error "bad Slurm partition '$(spec_get slurm.partition)' or account '$(spec_get slurm.account)'"
}

engine_local() {
	local mdir=$1 i=0 n rc=0
	n=$(wc -l <"$mdir/cells.tsv")
	log matrix "local engine: $n cells one after another on this machine; matrix folder $mdir"
	while [ "$i" -lt "$n" ]; do
		log matrix "cell $((i + 1)) of $n: $(cell_field "$(sed -n "$((i + 1))p" "$mdir/cells.tsv")" name)"
		bench/cell.sh "$mdir" "$i" || log matrix "cell $((i + 1)) of $n failed (the merge lists it)"
		i=$((i + 1))
	done
	bench/merge.sh "$mdir" || rc=$?
	echo "matrix: $mdir (./run-lab.sh matrix --status $(basename -- "$mdir"))"
	return "$rc"
}

# given_or KEY TEXT: " (given)" when the run spec sets KEY, else TEXT
given_or() {
	if [ -n "$(spec_get "$1")" ]; then echo " (given)"; else echo "$2"; fi
}

engine_slurm() {
	local mdir=$1 n id arr merge common=() out
	slurm_settings "$mdir"
	n=$(wc -l <"$mdir/cells.tsv")
	id=$(basename -- "$mdir")
	mkdir -p "$mdir/slurm"
	log matrix "slurm engine: $n cells as one job array; matrix folder $mdir"
	log matrix "  results root (LAB_RESULTS; every node must see it at this path): $results"
	log matrix "  kernel cache (LAB_CACHE; shared, or each node builds under its lock): $LAB_CACHE"
	log matrix "  partition (LAB_SLURM_PARTITION, --slurm-partition): ${S_PARTITION:-the cluster default}"
	log matrix "  account (LAB_SLURM_ACCOUNT, --slurm-account): ${S_ACCOUNT:-the user default}"
	log matrix "  time limit per cell (LAB_SLURM_TIME, --slurm-time): $S_TIME$(given_or slurm.time " min (default: the longest guest deadline + 30 min)")"
	log matrix "  CPUs per cell (LAB_SLURM_CPUS, --slurm-cpus): $S_CPUS$(given_or slurm.cpus " (default: LAB_VCPUS)")"
	log matrix "  memory per cell (LAB_SLURM_MEM, --slurm-mem): $S_MEM$(given_or slurm.mem " (default: LAB_MEM_MB + 1024M)")"
	common=(--parsable --chdir="$LAB_ROOT" --export=ALL)
	[ -z "$S_PARTITION" ] || common+=(--partition="$S_PARTITION")
	[ -z "$S_ACCOUNT" ] || common+=(--account="$S_ACCOUNT")
	if ! out=$(LAB_RESULTS=$results sbatch "${common[@]}" --job-name="lab-$id" --array="0-$((n - 1))" \
		--output="$mdir/slurm/cell-%a.out" --time="$S_TIME" --cpus-per-task="$S_CPUS" --mem="$S_MEM" \
		--wrap="exec $(printf '%q %q' "$LAB_ROOT/bench/cell.sh" "$mdir")" 2>&1); then
		die "sbatch of the cells' job array failed: $out"
	fi
	arr=${out%%;*}
	[[ "$arr" =~ ^[0-9]+$ ]] || die "sbatch gave no job id for the array: '$out'"
	if ! out=$(LAB_RESULTS=$results sbatch "${common[@]}" --job-name="lab-$id-merge" \
		--dependency="afterany:$arr" --output="$mdir/slurm/merge.out" --time=60 --cpus-per-task=1 --mem=1G \
		--wrap="exec $(printf '%q %q' "$LAB_ROOT/bench/merge.sh" "$mdir")" 2>&1) ||
		! [[ "${out%%;*}" =~ ^[0-9]+$ ]]; then
		scancel "$arr" 2>/dev/null || true
		die "sbatch of the merge failed ($out); the array job $arr was cancelled"
	fi
	merge=${out%%;*}
	{
		echo "engine=slurm"
		echo "array_job=$arr"
		echo "merge_job=$merge"
		echo "submitted=$(date -u +%FT%TZ)"
		echo "partition=$S_PARTITION"
		echo "account=$S_ACCOUNT"
		echo "time=$S_TIME"
		echo "cpus=$S_CPUS"
		echo "mem=$S_MEM"
	} | atomic_write "$mdir/slurm/jobs.env"
	log matrix "submitted: array job $arr ($n tasks), merge job $merge (afterany:$arr)"
	echo "matrix: $mdir"
	echo "  ./run-lab.sh matrix --status $id     # cells done, running, failed"
	echo "  $mdir/merge.txt                      # the merge, when job $merge has run"
	[ "$(spec_get slurm.wait)" = 1 ] || return 0
	log matrix "waiting for the merge job $merge"
	while [ -n "$(squeue -h -j "$merge" -t "$SQ_ACTIVE" -o %i 2>/dev/null)" ]; do
		sleep 2
	done
	[ -f "$mdir/merge.json" ] ||
		die "the merge job $merge ended without writing merge.json (see $mdir/slurm/merge.out)"
	cat "$mdir/merge.txt"
	jq -e '.complete' "$mdir/merge.json" >/dev/null
}

# run_engine ENGINE MDIR
run_engine() {
	case "$1" in
	local) engine_local "$2" ;;
	slurm) engine_slurm "$2" ;;
	*) usage_error "unknown engine '$1' (expected local or slurm)" ;;
	esac
}

# status DIR: every cell's state and run folder
status() {
	local mdir=$1 line cell state host reason run gone=0 arr='' out c_done=0 c_failed=0 c_running=0 c_pending=0
	if [ -f "$mdir/slurm/jobs.env" ] && command -v squeue >/dev/null; then
		arr=$(env_get "$mdir/slurm/jobs.env" array_job)
		# ended: no task left in the queue, or a job id Slurm has forgotten
		if out=$(squeue -h -j "$arr" -t "$SQ_ACTIVE" -o %i 2>&1); then
			[ -n "$out" ] || gone=1
		elif grep -q 'Invalid job id' <<<"$out"; then
			gone=1
		fi
	fi
	printf 'matrix %s (%s)' "$(basename -- "$mdir")" "$(env_get "$mdir/matrix.env" kind)"
	if [ -f "$mdir/slurm/jobs.env" ]; then
		printf ', slurm engine: array job %s, merge job %s' "$(env_get "$mdir/slurm/jobs.env" array_job)" \
			"$(env_get "$mdir/slurm/jobs.env" merge_job)"
	fi
	printf '\n%-32s %-8s %-10s %s\n' cell state host "run folder"
	while IFS= read -r line; do
		cell=$(cell_field "$line" name)
		state=$(cell_state "$mdir" "$cell")
		host=$(env_get "$mdir/status/$cell" host)
		reason=$(env_get "$mdir/status/$cell" reason)
		run=-
		[ ! -d "$mdir/$cell" ] || run=$mdir/$cell
		case "$state" in
		done) c_done=$((c_done + 1)) ;;
		failed) c_failed=$((c_failed + 1)) ;;
		running)
			c_running=$((c_running + 1))
			[ "$gone" = 0 ] || reason="its Slurm task has ended without a status: lost"
			;;
		*) c_pending=$((c_pending + 1)) ;;
		esac
		printf '%-32s %-8s %-10s %s\n' "$cell" "$state" "${host:--}" "$run${reason:+ ($reason)}"
	done <"$mdir/cells.tsv"
	printf '%d cells: %d done, %d failed, %d running, %d pending; ' \
		"$((c_done + c_failed + c_running + c_pending))" "$c_done" "$c_failed" "$c_running" "$c_pending"
	if [ -f "$mdir/merge.json" ]; then
		echo "merged: $mdir/merge.txt"
	else
		echo "not merged yet"
	fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
check)
	[ $# -eq 1 ] || usage_error "matrix check takes one matrix file"
	matrix_parse "$1" || exit 2
	[ ! -x build/taprio ] || check_schedules
	print_cells
	;;
run)
	[ $# -eq 2 ] || usage_error "matrix run takes FILE SPEC_FILE"
	spec_load "$2" || exit 2
	results=$(spec_get results "$results")
	matrix_parse "$1" || exit 2
	check_schedules
	slurm_check
	mdir=$(new_matrix "$(spec_get matrix.kind matrix)" "$1")
	run_engine "$(spec_get engine local)" "$mdir"
	;;
ab)
	[ $# -eq 1 ] || usage_error "matrix ab takes SPEC_FILE"
	spec_load "$1" || exit 2
	results=$(spec_get results "$results")
	slurm_check
	boots=$(spec_get ab.boots)
	[ -n "$boots" ] || boots=$([ "$(spec_get profile)" = quick ] && echo 3 || echo 5)
	spec_set ab.boots "$boots"
	ka=$(spec_get ab.a) kb=$(spec_get ab.b)
	b_cmdline=$(spec_get ab.b_cmdline) b_sysctls=$(spec_get ab.b_sysctls)
	read -r -a workloads <<<"$(spec_get workloads)"
	mdir=$(matrix_new_dir "$results" ab)
	matrix_write_env "$mdir" ab
	ab_write_env "$mdir"
	spec_write "$mdir/matrix.spec"
	{
		echo "# ./run-lab.sh ab --engine $(spec_get engine local): side A $ka, side B $kb${b_cmdline:+ with command line \"$b_cmdline\"}${b_sysctls:+ and sysctl $b_sysctls}"
		echo "# (an A/B is two arms, not a cross product: its cells are in cells.tsv)"
		echo "workloads $(
			IFS=,
			echo "${workloads[*]}"
		)"
		echo "profiles $(spec_get profile)"
		echo "boots $boots"
	} >"$mdir/matrix.txt"
	for ((i = 1; i <= boots; i++)); do
		for side in $(ab_order "$i"); do
			if [ "$side" = a ]; then
				printf '%s\t%s\t%s\t%s\t%s\t%s\t' "a$i" a - "$ka" - -
			else
				printf '%s\t%s\t%s\t%s\t%s\t%s\t' "b$i" b - "$kb" "${b_cmdline:--}" "${b_sysctls:--}"
			fi
			printf '%s\t%s\t-\t%s\t%s\n' "${workloads[*]}" "$(spec_get profile)" "$i" "$(spec_get trace 0)"
		done
	done | atomic_write "$mdir/cells.tsv"
	mkdir -p "$mdir/cells"
	for ((i = 1; i <= boots; i++)); do
		for side in a b; do
			(
				ab_boot_spec "$side" "$i" "$mdir"
				spec_write "$mdir/cells/$side$i.spec"
			)
		done
	done
	ln -sfn "$(basename -- "$mdir")" "$results/.latest.tmp.$$"
	mv -T "$results/.latest.tmp.$$" "$results/latest"
	log ab "$boots boots a side as cells of the $(spec_get engine local) engine, A: $ka kernel, B: $kb kernel${b_cmdline:+ with command line \"$b_cmdline\"}${b_sysctls:+ and sysctl $b_sysctls}"
	run_engine "$(spec_get engine local)" "$mdir"
	;;
status)
	[ $# -eq 1 ] || usage_error "matrix --status takes one matrix file, id or folder"
	mdir=$(matrix_resolve "$1")
	status "$mdir"
	;;
*) usage_error "unknown matrix command '$cmd' (expected check, run, ab or status)" ;;
esac

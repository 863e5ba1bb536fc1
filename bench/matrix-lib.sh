# shellcheck shell=bash
# Run matrices: the matrix file's parser, its expansion into cells, the
# cells' states and the two engines (local: one cell after another on this
# machine; slurm: one job array, one task per cell, and the merge as a job
# depending on it). Sourced by bench/matrix.sh, bench/cell.sh and
# bench/merge.sh; defines functions only; sources bench/lib.sh.
#
# A matrix folder ($LAB_RESULTS/<matrix-id>/) holds:
#   matrix.txt    the matrix file (or what ab / tune-taprio made of their options)
#   matrix.env    id, kind (matrix|ab|tune), created, lab commit
#   matrix.spec   the run spec it runs with (bench/spec.sh: the engine, the
#                 guest's settings...), as run-lab.sh made it
#   cells.tsv     one cell a line (see matrix_cells), in the order they run
#   cells/CELL.spec  the run spec of each cell (cell_spec)
#   schedules/    the taprio schedules of the matrix, which the cells use
#   status/CELL   the cell's state (state=running|done|failed, host, job,
#                 started, ended, rc, run), written by bench/cell.sh
#   logs/CELL.log what the cell printed
#   CELL/         the cell's run folder (bench/run.sh), as a run of its own
#   merge.txt, merge.json   the merge (bench/merge.sh): every cell's state,
#                 the comparisons, the tuning recommendation
#   slurm/        the slurm engine's job ids and Slurm's own output files

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MATRIX_MAX_BOOTS=50

# matrix_parse FILE: read the matrix file into
#   M_KERNELS M_VARIANTS M_WORKLOADS M_PROFILES M_SCHEDULES (arrays),
#   M_CMDLINE[variant] M_SYSCTLS[variant] (associative), M_BOOTS, M_TUNE_BOUND.
# Every bad line is an error "FILE:LINE: ..." naming the value; after the
# whole file is read, the errors are printed and matrix_parse returns 1.
matrix_parse() {
	local file=$1 line lineno=0 axis vals v name what arg known re
	local -A seen=()
	local errors=()
	M_KERNELS=() M_VARIANTS=() M_WORKLOADS=() M_PROFILES=() M_SCHEDULES=()
	M_BOOTS=1 M_TUNE_BOUND=
	declare -gA M_CMDLINE=() M_SYSCTLS=()
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		printf "error: matrix file '%s' does not exist or is not readable\n" "$file" >&2
		return 1
	fi
	known=$(lab_workloads)
	err() { errors+=("$file:$lineno: $*"); }
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		line=${line%%#*}
		line=${line//$'\t'/ }
		read -r -a vals <<<"$line" || true
		[ "${#vals[@]}" -gt 0 ] || continue
		axis=${vals[0]}
		vals=("${vals[@]:1}")
		case "$axis" in
		kernels | variants | workloads | profiles | schedules | boots | tune-bound-us) ;;
		*)
			err "unknown axis '$axis' (expected kernels, variants, workloads, profiles, schedules, boots or tune-bound-us)"
			continue
			;;
		esac
		if [ -n "${seen[$axis]:-}" ]; then
			err "axis '$axis' given twice (first on line ${seen[$axis]})"
			continue
		fi
		seen[$axis]=$lineno
		if [ "${#vals[@]}" -eq 0 ]; then
			err "axis '$axis' has no value"
			continue
		fi
		case "$axis" in
		kernels)
			for v in "${vals[@]}"; do
				# shellcheck disable=SC2086 # KERNEL_FLAVOURS is a word list
				if ! one_of "$v" $KERNEL_FLAVOURS; then
					err "unknown kernel '$v' (expected one of: $KERNEL_FLAVOURS)"
				elif printf '%s\n' "${M_KERNELS[@]}" | grep -qxF -- "$v"; then
					err "kernel '$v' given twice"
				else
					M_KERNELS+=("$v")
				fi
			done
			;;
		variants)
			for v in "${vals[@]}"; do
				name=${v%%:*}
				if ! [[ "$name" =~ ^[a-z0-9][a-z0-9_]*$ ]]; then
					err "bad variant name '$name' in '$v' (expected lower-case letters, digits and _)"
					continue
				fi
				if [ "$name" = "$v" ]; then
					what='' arg=''
				else
					what=${v#*:}
					arg=${what#*=}
					what=${what%%=*}
				fi
				case "$what" in
				'') ;;
				cmdline)
					if ! [[ "$arg" =~ ^[[:graph:]]+$ ]]; then
						err "bad kernel parameter '$arg' in variant '$v'"
						continue
					fi
					M_CMDLINE[$name]+="${M_CMDLINE[$name]:+ }$arg"
					;;
				sysctl)
					re='^[a-z0-9_]+(\.[a-z0-9_]+)+=[^[:space:]]+$'
					if ! [[ "$arg" =~ $re ]]; then
						err "bad sysctl '$arg' in variant '$v' (expected KEY=VALUE, for example net.core.bpf_jit_enable=0)"
						continue
					fi
					M_SYSCTLS[$name]+="${M_SYSCTLS[$name]:+ }$arg"
					;;
				*)
					err "bad variant '$v' (expected NAME, NAME:cmdline=PARAM or NAME:sysctl=KEY=VALUE)"
					continue
					;;
				esac
				printf '%s\n' "${M_VARIANTS[@]}" | grep -qxF -- "$name" || M_VARIANTS+=("$name")
			done
			;;
		workloads)
			for v in "${vals[@]}"; do
				local w ok=1
				for w in ${v//,/ }; do
					if ! grep -qxF -- "$w" <<<"$known"; then
						err "unknown workload '$w' (known: $(echo "$known" | tr '\n' ' '))"
						ok=0
					fi
				done
				[[ "$v" != *,,* && "$v" != ,* && "$v" != *, ]] || {
					err "bad workload set '$v' (workloads run in one boot are joined by single commas)"
					ok=0
				}
				[ "$ok" = 0 ] || M_WORKLOADS+=("$v")
			done
			;;
		profiles)
			for v in "${vals[@]}"; do
				case "$v" in
				quick | full) M_PROFILES+=("$v") ;;
				*) err "unknown profile '$v' (expected quick or full)" ;;
				esac
			done
			;;
		schedules)
			for v in "${vals[@]}"; do
				if [ ! -f "$v" ] || [ ! -r "$v" ]; then
					err "schedule file '$v' does not exist or is not readable"
				else
					M_SCHEDULES+=("$(cd -P -- "$(dirname -- "$v")" && pwd)/$(basename -- "$v")")
				fi
			done
			;;
		boots)
			if [ "${#vals[@]}" -ne 1 ] || ! [[ "${vals[0]}" =~ ^[1-9][0-9]*$ ]] ||
				[ "${vals[0]}" -gt "$MATRIX_MAX_BOOTS" ]; then
				err "bad boots '${vals[*]}' (expected one whole number from 1 to $MATRIX_MAX_BOOTS)"
			else
				M_BOOTS=${vals[0]}
			fi
			;;
		tune-bound-us)
			if [ "${#vals[@]}" -ne 1 ] || ! [[ "${vals[0]}" =~ ^[0-9]+([.][0-9]+)?$ ]] ||
				! awk -v b="${vals[0]}" 'BEGIN {exit !(b > 0)}'; then
				err "bad tune-bound-us '${vals[*]}' (expected one positive number of microseconds)"
			else
				M_TUNE_BOUND=${vals[0]}
			fi
			;;
		esac
	done <"$file"
	if [ -z "${seen[workloads]:-}" ] && [ -z "${errors[*]}" ]; then
		errors+=("$file: no 'workloads' line: a matrix needs at least one workload")
	fi
	if [ "${#M_SCHEDULES[@]}" -gt 0 ] && [ "${#M_WORKLOADS[@]}" -gt 0 ] &&
		! printf '%s\n' "${M_WORKLOADS[@]}" | tr ',' '\n' | grep -qx taprio; then
		errors+=("$file:${seen[schedules]}: schedules are given but no workload set has taprio")
	fi
	if [ -n "$M_TUNE_BOUND" ] && [ "${#M_SCHEDULES[@]}" -eq 0 ]; then
		errors+=("$file:${seen[tune-bound-us]}: tune-bound-us '$M_TUNE_BOUND' without schedules to tune")
	fi
	unset -f err
	if [ "${#errors[@]}" -gt 0 ]; then
		printf 'error: %s\n' "${errors[@]}" >&2
		return 1
	fi
	[ "${#M_KERNELS[@]}" -gt 0 ] || M_KERNELS=(lab)
	[ "${#M_PROFILES[@]}" -gt 0 ] || M_PROFILES=(quick)
	[ "${#M_VARIANTS[@]}" -gt 0 ] || M_VARIANTS=(base)
	M_HAS_VARIANTS=0
	[ -z "${seen[variants]:-}" ] || M_HAS_VARIANTS=1
	return 0
}

# The columns of cells.tsv, tab-separated, in this order
MATRIX_COLUMNS="name arm group kernel cmdline sysctls workloads profile schedule boot trace"

# matrix_cells TRACE: the cells of the parsed matrix on stdout, one a line
# (the columns above; workloads space-separated; schedule an absolute path
# or "-"; empty fields "-"; trace TRACE, 0 or 1). Interleaved as ab does:
# for each boot, every group, and in it every arm (kernel x variant), the
# arms in reverse order on even boots, so drifting host load falls on all
# arms alike. A cell's name is its arm (kernel, and variant when the matrix
# has variants), its group's axes that have more than one value, and its
# boot: lab-nojit-b2, stock-bpfqs-quick-b1, ...
matrix_cells() {
	local b k v w p s name arm arms group sname trace=${1:-0}
	local scheds=("${M_SCHEDULES[@]}")
	[ "${#scheds[@]}" -gt 0 ] || scheds=(-)
	for ((b = 1; b <= M_BOOTS; b++)); do
		# the arms (kernel:variant), in reverse order on even boots (as ab's
		# ABBA), so that a steady drift of the host biases no arm
		arms=()
		for k in "${M_KERNELS[@]}"; do
			for v in "${M_VARIANTS[@]}"; do
				if [ $((b % 2)) = 1 ]; then arms+=("$k:$v"); else arms=("$k:$v" "${arms[@]}"); fi
			done
		done
		for w in "${M_WORKLOADS[@]}"; do
			for p in "${M_PROFILES[@]}"; do
				for s in "${scheds[@]}"; do
					group=
					[ "${#M_WORKLOADS[@]}" -eq 1 ] || group+="-${w//,/+}"
					[ "${#M_PROFILES[@]}" -eq 1 ] || group+="-$p"
					if [ "${#M_SCHEDULES[@]}" -gt 1 ] || [ -n "$M_TUNE_BOUND" ]; then
						sname=$(basename -- "$s")
						group+="-${sname%.sched}"
					fi
					group=${group#-}
					for arm in "${arms[@]}"; do
						k=${arm%%:*} v=${arm#*:}
						arm=$k
						[ "$M_HAS_VARIANTS" = 0 ] || arm+="-$v"
						name=$arm${group:+-$group}-b$b
						printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$arm" "${group:--}" \
							"$k" "${M_CMDLINE[$v]:--}" "${M_SYSCTLS[$v]:--}" "${w//,/ }" "$p" "$s" "$b" "$trace"
					done
				done
			done
		done
	done
}

# cell_field TSV_LINE COLUMN: one column of a cells.tsv line ("-" read as empty)
cell_field() {
	local c i=0 f cols
	IFS=$'\t' read -r -a f <<<"$1"
	read -r -a cols <<<"$MATRIX_COLUMNS"
	for c in "${cols[@]}"; do
		if [ "$c" = "$2" ]; then
			[ "${f[$i]:-}" = - ] || printf '%s\n' "${f[$i]:-}"
			return 0
		fi
		i=$((i + 1))
	done
	die "cell_field: no column '$2'"
}

# cell_spec MDIR TSV_LINE: SPEC, the matrix's run spec, made the run spec of
# one cell: its kernel, variant (command line, sysctls), workloads, profile
# and schedule, into MDIR/CELL; a boot after the first is a replicate
cell_spec() {
	local cl
	cl="$(spec_get cmdline) $(cell_field "$2" cmdline)"
	read -r cl <<<"$cl"
	spec_set command run
	spec_set kernel "$(cell_field "$2" kernel)"
	spec_set cmdline "$cl"
	spec_set sysctls "$(cell_field "$2" sysctls)"
	spec_set workloads "$(cell_field "$2" workloads)"
	spec_set profile "$(cell_field "$2" profile)"
	spec_set trace "$(cell_field "$2" trace)"
	spec_set taprio.schedule "$(cell_field "$2" schedule)"
	spec_set results "$1"
	spec_set run_name "$(cell_field "$2" name)"
	# after the first boot of a cell, its behaviour checks are not run again
	[ "$(cell_field "$2" boot)" = 1 ] || spec_set replicate 1
}

# matrix_new_dir RESULTS KIND: make a new matrix folder <stamp>-KIND[-N]
# under RESULTS, print its path
matrix_new_dir() {
	local id n=1
	mkdir -p "$1"
	id=$(date -u +%Y%m%d-%H%M%S)-$2
	while ! mkdir "$1/$id" 2>/dev/null; do
		n=$((n + 1))
		id=$(date -u +%Y%m%d-%H%M%S)-$2-$n
	done
	mkdir -p "$1/$id/status" "$1/$id/logs"
	printf '%s\n' "$1/$id"
}

# matrix_write_env MDIR KIND: matrix.env
matrix_write_env() {
	local commit
	commit=$(git -C "$LAB_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo none)
	[ -z "$(git -C "$LAB_ROOT" status --porcelain 2>/dev/null)" ] || commit+=-dirty
	{
		echo "id=$(basename -- "$1")"
		echo "kind=$2"
		echo "created=$(date -u +%FT%TZ)"
		echo "lab_commit=$commit"
		echo "lab_root=$LAB_ROOT"
	} | atomic_write "$1/matrix.env"
}

# env_get FILE KEY: the value of KEY=VALUE in FILE, empty if absent
env_get() {
	[ -f "$1" ] || return 0
	sed -n "s/^$2=//p" "$1" | tail -1
}

# cell_state MDIR CELL: done, failed, running or pending (no status file:
# the cell never started)
cell_state() {
	local s
	s=$(env_get "$1/status/$2" state)
	printf '%s\n' "${s:-pending}"
}

# matrix_resolve FILE|ID: the matrix folder: a path to it, an id under
# $LAB_RESULTS, or a matrix file (the newest folder whose matrix.txt is the
# same text); a usage error otherwise
matrix_resolve() {
	local results=${LAB_RESULTS:-$LAB_ROOT/results} d best=
	if [ -d "$1" ] && [ -f "$1/cells.tsv" ]; then
		(cd -P -- "$1" && pwd)
		return 0
	fi
	if [ "${1#*/}" = "$1" ] && [ -f "$results/$1/cells.tsv" ]; then
		(cd -P -- "$results/$1" && pwd)
		return 0
	fi
	if [ -f "$1" ]; then
		for d in "$results"/*/; do
			d=${d%/}
			if [ -f "$d/cells.tsv" ] && cmp -s -- "$1" "$d/matrix.txt" 2>/dev/null; then
				if [ -z "$best" ] || [[ "$d" > "$best" ]]; then best=$d; fi
			fi
		done
		[ -z "$best" ] || {
			(cd -P -- "$best" && pwd)
			return 0
		}
		usage_error "no matrix run of '$1' in $results (not run yet, or LAB_RESULTS names another results root)"
	fi
	usage_error "matrix '$1' not found: not a matrix folder, a matrix id in $results, nor a matrix file"
}

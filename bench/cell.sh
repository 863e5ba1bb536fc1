#!/bin/bash
# Run one cell of a matrix: one guest boot (bench/run.sh) into the matrix
# folder's CELL/ run folder, its state in status/CELL (running, then done
# or failed, with the host, the Slurm job, the times, the exit code and the
# run folder) and what it printed in logs/CELL.log.
# usage: bench/cell.sh MATRIX_DIR [INDEX]
# INDEX counts the lines of MATRIX_DIR/cells.tsv from 0; without it, the
# Slurm array task's ($SLURM_ARRAY_TASK_ID). The local engine and the slurm
# engine's array tasks call this alike.
set -eu

# shellcheck source=bench/matrix-lib.sh
. "$(dirname "$0")/matrix-lib.sh"
# shellcheck source=bench/spec.sh
. "$(dirname "$0")/spec.sh"
cd "$LAB_ROOT"

mdir=${1:?usage: bench/cell.sh MATRIX_DIR [INDEX]}
idx=${2:-${SLURM_ARRAY_TASK_ID:-}}
[[ "$idx" =~ ^[0-9]+$ ]] || die "cell.sh: no cell index (give one, or run as a Slurm array task)"
[ -f "$mdir/cells.tsv" ] || die "cell.sh: $mdir is not a matrix folder (no cells.tsv)"
line=$(sed -n "$((idx + 1))p" "$mdir/cells.tsv")
[ -n "$line" ] || die "cell.sh: $mdir/cells.tsv has no cell $idx ($(wc -l <"$mdir/cells.tsv") cells)"

cell=$(cell_field "$line" name)
spec=$mdir/cells/$cell.spec
spec_load "$spec" || die "cell.sh: no run spec of cell $cell ($spec)"
kernel=$(spec_get kernel)
profile=$(spec_get profile)
workloads=$(spec_get workloads)
statusf=$mdir/status/$cell
mkdir -p "$mdir/status" "$mdir/logs"
job=
[ -z "${SLURM_JOB_ID:-}" ] || job="${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}_${SLURM_ARRAY_TASK_ID:-0} (job $SLURM_JOB_ID)"
started=$(date -u +%FT%TZ)

# write_status STATE [RC]
write_status() {
	{
		echo "state=$1"
		echo "cell=$cell"
		echo "index=$idx"
		echo "host=$(hostname -s)"
		echo "pid=$$"
		echo "job=$job"
		echo "started=$started"
		[ "$1" = running ] || echo "ended=$(date -u +%FT%TZ)"
		[ -z "${2:-}" ] || echo "rc=$2"
		echo "run=$mdir/$cell"
		[ -z "${3:-}" ] || echo "reason=$3"
	} | atomic_write "$statusf"
}

state=$(cell_state "$mdir" "$cell")
case "$state" in
done | failed | running)
	# a cell runs once: a requeued task or a second engine does not redo it
	die "cell $cell is $state already (status/$cell); a cell runs once"
	;;
esac
write_status running
exec > >(tee -a "$mdir/logs/$cell.log") 2>&1
trap 'write_status failed 143 "stopped by a signal (a Slurm time limit or scancel?)"; exit 143' TERM
trap 'write_status failed 130 "interrupted"; exit 130' INT

log cell "cell $cell (index $idx) on $(hostname -s)${job:+, Slurm task $job}: $kernel kernel, $profile profile, $workloads"
rc=0
bench/run.sh "$spec" || rc=$?
trap - TERM INT
if [ "$rc" -eq 0 ]; then
	write_status "done" 0
else
	reason="bench/run.sh exited $rc"
	if [ -f "$mdir/$cell/failure.txt" ]; then
		reason=$(head -1 "$mdir/$cell/failure.txt")
	elif [ ! -d "$mdir/$cell" ]; then
		reason="no run folder (the kernel build or the run's setup failed; see logs/$cell.log)"
	fi
	write_status failed "$rc" "$reason"
fi
log cell "cell $cell: $(cell_state "$mdir" "$cell")"
exit "$rc"

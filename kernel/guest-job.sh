#!/bin/bash
# The job runner of the lab guest, started by PID 1 (kernel/guest-init.c)
# once the file systems are mounted. It wires the network, runs the job the
# host wrote into the results folder and stores each step's exit status
# there.
#
# Job file: $LAB_OUT/guest/job.sh, shell code with one "step NAME COMMAND..."
# line per command (or "interactive" for a shell on the console). A step runs
# in $LAB_SRC with its output in guest/NAME.log and its exit status in
# guest/NAME.rc; guest/first-step marks the start of the first step and
# guest/done a finished job; guest/progress has a line as each step starts
# and ends (the host prints them: bench/progress.sh). It exits when the job
# is done; PID 1 then stops what is left and powers off.
set -u

SRC=$LAB_SRC
OUT=$LAB_OUT

say() {
	echo "lab-init: $*"
}

if [ ! -r "$OUT/guest/job.sh" ]; then
	say "no job file $OUT/guest/job.sh"
	exit 1
fi

# step NAME COMMAND...: run one command of the job, record its exit status
step() {
	local name=$1 rc
	shift
	[ -f "$OUT/guest/first-step" ] || : >"$OUT/guest/first-step"
	say "step $name"
	echo "start $name" >>"$OUT/guest/progress"
	(cd "$SRC" && "$@") >"$OUT/guest/$name.log" 2>&1 </dev/null
	rc=$?
	echo "$rc" >"$OUT/guest/$name.rc.tmp"
	mv "$OUT/guest/$name.rc.tmp" "$OUT/guest/$name.rc"
	echo "end $name $rc" >>"$OUT/guest/progress"
	say "step $name: exit $rc"
}

# interactive: a login shell on the serial console (run-lab.sh shell)
# shellcheck disable=SC2317 # called from the job file
interactive() {
	: >"$OUT/guest/first-step"
	say "interactive shell; leave with 'exit' or Ctrl-D"
	cd "$SRC" && setsid -c bash -l <>/dev/ttyS0 >&0 2>&1
}

step setup "$SRC/kernel/guest-net.sh"
step info "$SRC/kernel/guest-info.sh"
# shellcheck source=/dev/null
. "$OUT/guest/job.sh"
: >"$OUT/guest/done"
say "job done"

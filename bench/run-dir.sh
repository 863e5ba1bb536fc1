#!/bin/bash
# Resolve a run given as a run id (a folder of results/) or a path; print
# its absolute path, or fail naming what was given.
# usage: bench/run-dir.sh RUN
set -eu

. "$(dirname "$0")/lib.sh"

run=$1
if [ -d "$run" ]; then
	cd "$run" && pwd -P
elif [ -d "$LAB_ROOT/results/$run" ]; then
	cd "$LAB_ROOT/results/$run" && pwd -P
else
	usage_error "no run '$run' (neither a folder nor a run id under results/)"
fi

# shellcheck shell=bash
# Shared shell helpers of the lab: logging with elapsed time, paths, errors.
# Sourced by run-lab.sh, kernel/build.sh and bench/*.sh; defines functions only.

LAB_ROOT=${LAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kernel-lab}
LAB_T0=${LAB_T0:-$(date +%s)}
export LAB_ROOT LAB_CACHE LAB_T0

# log PHASE MESSAGE...: one line on stderr, "[  12s] phase: message"
log() {
	local phase=$1
	shift
	printf '[%4ss] %s: %s\n' "$(($(date +%s) - LAB_T0))" "$phase" "$*" >&2
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# usage_error MESSAGE: bad input from the user, exit code 2
usage_error() {
	printf 'error: %s\n' "$*" >&2
	printf "Try '%s --help'.\n" "${LAB_PROG:-run-lab.sh}" >&2
	exit 2
}

# one_of WORD LIST...: WORD is one of the words of LIST
one_of() {
	local w=$1
	shift
	while [ "$#" -gt 0 ]; do
		[ "$1" != "$w" ] || return 0
		shift
	done
	return 1
}

# now_ns: wall clock in nanoseconds
now_ns() {
	date +%s%N
}

# secs_since NS: seconds (3 decimals) elapsed since a now_ns reading
secs_since() {
	local d=$(($(now_ns) - $1))
	printf '%d.%03d' "$((d / 1000000000))" "$((d % 1000000000 / 1000000))"
}

# atomic_write FILE: copy stdin to FILE through a temporary file and rename
atomic_write() {
	local tmp
	tmp=$(mktemp "$1.tmp.XXXXXX")
	cat >"$tmp"
	chmod 644 "$tmp"
	mv -f "$tmp" "$1"
}

# sha256_of FILE...: short content hash of the files, in order
sha256_of() {
	cat "$@" | sha256sum | cut -c1-16
}

# The kernel flavours (kernel/build.sh): lab, stock and debug of Linux 6.1,
# and the same of 6.12
# shellcheck disable=SC2034 # read by bench/cli.sh, bench/matrix-lib.sh, kernel/build.sh
KERNEL_FLAVOURS="lab stock debug lab-6.12 stock-6.12 debug-6.12"

# kernel_version_of FLAVOUR: the Linux version a flavour builds (6.1, 6.12)
kernel_version_of() {
	case "$1" in
	*-6.12) echo 6.12 ;;
	*) echo 6.1 ;;
	esac
}

# kernel_base_of FLAVOUR: the flavour without its version (lab, stock, debug)
kernel_base_of() {
	echo "${1%-"$(kernel_version_of "$1")"}"
}

# lab_workloads: the workloads there are, one a line: the folders of
# workloads/ with a main.c and an executable driver.sh
lab_workloads() {
	local d
	for d in "$LAB_ROOT"/workloads/*/; do
		[ -f "$d/main.c" ] && [ -x "$d/driver.sh" ] && basename "$d"
	done
	return 0
}

# lab_host_load: source each workload's host side, workloads/<w>/host.sh,
# where there is one: functions named <w>_declare (its options and commands
# for run-lab.sh), <w>_check (its run spec keys, before a guest boots),
# <w>_stage RUN_DIR (its files into the run folder); see workloads/taprio/host.sh
lab_host_load() {
	local w
	for w in $(lab_workloads); do
		# shellcheck source=/dev/null
		[ ! -f "$LAB_ROOT/workloads/$w/host.sh" ] || . "$LAB_ROOT/workloads/$w/host.sh"
	done
}

# ab_write_env DIR: DIR/ab.env, what an A/B folder is (ab.sh's and the
# matrix engines' alike), from the ab keys of the run spec SPEC, with the
# meta.json keys the comparison is meant to change ("asked")
ab_write_env() {
	local asked=''
	[ "$(spec_get ab.a)" = "$(spec_get ab.b)" ] ||
		asked+=kernel_flavour,kernel_key,series_hash,config_hash,kernel_version,
	[ -z "$(spec_get ab.b_cmdline)" ] || asked+=cmdline_extra,
	[ -z "$(spec_get ab.b_sysctls)" ] || asked+=sysctls,
	{
		echo "ab_id=$(basename -- "$1")"
		echo "boots=$(spec_get ab.boots)"
		echo "a_kernel=$(spec_get ab.a)"
		echo "b_kernel=$(spec_get ab.b)"
		echo "b_cmdline=$(spec_get ab.b_cmdline)"
		echo "b_sysctls=$(spec_get ab.b_sysctls)"
		echo "profile=$(spec_get profile)"
		echo "workloads=$(spec_get workloads)"
		echo "asked=${asked%,}"
	} | atomic_write "$1/ab.env"
}

# ab_order I: the sides of the I-th pair of boots of an A/B, in the order
# they boot: ABBA (a b, b a, a b, ...), so that a steady drift of the host
# over the minutes biases neither side
ab_order() {
	if [ $(($1 % 2)) = 1 ]; then echo a b; else echo b a; fi
}

# host_report DIR: the report of workload folder DIR (its name is the
# workload's) run on the host, with the reasons its driver gave
# (DIR/failures.txt), into DIR/report.log; nothing when the guest wrote
# DIR/summary.json already or left no folder. Returns 1 when it fails.
host_report() {
	local d=$1 w args=() f rc=0
	w=$(basename -- "$d")
	[ -d "$d" ] && [ ! -f "$d/summary.json" ] || return 0
	if [ -f "$d/failures.txt" ]; then
		while IFS= read -r f; do
			[ -z "$f" ] || args+=(--failed "$f")
		done <"$d/failures.txt"
	fi
	log report "$w: its report on the host"
	"$LAB_ROOT/build/$w" report --out "$d" "${args[@]}" 2>"$d/report.log" || rc=$?
	[ "$rc" = 0 ] || log report "$w: its report exited $rc (see $d/report.log)"
	return $((rc != 0))
}

# ab_boot_spec SIDE I RESULTS: SPEC, an A/B's spec, made the run spec of the
# I-th boot of SIDE (a or b), into RESULTS/<SIDE><I>: its kernel, on the B
# side the command line and sysctls asked for, after the side's first
# boot replicate=1 (its conformance and probe passes are not run again),
# and report_on=host (the workloads' reports run on the host, not in the
# slow guest)
ab_boot_spec() {
	local cl
	spec_set command run
	spec_set report_on host
	spec_set kernel "$(spec_get "ab.$1")"
	spec_set results "$3"
	spec_set run_name "$1$2"
	[ "$2" = 1 ] || spec_set replicate 1
	if [ "$1" = b ]; then
		cl="$(spec_get cmdline) $(spec_get ab.b_cmdline)"
		read -r cl <<<"$cl"
		spec_set cmdline "$cl"
		spec_set sysctls "$(spec_get ab.b_sysctls)"
	fi
}

# kernel_build FLAVOUR: the kernel FLAVOUR (lab|stock|debug), built or served by the
# cache (kernel/build.sh), its key=value lines in the associative array
# `build` (image, key, config, config_hash, series_hash, version,
# build_seconds); then the kernel's testptp from that tree in build/testptp,
# for the PTP clock's conformance (the guest builds it, slowly, when this
# fails). Returns 1 when the build fails or gives no image.
kernel_build() {
	local out k v
	declare -gA build=()
	out=$("$LAB_ROOT/kernel/build.sh" "$1") || return 1
	while IFS='=' read -r k v; do
		build[$k]=$v
	done <<<"$out"
	if [ -z "${build[image]:-}" ]; then
		printf 'error: kernel/build.sh %s gave no image\n' "$1" >&2
		return 1
	fi
	make -s -C "$LAB_ROOT" build/testptp KTREE="${build[src]}" >/dev/null 2>&1 || true
}

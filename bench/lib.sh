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

# kernel_build FLAVOUR: the kernel FLAVOUR (lab|stock|debug), built or served by the
# cache (kernel/build.sh), its key=value lines in the associative array
# `build` (image, key, config, config_hash, series_hash, version,
# build_seconds); then the kernel's testptp from that tree in build/testptp,
# for the PTP clock's conformance (the guest builds it, slowly, when this
# fails). Returns 1 when the build fails or gives no image.
# ab_write_env DIR BOOTS A B CMDLINE SYSCTLS PROFILE WORKLOAD...: DIR/ab.env,
# what an A/B folder is (ab.sh's and the matrix engines' alike), with the
# meta.json keys the comparison is meant to change ("asked")
ab_write_env() {
	local dir=$1 boots=$2 ka=$3 kb=$4 b_cmdline=$5 b_sysctls=$6 profile=$7 asked=
	shift 7
	[ "$ka" = "$kb" ] || asked+=kernel_flavour,kernel_key,series_hash,config_hash,kernel_version,
	[ -z "$b_cmdline" ] || asked+=cmdline_extra,
	[ -z "$b_sysctls" ] || asked+=sysctls,
	{
		echo "ab_id=$(basename -- "$dir")"
		echo "boots=$boots"
		echo "a_kernel=$ka"
		echo "b_kernel=$kb"
		echo "b_cmdline=$b_cmdline"
		echo "b_sysctls=$b_sysctls"
		echo "profile=$profile"
		echo "workloads=$*"
		echo "asked=${asked%,}"
	} | atomic_write "$dir/ab.env"
}

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
	make -s -C "$LAB_ROOT" build/testptp KTREE="$LAB_CACHE/$1/linux" >/dev/null 2>&1 || true
}

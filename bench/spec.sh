# shellcheck shell=bash
# The run spec: one file per run (RUN_DIR/run.spec) that says what the run is
# (kernel, profile, workloads, their options, the guest's size and deadlines),
# written once by whoever starts the run (run-lab.sh, bench/ab.sh, a matrix
# cell) and read by every script after it, on the host and in the guest
# ($LAB_OUT/run.spec). Sourced; defines functions only.
#
# Format: KEY=VALUE lines, the value the rest of the line (no newline in it),
# '#' comment lines and blank lines ignored; keys are lower-case words with
# '_', and a workload's own keys are prefixed with its name and a dot
# (taprio.schedule). The first key is format_version.

SPEC_FORMAT_VERSION=1

# spec_load FILE: read FILE into the associative array SPEC (replacing what
# was there); a malformed line or an unknown format is an error naming the
# file and the line, and returns 1
spec_load() {
	local file=$1 line lineno=0 key
	declare -gA SPEC=()
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		printf "error: run spec '%s' does not exist or is not readable\n" "$file" >&2
		return 1
	fi
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case "$line" in '' | '#'*) continue ;; esac
		key=${line%%=*}
		if [ "$key" = "$line" ] || ! [[ "$key" =~ ^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$ ]]; then
			printf "error: %s:%d: '%s' is not KEY=VALUE (KEY: lower-case words, a workload's prefixed with its name and a dot)\n" \
				"$file" "$lineno" "$line" >&2
			return 1
		fi
		SPEC[$key]=${line#*=}
	done <"$file"
	if [ "${SPEC[format_version]:-}" != "$SPEC_FORMAT_VERSION" ]; then
		printf "error: %s: format_version '%s' (this lab reads %s)\n" \
			"$file" "${SPEC[format_version]:-}" "$SPEC_FORMAT_VERSION" >&2
		return 1
	fi
}

# spec_get KEY [DEFAULT]: the value of KEY, or DEFAULT (empty) when KEY is
# absent or empty
spec_get() {
	local v=${SPEC[$1]:-}
	printf '%s\n' "${v:-${2:-}}"
}

# spec_set KEY VALUE: set KEY in SPEC (a newline in VALUE is an error)
spec_set() {
	case "$2" in *$'\n'*)
		printf "error: spec_set %s: a value may not hold a newline\n" "$1" >&2
		return 1
		;;
	esac
	SPEC[$1]=$2
}

# spec_write FILE: SPEC into FILE, format_version first, then the keys in
# order (an empty value is left out: spec_get reads it as absent), atomically
spec_write() {
	local tmp k
	tmp=$(mktemp "$1.tmp.XXXXXX")
	{
		echo "format_version=$SPEC_FORMAT_VERSION"
		for k in "${!SPEC[@]}"; do
			[ "$k" = format_version ] || [ -z "${SPEC[$k]}" ] || printf '%s=%s\n' "$k" "${SPEC[$k]}"
		done | LC_ALL=C sort
	} >"$tmp"
	chmod 644 "$tmp"
	mv -f "$tmp" "$1"
}

# spec_from_env: SPEC's keys a user sets in the environment (the kernel, the
# guest's settings, the results root, the Slurm settings), with their defaults
spec_from_env() {
	local k v
	spec_set kernel "${LAB_KERNEL:-lab}"
	spec_set accel "${LAB_ACCEL:-auto}"
	spec_set vcpus "${LAB_VCPUS:-4}"
	spec_set mem_mb "${LAB_MEM_MB:-2048}"
	spec_set net "${LAB_NET:-auto}"
	spec_set deadline "${LAB_DEADLINE:-}"
	spec_set guest_deadline "${LAB_GUEST_DEADLINE:-}"
	spec_set cmdline "${LAB_CMDLINE_EXTRA:-}"
	spec_set results "${LAB_RESULTS:-$LAB_ROOT/results}"
	spec_set vm_wrapper "${LAB_VM_WRAPPER:-}"
	for k in partition account time cpus mem; do
		v=LAB_SLURM_${k^^}
		spec_set "slurm.$k" "${!v:-}"
	done
}

# spec_check_vm: the guest's settings in SPEC (from LAB_VCPUS, LAB_MEM_MB,
# LAB_DEADLINE, LAB_GUEST_DEADLINE, LAB_NET, LAB_ACCEL, or a spec file),
# checked; a usage error names the first bad one
spec_check_vm() {
	local v
	v=$(spec_get vcpus 4)
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || usage_error "vcpus '$v' (LAB_VCPUS) is not a positive number"
	v=$(spec_get mem_mb 2048)
	{ [[ "$v" =~ ^[1-9][0-9]*$ ]] && [ "$v" -ge 256 ]; } ||
		usage_error "mem_mb '$v' (LAB_MEM_MB) is not a number of MiB >= 256"
	v=$(spec_get deadline)
	[[ "$v" =~ ^([1-9][0-9]*)?$ ]] || usage_error "deadline '$v' (LAB_DEADLINE) is not a positive number of seconds"
	v=$(spec_get guest_deadline)
	[[ "$v" =~ ^[0-9]*$ ]] || usage_error "guest_deadline '$v' (LAB_GUEST_DEADLINE) is not a number of seconds"
	v=$(spec_get net auto)
	one_of "$v" auto tap veth || usage_error "net '$v' (LAB_NET) is not auto, tap or veth"
	v=$(spec_get accel auto)
	one_of "$v" auto kvm tcg || usage_error "accel '$v' (LAB_ACCEL) is not auto, kvm or tcg"
}

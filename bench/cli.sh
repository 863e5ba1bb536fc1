# shellcheck shell=bash
# run-lab.sh's command line, as tables: each command declares the words it
# takes and the options it takes; each option its kind of value and the run
# spec key (bench/spec.sh) it sets. One parser reads the command line into
# SPEC, CLI_COMMAND and CLI_ARGS. Sourced; defines functions only. (The shell
# twin of bench/lib/cli.c, the workloads' verb and option tables.)
#
# Every bad word is a usage error (exit 2) that names it: an unknown command
# or option, an option the command does not take, a bad value.

declare -gA CLI_KIND=() CLI_KEY=() CLI_WORDS=() CLI_WORD_KIND=() CLI_USAGE=() CLI_OPTS=() CLI_NOTE=() CLI_HANDLER=()
CLI_ORDER=()

# cli_option NAME KIND KEY: an option; KIND is "flag" (sets KEY to 1) or a
# value kind (cli_value_KIND checks the value; a kind ending in "+" may be
# given again, each value appended to KEY with a space)
cli_option() {
	CLI_KIND[$1]=$2
	CLI_KEY[$1]=$3
}

# cli_command NAME WORDS USAGE [OPTION...]: a command taking WORDS words (0,
# 1, 1-2, 0+ or 1+) and the options named; USAGE says what it takes ("takes
# one run (id or path)"), the error when the words do not fit
cli_command() {
	local name=$1
	CLI_ORDER+=("$name")
	CLI_WORDS[$name]=$2
	CLI_USAGE[$name]=$3
	shift 3
	CLI_OPTS[$name]=" $* "
}

# cli_word_kind COMMAND KIND: each word of COMMAND is a value of KIND
# (cli_value_KIND), checked and stored as it says (a file: its absolute path)
cli_word_kind() {
	CLI_WORD_KIND[$1]=$2
}

# cli_takes COMMAND OPTION...: COMMAND takes these options too (a workload's
# host.sh adds its own options to the lab's commands)
cli_takes() {
	local c=$1
	shift
	CLI_OPTS[$c]+="$* "
}

# cli_note COMMAND TEXT: said when COMMAND is given an option it does not take
cli_note() {
	CLI_NOTE[$1]=$2
}

# cli_handler COMMAND FUNCTION: FUNCTION SPEC_FILE runs COMMAND (a
# workload's command, declared by its host.sh), with SPEC as parsed
cli_handler() {
	# shellcheck disable=SC2034 # read by its callers (run-lab.sh)
	CLI_HANDLER[$1]=$2
}

# cli_list WORD...: "a, b and c"
cli_list() {
	local out=$1
	shift
	while [ "$#" -gt 1 ]; do
		out+=", $1"
		shift
	done
	[ "$#" -eq 0 ] || out+=" and $1"
	printf '%s\n' "$out"
}

# The kinds of values: cli_value_KIND VALUE sets CLI_VALUE (what to store)
# and returns 0, or sets CLI_WHY (what was expected) and returns 1
cli_enum() { # cli_enum VALUE WORD...: VALUE is one of the words
	local v=$1
	shift
	CLI_VALUE=$v
	one_of "$v" "$@" || {
		CLI_WHY="expected $(cli_list "$@" | sed "s/ and / or /")"
		return 1
	}
}
cli_value_profile() { cli_enum "$1" quick full; }
cli_value_accel() { cli_enum "$1" kvm tcg; }
cli_value_engine() { cli_enum "$1" local slurm; }
# shellcheck disable=SC2086 # KERNEL_FLAVOURS is a word list
cli_value_kernel() { cli_enum "$1" $KERNEL_FLAVOURS; }
cli_value_boots() {
	CLI_VALUE=$1 CLI_WHY="expected a whole number from 1 to 50"
	[[ "$1" =~ ^[1-9][0-9]*$ ]] && [ "$1" -le 50 ]
}
cli_value_cmdline() {
	local re='^[[:graph:]]+( [[:graph:]]+)*$'
	CLI_VALUE=$1 CLI_WHY="expected kernel parameters separated by single spaces"
	[[ "$1" =~ $re ]]
}
cli_value_sysctl() {
	CLI_VALUE=$1 CLI_WHY="expected KEY=VALUE, for example net.core.bpf_jit_enable=0"
	[[ "$1" =~ ^[a-z0-9_]+(\.[a-z0-9_]+)+=[^[:space:]]+$ ]]
}
# a positive decimal number
cli_value_positive() {
	CLI_VALUE=$1 CLI_WHY="expected a positive number"
	[[ "$1" =~ ^[0-9]+([.][0-9]+)?$ ]] && [[ "$1" =~ [1-9] ]]
}
# a readable file, stored as an absolute path
cli_value_file() {
	CLI_WHY="the file does not exist or is not readable"
	[ -f "$1" ] && [ -r "$1" ] || return 1
	CLI_VALUE="$(cd -P -- "$(dirname -- "$1")" && pwd)/$(basename -- "$1")"
}
# one line of text (checked where it is used, as the Slurm settings are)
cli_value_text() {
	CLI_VALUE=$1 CLI_WHY="a value may not hold a newline"
	[[ "$1" != *$'\n'* ]]
}

# cli_parse ARG...: the command (the first word that is no option or an
# option's value; "all" when there is none), its options into SPEC, the
# options given into CLI_GIVEN (" --a --b ") and its words into CLI_ARGS;
# usage errors for everything else
cli_parse() {
	local args=("$@") i=0 a kind v c takers=() seen_cmd=0
	CLI_COMMAND='' CLI_ARGS=() CLI_GIVEN=' '
	# the command first: the options it takes depend on it
	while [ "$i" -lt "${#args[@]}" ]; do
		a=${args[$i]}
		case "$a" in
		-h | --help) ;;
		-*)
			[ -n "${CLI_KIND[$a]:-}" ] || usage_error "unknown option '$a'"
			[ "${CLI_KIND[$a]}" = flag ] || i=$((i + 1))
			;;
		*)
			CLI_COMMAND=$a
			break
			;;
		esac
		i=$((i + 1))
	done
	CLI_COMMAND=${CLI_COMMAND:-all}
	[ -n "${CLI_WORDS[$CLI_COMMAND]:-}" ] || usage_error "unknown command '$CLI_COMMAND'"
	i=0
	while [ "$i" -lt "${#args[@]}" ]; do
		a=${args[$i]}
		i=$((i + 1))
		case "$a" in
		-h | --help)
			usage
			exit 0
			;;
		-*) ;;
		*)
			if [ "$seen_cmd" = 0 ] && [ "$a" = "$CLI_COMMAND" ]; then
				seen_cmd=1
			else
				CLI_ARGS+=("$a")
			fi
			continue
			;;
		esac
		kind=${CLI_KIND[$a]}
		if [[ "${CLI_OPTS[$CLI_COMMAND]}" != *" $a "* ]]; then
			takers=()
			for c in "${CLI_ORDER[@]}"; do
				[[ "${CLI_OPTS[$c]}" != *" $a "* ]] || takers+=("$c")
			done
			usage_error "$a goes with $(cli_list "${takers[@]}") only, not with $CLI_COMMAND${CLI_NOTE[$CLI_COMMAND]:+ (${CLI_NOTE[$CLI_COMMAND]})}"
		fi
		CLI_GIVEN+="$a "
		if [ "$kind" = flag ]; then
			spec_set "${CLI_KEY[$a]}" 1
			continue
		fi
		[ "$i" -lt "${#args[@]}" ] || usage_error "option $a needs a value"
		"cli_value_${kind%+}" "${args[$i]}" || usage_error "bad value '${args[$i]}' for $a: $CLI_WHY"
		v=$CLI_VALUE
		if [ "${kind%+}" != "$kind" ]; then
			spec_set "${CLI_KEY[$a]}" "$(spec_get "${CLI_KEY[$a]}")${SPEC[${CLI_KEY[$a]}]:+ }$v"
		else
			spec_set "${CLI_KEY[$a]}" "$v"
		fi
		i=$((i + 1))
	done
	case "${CLI_WORDS[$CLI_COMMAND]}:${#CLI_ARGS[@]}" in
	0:0 | 1:1 | 1-2:1 | 1-2:2 | 0+:* | 1+:[1-9]*) ;;
	*) usage_error "$CLI_COMMAND ${CLI_USAGE[$CLI_COMMAND]}" ;;
	esac
	kind=${CLI_WORD_KIND[$CLI_COMMAND]:-}
	[ -n "$kind" ] || return 0
	for i in "${!CLI_ARGS[@]}"; do
		"cli_value_$kind" "${CLI_ARGS[$i]}" || usage_error "bad value '${CLI_ARGS[$i]}' for $CLI_COMMAND: $CLI_WHY"
		CLI_ARGS[i]=$CLI_VALUE
	done
}

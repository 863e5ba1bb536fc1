# TAP helpers of the shell test suites, on the host and in the guest
# (there at $LAB_SRC/tests/tap.sh), sourced:
#   check WHAT EXPECTED GOT   "ok N - WHAT", or "not ok N - WHAT: expected
#                             'EXPECTED', got 'GOT'"
#   check_cmd WHAT COMMAND... "ok N - WHAT" when COMMAND succeeds, else
#                             "not ok N - WHAT: command failed: COMMAND"
#                             and its output as comments
#   check_has WHAT FILE TEXT  FILE contains the fixed string TEXT (grep)
#   check_lacks WHAT FILE TEXT
#                             FILE does not contain TEXT (grep)
#   skip WHAT REASON          "ok N - WHAT # SKIP REASON"
#   yes_no COMMAND...         yes when COMMAND succeeds, else no (quietly)
#   tap_result ok|"not ok" TEXT
#                             one result, numbered on from $n
#   tap_fold FILE [RC [PREFIX]]
#                             fold the TAP stream in FILE (a suite's output,
#                             RC its exit status) into this one: see below
# $n counts the results; tap_passed, tap_failed and tap_skipped count them by
# kind. A suite ends with: echo "1..$n"
#
# Bash only (but check_has and check_lacks, which run grep): no other
# program and no process substitution, as the guest has no /dev/fd and every
# exec costs a fraction of a second under TCG.
# shellcheck shell=bash

n=0 tap_passed=0 tap_failed=0 tap_skipped=0
# shellcheck disable=SC2034 # set by tap_fold for its callers
tap_fold_bad=0 tap_fold_incomplete=0

tap_result() {
	n=$((n + 1))
	echo "$1 $n${2:+ - $2}"
	if [ "$1" != ok ]; then
		tap_failed=$((tap_failed + 1))
	elif [[ "$2" =~ \#[[:space:]]*[Ss][Kk][Ii][Pp] ]]; then
		tap_skipped=$((tap_skipped + 1))
	else
		tap_passed=$((tap_passed + 1))
	fi
}

check() {
	if [ "$2" = "$3" ]; then
		tap_result ok "$1"
	else
		tap_result "not ok" "$1: expected '$2', got '$3'"
	fi
}

check_cmd() {
	local what=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_result ok "$what"
	else
		tap_result "not ok" "$what: command failed: $*"
		[ -z "$out" ] || printf '# %s\n' "${out//$'\n'/$'\n'# }"
	fi
}

check_has() {
	if grep -qF -- "$3" "$2" 2>/dev/null; then
		tap_result ok "$1"
	else
		tap_result "not ok" "$1: expected '$3' in $2, not found"
	fi
}

check_lacks() {
	if grep -qF -- "$3" "$2" 2>/dev/null; then
		tap_result "not ok" "$1: did not expect '$3' in $2"
	else
		tap_result ok "$1"
	fi
}

skip() { tap_result ok "$1 # SKIP $2"; }

yes_no() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }

# tap_fold FILE [RC [PREFIX]]: the results of the TAP stream in FILE, numbered
# on from $n, each text prefixed with PREFIX; its comments and indented lines
# (subtests, YAML) as they are; its version and plan lines dropped. The stream
# fails with one more "not ok" result when it is incomplete: it bailed out
# ("Bail out!"), it has no plan or fewer or more results than its plan, or
# RC, the suite's exit status (0 when not given), is not 0 while no result
# failed, or above 1 (a crash, a signal, a usage error), or no number at all
# (the suite did not finish). Sets tap_fold_bad to the stream's own failed
# results and tap_fold_incomplete to 1 or 0. Returns 0.
tap_fold() {
	local file=$1 rc=${2:-0} prefix=${3:-} line plan='' results=0 bailed=0 bail='' why=''
	local re='^(not ok|ok)([[:space:]]+[0-9]+)?([[:space:]]+-)?[[:space:]]*(.*)$'
	tap_fold_bad=0 tap_fold_incomplete=0
	if [ -r "$file" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			line=${line%$'\r'}
			if [[ "$line" =~ ^(not\ ok|ok)($|[[:space:]]) ]]; then
				[[ "$line" =~ $re ]]
				results=$((results + 1))
				[ "${BASH_REMATCH[1]}" = ok ] || tap_fold_bad=$((tap_fold_bad + 1))
				tap_result "${BASH_REMATCH[1]}" "$prefix${BASH_REMATCH[4]}"
			elif [[ "$line" =~ ^1\.\.([0-9]+) ]]; then
				plan=${BASH_REMATCH[1]}
			elif [[ "$line" == "Bail out!"* ]]; then
				bailed=1
				bail=${line#Bail out!}
				bail=${bail# }
				echo "# $line"
			elif [[ "$line" == "#"* || "$line" == [[:space:]]* ]]; then
				echo "$line"
			fi
		done <"$file"
	fi
	if [ ! -r "$file" ]; then
		why="no output ($file cannot be read)"
	elif [ "$bailed" = 1 ]; then
		why="bailed out: ${bail:-no reason given}"
	elif [ -z "$plan" ]; then
		why="no plan (1..N) after $results results: the suite stopped early"
	elif [ "$results" -ne "$((10#$plan))" ]; then
		why="$results results against the plan 1..$plan"
	fi
	if ! [[ "$rc" =~ ^[0-9]+$ ]]; then
		why="${why:+$why; }no exit status ('$rc'): the suite did not finish"
	elif [ "$rc" -ne 0 ] && { [ "$tap_fold_bad" -eq 0 ] || [ "$rc" -gt 1 ]; }; then
		why="${why:+$why; }exited $rc"
	fi
	if [ -n "$why" ]; then
		# shellcheck disable=SC2034 # read by the callers
		tap_fold_incomplete=1
		tap_result "not ok" "${prefix}the suite is incomplete: $why"
	fi
	return 0
}

# expect_fail WHAT RC PATTERN COMMAND...: COMMAND exits RC and says PATTERN
# (within 300 s: a command line wrongly accepted must not go on to boot runs)
expect_fail() {
	local what=$1 want=$2 pattern=$3 rc=0 out
	shift 3
	out=$(timeout 300 "$@" 2>&1) || rc=$?
	check "$what: exit code" "$want" "$rc"
	check "$what: message names '$pattern'" yes \
		"$(grep -qF -- "$pattern" <<<"$out" && echo yes || echo "no: $(head -3 <<<"$out" | tr '\n' ' ')")"
}

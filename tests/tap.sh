# TAP helpers of the shell test suites (host and guest), sourced:
#   check WHAT EXPECTED GOT   "ok N - WHAT", or "not ok N - WHAT: expected
#                             'EXPECTED', got 'GOT'"
#   yes_no COMMAND...         yes when COMMAND succeeds, else no (quietly)
# $n counts the results; a suite ends with: echo "1..$n"
# shellcheck shell=bash

n=0
check() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1: expected '$2', got '$3'"
	fi
}
yes_no() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }

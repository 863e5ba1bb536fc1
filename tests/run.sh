#!/bin/bash
# make test: every suite of the lab, as one TAP stream with a closing line
# "N passed, N failed".
# usage: tests/run.sh [unit|lint|host|guest]...   (default: all of them)
#
#   unit   host unit tests of the C code (build/tests/*) and the report tests
#   lint   shellcheck on every shell script, checkpatch --strict on the patches
#   host   the command line of run-lab.sh and the kernel build's cache
#   guest  the tests in the booted lab kernel (tests/guest.sh)
#
# Each suite prints TAP; this script numbers the results of all suites in one
# stream, names the suite in every line, and fails a suite that exits
# non-zero or prints no result.
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

logdir=$LAB_ROOT/build/test-logs
mkdir -p "$logdir"
n=0
passed=0
failed=0
skipped=0
echo "TAP version 13"

# emit OK|NOTOK TEXT
emit() {
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n - $2"
		case "$2" in *'# SKIP'* | *'# skip'*) skipped=$((skipped + 1)) ;; *) passed=$((passed + 1)) ;; esac
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# suite NAME COMMAND...: run a TAP-printing command and fold its results in
suite() {
	local name=$1 rc=0 results=0 bad=0 line log
	shift
	log=$logdir/${name//\//-}.log
	echo "# suite $name: $*"
	"$@" >"$log" 2>&1 || rc=$?
	while IFS= read -r line; do
		case "$line" in
		"ok "*)
			results=$((results + 1))
			emit OK "$name: $(sed -E 's/^ok [0-9]+ ?-? ?//' <<<"$line")"
			;;
		"not ok "*)
			results=$((results + 1))
			bad=$((bad + 1))
			emit NOTOK "$name: $(sed -E 's/^not ok [0-9]+ ?-? ?//' <<<"$line")"
			;;
		"#"* | "  "* | $'\t'*) echo "$line" ;;
		esac
	done <"$log"
	if { [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; } || [ "$results" -eq 0 ]; then
		emit NOTOK "$name: exited $rc with $results results (log: $log)"
		tail -15 "$log" | sed 's/^/# /'
	fi
}

# build: make all, as a single result (compiler output in the log)
build() {
	if make -s all >"$logdir/build.log" 2>&1; then
		emit OK "build: make all (C with -Wall -Wextra -Werror, BPF objects, skeletons)"
	else
		emit NOTOK "build: make all failed (log: $logdir/build.log)"
		tail -20 "$logdir/build.log" | sed 's/^/# /'
		return 1
	fi
}

want=("$@")
[ "${#want[@]}" -gt 0 ] || want=(unit host lint guest)
for w in "${want[@]}"; do
	case "$w" in
	unit)
		if build; then
			for t in build/tests/*; do
				[ -x "$t" ] && suite "unit/$(basename "$t")" "$t"
			done
		fi
		[ ! -x tests/report/run.sh ] || suite report tests/report/run.sh
		;;
	lint) suite lint tests/lint.sh ;;
	host)
		# The kernel first, its progress shown (a fresh build takes minutes)
		echo "# building the lab kernel (cached in $LAB_CACHE)"
		kernel/build.sh lab 2>&1 >/dev/null | sed -u 's/^/# /' || true
		suite host tests/host.sh
		;;
	guest) suite guest tests/guest.sh ;;
	*) usage_error "unknown test group '$w' (expected unit, lint, host or guest)" ;;
	esac
done

echo "1..$n"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]

# The guest's fuzz suites (tests/guest/fuzz-*.sh), sourced: run one suite
# of build/labfuzz with the bounds of the environment, fold its TAP into
# this stream, then check that the guest still answers.
#   LAB_FUZZ_SEED        the seed (default: a fresh one, printed first)
#   LAB_FUZZ_ITERATIONS  at most this many iterations (default: the suite's)
#   LAB_FUZZ_SECONDS     at most this many seconds of fuzzing (default: the suite's)
# Replay a run: build/labfuzz SUITE --seed S --iterations N (both printed).
# shellcheck shell=bash

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

# fuzz_suite NAME ITERATIONS SECONDS: the suite NAME with these default bounds
fuzz_suite() {
	local name=$1 iterations=${LAB_FUZZ_ITERATIONS:-$2} seconds=${LAB_FUZZ_SECONDS:-$3}
	local bin=$LAB_SRC/build/labfuzz tmp rc=0 t0 line seed args=()
	if [ ! -x "$bin" ]; then
		tap_result "not ok" "labfuzz $name: no $bin (make all)"
		echo "1..$n"
		return 1
	fi
	# The seed is printed before the suite starts: a guest that hangs in it
	# leaves the seed in the step's log
	seed=${LAB_FUZZ_SEED:-$((RANDOM << 30 | RANDOM << 15 | RANDOM))}
	echo "# fuzz-$name: seed $seed, replay: labfuzz $name --seed $seed --iterations $iterations"
	args=(--seed "$seed" --iterations "$iterations" --seconds "$seconds")
	tmp=$(mktemp -d "/tmp/fuzz-$name.XXXXXX")
	t0=$(date +%s%N)
	"$bin" "$name" "${args[@]}" >"$tmp/out.tap" 2>"$tmp/err" || rc=$?
	tap_fold "$tmp/out.tap" "$rc"
	while IFS= read -r line; do
		echo "# labfuzz $name stderr: $line"
	done <"$tmp/err"
	echo "# fuzz-$name: $((($(date +%s%N) - t0) / 1000000)) ms in all, labfuzz exit $rc"
	rm -rf -- "$tmp"

	# The guest still answers: a netlink round trip and a file read
	check "fuzz-$name: the guest still answers a netlink request (ip link show lo)" yes \
		"$(timeout 30 ip -o link show lo >/dev/null 2>&1 && echo yes || echo no)"
	check "fuzz-$name: the guest still reads a file (/proc/uptime)" yes \
		"$(timeout 30 cat /proc/uptime >/dev/null 2>&1 && echo yes || echo no)"
	echo "1..$n"
}

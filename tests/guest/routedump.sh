#!/bin/bash
# The route dump lab's conformance suite in the guest, as TAP (issue 6):
# `routedump conformance` (strict checking of every dump type the 4.20
# series changed, getsockopt, route filters, the fuzz) in a network
# namespace of its own, then bad input: refused with exit code 2, naming the
# value, and nothing left configured.
#
# ROUTEDUMP_FUZZ: fuzz count (2000), ROUTEDUMP_SEED: its seed (random),
# ROUTEDUMP_OUT: a folder for fuzz.csv and fuzz-errno.csv (none).
set -eu

bin=$LAB_SRC/build/routedump
fuzz=${ROUTEDUMP_FUZZ:-2000}
seed=${ROUTEDUMP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
ns=routedump-conf-$$
tmp=$(mktemp -d)
trap 'ip netns del "$ns" 2>/dev/null || true; rm -rf "$tmp"' EXIT

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

# 1. The C suite; its results renumbered into this stream
ip netns add "$ns"
out_args=()
[ -z "${ROUTEDUMP_OUT:-}" ] || out_args=(--out "$ROUTEDUMP_OUT")
rc=0
ip netns exec "$ns" "$bin" conformance --fuzz "$fuzz" --seed "$seed" "${out_args[@]}" \
	>"$tmp/conf.tap" 2>"$tmp/conf.err" || rc=$?
tap_fold "$tmp/conf.tap" "$rc"
c_failed=$tap_fold_bad
while IFS= read -r line; do
	echo "# stderr: $line"
done <"$tmp/conf.err"
echo "# routedump conformance: $SECONDS s so far"

check "routedump conformance exits 0 exactly when all its tests pass" \
	"$([ "$c_failed" = 0 ] && echo 0 || echo 1)" "$rc"

# 2. Bad input: exit code 2, the value named, nothing configured (the state
# of both namespaces is compared once, before and after all the cases: each
# ip run costs about a second under TCG)
state() { # what a refused command must not have changed, in namespace $1 ("" = this one)
	local run=()
	[ -z "$1" ] || run=(ip netns exec "$1")
	{
		"${run[@]}" ip -o link show | sed 's/: <.*//'
		"${run[@]}" ip -4 route show table all
		# without the link-local routes: the kernel's addrconf adds them
		# when a link gets carrier, seconds after it came up (measured:
		# br0's appeared during the cases)
		"${run[@]}" ip -6 route show table all | grep -v 'fe80::'
		ip netns list
	} 2>&1 | sort
}
bad() { # bad VALUE ARGS...: routedump ARGS must refuse, naming VALUE, here and in $ns
	local value=$1 where got_rc err
	shift
	for where in "" "$ns"; do
		got_rc=0
		if [ -z "$where" ]; then
			"$bin" "$@" >"$tmp/out" 2>"$tmp/err" || got_rc=$?
		else
			ip netns exec "$where" "$bin" "$@" >"$tmp/out" 2>"$tmp/err" || got_rc=$?
		fi
		err=
		IFS= read -r -d '' err <"$tmp/err" || true
		check "routedump $* ${where:+(in namespace $where) }exits 2" 2 "$got_rc"
		check "routedump $* ${where:+(in namespace $where) }names '$value': ${err%%$'\n'*}" yes \
			"$([[ "$err" == *"'$value'"* ]] && echo yes || echo no)"
	done
}
before_init=$(state "")
before_ns=$(state "$ns")
bad 0 bench --routes 0 --out "$tmp/r"
bad abc bench --routes abc --out "$tmp/r"
bad 3000000 bench --routes 3000000 --out "$tmp/r"
bad -5 bench --routes 10000,-5 --out "$tmp/r"
bad strict_everything bench --modes strict_table,strict_everything --out "$tmp/r"
bad 5 bench --family 5 --out "$tmp/r"
bad inet7 populate --routes 10 --family inet7
bad 2048 bench --bufsize 2048 --out "$tmp/r"
bad 1024 dump --routes 10 --mode strict_all --bufsize 1024
bad medium bench --profile medium --out "$tmp/r"
echo "# bad input: $SECONDS s so far"
check "refused commands left nothing configured in the initial namespace (links, routes, namespaces)" \
	"$before_init" "$(state "")"
check "refused commands left nothing configured in namespace $ns" "$before_ns" "$(state "$ns")"
check "refused commands wrote no results" no "$([ -e "$tmp/r" ] && echo yes || echo no)"
echo "1..$n"

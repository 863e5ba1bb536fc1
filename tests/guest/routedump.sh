#!/bin/bash
# The route dump lab's conformance suite in the guest, as TAP:
# `routedump conform` (strict checking of every dump type the 4.20 series
# changed, getsockopt, route filters, the fuzz) in a network namespace of
# its own; bad input: refused with exit code 2, naming the value, and
# nothing left configured; then the results road: a file that cannot be
# written fails run and report naming it, and the driver's failures (a
# probe, the conformance suite) reach summary.json as its status.
#
# ROUTEDUMP_FUZZ: fuzz count (2000), ROUTEDUMP_SEED: its seed (random),
# ROUTEDUMP_OUT: a folder for fuzz.csv and fuzz-errno.csv (none).
set -eu

bin=$LAB_SRC/build/routedump
fuzz=${ROUTEDUMP_FUZZ:-2000}
seed=${ROUTEDUMP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
ns=routedump-conf-$$
tmp=$(mktemp -d)
# the suite's namespace goes, if it was made; the exit status stays the suite's
trap 'if [ -e "/run/netns/$ns" ]; then ip netns del "$ns"; fi; rm -rf "$tmp"' EXIT

# shellcheck source=tests/tap.sh
. "$LAB_SRC/tests/tap.sh"

# 1. The C suite; its results renumbered into this stream
ip netns add "$ns"
out_args=()
[ -z "${ROUTEDUMP_OUT:-}" ] || out_args=(--out "$ROUTEDUMP_OUT")
rc=0
ip netns exec "$ns" "$bin" conform --fuzz "$fuzz" --seed "$seed" "${out_args[@]}" \
	>"$tmp/conf.tap" 2>"$tmp/conf.err" || rc=$?
tap_fold "$tmp/conf.tap" "$rc"
c_failed=$tap_fold_bad
while IFS= read -r line; do
	echo "# stderr: $line"
done <"$tmp/conf.err"
echo "# routedump conform: $SECONDS s so far"

check "routedump conform exits 0 exactly when all its tests pass" \
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
		err=$(<"$tmp/err")
		check "routedump $* ${where:+(in namespace $where) }exits 2" 2 "$got_rc"
		check "routedump $* ${where:+(in namespace $where) }names '$value': ${err%%$'\n'*}" yes \
			"$([[ "$err" == *"'$value'"* ]] && echo yes || echo no)"
	done
}
before_init=$(state "")
before_ns=$(state "$ns")
bad 0 run --routes 0 --out "$tmp/r"
bad abc run --routes abc --out "$tmp/r"
bad 3000000 run --routes 3000000 --out "$tmp/r"
bad -5 run --routes 10000,-5 --out "$tmp/r"
bad strict_everything run --modes strict_table,strict_everything --out "$tmp/r"
bad 5 run --family 5 --out "$tmp/r"
bad inet7 populate --routes 10 --family inet7
bad 2048 run --bufsize 2048 --out "$tmp/r"
bad 1024 dump --routes 10 --mode strict_all --bufsize 1024
bad medium run --profile medium --out "$tmp/r"
bad bogus conform --suite bogus
echo "# bad input: $SECONDS s so far"
check "refused commands left nothing configured in the initial namespace (links, routes, namespaces)" \
	"$before_init" "$(state "")"
check "refused commands left nothing configured in namespace $ns" "$before_ns" "$(state "$ns")"
check "refused commands wrote no results" no "$([ -e "$tmp/r" ] && echo yes || echo no)"

# A sub-suite alone: the route filters, no dump checks, no fuzz
got_rc=0
"$bin" conform --suite filters >"$tmp/sub.tap" 2>/dev/null || got_rc=$?
check "conform --suite filters exits 0" 0 "$got_rc"
check "conform --suite filters runs the route filters only" "yes 0 0" \
	"$(grep -q '^ok .*RTM_GETROUTE/ipv6 strict, filter' "$tmp/sub.tap" && echo yes || echo no) \
$(grep -c '^ok .*fuzz' "$tmp/sub.tap") $(grep -c '^ok .*getsockopt' "$tmp/sub.tap")"

# 3. Results that cannot be written fail the workload, naming the file
# (a folder where the file should go: rename(2) refuses it, EISDIR)
small=(--routes 100 --family 4 --reps 1 --warmup 0 --iproute2 none --anchor-insert 0)
status() { jq -r '.status + ": " + (.reason // "")' "$1/summary.json" 2>/dev/null || echo "no summary.json"; }
mkdir -p "$tmp/w/dump.csv"
got_rc=0
"$bin" run "${small[@]}" --out "$tmp/w" --fail-file "$tmp/w.fail" >/dev/null 2>"$tmp/err" || got_rc=$?
check "run with dump.csv unwritable exits 1" 1 "$got_rc"
check "run with dump.csv unwritable names it" yes "$(grep -q "run failed: cannot write $tmp/w/dump.csv" "$tmp/err" && echo yes || echo no)"
check "run with dump.csv unwritable: the reason in its --fail-file" "cannot write $tmp/w/dump.csv: EISDIR" \
	"$(jq -r .reason "$tmp/w.fail" 2>/dev/null || echo none)"
got_rc=0
"$bin" run "${small[@]}" --out "$tmp/ok" --progress "$tmp/progress" >/dev/null 2>"$tmp/err" || got_rc=$?
check "run of 100 routes exits 0" 0 "$got_rc"
check "run's --progress: a note line for the lab's channel as it starts inserting" yes \
	"$(grep -q '^note routedump run: inserting ipv4 routes 0..99: 0/100 routes (0%); part 1 of 2, ' "$tmp/progress" && echo yes || echo no)"
got_rc=0
"$bin" report --out "$tmp/ok" >/dev/null 2>"$tmp/err" || got_rc=$?
check "report of it exits 0" 0 "$got_rc"
check "report of it: status ok" "ok: " "$(status "$tmp/ok")"
# 15 groups: 4 modes at 1 and 10 %, 5 at 50 % (strict_oif there only), 2 at 100 %
check "report of it: dump_wall_ms of each of the 15 groups of selectivity and mode" 15 \
	"$(jq '[.metrics[] | select(.name == "dump_wall_ms")] | length' "$tmp/ok/summary.json" 2>/dev/null || echo none)"
check "report of it: a ratio to legacy_userfilter with its interval for each of the 11 others" "11 11" \
	"$(jq -r '[.metrics[] | select(.name == "dump_wall_ratio_to_legacy")] | "\(length) \([.[] | select(.n >= 1)] | length)"' \
		"$tmp/ok/summary.json" 2>/dev/null || echo none)"
check "report of it: the insert rate" 1 \
	"$(jq '[.metrics[] | select(.name == "insert_routes_per_s")] | length' "$tmp/ok/summary.json" 2>/dev/null || echo none)"
check "report of it: targets.json holds targets" yes \
	"$(jq -e 'length > 0' "$tmp/ok/targets.json" >/dev/null 2>&1 && echo yes || echo no)"
for f in speedup.csv targets.json; do
	mkdir -p "$tmp/w-$f"
	cp "$tmp/ok/"{dump,iproute2,insert,insert-summary,cpu}.csv "$tmp/w-$f/"
	mkdir "$tmp/w-$f/$f"
	got_rc=0
	"$bin" report --out "$tmp/w-$f" >/dev/null 2>"$tmp/err" || got_rc=$?
	check "report with $f unwritable exits 1" 1 "$got_rc"
	check "report with $f unwritable: stderr names it" yes \
		"$(grep -q "cannot write $tmp/w-$f/$f" "$tmp/err" && echo yes || echo no)"
	# targets.json is written beside summary.json from the start: the
	# summary stays "failed: incomplete", the reason cannot be added
	case $f in
	targets.json) want="failed: incomplete: the workload did not finish" ;;
	*) want="failed: cannot write $tmp/w-$f/$f" ;;
	esac
	check "report with $f unwritable: status failed" "$want" "$(status "$tmp/w-$f" | sed 's/: EISDIR$//')"
done
got_rc=0
"$bin" report --out "$tmp/w" --failed "a probe" --failed="the suite" >/dev/null 2>"$tmp/err" || got_rc=$?
check "report with --failed exits 1" 1 "$got_rc"
check "report with --failed: status failed with every reason" \
	"failed: a probe; the suite; $tmp/w/dump.csv cannot be read: the run did not finish" "$(status "$tmp/w")"
echo "# results road: $SECONDS s so far"

# 4. The driver: a probe that does not start and a failing conformance
# suite leave summary.json failed with both reasons (stand-ins for both)
mkdir -p "$tmp/bin" "$tmp/d"
printf '#!/bin/bash\necho "stand-in bpftrace: no probes" >&2\nexit 1\n' >"$tmp/bin/bpftrace"
printf '#!/bin/bash\necho "not ok 1 - stand-in"\necho "1..1"\nexit 1\n' >"$tmp/suite"
chmod +x "$tmp/bin/bpftrace" "$tmp/suite"
got_rc=0
# (its run spec: the quick profile; its results in $tmp/d/routedump)
printf 'format_version=1\nprofile=quick\n' >"$tmp/d/run.spec"
PATH=$tmp/bin:$PATH LAB_OUT=$tmp/d LAB_ROUTEDUMP_SUITE=$tmp/suite \
	LAB_ROUTEDUMP_ARGS="${small[*]}" "$LAB_SRC/workloads/routedump/driver.sh" >/dev/null 2>"$tmp/err" || got_rc=$?
check "driver with a failed probe and suite exits 1" 1 "$got_rc"
check "driver with a failed probe and suite: status failed with both reasons" \
	"failed: conformance: 1 case(s) failed (see conformance.tap); probes/route_dump.bt did not attach (see probe-route_dump.err); probes/route_insert.bt did not attach (see probe-route_insert.err)" \
	"$(status "$tmp/d/routedump")"
check "driver with a failed probe and suite: the run's metrics are there" 15 \
	"$(jq '[.metrics[] | select(.name == "dump_wall_ms")] | length' "$tmp/d/routedump/summary.json" 2>/dev/null || echo none)"
# the probes start (here: fail to) only after the measured run's phase, for the probe pass
first_probe=$(grep -n '^probe route_dump' "$tmp/err" | head -n 1 | cut -d: -f1)
run_phase=$(grep -n '^== phase run' "$tmp/err" | head -n 1 | cut -d: -f1)
check "driver: the probes start after the measured run, for a probe pass of their own" yes \
	"$([ -n "$first_probe" ] && [ -n "$run_phase" ] && [ "$run_phase" -lt "$first_probe" ] &&
		grep -q '^== phase probe' "$tmp/err" && [ -f "$tmp/d/routedump/probe-pass/dump.csv" ] && echo yes || echo no)"
echo "# driver: $SECONDS s so far"
echo "1..$n"

#!/bin/bash
# Host tests of run matrices, as TAP: the matrix file's parser (every bad
# line an error naming the file, the line and the value), the expansion
# into cells, run-lab.sh's matrix options, the FAKE guest's guard, the
# kernel cache's lock with two builds of one key, and the local engine on
# fake-guest cells (one made to fail): status, merge and layout.
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"
# shellcheck source=tests/matrix-lib.sh
. "$LAB_ROOT/tests/matrix-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
export LAB_RESULTS=$tmp/results LAB_CACHE=$tmp/cache
fake_cache "$LAB_CACHE"

# matrix FILE LINE...: write a matrix file
matrix() {
	local f=$1
	shift
	printf '%s\n' "$@" >"$f"
}

# --- the parser: each bad line names the file, the line and the value --------------
m=$tmp/bad.txt
matrix "$m" "# comment" "workloads bpfqs" "frobs 1"
expect_fail "unknown axis" 2 "bad.txt:3: unknown axis 'frobs'" ./run-lab.sh matrix "$m"
matrix "$m" "kernels lab vanilla" "workloads bpfqs"
expect_fail "unknown kernel" 2 "bad.txt:1: unknown kernel 'vanilla'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs nosuch"
expect_fail "unknown workload" 2 "bad.txt:1: unknown workload 'nosuch'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs,,taprio"
expect_fail "a workload set with an empty name" 2 "bad.txt:1: bad workload set 'bpfqs,,taprio'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "profiles quick slow"
expect_fail "unknown profile" 2 "bad.txt:2: unknown profile 'slow'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "boots 0"
expect_fail "boots 0" 2 "bad.txt:2: bad boots '0'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "boots 2 3"
expect_fail "two boots values" 2 "bad.txt:2: bad boots '2 3'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "variants base nojit:kernel=x"
expect_fail "a variant of an unknown kind" 2 "bad.txt:2: bad variant 'nojit:kernel=x'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "variants base nojit:sysctl=bpf_jit"
expect_fail "a variant's sysctl without a value" 2 "bad.txt:2: bad sysctl 'bpf_jit'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "variants Base"
expect_fail "a bad variant name" 2 "bad.txt:2: bad variant name 'Base'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads taprio" "schedules /nonexistent.sched"
expect_fail "a missing schedule" 2 "bad.txt:2: schedule file '/nonexistent.sched' does not exist" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "schedules workloads/taprio/schedules/three-class-10ms.sched"
expect_fail "schedules without taprio" 2 "bad.txt:2: schedules are given but no workload set has taprio" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "tune-bound-us -3"
expect_fail "a bad tune bound" 2 "bad.txt:2: bad tune-bound-us '-3'" ./run-lab.sh matrix "$m"
matrix "$m" "workloads bpfqs" "workloads taprio"
expect_fail "an axis given twice" 2 "bad.txt:2: axis 'workloads' given twice (first on line 1)" ./run-lab.sh matrix "$m"
matrix "$m" "kernels lab"
expect_fail "no workloads" 2 "bad.txt: no 'workloads' line" ./run-lab.sh matrix "$m"
matrix "$m" "kernels"
expect_fail "an axis without a value" 2 "bad.txt:1: axis 'kernels' has no value" ./run-lab.sh matrix "$m"
expect_fail "a missing matrix file" 2 "matrix file '/nonexistent.txt' does not exist" ./run-lab.sh matrix /nonexistent.txt
# every bad line at once, not only the first
matrix "$m" "kernels vanilla" "workloads bpfqs" "profiles slow"
out=$(./run-lab.sh matrix --dry-run "$m" 2>&1) && rc=0 || rc=$?
check "two bad lines: a usage error (exit 2)" 2 "$rc"
check "two bad lines: both are named" "bad.txt:1: bad.txt:3:" \
	"$(grep -o 'bad.txt:[0-9]*:' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"

# --- run-lab.sh's matrix options ----------------------------------------------------
good=$tmp/good.txt
matrix "$good" "# two kernels, two boots" "kernels lab stock" "workloads bpfqs" "boots 2"
expect_fail "matrix without a file" 2 "matrix takes one matrix file" ./run-lab.sh matrix
expect_fail "a bad engine" 2 "'cluster' for --engine" ./run-lab.sh --engine cluster matrix "$good"
expect_fail "--engine with run" 2 "--engine goes with ab, matrix and tune-taprio only, not with run" ./run-lab.sh --engine slurm run bpfqs
expect_fail "--status with run" 2 "--status goes with matrix only" ./run-lab.sh --status run bpfqs
expect_fail "--dry-run with ab" 2 "--dry-run goes with matrix only" ./run-lab.sh --dry-run ab bpfqs
expect_fail "--wait without the slurm engine" 2 "--wait and --slurm-* options go with --engine slurm only" \
	./run-lab.sh --wait matrix "$good"
expect_fail "--slurm-partition with the local engine" 2 "go with --engine slurm only" \
	./run-lab.sh --slurm-partition x matrix "$good"
expect_fail "--profile with a matrix" 2 "not with matrix (the matrix file gives kernels" ./run-lab.sh --profile full matrix "$good"
expect_fail "a bad --slurm-mem" 2 "bad Slurm memory per task '3 GB'" \
	./run-lab.sh --engine slurm --slurm-mem "3 GB" matrix "$good"
expect_fail "--status of an unknown matrix" 2 "matrix 'no-such-matrix' not found" ./run-lab.sh matrix --status no-such-matrix
expect_fail "--status of a matrix file never run" 2 "no matrix run of" ./run-lab.sh matrix --status "$good"

# --- expansion into cells ---------------------------------------------------------------
out=$(./run-lab.sh matrix --dry-run "$good" 2>&1)
check "dry run: 4 cells, interleaved per boot, the arms in reverse order on the second (ABBA)" \
	"lab-b1 stock-b1 stock-b2 lab-b2" \
	"$(awk '/^  /{print $1}' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
check "dry run: runs nothing" 0 "$(find "$LAB_RESULTS" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
v=$tmp/variants.txt
matrix "$v" "kernels lab" "variants base nojit:cmdline=sysctl.net.core.bpf_jit_enable=0 nojit:cmdline=quiet knob:sysctl=net.core.bpf_jit_enable=0" \
	"workloads bpfqs routedump,ledjitter" "boots 2"
out=$(bench/matrix.sh check "$v" 2>&1)
check "variants x workload sets x boots: 12 cells" 12 "$(grep -c '^  ' <<<"$out")"
check "the first boot's cells, arms interleaved within a group" \
	"lab-base-bpfqs-b1 lab-nojit-bpfqs-b1 lab-knob-bpfqs-b1 lab-base-routedump+ledjitter-b1" \
	"$(awk '/^  /{print $1}' <<<"$out" | head -4 | tr '\n' ' ' | sed 's/ $//')"
check "a variant's two cmdline parts are joined" yes \
	"$(grep -q 'lab-nojit-bpfqs-b1 .*cmdline "sysctl.net.core.bpf_jit_enable=0 quiet"' <<<"$out" && echo yes || echo no)"
check "a variant's sysctl" yes "$(grep -q 'lab-knob-bpfqs-b2 .*sysctl net.core.bpf_jit_enable=0' <<<"$out" && echo yes || echo no)"
check "a workload set runs in one cell" yes \
	"$(grep -q 'lab-base-routedump+ledjitter-b2 .*routedump ledjitter' <<<"$out" && echo yes || echo no)"

# --- the FAKE guest runs only when asked for --------------------------------------------
mkdir -p "$tmp/fakerun/guest"
echo "step wl-bpfqs bench/guest-run.sh bpfqs" >"$tmp/fakerun/guest/job.sh"
expect_fail "the fake guest without LAB_TEST_FAKE_GUEST=1" 1 "runs only with LAB_TEST_FAKE_GUEST=1" \
	env -u LAB_TEST_FAKE_GUEST bench/fake-guest.sh "$tmp/fakerun"
printf 'format_version=1\nworkloads=bpfqs\nresults=%s\n' "$tmp/fake-refused" >"$tmp/fake-refused.spec"
expect_fail "LAB_TEST_FAKE_GUEST=yes is refused by the run" 1 "LAB_TEST_FAKE_GUEST='yes'" \
	env LAB_TEST_FAKE_GUEST=yes bench/run.sh "$tmp/fake-refused.spec"

# --- LAB_VM_WRAPPER: QEMU runs under it; its wait is not the guest's time ----------------
# (a stand-in QEMU that runs 2 s and a wrapper that waits 3 s first, with a
# deadline of 4 s: counted from the wrapper's start it would pass)
mkdir -p "$tmp/vmw/bin" "$tmp/vmw/run/guest"
# stand_ins SECONDS_WRAPPER SECONDS_QEMU: the wrapper and the stand-in QEMU
stand_ins() {
	cat >"$tmp/vmw/bin/qemu-system-x86_64" <<EOF
#!/bin/bash
[ "\${1:-}" != --version ] || { echo "QEMU emulator version 7.2.99"; exit 0; }
sleep $2
EOF
	cat >"$tmp/vmw/wrap.sh" <<EOF
#!/bin/bash
sleep $1
echo wrapped >"$tmp/vmw/wrapped"
"\$@"
EOF
	chmod +x "$tmp/vmw/bin/qemu-system-x86_64" "$tmp/vmw/wrap.sh"
}
stand_ins 3 2
echo "step x true" >"$tmp/vmw/run/guest/job.sh"
echo image >"$tmp/vmw/image"
printf 'format_version=1\nimage=%s\naccel=tcg\nnet=veth\ndeadline=4\nvm_wrapper=%s\n' \
	"$tmp/vmw/image" "$tmp/vmw/wrap.sh" >"$tmp/vmw/run/run.spec"
vmw() {
	PATH="$tmp/vmw/bin:$PATH" bench/vm.sh "$tmp/vmw/run" 2>&1 || echo "vm.sh exited $?"
}
out=$(vmw)
check "LAB_VM_WRAPPER: QEMU ran under the wrapper" yes "$([ -f "$tmp/vmw/wrapped" ] && echo yes || echo no)"
check "LAB_VM_WRAPPER: the wait is logged" yes "$(grep -q 'QEMU started after a wait of 3\.[0-9]*s in LAB_VM_WRAPPER' <<<"$out" && echo yes || echo "no: $out")"
check "LAB_VM_WRAPPER: the deadline counts from QEMU's start" 0 "$(grep -c 'deadline of 4s passed' "$tmp/vmw/run/failure.txt")"
stand_ins 5 6
out=$(vmw)
check "LAB_VM_WRAPPER: a QEMU running past the deadline is stopped" 1 "$(grep -c 'deadline of 4s passed' "$tmp/vmw/run/failure.txt")"

# --- the kernel cache's lock: a second build of one key waits, then is served ---------
lc=$tmp/lockcache
mkdir -p "$lc/6.1/lab"
exec 8>"$lc/6.1/lab/lock"
flock 8
LAB_CACHE=$lc kernel/build.sh lab >"$tmp/b1.out" 2>"$tmp/b1.err" 8>&- &
p1=$!
LAB_CACHE=$lc kernel/build.sh lab >"$tmp/b2.out" 2>"$tmp/b2.err" 8>&- &
p2=$!
sleep 2
check "two builds of one key wait for the lock that a build holds" "yes yes" \
	"$(kill -0 "$p1" 2>/dev/null && echo yes || echo no) $(kill -0 "$p2" 2>/dev/null && echo yes || echo no)"
# what the holder's build leaves, then its lock is released
fake_cache "$tmp/lockseed"
cp -r "$tmp/lockseed/6.1/lab/obj" "$lc/6.1/lab/"
exec 8>&-
rc1=0 rc2=0
wait "$p1" || rc1=$?
wait "$p2" || rc2=$?
check "both builds end well after the lock is released" "0 0" "$rc1 $rc2"
check "both are served by the cache the holder filled (no second build)" "build_seconds=0 build_seconds=0" \
	"$(grep -h '^build_seconds=' "$tmp/b1.out" "$tmp/b2.out" | tr '\n' ' ' | sed 's/ $//')"
check "neither started a build" 0 "$(cat "$tmp/b1.err" "$tmp/b2.err" | awk '/building the/ {n++} END {print n + 0}')"

# --- the local engine on fake-guest cells, one made to fail -----------------------------
export LAB_TEST_FAKE_GUEST=1 LAB_TEST_FAKE_FAIL=stock-b2
rc=0
./run-lab.sh matrix "$good" >"$tmp/local.out" 2>&1 || rc=$?
check "local engine: a failed cell makes the matrix fail" 1 "$rc"
mdir=$(sed -n 's/^matrix: \(.*\) (\.\/run-lab.sh matrix --status .*/\1/p' "$tmp/local.out" | tail -1)
check "local engine: the matrix folder is under LAB_RESULTS" yes \
	"$([ -n "$mdir" ] && [ -d "$mdir" ] && [ "$(dirname -- "$mdir")" = "$LAB_RESULTS" ] && echo yes || echo "no: '$mdir'")"
[ -n "$mdir" ] || mdir=$tmp/none
check "merge.txt: 3 done, 1 failed" yes \
	"$(grep -q '4 cells: 3 done, 1 failed, 0 never finished, 0 never ran' "$mdir/merge.txt" 2>/dev/null && echo yes || echo no)"
check "merge.txt names the failed cell and its reason" yes \
	"$(grep -q "stock-b2: guest step 'wl-bpfqs' exited 1" "$mdir/merge.txt" 2>/dev/null && echo yes || echo no)"
check "merge.json: the failed cell" "stock-b2 failed" \
	"$(jq -r '.cells[] | select(.state != "done") | "\(.name) \(.state)"' "$mdir/merge.json" 2>&1)"
check "merge.json: not complete" false "$(jq -r '.complete' "$mdir/merge.json" 2>&1)"
check "the comparison of stock against lab over the boots" "2 2" \
	"$(jq -r '"\(.boots_a) \(.boots_b)"' "$mdir/compare/all/stock-vs-lab/compare.json" 2>&1)"
check "a cell's run says it is fake" "true" "$(jq -r '.fake_guest' "$mdir/lab-b1/meta.json" 2>&1)"
check "a cell's console says it is fake" yes "$(grep -q '^FAKE guest' "$mdir/lab-b1/console.log" && echo yes || echo no)"
check "each cell has a run folder with meta.json and report.html" 4 \
	"$(find "$mdir" -mindepth 2 -maxdepth 2 \( -name meta.json -o -name report.html \) | wc -l | awk '{print $1 / 2}')"
out=$(./run-lab.sh matrix --status "$(basename -- "$mdir")" 2>&1)
check "status: each cell's state" "lab-b1=done stock-b1=done stock-b2=failed lab-b2=done" \
	"$(awk 'NR > 2 && $2 ~ /^(done|failed|running|pending)$/ {printf "%s=%s ", $1, $2}' <<<"$out" | sed 's/ $//')"
check "status: the run folders" yes "$(grep -q "^lab-b1 .* $mdir/lab-b1\$" <<<"$out" && echo yes || echo no)"
check "status: the counts and the merge" yes \
	"$(grep -q '4 cells: 3 done, 1 failed, 0 running, 0 pending; merged' <<<"$out" && echo yes || echo no)"
out=$(./run-lab.sh matrix --status "$good" 2>&1)
check "status by the matrix file finds its newest run" yes "$(grep -q "matrix $(basename -- "$mdir")" <<<"$out" && echo yes || echo no)"
# a cell still running and one never started
cp -r "$mdir" "$tmp/states"
sed -i 's/^state=.*/state=running/' "$tmp/states/status/lab-b2"
rm -f "$tmp/states/status/stock-b1" "$tmp/states/merge.json"
out=$(./run-lab.sh matrix --status "$tmp/states" 2>&1)
check "status: running and pending cells" "stock-b1=pending lab-b2=running" \
	"$(awk 'NR > 2 && $2 ~ /^(running|pending)$/ {printf "%s=%s ", $1, $2}' <<<"$out" | sed 's/ $//')"
rc=0
bench/merge.sh "$tmp/states" >"$tmp/states.out" 2>&1 || rc=$?
check "merge: cells that never finished or never ran make it fail" 1 "$rc"
check "merge: names the cell that never finished" yes \
	"$(grep -A1 'NEVER FINISHED' "$tmp/states.out" | grep -q '  lab-b2: started on' && echo yes || echo no)"
check "merge: names the cell that never ran" yes \
	"$(grep -A1 'NEVER RAN' "$tmp/states.out" | grep -qx '  stock-b1' && echo yes || echo no)"
rc=0
bench/cell.sh "$mdir" 0 >/dev/null 2>&1 || rc=$?
check "a cell runs once: running a done cell again is refused" 1 "$rc"
# the layout of a merged local matrix (tests/slurm.sh compares the slurm engine's with it)
matrix_layout "$mdir" >"$tmp/layout"
for f in matrix.txt matrix.env cells.tsv merge.txt merge.json status/lab-b1 logs/stock-b2.log \
	lab-b1/meta.json lab-b1/bpfqs/summary.json lab-b1/report.html compare/all/stock-vs-lab/compare.json; do
	check "merged layout has $f" yes "$(grep -qxF "$f" "$tmp/layout" && echo yes || echo no)"
done

# --- ab's boots as cells: the folder ./run-lab.sh ab makes, compared as ab compares -------
printf 'format_version=1\nengine=local\nab.boots=1\nab.a=lab\nab.b=lab\nab.b_cmdline=%s\nprofile=quick\nworkloads=bpfqs\nresults=%s\n' \
	sysctl.net.core.bpf_jit_enable=0 "$LAB_RESULTS" >"$tmp/ab.spec"
rc=0
bench/matrix.sh ab "$tmp/ab.spec" >"$tmp/ab.out" 2>&1 || rc=$?
check "ab as cells of the local engine: exit code" 0 "$rc"
adir=$(sed -n 's/^matrix: \(.*\) (\.\/run-lab.sh matrix --status .*/\1/p' "$tmp/ab.out" | tail -1)
check "ab as cells: the cells are a1 and b1, B with the command line" "a1 - b1 sysctl.net.core.bpf_jit_enable=0" \
	"$(cut -f1,5 "$adir/cells.tsv" 2>&1 | tr '\t\n' '  ' | sed 's/ $//')"
check "ab as cells: ab.env asks for the command line" "cmdline_extra" "$(sed -n 's/^asked=//p' "$adir/ab.env" 2>&1)"
check "ab as cells: compare.json in the folder, one boot a side" "1 1" \
	"$(jq -r '"\(.boots_a) \(.boots_b)"' "$adir/compare.json" 2>&1)"
check "ab as cells: the merge names the comparison" yes \
	"$(grep -q 'B against A (as ./run-lab.sh ab): compare.txt' "$adir/merge.txt" 2>/dev/null && echo yes || echo no)"
sed -i 's/^ab.boots=1$/ab.boots=2/' "$tmp/ab.spec"
rc=0
out=$(LAB_TEST_FAKE_SECONDS=0 bench/matrix.sh ab "$tmp/ab.spec" 2>&1) || rc=$?
check "ab as cells, two boots a side: exit code" 0 "$rc"
adir=$(sed -n 's/^matrix: \(.*\) (\.\/run-lab.sh matrix --status .*/\1/p' <<<"$out" | tail -1)
check "ab as cells: two boots a side boot in ABBA order" "a1 b1 b2 a2" \
	"$(cut -f1 "$adir/cells.tsv" 2>&1 | tr '\n' ' ' | sed 's/ $//')"
check "ab as cells: the second boot of a side is a replicate (no conformance, no probe pass), the first not" \
	"a1= b1= b2=1 a2=1" "$(for c in a1 b1 b2 a2; do printf '%s=%s ' "$c" "$(sed -n 's/^replicate=//p' "$adir/cells/$c.spec")"; done | sed 's/ $//')"
check "ab as cells: every boot's report runs on the host (report_on=host)" "a1=host b1=host b2=host a2=host" \
	"$(for c in a1 b1 b2 a2; do printf '%s=%s ' "$c" "$(sed -n 's/^report_on=//p' "$adir/cells/$c.spec")"; done | sed 's/ $//')"

# --- a schedule sweep: the merge's tuning recommendation ----------------------------------
mkdir -p "$tmp/sched"
s0=workloads/taprio/schedules/three-class-10ms.sched
build/taprio variant --tc 0 --scale 1 "$s0" >"$tmp/sched/window-tc0-x1.sched"
build/taprio variant --tc 0 --scale 0.5 "$s0" >"$tmp/sched/window-tc0-x0.5.sched"
t=$tmp/tune.txt
matrix "$t" "workloads taprio" "schedules $tmp/sched/window-tc0-x1.sched $tmp/sched/window-tc0-x0.5.sched" "tune-bound-us 1000"
unset LAB_TEST_FAKE_FAIL
rc=0
./run-lab.sh matrix "$t" >"$tmp/tune.out" 2>&1 || rc=$?
check "a schedule sweep of 2 fake cells: exit code" 0 "$rc"
tdir=$(sed -n 's/^matrix: \(.*\) (\.\/run-lab.sh matrix --status .*/\1/p' "$tmp/tune.out" | tail -1)
check "the sweep's cells are named by their schedule" "lab-window-tc0-x1-b1 lab-window-tc0-x0.5-b1" \
	"$(cut -f1 "$tdir/cells.tsv" 2>&1 | tr '\n' ' ' | sed 's/ $//')"
check "the merge recommends class 0's shortest window (the x0.5 variant)" yes \
	"$(grep -q '^class 0: shortest window that passes, every longer one passing too: .* (scale 0.5)' "$tdir/tune-taprio-b1/tune-recommendation.txt" 2>/dev/null && echo yes ||
		echo "no: $(head -3 "$tdir/tune-taprio-b1/tune-recommendation.txt" 2>&1 | tr '\n' ' ')")"
echo "1..$n"

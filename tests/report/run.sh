#!/bin/bash
# Host tests of the report (bench/report.sh), the figures runner
# (bench/plots.sh) and the comparison (bench/compare.sh, build/labstat) on
# fixture runs created here: a failed workload, a missing one, a missing
# metric, a zero-variance metric, and metrics whose significance is known.
# Prints TAP; exits 1 when a test fails.
# usage: tests/report/run.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf -- "$tmp"' EXIT
export LAB_ROOT="$root" LAB_RESULTS="$tmp/results"

# shellcheck source=tests/tap.sh
. "$root/tests/tap.sh"
echo "TAP version 13"

# --- build labstat (Makefile rule if there is one, else by hand) ---------------
make -s -C "$root" build/libbench.a >/dev/null
if make -s -C "$root" -n build/labstat >/dev/null 2>&1; then
	make -s -C "$root" build/labstat >/dev/null
	export LABSTAT="$root/build/labstat"
else
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I "$root/bench" -o "$tmp/labstat" \
		"$root/bench/tools/labstat.c" "$root/build/libbench.a" -ljansson -lm
	export LABSTAT="$tmp/labstat"
fi

# --- fixture helpers ------------------------------------------------------------
# meta DIR ID [JQ_FILTER]: write DIR/meta.json
meta() {
	mkdir -p "$1"
	jq -n --arg id "$2" '{lab_commit: "0123abc", kernel_version: "6.1.0-lab", kernel_flavour: "lab",
		series_hash: "s1", config_hash: "c1", hz: 250, qemu_version: "7.2.9", accel: "tcg",
		vcpus: 2, mem_mb: 1024, host_cpu: "Test CPU", net_mode: "tap", run_id: $id,
		profile: "quick", workloads: [], started: "2024-05-01T10:00:00Z",
		ended: "2024-05-01T10:05:00Z", kernel_build_seconds: 0, boot_seconds: 2.5,
		status: "ok"} | '"${3:-.}" >"$1/meta.json"
}
# metric NAME PARAMS_JSON UNIT SAMPLE...: one metric object, stats by labstat
metric() {
	local name=$1 params=$2 unit=$3
	shift 3
	printf '%s\n' "$@" | "$LABSTAT" stats |
		jq -c --arg name "$name" --argjson params "$params" --arg unit "$unit" \
			'{name: $name, params: $params, unit: $unit, n, median, mean, stddev, min, max,
			  p99: (if .n >= 100 then .p99 else null end)}'
}
# summary DIR WORKLOAD STATUS < METRIC_LINES
summary() {
	mkdir -p "$1/$2"
	jq -s --arg w "$2" --arg s "$3" '{workload: $w, status: $s, metrics: .}' >"$1/$2/summary.json"
}

# --- the report -----------------------------------------------------------------
r=$tmp/results/r1
meta "$r" r1 '.workloads = ["alpha", "beta", "gamma", "delta"] | .status = "failed"'
{
	metric latency '{"queues": "4", "size": "64"}' us 10 11 12 13 14
	metric drops '{}' count 0 0 0 0
	jq -nc '{name: "dump", params: {}, unit: "us", n: 0, median: null, mean: null,
		stddev: null, min: null, max: null, p99: null}'
	jq -nc '{name: "in_window", params: {}, unit: "fraction", n: 10, median: 0.5, mean: null,
		stddev: null, min: null, max: null, p99: null,
		ci95: {lo: 0.236593, hi: 0.763407, of: "fraction", method: "Wilson"}}'
} | summary "$r" alpha ok
printf 'TAP version 13\n1..4\nok 1 - strict check is on\nnot ok 2 - dump filter: expected 1 link, got 3\n    not ok 1 - nested detail\nok 3 - led pattern # SKIP no LED class\nok 4 - queue map pop\n' \
	>"$r/alpha/conformance.tap"
printf 'sample,latency_us\n0,10\n' >"$r/alpha/latency.csv"
jq -n '[{target: "p99 latency", measured: 14.25, limit: 10, unit: "us", met: false,
		why: "p99 of 5 samples above the limit"},
	{target: "drops", measured: 0, limit: 0, unit: "count", met: true, why: "no drop in 4 runs"},
	{target: "isochron beside the sender", measured: null, limit: 500, unit: "us", met: null,
		why: "no PTP clock on this kernel"},
	{target: "drift within 1 ms per 1000 steps", measured: 0.3, limit: 1, unit: "ms", met: null,
		verdict: "undecided",
		why: "undecided: the 95% interval [-0.2, 1.4] straddles within [-1, 1]"}]' >"$r/alpha/targets.json"
# many: 64 clock-read targets of one kind, all MET; 4 of another kind, one
# NOT MET; a pair of a third kind, one undecided; one not judged
jq -n '[range(64) as $i | {target: "clock reads under 1 % of prog_ns_per_op map=\(["queue", "stack"][$i % 2]) op=\(["push", "pop"][($i / 2 | floor) % 2]) value_size=\(4 * ($i / 4 | floor) + 4 | tostring)", measured: 0.5, limit: 1, unit: "%", met: true, verdict: "met", why: "5 ns a call"}]
	+ [range(4) as $i | {target: "clock reads under 1 % of op_ns op=pop size=\([4, 64, 1024, 65536][$i])", measured: (if $i == 1 then 2.5 else 0.2 end), limit: 1, unit: "%", met: ($i != 1), verdict: (if $i == 1 then "not met" else "met" end), why: "x"}]
	+ [{target: "pair within 20 % map=queue", measured: 5, limit: 20, unit: "%", met: true, verdict: "met", why: "y"},
	   {target: "pair within 20 % map=stack", measured: 5, limit: 20, unit: "%", met: null, verdict: "undecided", why: "y"},
	   {target: "parity within 10 % value_size=4", measured: 8, limit: 10, unit: "%", met: null, verdict: "undecided", why: "y"},
	   {target: "parity within 10 % value_size=64", measured: 8, limit: 10, unit: "%", met: null, verdict: "undecided", why: "y"}]' \
	| jq '.[0:32] + [{target: "no figure", measured: null, limit: 1, unit: "%", met: null, verdict: "not judged", why: "z"}] + .[32:]' \
	>"$tmp/many.json"
metric x '{}' ns 1 2 3 | summary "$r" many ok
cp "$tmp/many.json" "$r/many/targets.json"
mkdir -p "$r/beta" "$r/delta" "$r/guest"
jq -n '{workload: "beta", status: "failed", reason: "tc qdisc add failed", metrics: []}' >"$r/beta/summary.json"
printf 'sample,x\n' >"$r/delta/x.csv"
metric extra_ops '{}' ops 1 2 3 | summary "$r" zeta ok
printf 'TAP version 13\n1..3\nok 1 - a\nok 2 - b\n' >"$r/zeta/conformance.tap"
echo '{"target": "not an array"}' >"$r/zeta/targets.json"
printf '%s\n' "[    0.000000] Linux version 6.1.0-lab" \
	"[    1.234567] WARNING: CPU: 1 PID: 42 at net/sched/sch_taprio.c:100 taprio_enqueue" \
	"[    1.234600] Call Trace:" \
	"[    2.000000] rcu: INFO: rcu_preempt self-detected stall on CPU" \
	"[    3.000000] Kernel panic - not syncing: sysrq triggered crash" \
	"[    3.100000] all fine here" >"$r/console.log"
echo 0 >"$r/guest/alpha.rc"
echo 1 >"$r/guest/beta.rc"
printf 'line %d of beta\n' 1 2 3 4 5 6 7 8 9 10 >"$r/guest/wl-beta.log"
printf '%s\n' "# what the report shows first" "headline latency queues=4" "headline in_window" \
	"headline not_there" "figure latency.png" "columns size" >"$r/alpha/report.conf"
{
	for op in push pop peek; do
		for size in 4 64 1024 65536; do
			metric op_ns "{\"op\": \"$op\", \"size\": \"$size\"}" ns $((size * 100)) $((size * 100 + 50))
		done
	done
} | summary "$r" grid ok
printf 'columns size\nheadline op_ns op=pop size=65536\n' >"$r/grid/report.conf"
echo failed >"$r/status"
echo "guest command beta exited with status 1" >"$r/failure.txt"

out=$("$root/bench/report.sh" --no-plots "$r" 2>"$tmp/err") && rc=0 || rc=$?
check "report.sh on a failed run exits 0" 0 "$rc"
check "report.sh prints the paths of report.md and report.html" "$r/report.md
$r/report.html" "$out"
md=$r/report.md
check_has "report title names the run id" "$md" "# Lab report: r1"
check_has "run status failed is shown" "$md" "FAILED: run status 'failed'"
check_has "failure.txt is shown with the status" "$md" \
	"FAILED: run status 'failed': guest command beta exited with status 1"
check_has "metadata table shows HZ" "$md" "| hz | 250 |"
check_has "workload alpha: ok with 4 metrics" "$md" "| alpha | ok | 4 |"
check_has "failed workload shown with its reason" "$md" "| beta | failed: tc qdisc add failed |"
check_has "workload named in meta.json without directory: missing" "$md" \
	"| gamma | missing: no directory gamma/ in the run |"
check_has "workload directory without summary.json: missing" "$md" "| delta | missing: no summary.json"
check_has "workload directory not in meta.json is still shown" "$md" "| zeta (not listed in meta.json) | ok |"
check_has "missing workload has its own section" "$md" "## Workload gamma"
check_has "summary row: n, median, no interval below 6 samples, stddev% (1.5811/12), min, max, p99 '-' below 100 samples" \
	"$md" "| latency | queues=4 size=64 | us | 5 | 12 | - | 13.2% | 10 | 14 | - |"
check_has "zero-variance metric: stddev 0.0%" "$md" "| drops |   | count | 4 | 0 | - | 0.0% | 0 | 0 | - |"
check_has "an estimate's row: its 95% interval from ci95, no spread fields" "$md" \
	"| in_window |   | fraction | 10 | 0.5 | 0.2366 to 0.7634 | - | - | - | - |"
check_has "metric without samples: statistics '-'" "$md" "| dump |   | us | 0 | - | - | - | - | - |"
check_has "targets table: target, measured, limit, unit, verdict, why" "$md" \
	"| target | measured | limit | unit | verdict | why |"
check_has "a target with met false shows as NOT MET" "$md" \
	"| p99 latency | 14.25 | 10 | us | NOT MET | p99 of 5 samples above the limit |"
check_has "a target with met true shows as MET" "$md" "| drops | 0 | 0 | count | MET | no drop in 4 runs |"
check_has "a target with met null shows as not judged, its missing figure as '-'" "$md" \
	"| isochron beside the sender | - | 500 | us | not judged | no PTP clock on this kernel |"
check_has "HTML marks a target NOT MET" "$r/report.html" "<td class=\"bad\">NOT MET</td>"
check_has "a targets.json that is no array is said" "$md" "warning: targets.json is not a JSON array."
check_has "conformance counts passed, failed, skipped (top level)" "$md" \
	"failed: 2 passed, 1 failed, 1 skipped"
check_has "failing conformance line is shown with its line number" "$md" \
	"4: not ok 2 - dump filter: expected 1 link, got 3"
check_has "nested failing line is shown too" "$md" "5:     not ok 1 - nested detail"
check_has "conformance stopped short of its plan is failed" "$md" "failed (plan 1..3, 2 results: incomplete)"
check_has "console WARNING shown" "$md" "WARNING: CPU: 1 PID: 42"
check_has "console Call Trace shown with line number" "$md" "3:[    1.234600] Call Trace:"
check_has "console RCU stall shown" "$md" "rcu: INFO: rcu_preempt self-detected stall"
check_has "console panic shown" "$md" "Kernel panic - not syncing"
check_lacks "ordinary console lines are not shown" "$md" "all fine here"
check_has "guest command exit status 1 is shown failed" "$md" "| beta | 1 | failed |"
# answers first: findings, then figures, details, the run, metadata last
order=$(grep -n '^## ' "$md" | cut -d: -f2- | paste -sd '|')
check "sections in order: findings first, metadata last" "## Findings|## Details|## The run|## Metadata" \
	"$order"
check_has "the first line counts the targets by verdict" "$md" \
	"Targets: 69 MET, 2 NOT MET, 4 undecided, 2 not judged."
# the first screen: the targets NOT MET and undecided by name, before any table
head -n "$(grep -n -m 1 '^|' "$md" | cut -d: -f1)" "$md" >"$tmp/first.md"
check_has "before any table: the targets NOT MET by name, with their workload" "$tmp/first.md" \
	"**NOT MET (2): alpha: p99 latency; many: clock reads under 1 % of op_ns op=pop size=64.**"
check_has "before any table: the targets undecided by name" "$tmp/first.md" \
	"Undecided (4): alpha: drift within 1 ms per 1000 steps; many: pair within 20 % map=stack; many: parity within 10 % (2: value_size=4; value_size=64)."
check_lacks "the met and not judged targets are not named there" "$tmp/first.md" "alpha: drops"
check_has "an undecided target shows as undecided (met null, verdict undecided)" "$md" \
	"| drift within 1 ms per 1000 steps | 0.3 | 1 | ms | undecided | undecided: the 95% interval [-0.2, 1.4] straddles within [-1, 1] |"
# the lines the run's terminal summary prints (bench/run.sh): attention()
# shellcheck disable=SC2016 # expanded by the inner shell
att=$(bash -c '. "$1/bench/report-lib.sh"; shift; attention "$@"' attention "$root" "$r" alpha many zeta 2>&1)
check "terminal summary: NOT MET first, then undecided, each with its workload" \
	"NOT MET alpha|NOT MET many|undecided alpha|undecided many|undecided many" \
	"$(awk -F '\t' 'NF > 2 { print $1 " " $2 }' <<<"$att" | paste -sd '|')"
check "terminal summary: a targets.json that is no array is named" \
	"warning: zeta/targets.json is not a readable array of targets" "$(awk -F '\t' 'NF < 3' <<<"$att")"
check "terminal summary: a target alone with its figure, limit and why" \
	"p99 latency	14.25 us against 10 (p99 of 5 samples above the limit)" \
	"$(awk -F '\t' '$2 == "alpha" && $1 == "NOT MET" { print $3 "\t" $4 }' <<<"$att")"
check "terminal summary: a kind's undecided targets in one line" "parity within 10 % (2: value_size=4; value_size=64)" \
	"$(awk -F '\t' '$2 == "many" && $3 ~ /^parity/ { print $3 }' <<<"$att")"
check_has "a targets.json without verdicts (older runs) is read from met: null is not judged" "$md" \
	"| isochron beside the sender | - | 500 | us | not judged |"
check_has "HTML marks an undecided target" "$r/report.html" "<td class=\"warn\">undecided</td>"
check_has "HTML marks the line of the undecided targets" "$r/report.html" "<p class=\"warn\">Undecided (4): alpha:"
sed -n '/^### many/,/^### /p' "$md" >"$tmp/many.md"
check_has "64 targets of one kind, all MET, fold into one line" "$tmp/many.md" \
	"| clock reads under 1 % of prog_ns_per_op | - | 1 | % | 64 of 64 MET |"
check_has "a kind with a target NOT MET is not folded: each of its targets shown" "$tmp/many.md" \
	"| clock reads under 1 % of op_ns op=pop size=4 | 0.2 | 1 | % | MET |"
check_has "a kind with a target undecided is not folded" "$tmp/many.md" \
	"| pair within 20 % map=queue | 5 | 20 | % | MET |"
check_has "a folded kind's targets are each in the table of all targets, folded" "$tmp/many.md" \
	"<details><summary>All 73 targets of many</summary>"
check_has "a folded kind's target in the table of all targets" "$tmp/many.md" \
	"| clock reads under 1 % of prog_ns_per_op map=stack op=pop value_size=32 | 0.5 | 1 | % | MET |"
check_has "a failed workload's log tail is shown at the top" "$md" "line 10 of beta"
check_lacks "only the log's last lines" "$md" "line 7 of beta"
check_has "the failed workloads' table: status and the last lines of the step's log" "$md" \
	"| beta | failed: tc qdisc add failed | guest/wl-beta.log: line 8 of beta / line 9 of beta / line 10 of beta |"
sed -n '/^## Findings/,/^## Details/p' "$md" >"$tmp/findings.md"
check_has "headline: the metric report.conf names, params it did not fix, n, value, no interval with 5 samples" \
	"$tmp/findings.md" "| latency | size=64 | 5 | 12 | - | us |"
check_has "headline of an estimate with its 95% interval" "$tmp/findings.md" \
	"| in_window |   | 10 | 0.5 | 0.2366 to 0.7634 | fraction |"
check_has "the targets are in the findings" "$tmp/findings.md" "| p99 latency | 14.25 | 10 | us | NOT MET |"
check_has "a headline of 6553625 ns reads 6.554 ms (at most 4 significant digits)" "$tmp/findings.md" \
	"| op_ns |   | 2 | 6.554 | - | ms |"
check_has "pivoted table: the columns key's values as columns, in numeric order" "$md" \
	"| size → | 4 | 64 | 1024 | 65536 |"
check_has "pivoted table: one row per other params, medians in one unit (us)" "$md" \
	"| op=pop | 0.425 | 6.425 | 102.4 | 6554 |"
check_has "the pivoted table names its unit" "$md" "op_ns (us), median per cell"
check_has "the full metric table is folded" "$md" "<details><summary>All metrics of grid: 12 rows"
check_has "guest command exit status 0 is ok" "$md" "| alpha | 0 | ok |"
check_has "overall workload count" "$md" "failed: 3 of 7 workloads failed or are missing; 4 ok."
check_has "HTML marks the failed workload" "$r/report.html" \
	"<td class=\"bad\">failed: tc qdisc add failed</td>"
check_has "HTML is complete" "$r/report.html" "</html>"
check_lacks "HTML loads nothing from the network" "$r/report.html" "src=\"http"
check "no temporary files left in the run" 0 "$(find "$r" -name '*.tmp.*' | wc -l)"

# an interrupted run: no meta.json, no status, no console
i=$tmp/results/interrupted
mkdir -p "$i/alpha"
check_cmd "report.sh on a run without meta.json, status or console.log" "$root/bench/report.sh" --no-plots \
	"$i"
check_has "interrupted run: missing meta.json said" "$i/report.md" "meta.json is missing"
check_has "interrupted run: missing status said" "$i/report.md" "the run has no status"
check_has "interrupted run: missing console.log said" "$i/report.md" "console.log is missing"

"$root/bench/report.sh" >/dev/null 2>&1 && rc=0 || rc=$?
check "report.sh without a run: usage error, exit 2" 2 "$rc"
"$root/bench/report.sh" "$tmp/nope" 2>"$tmp/err" >/dev/null && rc=0 || rc=$?
check "report.sh on a missing directory: exit 2" 2 "$rc"
check_has "the error names the missing directory" "$tmp/err" "$tmp/nope"

# --- figures: plots.sh with a fake lab root holding figure scripts ---------------
fake=$tmp/fakeroot
mkdir -p "$fake/plots"
ln -s "$root/bench" "$fake/bench"
cp "$root/plots/common.gp" "$fake/plots/"
# shellcheck disable=SC2016 # backquotes, not an expansion
sed -n '/^```gnuplot$/,/^```$/p' "$root/plots/README.md" | sed '1d;$d' |
	sed 's#taprio/latency.csv#alpha/latency.csv#; s#/taprio/latency#/alpha/latency#' >"$fake/plots/alpha-latency.gp"
printf '# input: alpha/latency.csv\nload "plots/common.gp"\nplot no_such_function(x)\n' >"$fake/plots/alpha-broken.gp"
printf '# input: omega/data.csv\nload "plots/common.gp"\n' >"$fake/plots/omega-data.gp"
printf 'sample,queue,latency_ns\n0,0,1200\n1,1,1500\n2,2,900\n3,3,2000\n4,0,1100\n5,1,1600\n' >"$r/alpha/latency.csv"
LAB_ROOT=$fake "$fake/bench/plots.sh" "$r" >"$tmp/plots.out" 2>"$tmp/plots.err" && rc=0 || rc=$?
check "plots.sh exits 1 when a figure script fails" 1 "$rc"
check_has "plots.sh draws the README template figure" "$tmp/plots.out" "drew alpha-latency"
check_has "plots.sh skips a figure whose input is missing" "$tmp/plots.out" \
	"skip omega-data: no omega/data.csv"
check_has "plots.sh names the failing script" "$tmp/plots.err" "alpha-broken.gp failed"
check_cmd "figure written as PNG" test -s "$r/alpha/latency.png"
check_cmd "figure written as SVG" test -s "$r/alpha/latency.svg"
check "the PNG is a PNG" image/png \
	"$(file -b --mime-type "$r/alpha/latency.png" 2>/dev/null || head -c 4 "$r/alpha/latency.png" | tail -c 3)"
LAB_ROOT=$fake "$root/bench/report.sh" "$r" >/dev/null 2>&1
check_has "report.md shows the figure and links its SVG" "$md" \
	"![latency](alpha/latency.png) ([SVG](alpha/latency.svg))"
check_has "report.html embeds the figure" "$r/report.html" "data:image/png;base64,iVBOR"
check_has "report lists the figure that failed" "$md" "some figures could not be drawn"

# --- report.html on a laptop screen: headless Chromium at 1366x768 ----------------
# an ok run of two workloads with a figure: the findings must start on the
# first screen, every image load, no table run past the page
ok_run=$tmp/results/r2
mkdir -p "$ok_run/guest"
cp -r "$r/alpha" "$r/grid" "$r/zeta" "$ok_run/"
rm -f "$ok_run/zeta/targets.json"
meta "$ok_run" r2 '.workloads = ["alpha", "grid", "zeta"]'
echo ok >"$ok_run/status"
printf '[    0.000000] Linux version 6.1.0-lab\n' >"$ok_run/console.log"
rm -f "$fake/plots/alpha-broken.gp"
LAB_ROOT=$fake "$root/bench/report.sh" "$ok_run" >/dev/null 2>&1
if layout=$("$root/tests/report/render.sh" "$ok_run/report.html" "$tmp/r2.png" 2>"$tmp/render.err"); then
	tap_result ok "report.html renders in headless Chromium ($layout)"
	get() { sed -n "s/.*\b$1=\(-\{0,1\}[0-9]*\).*/\1/p" <<<"$layout"; }
	top=$(get findings_top) table=$(get first_table_top)
	if [ "$top" -ge 0 ] && [ "$top" -lt 400 ]; then
		tap_result ok "the findings start in the upper half of the first screen (top $top px)"
	else
		tap_result "not ok" "the findings start in the upper half of the first screen: expected top < 400 px, got $top"
	fi
	if [ "$table" -ge 0 ] && [ "$table" -lt 768 ]; then
		tap_result ok "the first headline table is on the first screen (top $table px of 768)"
	else
		tap_result "not ok" "the first headline table is on the first screen: expected top < 768 px, got $table"
	fi
	if [ "$(get images)" -ge 2 ] && [ "$(get broken)" -eq 0 ]; then
		tap_result ok "every image loads ($(get images) images)"
	else
		tap_result "not ok" "every image loads: expected >= 2 images and 0 broken, got $(get images) and $(get broken)"
	fi
	check "no table is wider than the page (1366 px)" 0 "$(get wide_tables)"
	check "no headline table runs into the figure beside it" 0 "$(get overlaps)"
	check_cmd "the first screen is saved as a PNG for people to look at" test -s "$tmp/r2.png"
	[ -z "${KEEP_TMP:-}" ] || echo "# first screen of the ok fixture report: $tmp/r2.png"
else
	tap_result "not ok" "report.html renders in headless Chromium: $(tail -n 3 "$tmp/render.err" | grep -v dbus | tr '\n' ' ')"
fi

# --- comparison of one run a side: %change only ------------------------------------
a=$tmp/results/runA
b=$tmp/results/runB
meta "$a" runA '.workloads = ["w", "gone"]'
meta "$b" runB '.workloads = ["w"] | .hz = 1000 | .kernel_flavour = "stock"'
{
	metric faster '{}' ns 100 101 99 100 102 98 100 101 99 100
	metric flat '{"q": "1"}' count 5 5 5
	metric flat '{"q": "2"}' count 5 5 5
	metric only_in_a '{}' ns 1 2 3
} | summary "$a" w ok
{
	metric faster '{}' ns 110 111 109 110 112 108 110 111 109 110
	metric flat '{"q": "1"}' count 5 5 5
	metric flat '{"q": "2"}' count 6 6 6
	metric only_in_b '{}' ns 4 5 6
} | summary "$b" w ok

out=$("$root/bench/compare.sh" runA runB 2>"$tmp/err") && rc=0 || rc=$?
check "compare.sh of two runs by run id exits 0" 0 "$rc"
c=$b/compare-runA
check_cmd "compare writes into RUN_B/compare-<A id>/" test -f "$c/compare.json"
# m KEY JQ: a field of one metric of compare.json (KEY: name[ params])
m() {
	jq -r --arg k "$1" ".metrics[] | select((.name + (.params | to_entries
		| map(\" \(.key)=\(.value)\") | join(\"\"))) == \$k) | $2" "$c/compare.json"
}
check "one run a side: %change of 100 -> 110 is +10" 10 "$(m faster '.change_pct | round')"
check "one run a side: no p-value, not changed, and it says why (a 10 % change with 1 % noise inside the boot)" \
	"false null one boot a side gives no significance" "$(m faster '[.changed, .p, .why] | map(tostring) | join(" ")')"
check "a count 5 -> 6: %change +20" 20 "$(m "flat q=2" '.change_pct | round')"
check "a metric only in A: missing in B" "missing in B" "$(m only_in_a '.why')"
check "a metric only in B: missing in A" "missing in A" "$(m only_in_b '.why')"
check_has "compare.txt says one boot a side gives %change only" "$c/compare.txt" \
	"one boot a side gives no significance: %change only"
check_has "HZ difference named in a warning" "$c/compare.txt" \
	'warning: the runs differ in hz (250 and 1000), which was not asked'
check_lacks "no accelerator warning when both are tcg" "$c/compare.txt" "differ in accel"
check_has "a workload missing from a run is warned about" "$c/compare.txt" \
	"warning: workload gone has no readable summary.json in $a"
check "compare.json holds the warnings (hz, kernel flavour, the missing workload)" 3 \
	"$(jq '.warnings | length' "$c/compare.json")"
check "terminal output starts with the runs" "A: runA B: runB " \
	"$(printf '%s\n' "$out" | head -n 2 | tr '\n' ' ')"
check_has "compare.md starts with the verdict" "$c/compare.md" "## Verdict"
check_lacks "no change found: no 'Changes found' section" "$c/compare.md" "## Changes found"
check_has "compare.md lists the metrics one side lacks" "$c/compare.md" "## Metrics one side lacks"
check_has "compare.html embeds the figures" "$c/compare.html" "data:image/png;base64,iVBOR"
check_cmd "a figure per metric name: w.faster" test -s "$c/compare-w.faster.png"
check_cmd "a figure per metric name: w.flat (two param sets)" test -s "$c/compare-w.flat.svg"
check "figure CSV: params, %change, no interval with one boot a side, not changed" \
	"q=1,0,NaN,NaN,0 q=2,20,NaN,NaN,0 " "$(sed -n 2,3p "$c/compare-w.flat.csv" | tr '\n' ' ')"

sum1=$(find "$c" -type f -exec sha256sum {} + | sort | sha256sum)
"$root/bench/compare.sh" "$a" "$b" >/dev/null 2>&1
check_cmd "a second comparison goes to a new directory" test -f "$b/compare-runA-2/compare.md"
check "the first comparison is untouched" "$sum1" \
	"$(find "$c" -type f -exec sha256sum {} + | sort | sha256sum)"
"$root/bench/compare.sh" "$a" "$b" "$c" >/dev/null 2>"$tmp/err" && rc=0 || rc=$?
check "compare.sh into a non-empty OUTDIR: exit 2" 2 "$rc"
check_has "the error says why" "$tmp/err" "refusing to overwrite"
"$root/bench/compare.sh" runA no-such-run >/dev/null 2>"$tmp/err" && rc=0 || rc=$?
check "compare.sh with an unknown run: exit 2" 2 "$rc"
check_has "the error names the unknown run" "$tmp/err" "run 'no-such-run' not found"
"$root/bench/compare.sh" runA >/dev/null 2>"$tmp/err" && rc=0 || rc=$?
check "compare.sh with one run that is not an ab folder: usage error, exit 2" 2 "$rc"
check_has "the error says the one argument is not an ab folder" "$tmp/err" "'runA' is not an ab folder"
"$root/bench/compare.sh" "$a" "$b" "$tmp/cmp-out" >/dev/null 2>&1
check_cmd "compare.sh into an explicit new OUTDIR" test -f "$tmp/cmp-out/compare.html"
check "no temporary files left by compare" 0 "$(find "$tmp/results" "$tmp/cmp-out" -name '*.tmp.*' | wc -l)"

"$root/bench/report.sh" --no-plots "$b" >/dev/null 2>&1
check_has "the report of run B lists the comparisons stored in it" "$b/report.md" \
	"| compare-runA | compare-runA/compare.md | compare-runA/compare.html |"
check_lacks "comparison directories are not taken for workloads" "$b/report.md" "## Workload compare-runA"

# --- taprio's report: outside the window at the driver and at the gate --------
# Schedule: class 0 open 0-3 ms, class 1 3-6 ms of each 10 ms cycle from base B
# (the run's record, run.json: report reads no schedule file).
# tc0 seq0: through the gate and at the driver inside its window; tc0 seq1:
# through the gate at 2.99 ms, at the driver at 3.1 ms (late after the gate);
# tc1 seq0: let through at 2.5 ms, when its gate was closed (at the gate);
# tc1 seq1: no TX timestamp.
make -s -C "$root" build/taprio >/dev/null
tp=$tmp/taprio
mkdir -p "$tp"
B=1000000000000
"$root/build/taprio" check --json "$root/workloads/taprio/schedules/three-class-10ms.sched" |
	jq --argjson b "$B" '{format_version: 1, program: "taprio", verb: "run",
		schedule_name: "three-class-10ms.sched", schedule: ., cycle_ns: 10000000, base_ns: $b,
		start_ns: $b, tai_offset_ns: 37000000000, count: 2, rate: 100, only_tc: -1,
		phase_ns: -1, received: 3}' >"$tp/run.json"
{
	echo "tc,seq,size,wake_ns,sched_ns,tx_ns,rx_ns"
	echo "0,0,64,$((B + 100000)),$((B + 150000)),$((B + 200000)),$((B + 300000))"
	echo "0,1,64,$((B + 12900000)),$((B + 12950000)),$((B + 13100000)),$((B + 13200000))"
	echo "1,0,64,$((B + 2400000)),$((B + 2450000)),$((B + 4000000)),$((B + 4100000))"
	echo "1,1,64,$((B + 12400000)),$((B + 12450000)),0,0"
} >"$tp/packets.csv"
# The advance histograms (every advance: 3 of 10 us, 1 of 150 us, 1 of 2.05 ms,
# 1 beyond 1 s), 2 early ones, and 2 of the 8 advances printed
{
	echo "map,key,low,high,value"
	echo '"@advance_late_us_fine","",0,9,3'
	echo '"@advance_late_us_fine","",150,159,1'
	echo '"@advance_late_us_mid","",2000,2099,1'
	echo '"@advance_late_us_coarse","",1000000,,1'
	echo '"@advance_early","","","",2'
	echo '"@advances","","","",8'
	echo "lost_events,,,,3"
} >"$tp/probe-taprio_gate-maps.csv"
{
	echo "event,entry,gate_mask,queue,len,reason,start_ns,end_ns,time_ns,late_ns,tc,seq"
	echo "tx,,,0,106,,$((B + 180000)),,$((B + 190000)),10000,0,0"
	echo "tx,,,0,106,,$((B + 12990000)),,$((B + 13090000)),100000,0,1"
	echo "tx,,,1,106,,$((B + 2500000)),,$((B + 3990000)),1490000,1,0"
	echo "advance,0,1,,,,$B,$((B + 3000000)),$((B + 5000)),5000,,"
	echo "advance,1,2,,,,$((B + 3000000)),$((B + 6000000)),$((B + 3150000)),150000,,"
} >"$tp/probe-taprio_gate.csv"
"$root/build/taprio" report --out "$tp" 2>"$tmp/taprio-report.err" >/dev/null && rc=0 || rc=$?
check "taprio report on a fixture run" 0 "$rc"
tm() { jq -r --arg n "$1" --arg tc "$2" '[.metrics[] | select(.name == $n and .params.tc == $tc)][0].median' "$tp/summary.json"; }
check "taprio report: class 0 has 1 packet outside its window at the driver" 1 "$(tm violations 0)"
check "taprio report: class 0 has none outside at the gate decision" 0 "$(tm violations_at_dequeue 0)"
check "taprio report: class 0's late packet passed its gate in time" 1 "$(tm violations_after_gate 0)"
check "taprio report: class 1's packet let through a closed gate is counted at the gate" 1 \
	"$(tm violations_at_dequeue 1)"
check "taprio report: class 1 has none late after the gate" 0 "$(tm violations_after_gate 1)"
check "taprio report: start_ns of the tx lines is the kernel's gate decision (probe=tracepoint)" tracepoint \
	"$(jq -r '[.metrics[] | select(.name == "violations_at_dequeue")][0].params.probe' "$tp/summary.json")"
check "taprio report: each metric says what it was measured under (the probe, no clock sync without sync-workload.csv)" \
	"tracepoint none" \
	"$(jq -r '[.metrics[] | select(.name == "advance_lateness_us")][0].conditions | "\(.probe) \(.clock_sync)"' "$tp/summary.json")"
check "taprio report: the probe is a condition of advance_lateness_us, not a part of its key" null \
	"$(jq -r '[.metrics[] | select(.name == "advance_lateness_us")][0].params.probe' "$tp/summary.json")"
tf() { jq -r --arg n "$1" --arg tc "$2" --arg f "$3" '[.metrics[] | select(.name == $n and .params.tc == $tc)][0] | .[$f] | tostring' "$tp/summary.json"; }
check "taprio report: in_window_pct counts out of all packets sent, the one with no TX timestamp too" 2 \
	"$(tf in_window_pct 1 n)"
check "taprio report: class 1's in_window_pct is 1 of 2 sent" 50 "$(tf in_window_pct 1 median)"
check "taprio report: in_window_pct has no interval from 1 half-second block (clusters)" null \
	"$(tf in_window_pct 1 ci95)"
# A run of today's layout: the measurement watched by the maps-only probe
# (taprio_advance.bt: 5 advances, no printf), the printing probe in a pass of
# its own (probe-pass/: a run with its record and packets, the fixture's
# probe lines and maps above)
tp4=$tmp/taprio-probe-pass
mkdir -p "$tp4/probe-pass"
cp "$tp/run.json" "$tp/packets.csv" "$tp4/"
cp "$tp/run.json" "$tp/packets.csv" "$tp/probe-taprio_gate.csv" "$tp/probe-taprio_gate-maps.csv" "$tp4/probe-pass/"
printf 'map,key,low,high,value\n"@advance_late_us_fine","",20,29,5\n"@advances","","","",5\n' \
	>"$tp4/probe-taprio_advance-maps.csv"
"$root/build/taprio" report --out "$tp4" 2>"$tmp/tp4.err" >/dev/null && rc=0 || rc=$?
check "taprio report on the probe-pass layout exits 0" 0 "$rc"
t4() { jq -r --arg n "$1" --arg f "$2" '[.metrics[] | select(.name == $n)][0] | .[$f] | tostring' "$tp4/summary.json"; }
check "taprio report, probe pass: the advance lateness is the measurement's (maps-only probe), not the probe pass's" \
	"5 24.5" "$(t4 advance_lateness_us n) $(t4 advance_lateness_us median)"
check "taprio report, probe pass: the measurement's condition is the maps-only probe" "tracepoint, maps only" \
	"$(jq -r '[.metrics[] | select(.name == "advance_lateness_us")][0].conditions.probe' "$tp4/summary.json")"
check "taprio report, probe pass: the timeline's losses are the probe pass's (8 counted, 2 printed)" 6 \
	"$(t4 advance_timeline_lost median)"
check "taprio report, probe pass: the gate decisions come from the probe pass's packets" "1 1" \
	"$(jq -r '[.metrics[] | select(.name == "violations_at_dequeue" and .params.tc == "1")][0] | "\(.median) \(.counts.packets_seen_by_probe)"' "$tp4/summary.json")"
check "taprio report, probe pass: the timeline figure is drawn from it" yes \
	"$([ -s "$tp4/advance-timeline.csv" ] && [ -s "$tp4/gate-marks.csv" ] && echo yes || echo no)"
# isochron against our sender, in 6 rounds a side of 20 frames, each round's
# latencies shifted by its host load: the ratio's interval resamples whole
# rounds (the frames of one round share its host load: not independent)
tp3=$tmp/taprio-isochron
mkdir -p "$tp3"
cp "$tp/run.json" "$tp/packets.csv" "$tp3/"
echo "scheduled_ns,wake_ns,tx_ns,rx_ns,hw_tx_ns,hw_rx_ns,sched_ns,tc,round" >"$tp3/isochron.csv"
for k in 1 2 3 4 5 6; do
	mkdir -p "$tp3/like-isochron-errq/round-$k"
	cp "$tp/run.json" "$tp3/like-isochron-errq/round-$k/"
	echo "tc,seq,size,wake_ns,sched_ns,tx_ns,rx_ns" >"$tp3/like-isochron-errq/round-$k/packets.csv"
	for ((i = 0; i < 20; i++)); do
		c=$((B + (k * 100 + i) * 10000000))
		echo "0,$i,64,$((c + 100000)),$((c + 110000)),$((c + 100000 + 100000 + k * 3000 + i * 100)),$((c + 400000))" \
			>>"$tp3/like-isochron-errq/round-$k/packets.csv"
		echo "$((c + 90000)),$((c + 100000)),$((c + 100000 + 100000 + (7 - k) * 3000 + i * 100)),$((c + 400000)),0,0,$((c + 110000)),0,$k" \
			>>"$tp3/isochron.csv"
	done
done
"$root/build/taprio" report --out "$tp3" 2>"$tmp/tp3.err" >/dev/null && rc=0 || rc=$?
check "taprio report on the isochron rounds exits 0" 0 "$rc"
check "taprio report: isochron_latency_ratio's interval resamples whole rounds (6 a side)" \
	"cluster bootstrap 6 6" \
	"$(jq -r '.metrics[] | select(.name == "isochron_latency_ratio") | "\(.ci95.method) \(.counts.rounds_ours) \(.counts.rounds_isochron)"' "$tp3/summary.json")"
# The same schedule, 1000 packets of class 0 one a cycle (10 s: 20 blocks of
# 0.5 s), the 10 outside their window all in the first 10 cycles (one
# stall): in_window_pct's interval is Wilson on the blocks' effective n,
# wider than plain Wilson on 990 of 1000 ([0.98169, 0.99456])
tp2=$tmp/taprio-clustered
mkdir -p "$tp2"
cp "$tp/run.json" "$tp2/"
{
	echo "tc,seq,size,wake_ns,sched_ns,tx_ns,rx_ns"
	for ((i = 0; i < 1000; i++)); do
		c=$((B + i * 10000000))
		tx=$((c + (i < 10 ? 3500000 : 200000)))
		echo "0,$i,64,$((c + 100000)),$((c + 150000)),$tx,$((tx + 100000))"
	done
} >"$tp2/packets.csv"
"$root/build/taprio" report --out "$tp2" 2>"$tmp/tp2.err" >/dev/null && rc=0 || rc=$?
check "taprio report on the clustered packets exits 0" 0 "$rc"
check "taprio report: 10 of 1000 packets outside their window, in one stall: in_window_pct 99 %" 99 \
	"$(jq -r '.metrics[] | select(.name == "in_window_pct") | .median' "$tp2/summary.json")"
check "taprio report: its interval is Wilson on the effective n of the half-second blocks, wider than plain Wilson" \
	"Wilson, clusters' design effect true true" \
	"$(jq -r '.metrics[] | select(.name == "in_window_pct") | .ci95 | "\(.method) \(.lo < 98.169) \(.hi > 99.456)"' "$tp2/summary.json")"
check "taprio report: class 1's packet with no TX timestamp is shown (no_timestamp)" 1 \
	"$(tf no_timestamp 1 median)"
check "taprio report: class 1's target is NOT MET by its packet with no TX timestamp" "false 1" \
	"$(jq -r '.[] | select(.target | startswith("class 1:")) | [.met, .measured] | map(tostring) | join(" ")' "$tp/targets.json")"
ta() { jq -r --arg n "$1" --arg f "$2" '[.metrics[] | select(.name == $n)][0] | .[$f] | tostring' "$tp/summary.json"; }
check "taprio report: advance lateness counts every advance, the 2 early ones too, not the 2 printed" 8 \
	"$(ta advance_lateness_us n)"
check "taprio report: each advance at its bucket's middle, an early one at 0 (median of 0 x2, 4.5 x3, 154.5, 2049.5, 1e6)" 4.5 \
	"$(ta advance_lateness_us median)"
check "taprio report: advances_early counts them" 2 "$(ta advances_early median)"
check "taprio report: the advance CDF starts with the early ones at 0 us" "0,0.250000,8" \
	"$(sed -n 2p "$tp/advance.csv")"
check "taprio report: an advance beyond the histogram counted at its lower bound" 1000000 \
	"$(ta advance_lateness_us max)"
check "taprio report: the timeline lost 6 of the 8 advances" 6 "$(ta advance_timeline_lost median)"
check "taprio report: bpftrace's own lost-event count is shown" 3 \
	"$(jq -r '[.metrics[] | select(.name == "advance_timeline_lost")][0].counts.bpftrace_lost_events' "$tp/summary.json")"
check "taprio report: the timeline's counts ride in counts, its params are what it was measured at" \
	'{"probe":"tracepoint","schedule":"three-class-10ms.sched"} {"advances":8,"bpftrace_lost_events":3,"printed":2}' \
	"$(jq -c -S '[.metrics[] | select(.name == "advance_timeline_lost")][0] | .params, .counts' "$tp/summary.json" | paste -sd ' ')"
check "taprio report: packets_seen_by_probe in violations_at_dequeue's counts, not its params" "2 null" \
	"$(jq -r '[.metrics[] | select(.name == "violations_at_dequeue" and .params.tc == "0")][0] | [.counts.packets_seen_by_probe, .params.packets_seen_by_probe] | map(tostring) | join(" ")' "$tp/summary.json")"
check "taprio report: no offset is called a sync figure (one oscillator)" 0 \
	"$(jq -r '[.metrics[] | select(.name == "sync_offset_ns")] | length' "$tp/summary.json")"
check "taprio report: gate lateness from the record's schedule (TX minus the gate's opening at or after the qdisc, open then: 50 and 150 us)" 100 \
	"$(tf gate_lateness_us 0 median)"
check "taprio report: a packet enqueued while its gate was closed is late from the gate's opening (3 ms)" 1000 \
	"$(tf gate_lateness_us 1 median)"
check "taprio report: a packet with no TX timestamp has no sender latency" 1 \
	"$(tf sender_latency_us 1 n)"
check "taprio report: summary.json carries its format_version" 2 \
	"$(jq -r .format_version "$tp/summary.json")"
check "taprio report: gates.csv, the windows of three cycles (3 entries of one class each, and the header)" "tc,entry,start_ms,end_ms 10" \
	"$(head -1 "$tp/gates.csv") $(grep -c '' "$tp/gates.csv")"
check "taprio report: gate-marks.csv, the TX outside its window and the probe's 3 gate decisions" "1 3" \
	"$(grep -c '^outside,0,13.100000$' "$tp/gate-marks.csv") $(grep -c '^decision,' "$tp/gate-marks.csv")"
check "taprio report: latency.csv, class 0's gate lateness as a CDF of the packets sent" "0,gate_lateness,50.000,0.500000 0,gate_lateness,150.000,1.000000 " \
	"$(grep '^0,gate_lateness,' "$tp/latency.csv" | tr '\n' ' ')"
check "taprio report: advance.csv, the histograms' CDF, each bucket at its upper end" "10,0.625000,8" \
	"$(sed -n 3p "$tp/advance.csv")"
cp "$tp/summary.json" "$tmp/taprio-first.json"
"$root/build/taprio" report --out "$tp" 2>/dev/null >/dev/null
check "taprio report run again on its own output: the same summary.json" same \
	"$(cmp -s "$tmp/taprio-first.json" "$tp/summary.json" && echo same)"

# --- report is a function of the run folder: run again, the same figures -----
# Each workload's raw files (tests/fixtures/raw/: a real run's, trimmed;
# taprio's the fixture above) through its report once, then again by
# bench/rereport.sh on a copy: the same metrics, status and targets
make -s -C "$root" build/bpfqs build/routedump build/ledjitter build/noise >/dev/null
rr=$tmp/rerun
mkdir -p "$rr/run"
cp -r "$tp" "$rr/run/taprio"
for w in bpfqs routedump ledjitter noise; do
	cp -r "$root/tests/fixtures/raw/$w" "$rr/run/$w"
	"$root/build/$w" report --out "$rr/run/$w" >/dev/null 2>&1 && rc=0 || rc=$?
	check "$w report of a real run's raw files" 0 "$rc"
done
"$root/bench/rereport.sh" "$rr/run" "$rr/again" >"$rr/out" 2>&1 && rc=0 || rc=$?
check "bench/rereport.sh: each workload's report reproduces its figures" 0 "$rc"
for w in bpfqs ledjitter noise routedump taprio; do
	check_has "$w: report run again gives the same summary.json metric for metric" "$rr/out" \
		"$w: same, $(jq '.metrics | length' "$rr/run/$w/summary.json") metrics"
done
# and it sees a difference: one statistic of one metric changed
jq '.metrics[0].median += 1' "$rr/run/bpfqs/summary.json" >"$rr/s.json"
mv "$rr/s.json" "$rr/run/bpfqs/summary.json"
"$root/bench/rereport.sh" "$rr/run" "$rr/again2" >"$rr/out2" 2>&1 && rc=0 || rc=$?
check "bench/rereport.sh with a metric that differs: exit 1" 1 "$rc"
check_has "bench/rereport.sh names the workload and the metric that differ" "$rr/out2" \
	"bpfqs: DIFFERS: metrics: 2 lines differ"

# --- taprio report of a tuning sweep (tune.json): the variants measured -------
# window-tc0-x1: the packets of the fixture above; window-tc0-x0.5: failed
ts=$tmp/taprio-tune
sched=$root/workloads/taprio/schedules/three-class-10ms.sched
mkdir -p "$ts/tune/window-tc0-x1" "$ts/tune/window-tc0-x1.5/round-1" "$ts/tune/window-tc0-x1.5/round-2"
cp "$tp/packets.csv" "$tp/run.json" "$ts/tune/window-tc0-x1/"
# window-tc0-x1.5: measured in 2 rounds of the sweep (today's layout), each the fixture's packets
for k in 1 2; do
	cp "$tp/packets.csv" "$tp/run.json" "$ts/tune/window-tc0-x1.5/round-$k/"
done
"$root/build/taprio" variant --tc 0 --scale 0.5 "$sched" >"$tmp/half.sched"
jq -n --slurpfile s <("$root/build/taprio" check --json "$sched") \
	--slurpfile h <("$root/build/taprio" check --json "$tmp/half.sched") \
	'{format_version: 1, program: "taprio", verb: "tune", schedule_name: "my.sched", schedule: $s[0],
	  bound_us: 1000, count: 2, rate: 100, variants: [
	    {name: "window-tc0-x1", kind: "window", tc: "0", scale: "1", schedule: $s[0], status: "ok"},
	    {name: "window-tc0-x1.5", kind: "window", tc: "0", scale: "1.5", schedule: $s[0], status: "ok", rounds: 2},
	    {name: "window-tc0-x0.5", kind: "window", tc: "0", scale: "0.5", schedule: $h[0],
	     status: "failed", reason: "refusing to measure"}]}' >"$ts/tune.json"
"$root/build/taprio" report --out "$ts" >/dev/null 2>&1 && rc=0 || rc=$?
check "taprio report of a tuning sweep" 0 "$rc"
check "taprio report of a sweep: the measured variant's figures, named by the variant" \
	"window-tc0-x1:0=1 window-tc0-x1:1=0 window-tc0-x1.5:0=2 window-tc0-x1.5:1=0" \
	"$(jq -r '[.metrics[] | select(.name == "violations") | .params.schedule + ":" + .params.tc + "=" + (.median | tostring)] | join(" ")' "$ts/summary.json")"
check_has "tune.csv: the variant not measured has its windows (from tune.json) and no figures" "$ts/tune.csv" \
	"window,0,0.5,1500,8500,,,,,"
check_has "tune.csv: the measured variant's figures" "$ts/tune.csv" \
	"window,0,1,3000,10000,2,1,50.000,9.453,90.547,90.547,,,,100.000"
check_has "tune.csv: a variant of 2 rounds pools them, and counts the rounds with a packet outside" "$ts/tune.csv" \
	"window,0,1.5,3000,10000,4,2,50.000,"
check "tune.csv: its rounds, and the 2 with a packet not shown inside" "2,2" \
	"$(grep '^window,0,1.5,' "$ts/tune.csv" | awk -F, '{ print $(NF - 1) "," $NF }')"
check_has "tune-recommendation.txt names the schedule and the bound of tune.json" "$ts/tune-recommendation.txt" \
	"schedule: my.sched; bound: p99 gate lateness <= 1000 us"

# --- taprio tune-report: the recommendation on intervals ----------------------
# window-tc0-x0.5: every packet inside, too few packets for a p99 (judged on
# its violations alone); x0.25: not measured (no summary.json); x0.75: 2 of
# 400 with no TX timestamp (so x0.5 is not recommended: a longer window
# fails); x1: every figure, its p99 interval within the bound; x1.5: the
# same; window-tc1-x1: no gate_lateness_us metric at all (judged on its
# violations alone, never taken for 0 us)
tu=$tmp/tune-run
sched=$root/workloads/taprio/schedules/three-class-10ms.sched
for v in window-tc0-x0.25:0:0.25 window-tc0-x0.5:0:0.5 window-tc0-x0.75:0:0.75 window-tc0-x1:0:1 window-tc0-x1.5:0:1.5 window-tc1-x1:1:1; do
	IFS=: read -r name tc scale <<<"$v"
	mkdir -p "$tu/tune/$name"
	"$root/build/taprio" variant --tc "$tc" --scale "$scale" "$sched" >"$tu/tune/$name/schedule.sched"
done
# in_window_pct as taprio report writes it: an estimate (median the %, no mean)
tmetric() { # tmetric NAME TC N MEDIAN P99 [LO HI]: LO HI its ci95
	jq -nc --arg n "$1" --arg tc "$2" --argjson k "$3" --argjson m "$4" --argjson p "$5" \
		--argjson lo "${6:-null}" --argjson hi "${7:-null}" \
		'{name: $n, params: {tc: $tc, schedule: "s"}, unit: "x", n: $k, median: $m, mean: $m,
		  stddev: 0, min: $m, max: $m, p99: $p}
		 | if $lo != null then .ci95 = {lo: $lo, hi: $hi, of: "x", method: "x"} else . end
		 | if $n == "in_window_pct" then .mean = null | .stddev = null | .min = null | .max = null else . end'
}
{
	tmetric in_window_pct 0 50 100 null
	tmetric violations 0 1 0 null
	tmetric gate_lateness_us 0 50 5 null
} | summary "$tu/tune" window-tc0-x0.5 ok
# x0.75: no packet outside, but 2 of 200 with no TX timestamp: not all shown inside
{
	tmetric in_window_pct 0 400 99.5 null 98.2 99.9
	tmetric violations 0 1 0 null
	tmetric gate_lateness_us 0 398 10 40
	tmetric gate_lateness_p99_us 0 398 40 null 30 60
} | summary "$tu/tune" window-tc0-x0.75 ok
for x in 1 1.5; do
	{
		tmetric in_window_pct 0 400 100 null 99.05 100
		tmetric violations 0 1 0 null
		tmetric gate_lateness_us 0 400 10 40
		tmetric gate_lateness_p99_us 0 400 40 null 30 60
	} | summary "$tu/tune" "window-tc0-x$x" ok
done
{
	tmetric in_window_pct 1 200 100 100
	tmetric violations 1 1 0 null
} | summary "$tu/tune" window-tc1-x1 ok
"$root/build/taprio" tune-report --out "$tu" --bound-us 1000 --name my.sched "$sched" \
	2>"$tmp/tune.err" && rc=0 || rc=$?
check "taprio tune-report on a fixture sweep" 0 "$rc"
check_has "tune-report: class 0's window is the shortest that passes with every longer one passing (not x0.5: x0.75 fails), its violations' upper bound and p99 interval given" \
	"$tu/tune-recommendation.txt" "class 0: shortest window that passes, every longer one passing too: 3000 us (scale 1): 0 of 400 packets outside (at most 1.0%, 95%), p99 gate lateness 40 us [30, 60]"
check_has "tune-report: the shorter windows whose intervals overlap it are named" \
	"$tu/tune-recommendation.txt" "  cannot be told apart (their 95% intervals overlap) from window 1500 us (scale 0.5): 0 of 50 packets outside (no interval), too few packets for a p99"
check_has "tune-report: each of them" \
	"$tu/tune-recommendation.txt" "  and window 2250 us (scale 0.75): 0 of 400 packets outside (at most 1.8%, 95%), p99 gate lateness 40 us [30, 60]"
check_has "tune-report: a variant without a gate lateness metric is judged on its violations alone, not taken for 0 us" \
	"$tu/tune-recommendation.txt" "class 1: shortest window that passes, every longer one passing too: 3000 us (scale 1): 0 of 200 packets outside (no interval), too few packets for a p99 with its interval (368 needed): judged on its violations alone"
check_has "tune-report names the schedule as given (--name)" "$tu/tune-recommendation.txt" \
	"schedule: my.sched;"
check "tune.csv: a header and one line a variant and class" 7 "$(grep -c '' "$tu/tune.csv")"
check_has "tune.csv: a p99 the variant does not have is an empty field" "$tu/tune.csv" \
	"window,0,0.5,1500,8500,50,0,100.000,,,,,,,5.000"
check_has "tune.csv: the intervals of in_window and of the p99, and the violations' upper bound" "$tu/tune.csv" \
	"window,0,1,3000,10000,400,0,100.000,99.050,100.000,0.950,40.000,30.000,60.000,10.000"
check_has "tune.csv: a variant not measured has its windows and no figures" "$tu/tune.csv" \
	"window,0,0.25,750,7750,,,,,"

# --- groups of runs: one run per boot (bench/compare.sh, build/labcompare) ------
make -s -C "$root" build/labcompare >/dev/null
g=$tmp/results/fix-ab
mkdir -p "$g"
printf 'ab_id=fix-ab\nasked=\n' >"$g/ab.env"
# per boot: "planted" is 1.5 times slower on side B, "same" is not, "count"
# differs but is a count; each boot's samples move a little with the boot
for i in 1 2 3; do
	for side in a b; do
		f=1
		[ "$side" = a ] || f=1.5
		# the host's load while the workloads ran: others used 3-5 % of the
		# host's CPU during A's boots, 40-42 % during B's
		meta "$g/$side$i" "$side$i" ".workloads = [\"w\"] | .host_load.workloads.others_pct_median = $([ "$side" = a ] && echo $((2 + i)) || echo $((39 + i)))"
		d=$(((i * 7 + ${#side}) % 5))
		# shellcheck disable=SC2046 # the sample lists are split on purpose
		{
			metric planted '{}' ns $(for k in 1 2 3; do awk -v f="$f" -v d="$d" -v k="$k" 'BEGIN {print f * (100 + d + k)}'; done)
			metric same '{}' ns $((100 + d)) $((101 + d)) $((102 + d))
			metric count '{}' packets $i $i $i
			# measured by a kprobe on side A, a tracepoint on side B
			metric probed '{}' us $((100 + d)) $((101 + d)) $((102 + d)) |
				jq -c --arg p "$([ "$side" = a ] && echo kprobe || echo tracepoint)" '.conditions = {probe: $p, clock: "free"}'
		} | summary "$g/$side$i" w ok
	done
done
"$root/bench/compare.sh" "$g" >"$tmp/groups.out" 2>"$tmp/err" && rc=0 || rc=$?
check "compare of an ab folder exits 0" 0 "$rc"
cj=$g/compare.json
check "groups: a planted x1.5 over 3 boots a side is found changed" true \
	"$(jq -r '.metrics[] | select(.name == "planted") | .changed' "$cj")"
check "groups: its %change is +50" 50 \
	"$(jq -r '.metrics[] | select(.name == "planted") | .change_pct | round' "$cj")"
check "groups: an unchanged metric is not changed, and says why" "false q >= 0.05" \
	"$(jq -r '.metrics[] | select(.name == "same") | [.changed, .why] | join(" ")' "$cj")"
check "groups: an unchanged metric says the smallest change the comparison could have seen" yes \
	"$(jq -r '.metrics[] | select(.name == "same") | if .detectable_pct > 0 then "yes" else "no: \(.detectable_pct)" end' "$cj")"
check "groups: a changed metric has none (it was seen)" null \
	"$(jq -r '.metrics[] | select(.name == "planted") | .detectable_pct' "$cj")"
check_has "compare.txt: 'none > X% seen' beside the unchanged metric" "$g/compare.txt" "q >= 0.05; none > "
check_has "compare.txt: the time split of the comparison's boots" "$g/compare.txt" "time: 6 boots, "
check "compare.json: the time split, its parts adding up to the total" yes \
	"$(jq -r '.time_seconds | if ((([to_entries[] | select(.key != "total") | .value] | add) - .total) | fabs) < 0.01 then "yes" else "no: \(.)" end' "$cj")"
check_cmd "the figure of what the comparison could not see" test -s "$g/compare-detectable.png"
check_has "compare.md: what it could not see, before the figures of the changes" "$g/compare.md" "## What it could not see"
check_has "compare.txt: a warning when the sides' host load differs beyond their spread" "$g/compare.txt" \
	"warning: the host's load differs between the sides beyond their spread: others used 3-5 % of the host's CPU during A's boots, 40-42 % during B's"
check "groups: a metric measured under other conditions on each side is not comparable, and says what differs" \
	"false null not comparable: probe: kprobe and tracepoint" \
	"$(jq -r '.metrics[] | select(.name == "probed") | "\(.comparable) \(.change_pct) \(.why)"' "$cj")"
check_has "compare.txt counts the metrics not comparable apart" "$g/compare.txt" "1 not comparable (measured under different conditions)"
check "groups: a count gets no p-value" "a count or a single figure: no p-value" \
	"$(jq -r '.metrics[] | select(.name == "count") | .why' "$cj")"
check "groups: the changed metric comes first" planted "$(jq -r '.metrics[0].name' "$cj")"
check_has "compare.txt says the boots a side" "$g/compare.txt" "3 boot(s) in A, 3 in B"
check_has "compare.md of the ab folder: the change found first" "$g/compare.md" \
	"## Changes found (1), ranked by effect"
check_cmd "the ab folder gets the figures" test -s "$g/compare-w.planted.png"
check "figure CSV of the planted change: +50, changed" "(no params),50,1" \
	"$(sed -n 2p "$g/compare-w.planted.csv" | cut -d, -f1,2,5)"
"$root/bench/compare.sh" "$g/a1,$g/a2" "$g/b1,$g/b2" "$tmp/two-lists" >/dev/null 2>&1 && rc=0 || rc=$?
check "compare of two lists of runs exits 0" 0 "$rc"
check "two lists of two: 2 boots a side" "2 2" \
	"$(jq '[.boots_a, .boots_b] | join(" ")' "$tmp/two-lists/compare.json" | tr -d '"')"
"$root/bench/compare.sh" "$g/a1," "$g/b1" >/dev/null 2>&1 && rc=0 || rc=$?
check "a trailing comma in a list is ignored" 0 "$rc"

# --- one frame lost does not split a metric: counts are no part of its key ------
# two boots of the taprio fixture above; on the second the probe lost the
# line of one packet's gate decision and printed one advance fewer
lf=$tmp/results/lost-frame
for i in 1 2; do
	mkdir -p "$lf/r$i"
	cp -r "$tp" "$lf/r$i/taprio"
	rm -f "$lf/r$i/taprio/summary.json" "$lf/r$i/taprio/targets.json"
	meta "$lf/r$i" "r$i" '.workloads = ["taprio"]'
done
sed -i "/^tx,,,0,106,,$((B + 180000)),/d; /^advance,1,/d" "$lf/r2/taprio/probe-taprio_gate.csv"
for i in 1 2; do
	"$root/build/taprio" report --out "$lf/r$i/taprio" >/dev/null 2>&1
done
# cnt RUN METRIC COUNT: a count of class 0's (or the one) metric
cnt() { jq -r --arg n "$2" --arg k "$3" '[.metrics[] | select(.name == $n and (.params.tc // "0") == "0")][0].counts[$k]' "$1/taprio/summary.json"; }
check "lost frame: the boots' counts differ (packets the probe saw, advances printed)" "2 1 2 1" \
	"$(cnt "$lf/r1" violations_at_dequeue packets_seen_by_probe) $(cnt "$lf/r2" violations_at_dequeue packets_seen_by_probe) $(cnt "$lf/r1" advance_timeline_lost printed) $(cnt "$lf/r2" advance_timeline_lost printed)"
mkdir -p "$lf/cmp" "$lf/cmp1"
"$root/build/labcompare" --a "$lf/r1" --b "$lf/r2" --out "$lf/cmp" >/dev/null 2>&1 && rc=0 || rc=$?
check "labcompare of the two boots exits 0" 0 "$rc"
check "lost frame: every metric (with a median) has one key, none only in A or B" \
	"0 $(jq '[.metrics[] | select(.median | type == "number")] | length' "$lf/r1/taprio/summary.json")" \
	"$(jq -r '[([.metrics[] | select(.why | test("missing in"))] | length), (.metrics | length)] | map(tostring) | join(" ")' "$lf/cmp/compare.json")"
# the first boot's summary as format 1 wrote it: the counts among the params
jq '.format_version = 1 | .metrics |= map(if .counts then .params += (.counts | map_values(if . == null then "not reported" else tostring end)) | del(.counts) else . end)' \
	"$lf/r1/taprio/summary.json" >"$lf/v1.json"
mv "$lf/v1.json" "$lf/r1/taprio/summary.json"
check "format 1 fixture: the counts are params" 2 \
	"$(jq -r '[.metrics[] | select(.name == "violations_at_dequeue" and .params.tc == "0")][0].params.packets_seen_by_probe' "$lf/r1/taprio/summary.json")"
"$root/build/labcompare" --a "$lf/r1" --b "$lf/r2" --out "$lf/cmp1" >/dev/null 2>&1
check "labcompare of a format 1 run and a format 2 run: the count params are no key either" 0 \
	"$(jq '[.metrics[] | select(.why | test("missing in"))] | length' "$lf/cmp1/compare.json")"
"$root/bench/rereport.sh" "$lf/r1" "$lf/again" >"$lf/rereport.out" 2>&1 && rc=0 || rc=$?
check "bench/rereport.sh reads a format 1 run: its count params are the counts the report writes now" 0 "$rc"
check_has "bench/rereport.sh: the format 1 run's figures are the same" "$lf/rereport.out" "taprio: same, "

# labstat's own checks of bad input
echo "1 2 x 4" | "$LABSTAT" stats >/dev/null 2>"$tmp/err" && rc=0 || rc=$?
check "labstat stats with a non-number: exit 2" 2 "$rc"
check_has "labstat names the bad value" "$tmp/err" "'x' is not a number"

echo "1..$n"
echo "# $tap_passed passed, $tap_failed failed"
[ "$tap_failed" -eq 0 ]

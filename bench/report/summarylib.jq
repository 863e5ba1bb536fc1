# Functions on a summary.json (jq module: include "summarylib")
# The params of format 1 that were counts (bench/lib/output.h,
# OUT_V1_COUNT_PARAMS): format 2 writes them into the metric's "counts"
def v1_count_params: ["n_ours", "n_isochron", "advances", "printed", "bpftrace_lost_events",
	"packets_seen_by_probe", "rounds"];
# The metrics of a summary as format 2 has them: a format 1 summary's count
# params moved into counts (as numbers; "not reported" and the like null)
def metrics_v2: (.format_version // 1) as $v | .metrics[]
	| if $v >= 2 then . else
		(.params // {}) as $p
		| .params = ($p | with_entries(select(.key as $k | v1_count_params | index($k) | not)))
		| ($p | with_entries(select(.key as $k | v1_count_params | index($k))) | with_entries(.value = ((.value | tonumber?) // null)))
			as $c
		| if $c == {} then . else .counts = $c end
	end;

# Every metric of a summary.json as TSV: name, params, unit, n, median, the
# 95% interval's ends joined by \037, stddev in % of |mean|, min, max, p99
# ("null" for null)
.metrics[] | [.name, ((.params // {}) | to_entries | sort_by(.key)
	| map("\(.key)=\(.value)") | join(" ")), .unit, .n, .median,
	(.ci95 | if . == null then null else "\(.lo)\u001f\(.hi)" end),
	(if .stddev == null or .mean == null then null
	 elif .stddev == 0 then 0
	 elif .mean == 0 then null
	 else .stddev / (if .mean < 0 then -.mean else .mean end) * 100 end),
	.min, .max, .p99] | map(if . == null then "null" else tostring end) | @tsv

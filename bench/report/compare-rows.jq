# The metrics of compare.json as TSV: workload, metric, params, unit, boots
# A/B, median A, median B, %change, its 95% interval, q, CV A/B, verdict
# (changed, or why not and the smallest change it could have seen; "null"
# for null). $which: "changed" (those found changed) or "both"
# (those both sides have)
[.metrics[] | if $which == "changed" then select(.changed == true)
	else select(.boots_a > 0 and .boots_b > 0) end][]
| [.workload, .name,
	(.params | to_entries | map("\(.key)=\(.value | tostring)") | join(" ")),
	.unit, "\(.boots_a)/\(.boots_b)", .median_a, .median_b, .change_pct,
	(if .change_lo == null then "-" else "[\(.change_lo * 10 | round / 10), \(.change_hi * 10 | round / 10)]" end),
	.q, (if .cv_a == null then "-" else "\(.cv_a * 1000 | round / 10)%/\(.cv_b * 1000 | round / 10)%" end),
	(if .changed == true then "changed"
	 elif .detectable_pct != null then "\(.why); none > \(.detectable_pct * 10 | round / 10)% seen"
	 else .why end)]
| map(if . == null then "null" else tostring end) | @tsv

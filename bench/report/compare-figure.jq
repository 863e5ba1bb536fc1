# The CSV of one metric's figure from compare.json ($n: "workload.name"):
# params (";" for ","), %change, its interval, changed (1 or 0); NaN for null
"params,change,lo,hi,changed",
(.metrics[] | select("\(.workload).\(.name)" == $n and .change_pct != null) |
 [(.params | to_entries | map("\(.key)=\(.value | tostring)") | join(" ")
	| if . == "" then "(no params)" else gsub(","; ";") end),
  .change_pct, .change_lo, .change_hi, (if .changed then 1 else 0 end)]
 | map(if . == null then "NaN" else tostring end) | join(","))

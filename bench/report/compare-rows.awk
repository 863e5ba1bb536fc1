# The comparison's TSV (compare-rows.jq) for people (with fmt.awk)
function chg(x) { return x == "null" ? "-" : sprintf("%+.1f%%", x) }
{ print $1, $2, $3, $4, $5, fmt($6), fmt($7), chg($8), $9, fmt($10), $11, $12 }

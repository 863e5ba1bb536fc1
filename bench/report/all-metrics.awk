# The metrics' TSV (all-metrics.jq) for people (with fmt.awk)
{
	for (i = 4; i <= NF; i++) if (i != 6 && i != 7) $i = fmt($i)
	if ($6 == "null") $6 = "-"
	else { split($6, ci, "\037"); $6 = fmt(ci[1]) " to " fmt(ci[2]) }
	$7 = $7 == "null" ? "-" : sprintf("%.1f%%", $7)
	print
}

# The headlines' TSV (headlines.jq) for people: the value and its interval
# in one unit picked by the value's size (with fmt.awk and scale.awk)
{
	m = abs($4 == "null" ? 0 : $4)
	pick($7, m)
	ci = $5 == "null" ? "-" : sc($5) " to " sc($6)
	print $1, $2, $3, sc($4), ci, SU
}

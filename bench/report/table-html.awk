# A TSV table as HTML, the first line its header. Cells that look like
# numbers (or "X to Y" intervals) are right-aligned; cells starting with
# failed, missing, FAILED, "not ok" or "NOT MET" are in red, cells
# "significant" in bold blue.
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	return s
}
BEGIN { print "<table>" }
NR == 1 {
	printf "<tr>"
	for (i = 1; i <= NF; i++) printf "<th>%s</th>", esc($i)
	print "</tr>"
	next
}
{
	printf "<tr>"
	for (i = 1; i <= NF; i++) {
		c = ""
		if ($i ~ /^[-+]?[0-9.]+(e[-+]?[0-9]+)?%?$/) c = " class=\"num\""
		if ($i ~ /^[-+]?[0-9.]+(e[-+]?[0-9]+)? to [-+]?[0-9.]+(e[-+]?[0-9]+)?$/) c = " class=\"num\""
		if ($i ~ /^(failed|missing|FAILED|not ok|NOT MET)/) c = " class=\"bad\""
		if ($i == "significant") c = " class=\"sig\""
		printf "<td%s>%s</td>", c, esc($i)
	}
	print "</tr>"
}
END { print "</table>" }

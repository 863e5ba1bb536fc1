# A TSV table as Markdown, the first line its header, "|" escaped
function cell(s) { gsub(/\|/, "\\|", s); return s == "" ? " " : s }
{
	line = "|"
	for (i = 1; i <= NF; i++) line = line " " cell($i) " |"
	print line
	if (NR == 1) {
		line = "|"
		for (i = 1; i <= NF; i++) line = line "---|"
		print line
	}
}
END { print "" }

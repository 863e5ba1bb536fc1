# shellcheck shell=bash
# Helpers of bench/report.sh and bench/compare.sh: finding runs, formatting
# numbers, and writing one document as Markdown and self-contained HTML at
# the same time. Defines functions only; sources bench/lib.sh.

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LAB_RESULTS=${LAB_RESULTS:-$LAB_ROOT/results}

# resolve_run ARG: the directory of a run given as a path or as a run id
# under $LAB_RESULTS (e.g. "latest"); a usage error when neither exists
resolve_run() {
	if [ -d "$1" ]; then
		(cd -P -- "$1" && pwd)
	elif [ -n "$1" ] && [ "${1#*/}" = "$1" ] && [ -d "$LAB_RESULTS/$1" ]; then
		(cd -P -- "$LAB_RESULTS/$1" && pwd)
	else
		usage_error "run '$1' not found: not a directory, nor a run id in $LAB_RESULTS"
	fi
}

# meta_get RUN_DIR KEY: a key of the run's meta.json as text, empty if absent
# (arrays are joined with spaces)
meta_get() {
	[ -f "$1/meta.json" ] || return 0
	jq -r --arg k "$2" '.[$k] // empty | if type == "array" then join(" ") else tostring end' \
		"$1/meta.json" 2>/dev/null || true
}

# gnuplot_safe STRING: false when STRING has a quote or a backslash, which
# cannot go into a gnuplot -e "var='...'" string
gnuplot_safe() {
	case $1 in *[\'\\]*) return 1 ;; esac
}

# run_id_of RUN_DIR: run_id of meta.json, else the directory name
run_id_of() {
	local id
	id=$(meta_get "$1" run_id)
	printf '%s\n' "${id:-$(basename -- "$1")}"
}

# The jq and awk programs of the report and the comparison: bench/report/
REPORT_PROGS=$LAB_ROOT/bench/report

# report_jq NAME [ARG...]: jq -r with the program bench/report/NAME.jq
report_jq() {
	local prog=$1
	shift
	jq -r -f "$REPORT_PROGS/$prog.jq" "$@"
}

# report_awk NAME...: awk on TSV (stdin to stdout) with the programs
# bench/report/NAME.awk, in order (fmt and scale are libraries of the others)
report_awk() {
	local prog progs=()
	for prog in "$@"; do
		progs+=(-f "$REPORT_PROGS/$prog.awk")
	done
	awk -F '\t' -v OFS='\t' "${progs[@]}"
}

# --- one document in two formats ------------------------------------------
# doc_begin MD HTML TITLE: start the two files (private temporary paths)
doc_begin() {
	DOC_MD=$1
	DOC_HTML=$2
	printf '# %s\n\n' "$3" >"$DOC_MD"
	cat >"$DOC_HTML" <<EOF
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>$(html_escape "$3")</title>
<style>
body { font-family: sans-serif; max-width: 75em; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th { background: #f0f0f0; }
.bad { color: #b00; font-weight: bold; }
.sig { color: #05c; font-weight: bold; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }
img { max-width: 100%; border: 1px solid #ddd; }
table { max-width: 100%; }
td { overflow-wrap: break-word; }
.finding { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.finding > div { flex: 1 1 auto; max-width: 100%; }
.finding > figure { flex: 0 1 32em; margin: 0; }
figcaption { font-size: 0.9em; color: #444; }
details > summary { cursor: pointer; color: #05c; margin: 0.3em 0; }
@media print {
  body { max-width: none; margin: 0; font-size: 10pt; }
  details > * { display: block; }
  img, table, figure { break-inside: avoid; }
}
</style></head><body>
<h1>$(html_escape "$3")</h1>
EOF
}

doc_end() {
	printf '</body></html>\n' >>"$DOC_HTML"
}

html_escape() {
	printf '%s' "$1" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}

# doc_h LEVEL TEXT
doc_h() {
	printf '%s %s\n\n' "$(printf '%*s' "$1" '' | tr ' ' '#')" "$2" >>"$DOC_MD"
	printf '<h%d>%s</h%d>\n' "$1" "$(html_escape "$2")" "$1" >>"$DOC_HTML"
}

# doc_p TEXT: a paragraph; text starting with "warning:", "error:" or
# "FAILED" is shown in bold red
doc_p() {
	case $1 in
	warning:* | error:* | FAILED* | failed* | missing*)
		printf '**%s**\n\n' "$1" >>"$DOC_MD"
		printf '<p class="bad">%s</p>\n' "$(html_escape "$1")" >>"$DOC_HTML"
		;;
	*)
		printf '%s\n\n' "$1" >>"$DOC_MD"
		printf '<p>%s</p>\n' "$(html_escape "$1")" >>"$DOC_HTML"
		;;
	esac
}

# doc_pre < TEXT: preformatted text
doc_pre() {
	local text
	text=$(cat)
	printf '%s\n%s\n%s\n\n' '```text' "$text" '```' >>"$DOC_MD"
	printf '<pre>%s</pre>\n' "$(html_escape "$text")" >>"$DOC_HTML"
}

# doc_table < TSV: a table, the first line is the header. Cells that look
# like numbers are right-aligned; cells starting with failed, missing,
# FAILED, "not ok" or "NOT MET" are shown in red, cells "significant" in bold blue.
doc_table() {
	local tsv
	tsv=$(cat)
	printf '%s\n' "$tsv" | report_awk table-md >>"$DOC_MD"
	printf '%s\n' "$tsv" | report_awk table-html >>"$DOC_HTML"
}

# doc_raw HTML: a piece of HTML layout (nothing in Markdown)
doc_raw() {
	printf '%s\n' "$1" >>"$DOC_HTML"
}

# doc_details_begin SUMMARY / doc_details_end: fold what is between (a long
# table); Markdown gets the same <details> element, which GitHub renders
doc_details_begin() {
	printf '<details><summary>%s</summary>\n\n' "$(html_escape "$1")" >>"$DOC_MD"
	printf '<details><summary>%s</summary>\n' "$(html_escape "$1")" >>"$DOC_HTML"
}
doc_details_end() {
	printf '</details>\n\n' >>"$DOC_MD"
	printf '</details>\n' >>"$DOC_HTML"
}

# doc_img FILE DIR [CAPTION]: a PNG; Markdown links it relative to DIR
# (where the .md file lives), HTML embeds it as a data URI and links the SVG
# beside it; the caption says what to look for
doc_img() {
	local file=$1 rel=${1#"$2"/} cap=${3:-} name svg_md='' svg_html=''
	name=$(basename -- "$file" .png)
	if [ -f "${file%.png}.svg" ]; then
		svg_md=" ([SVG](${rel%.png}.svg))"
		svg_html=" (<a href=\"$(html_escape "${rel%.png}.svg")\">SVG</a>)"
	fi
	printf '![%s](%s)%s\n\n' "$name" "$rel" "$svg_md" >>"$DOC_MD"
	[ -z "$cap" ] || printf '*%s*\n\n' "$cap" >>"$DOC_MD"
	printf '<figure><img alt="%s" src="data:image/png;base64,%s"><figcaption>%s%s%s</figcaption></figure>\n' \
		"$(html_escape "$name")" "$(base64 -w0 <"$file")" "${cap:+$(html_escape "$cap") }" \
		"$(html_escape "$rel")" "$svg_html" >>"$DOC_HTML"
}

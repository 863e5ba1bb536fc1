#!/bin/bash
# Render a report.html in headless Chromium at a laptop's 1366x768 and
# measure its layout from inside the page: where the findings start, whether
# every image loaded, and whether any table runs past the page's width.
# Prints one line: "findings_top=PX first_table_top=PX images=N broken=N
# wide_tables=N overlaps=N page_width=PX" (overlaps: findings whose tables
# run into their figure); with OUT_PNG also saves a screenshot of the
# first screen (for a person to look at).
# usage: tests/report/render.sh REPORT_HTML [OUT_PNG]
set -eu
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
	echo "usage: $0 REPORT_HTML [OUT_PNG] (no file '${1:-}')" >&2
	exit 2
fi
command -v chromium >/dev/null || {
	echo "error: chromium is not installed (make deps installs it)" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
# a copy of the page with a measuring script, so the report itself stays script-free
sed 's#</body></html>##' "$1" >"$tmp/page.html"
cat >>"$tmp/page.html" <<'HTML'
<script>
window.addEventListener('load', () => {
	const h2 = [...document.querySelectorAll('h2')].find(h => h.textContent === 'Findings');
	let t = h2 || null, w = document.documentElement.clientWidth;
	while (t && (t.tagName !== 'H2' || t === h2)) {
		if (t.querySelector && (t.tagName === 'TABLE' || t.querySelector('table'))) break;
		t = t.nextElementSibling;
	}
	const table = t && (t.tagName === 'TABLE' ? t : t.querySelector('table'));
	const img = [...document.images];
	const wide = [...document.querySelectorAll('table')].filter(x => x.getBoundingClientRect().right > w + 1);
	// a findings block whose tables run into its figure
	const overlaps = [...document.querySelectorAll('.finding')].filter(f => {
		const fig = f.querySelector('figure'), r = fig && fig.getBoundingClientRect();
		return r && [...f.querySelectorAll('table')].some(t => {
			const q = t.getBoundingClientRect();
			return q.right > r.left + 1 && q.left < r.right && q.bottom > r.top && q.top < r.bottom;
		});
	});
	const top = e => e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1;
	const pre = document.createElement('pre');
	pre.id = 'lab-layout';
	pre.textContent = 'findings_top=' + top(h2) + ' first_table_top=' + top(table) +
		' images=' + img.length + ' broken=' + img.filter(i => !i.complete || i.naturalWidth === 0).length +
		' wide_tables=' + wide.length + ' overlaps=' + overlaps.length + ' page_width=' + w;
	document.body.appendChild(pre);
});
</script></body></html>
HTML
# shellcheck disable=SC2054 # the comma is chromium's WIDTH,HEIGHT
chrome=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1366,768
	--user-data-dir="$tmp/profile" --virtual-time-budget=3000)
if ! "${chrome[@]}" --dump-dom "file://$tmp/page.html" >"$tmp/dom" 2>"$tmp/err"; then
	echo "error: chromium failed on $1; its stderr:" >&2
	tail -n 5 "$tmp/err" >&2
	exit 1
fi
sed -n 's/.*<pre id="lab-layout">\([^<]*\)<\/pre>.*/\1/p' "$tmp/dom" >"$tmp/out"
if [ ! -s "$tmp/out" ]; then
	echo "error: chromium gave no layout line for $1; its stderr:" >&2
	tail -n 5 "$tmp/err" >&2
	exit 1
fi
cat "$tmp/out"
if [ $# -ge 2 ]; then
	"${chrome[@]}" --screenshot="$2" "file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" 2>/dev/null ||
		{ echo "error: chromium could not take the screenshot $2" >&2; exit 1; }
fi

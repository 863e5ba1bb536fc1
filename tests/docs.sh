#!/bin/bash
# The README against the tree, as TAP: a newcomer's page (at most 150 lines),
# its layout table naming only what exists (each folder, and each file the
# table names in it) and every top-level folder; every docs/ page linked from
# it and every link leading to a page.
set -eu

. "$(dirname "$0")/../bench/lib.sh"
cd "$LAB_ROOT"

# shellcheck source=tests/tap.sh
. "$LAB_ROOT/tests/tap.sh"

check "README.md is at most 150 lines" yes "$([ "$(wc -l <README.md)" -le 150 ] && echo yes || echo "no: $(wc -l <README.md)")"

# the layout table: "| `path` | what, with `file` names |"
table=$(sed -n '/^## Layout/,/^## /p' README.md | grep '^| `')
check "README.md has a layout table" yes "$([ -n "$table" ] && echo yes || echo no)"
missing=()
while IFS= read -r row; do
	# shellcheck disable=SC2016 # backquotes of Markdown, not the shell's
	dir=$(sed 's/^| `\([^`]*\)`.*/\1/' <<<"$row")
	# workloads/<w>/: a name stands for any workload's folder
	dirs=()
	for d in ${dir//<w>/*}; do
		[ -d "$d" ] && dirs+=("${d%/}")
	done
	if [ "${#dirs[@]}" -eq 0 ]; then
		missing+=("$dir")
		continue
	fi
	# the files and folders the row names (a word with a dot or a slash;
	# bench/lib's C modules are named without .c)
	# shellcheck disable=SC2016 # backquotes of Markdown
	for f in $(cut -d'|' -f3 <<<"$row" | grep -o '`[^`]*`' | tr -d '`'); do
		# not a name: a word with other characters, an option, ".c"
		case "$f" in *[!A-Za-z0-9_./*-]* | -* | .*) continue ;; esac
		[[ "$f" == */* || "$f" == *.* || "$dir" == bench/lib/ ]] || continue
		found=no
		for d in "${dirs[@]}"; do
			# shellcheck disable=SC2086 # a name may be a glob (*.bpf.c)
			if compgen -G "$d/$f" >/dev/null || compgen -G "$d/$f.c" >/dev/null; then found=yes; fi
		done
		[ "$found" = yes ] || missing+=("$dir$f")
	done
done <<<"$table"
check "every path of the layout table exists" "" "${missing[*]}"
absent=()
for d in $(git ls-files | grep / | cut -d/ -f1 | sort -u); do
	case "$d" in .*) continue ;; esac
	grep -q "^| \`$d/" <<<"$table" || absent+=("$d/")
done
check "every top-level folder is in the layout table" "" "${absent[*]}"

# docs/: each page linked from the README, each link to a page that exists
unlinked=()
for f in docs/*.md; do
	grep -q "($f)" README.md || unlinked+=("$f")
done
check "every docs/ page is linked from README.md" "" "${unlinked[*]}"
dead=()
while IFS= read -r l; do
	[ -f "$l" ] || dead+=("$l")
done < <(grep -o '](docs/[^)]*)' README.md | sed 's/^](//; s/)$//' | sort -u)
check "every docs/ link of README.md leads to a page" "" "${dead[*]}"
echo "1..$n"

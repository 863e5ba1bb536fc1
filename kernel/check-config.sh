#!/bin/bash
# Check a built config against a fragment.
# usage: kernel/check-config.sh [--absent] FRAGMENT CONFIG
# CONFIG may be "-" for stdin (e.g. zcat /proc/config.gz in the guest).
#
# By default: every option the fragment asks for is what the config has.
# Prints each option that differs with what the config has instead.
# With --absent: no option the fragment sets (CONFIG_X=anything) is set in
# the config (for the debug fragment against the kernels measured). Prints
# each option the config has set.
# Exits 1 if any line was printed; exits 0 silently otherwise.
set -eu

absent=0
if [ "${1:-}" = --absent ]; then
	absent=1
	shift
fi
[ $# -eq 2 ] || {
	echo "usage: kernel/check-config.sh [--absent] FRAGMENT CONFIG" >&2
	exit 2
}
fragment=$1
config=$(cat "$2")
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*) opt=${line%%=*} ;;
	"# CONFIG_"*" is not set") opt=${line#\# } opt=${opt%% *} ;;
	*) continue ;;
	esac
	if [ "$absent" = 1 ]; then
		# only what the fragment sets; "is not set" asks for nothing here
		[[ "$line" != "#"* ]] || continue
		if have=$(grep -E "^$opt=" <<<"$config"); then
			echo "$opt: set in the config ('$have'), must be absent or not set"
			bad=1
		fi
		continue
	fi
	# An option that is not set may also be absent (its menu is off)
	if [[ "$line" == "#"* ]] && ! grep -qE "^$opt=" <<<"$config"; then
		continue
	fi
	if ! grep -qxF -- "$line" <<<"$config"; then
		have=$(grep -E "^$opt=|^# $opt is not set" <<<"$config" || echo "absent")
		echo "$opt: wanted '$line', have '$have'"
		bad=1
	fi
done <"$fragment"
exit "$bad"

#!/bin/bash
# Check that every option the fragment asks for is what the config has.
# usage: kernel/check-config.sh FRAGMENT CONFIG
# CONFIG may be "-" for stdin (e.g. zcat /proc/config.gz in the guest).
# Prints each option that differs with what the config has instead, and
# exits 1 if there is any; exits 0 silently when all are set.
set -eu

fragment=$1
config=$(cat "$2")
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*) opt=${line%%=*} ;;
	"# CONFIG_"*" is not set") opt=${line#\# } opt=${opt%% *} ;;
	*) continue ;;
	esac
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

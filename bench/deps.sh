#!/bin/bash
# Install the Debian packages the lab needs that are missing.
# usage: bench/deps.sh PACKAGE...
# As root: apt-get install (non-interactive). Otherwise: print the exact
# command and fail.
set -eu

missing=()
for p in "$@"; do
	st=$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "error: missing Debian packages: ${missing[*]}" >&2
	echo "run as root: apt-get update && $cmd" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # $cmd is a word list built above
$cmd -qq >&2

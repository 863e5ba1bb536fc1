#!/bin/bash
# Turn bpftrace's JSON output (bpftrace -f json) into CSV files.
# usage: bench/probe2csv.sh PROBE.json PREFIX
#   PREFIX.csv       the printf lines, as printed (scripts print CSV rows,
#                    with their header line printed in BEGIN)
#   PREFIX-maps.csv  maps at exit: map,key,low,high,value; histogram buckets
#                    have low/high bounds and the count as value, plain maps
#                    an empty low/high; and a last row lost_events,,,,N:
#                    the events bpftrace's reader reported lost (0: none)
set -eu

in=$1 prefix=$2
[ -f "$in" ] || {
	echo "error: no probe output $in" >&2
	exit 1
}
jq -r 'select(.type == "printf") | .data' "$in" | sed '/^$/d' >"$prefix.csv.tmp"
mv "$prefix.csv.tmp" "$prefix.csv"
{
	echo "map,key,low,high,value"
	jq -r '
		def rows($map; $key; $v):
			if ($v | type) == "array" then
				$v[] | [$map, $key, (.min // ""), (.max // ""), .count]
			else [$map, $key, "", "", $v] end;
		select(.type == "hist" or .type == "map" or .type == "stats" or .type == "value")
		| .data | to_entries[] | .key as $map | .value as $v
		| if ($v | type) == "object" and ($v | has("count") | not) then
			($v | to_entries[] | rows($map; .key; .value))
		  else rows($map; ""; $v) end
		| @csv' "$in"
	jq -rn '[inputs | select(.type == "lost_events") | .data.events] | "lost_events,,,,\(add // 0)"' "$in"
} >"$prefix-maps.csv.tmp"
mv "$prefix-maps.csv.tmp" "$prefix-maps.csv"

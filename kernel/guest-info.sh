#!/bin/bash
# Facts about the running guest kernel, as key=value lines in
# $LAB_OUT/guest/info.env (the host puts them into meta.json).
set -eu

config=$(zcat /proc/config.gz)
{
	echo "kernel_release=$(uname -r)"
	echo "kernel_version=$(cat /proc/version)"
	echo "guest_config_hash=$(printf '%s\n' "$config" | sha256sum | cut -c1-16)"
	echo "hz=$(sed -n 's/^CONFIG_HZ=//p' <<<"$config")"
	echo "guest_cpus=$(nproc)"
	echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
} >"$LAB_OUT/guest/info.env.tmp"
mv "$LAB_OUT/guest/info.env.tmp" "$LAB_OUT/guest/info.env"
cat "$LAB_OUT/guest/info.env"

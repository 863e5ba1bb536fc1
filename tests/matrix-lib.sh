# shellcheck shell=bash
# Helpers of the matrix tests (tests/matrix.sh, tests/slurm.sh), sourced
# after tests/tap.sh:
#   fake_cache DIR        a kernel cache in DIR whose lab and stock entries
#                         have this tree's cache keys and a fake image, so
#                         kernel/build.sh serves them without building
#   matrix_layout MDIR    the matrix folder's files that the engines must
#                         both make, one relative path a line, sorted (the
#                         slurm engine's own slurm/ folder left out, and the
#                         names in the figures' and report's folders, which
#                         depend on the figures drawn)

fake_cache() {
	local f out key dir
	for f in lab stock; do
		out=$(LAB_CACHE=$1 "$LAB_ROOT/kernel/build.sh" --key "$f") || return 1
		key=$(sed -n 's/^key=//p' <<<"$out")
		dir=$(sed -n 's/^dir=//p' <<<"$out")
		mkdir -p "$dir/obj/arch/x86/boot" "$dir/obj/include/config"
		echo "$key" >"$dir/obj/lab-key"
		echo "FAKE kernel image of the matrix tests" >"$dir/obj/arch/x86/boot/bzImage"
		echo "CONFIG_HZ=250" >"$dir/obj/.config"
		echo "6.1.0-fake" >"$dir/obj/include/config/kernel.release"
	done
}

matrix_layout() {
	(cd "$1" && find . -mindepth 1 \( -path ./slurm -o -path './.merge.*' \) -prune -o -printf '%P\n' |
		grep -v -e '\.png$' -e '\.tmp\.' | sort)
}

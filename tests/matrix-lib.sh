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
	local f key
	for f in lab stock; do
		key=$("$LAB_ROOT/kernel/build.sh" --key "$f") || return 1
		mkdir -p "$1/$f/obj/arch/x86/boot" "$1/$f/obj/include/config"
		echo "${key#key=}" >"$1/$f/obj/lab-key"
		echo "FAKE kernel image of the matrix tests" >"$1/$f/obj/arch/x86/boot/bzImage"
		echo "CONFIG_HZ=250" >"$1/$f/obj/.config"
		echo "6.1.0-fake" >"$1/$f/obj/include/config/kernel.release"
	done
}

matrix_layout() {
	(cd "$1" && find . -mindepth 1 \( -path ./slurm -o -path './.merge.*' \) -prune -o -printf '%P\n' |
		grep -v -e '\.png$' -e '\.tmp\.' | sort)
}

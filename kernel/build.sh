#!/bin/bash
# Build a lab kernel from Debian's Linux source in a cache outside the
# repository: tinyconfig + kernel/lab.config, then the patch series of that
# version (kernel/patches/<version>/series) and the options it adds
# (kernel/patches/<version>/config) unless the flavour is "stock"; the
# "debug" flavour is the lab kernel plus kernel/debug.config (lockdep, UBSAN,
# KFENCE, lockup detectors), which the lab and stock flavours are checked to
# be free of.
#
# usage: kernel/build.sh [--key] [FLAVOUR]
#   FLAVOUR  lab, stock or debug (Linux 6.1, linux-source-6.1), or the same
#            with a version: lab-6.12, stock-6.12, debug-6.12 (linux-source-6.12,
#            installed here when missing)
#   --key    print the cache key (key=...) and folder (dir=...) of the
#            flavour and exit, building nothing (the matrix tests seed a
#            cache with them)
#
# Progress goes to stderr. On success the last lines on stdout are key=value:
# image, vmlinux, config, key, series_hash, config_hash, version, source
# (the Debian package), source_version (its version), dir (the flavour's
# cache folder), src (its source tree), build_seconds (0 when the cache
# served the image).
#
# The cache key is the source package and its version, the fragments and
# the patches. Each flavour of each version keeps one source tree and one
# object directory ($LAB_CACHE/<version>/<flavour>/), so a changed patch
# rebuilds only what it touches: the tree is brought from the old series to
# the new one by reverting and applying only the patches that differ.
set -eu

. "$(dirname "$0")/../bench/lib.sh"

key_only=0
if [ "${1:-}" = --key ]; then
	key_only=1
	shift
fi
flavour=${1:-${LAB_KERNEL:-lab}}
# shellcheck disable=SC2086 # KERNEL_FLAVOURS is a word list
one_of "$flavour" $KERNEL_FLAVOURS ||
	usage_error "unknown kernel flavour '$flavour' (expected one of: $KERNEL_FLAVOURS)"
version=$(kernel_version_of "$flavour")
base=${flavour%-"$version"}
source=linux-source-$version

tarball=${LAB_KERNEL_TARBALL:-/usr/src/$source.tar.xz}
patchdir=$LAB_ROOT/kernel/patches/$version
# The fragments: the lab's options, then (lab and debug kernels) those the
# patches add, then (debug kernel) the checkers
debugfrag=$LAB_ROOT/kernel/debug.config
fragments=("$LAB_ROOT/kernel/lab.config")
[ "$base" = stock ] || [ ! -f "$patchdir/config" ] || fragments+=("$patchdir/config")
[ "$base" != debug ] || fragments+=("$debugfrag")
if [ ! -r "$tarball" ] && [ -z "${LAB_KERNEL_TARBALL:-}" ] && [ "$key_only" = 0 ]; then
	log kernel "$tarball is missing: installing $source"
	"$LAB_ROOT/bench/deps.sh" "$source" >&2 || die "could not install $source (make deps as root)"
fi
[ -r "$tarball" ] || [ "$key_only" = 1 ] || die "kernel source $tarball not found (install $source)"
pkgver=$(dpkg-query -W -f '${Version}' "$source" 2>/dev/null || echo unknown)
dir=$LAB_CACHE/$version/$base

# The series for this flavour: patch files in order, comments and blanks
# dropped, and the cover letter (0000-*, a posting's [PATCH 0/N]) skipped: it
# has no diff to apply, and a change of its text alone rebuilds nothing
patches=()
if [ "$base" != stock ] && [ -f "$patchdir/series" ]; then
	while read -r p _; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$patchdir/$p" ] || die "kernel/patches/$version/series names $p, which does not exist"
		case "$p" in 0000-*)
			! grep -q '^diff --git ' "$patchdir/$p" ||
				die "kernel/patches/$version/$p is the cover letter (0000-*) but has a diff: number the patch from 0001"
			continue
			;;
		esac
		patches+=("$patchdir/$p")
	done <"$patchdir/series"
fi

series_hash=$( (for p in "${patches[@]}"; do sha256sum <"$p"; done) | sha256sum | cut -c1-16)
key=$( (echo "$pkgver" && cat "${fragments[@]}" | sha256sum && echo "$series_hash") |
	sha256sum | cut -c1-16)

if [ "$key_only" = 1 ]; then
	echo "key=$key"
	echo "dir=$dir"
	exit 0
fi

src=$dir/linux
obj=$dir/obj
mkdir -p "$dir"

# One build per flavour at a time
exec 9>"$dir/lock"
flock 9

report() {
	echo "image=$obj/arch/x86/boot/bzImage"
	echo "vmlinux=$obj/vmlinux"
	echo "config=$obj/.config"
	echo "key=$key"
	echo "series_hash=$series_hash"
	echo "config_hash=$(sha256_of "$obj/.config")"
	echo "version=$(cat "$obj/include/config/kernel.release")"
	echo "source=$source"
	echo "source_version=$pkgver"
	echo "dir=$dir"
	echo "src=$src"
	echo "build_seconds=$1"
}

if [ -f "$obj/lab-key" ] && [ "$(cat "$obj/lab-key")" = "$key" ] &&
	[ -f "$obj/arch/x86/boot/bzImage" ]; then
	log kernel "$flavour kernel $key is cached in $obj"
	report 0
	exit 0
fi

t0=$(now_ns)
log kernel "building the $flavour kernel (key $key, $source $pkgver, ${#patches[@]} patches)"

extract() {
	log kernel "extracting $tarball"
	rm -rf "$src" "$src.new"
	mkdir -p "$src.new"
	tar -xJf "$tarball" -C "$src.new" --strip-components=1
	echo "$pkgver" >"$src.new/.lab-pkgver"
	mkdir -p "$src.new/.lab-applied"
	mv "$src.new" "$src"
}

if [ ! -f "$src/.lab-pkgver" ] || [ "$(cat "$src/.lab-pkgver")" != "$pkgver" ]; then
	extract
fi

# Bring the tree from the applied series to the wanted one: keep the common
# prefix, revert the rest of the old series in reverse order, apply the new.
applied=()
while read -r p; do
	[ -n "$p" ] && applied+=("$p")
done < <(cat "$src/.lab-applied/order" 2>/dev/null || true)
common=0
while [ "$common" -lt "${#applied[@]}" ] && [ "$common" -lt "${#patches[@]}" ] &&
	cmp -s "$src/.lab-applied/${applied[$common]}" "${patches[$common]}"; do
	common=$((common + 1))
done
for ((i = ${#applied[@]} - 1; i >= common; i--)); do
	a=${applied[$i]}
	log kernel "reverting $a"
	if ! patch -d "$src" -p1 -R -s --no-backup-if-mismatch <"$src/.lab-applied/$a"; then
		log kernel "could not revert $a: extracting a fresh tree"
		extract
		common=0
		break
	fi
done
: >"$src/.lab-applied/order.new"
for ((i = 0; i < common; i++)); do
	echo "${applied[$i]}" >>"$src/.lab-applied/order.new"
done
for ((i = common; i < ${#patches[@]}; i++)); do
	p=${patches[$i]}
	name=$(basename "$p")
	log kernel "applying $name"
	if ! patch -d "$src" -p1 -N -s --no-backup-if-mismatch <"$p"; then
		mv "$src/.lab-applied/order.new" "$src/.lab-applied/order"
		die "patch $name does not apply to $source $pkgver (tree left at the last good patch)"
	fi
	cp "$p" "$src/.lab-applied/$name"
	echo "$name" >>"$src/.lab-applied/order.new"
done
mv "$src/.lab-applied/order.new" "$src/.lab-applied/order"

# Configuration: tinyconfig + fragment, then olddefconfig, then the check
log kernel "configuring: tinyconfig + ${fragments[*]#"$LAB_ROOT/"}"
mkdir -p "$obj"
rm -f "$obj/lab-key"
make -s -C "$src" O="$obj" tinyconfig >/dev/null
# (merge_config.sh leaves temporary files in its working directory)
(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}") >"$obj/merge.log" 2>&1 ||
	die "merge_config.sh failed: $(tail -5 "$obj/merge.log")"
make -s -C "$src" O="$obj" olddefconfig >>"$obj/merge.log" 2>&1
missing=$(for f in "${fragments[@]}"; do "$LAB_ROOT/kernel/check-config.sh" "$f" "$obj/.config" || true; done)
[ -z "$missing" ] ||
	die "options of ${fragments[*]#"$LAB_ROOT/"} that Kconfig dropped (missing dependencies?):
$missing"
# The kernels measured carry no checker of the debug flavour (a default or a
# select in a later fragment could bring one in)
if [ "$base" != debug ] && [ -f "$debugfrag" ]; then
	present=$("$LAB_ROOT/kernel/check-config.sh" --absent "$debugfrag" "$obj/.config") ||
		die "the $flavour kernel's config has debug options of kernel/debug.config set (only the debug flavour may):
$present"
fi

# Build with progress: compiled objects against the last build's count of
# this flavour; a first build takes the count measured for its config (lab
# 1319, debug 1330: lockdep's, UBSAN's and KFENCE's objects). The count is an
# estimate: past it the line says so instead of a percentage over 100.
jobs=$(($(nproc) + 1))
case "$base" in
debug) first=1330 ;;
*) first=1319 ;;
esac
last=$(cat "$dir/objects" 2>/dev/null || echo "$first")
log kernel "make -j$jobs bzImage (log: $obj/build.log)"
set +e
make -C "$src" O="$obj" -j"$jobs" KBUILD_BUILD_USER=kernel-lab \
	KBUILD_BUILD_HOST="$key" bzImage >"$obj/build.log" 2>&1 &
mpid=$!
trap 'kill "$mpid" 2>/dev/null' INT TERM
while kill -0 "$mpid" 2>/dev/null; do
	sleep 15
	n=$(grep -c '^  CC ' "$obj/build.log")
	if [ "$n" -lt "$last" ]; then
		log kernel "compiled $n of about $last objects ($((n * 100 / last))%)"
	else
		# more than the estimate: no percentage past 100
		log kernel "compiled $n objects (past the estimate of $last; nearly done)"
	fi
done
wait "$mpid"
rc=$?
set -e
trap - INT TERM
if [ "$rc" -ne 0 ]; then
	grep -E -m 20 'error|Error' "$obj/build.log" >&2 || tail -20 "$obj/build.log" >&2
	die "kernel build failed (exit $rc); full log: $obj/build.log"
fi
n=$(grep -c '^  CC ' "$obj/build.log" || true)
[ "$n" -lt 200 ] || echo "$n" >"$dir/objects"
echo "$key" >"$obj/lab-key"
secs=$(secs_since "$t0")
log kernel "built $(cat "$obj/include/config/kernel.release") in ${secs}s"
report "$secs"

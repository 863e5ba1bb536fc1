# shellcheck shell=bash
# The guest's progress on the host's terminal, sourced by bench/vm.sh.
#
# The guest appends one line per event to RUN_DIR/guest/progress:
#   start STEP / end STEP RC           kernel/guest-job.sh, each job step
#   phase WL NAME / phase-end WL NAME RC   bench/guest-lib.sh's phase
#   note WL TEXT                       a driver's one-line result (progress)
# While it waits for QEMU, vm.sh calls progress_poll, which prints the new
# lines with the run's elapsed time (log of bench/lib.sh) and keeps them in
# RUN_DIR/progress.log with the seconds since QEMU started. When a step
# starts, the time left is estimated from the progress.log of the newest
# finished run with the same key (progress_key: profile, kernel, boot options
# and workloads of the run spec) under the same results root.

progress_seen=0
progress_prev=
progress_prev_id=
declare -A progress_t=()

# progress_key: what makes two runs take the same time, from the run spec
# SPEC (bench/spec.sh); empty for a run without workloads (the tests' boots)
progress_key() {
	[ -n "$(spec_get workloads)" ] || return 0
	printf 'profile=%s kernel=%s trace=%s cmdline=%s sysctls=%s workloads=%s\n' "$(spec_get profile)" \
		"$(spec_get kernel)" "$(spec_get trace)" "$(spec_get cmdline)" "$(spec_get sysctls)" "$(spec_get workloads)"
}

# progress_init RUN_DIR T0_NS KEY: start RUN_DIR/progress.log, find the last
# run of the same KEY
progress_init() {
	local f key=$3
	progress_dir=$1
	progress_t0=$2
	printf '# %s\n' "$key" >"$progress_dir/progress.log"
	[ -n "$key" ] || return 0
	while IFS= read -r f; do
		[ "$f" != "$progress_dir/progress.log" ] || continue
		if [ "$(head -n 1 -- "$f")" = "# $key" ] && grep -q "	job-done" -- "$f"; then
			progress_prev=$f
			progress_prev_id=$(basename -- "$(dirname -- "$f")")
			break
		fi
	done < <(find "$(dirname -- "$progress_dir")" -mindepth 2 -maxdepth 2 -name progress.log \
		-printf '%T@ %p\n' 2>/dev/null | sort -rn | cut -d' ' -f2-)
}

# progress_left STEP NOW: "about Ns left (by run ID)" from the last run
progress_left() {
	[ -n "$progress_prev" ] || return 0
	awk -F '\t' -v step="$1" -v now="$2" -v id="$progress_prev_id" '
		$2 == "start " step && s == "" { s = $1 }
		$2 == "job-done" { e = $1 }
		END {
			if (s != "" && e != "") {
				left = e - s
				printf "about %ds left (the same steps took %ds in run %s)", left, left, id
			}
		}' "$progress_prev"
}

# progress_show ELAPSED LINE: one guest line on the terminal
progress_show() {
	local el=$1 kind rest name rc left
	read -r kind rest <<<"$2"
	case $kind in
	start)
		name=${rest#wl-}
		progress_t[$rest]=$el
		left=$(progress_left "$rest" "$el")
		log "$name" "started${left:+; $left}"
		;;
	end)
		read -r name rc <<<"$rest"
		if [ "$rc" = 0 ]; then
			log "${name#wl-}" "done in $((el - ${progress_t[$name]:-$el}))s"
		else
			log "${name#wl-}" "FAILED (exit $rc) after $((el - ${progress_t[$name]:-$el}))s; its log: guest/$name.log"
		fi
		;;
	phase)
		read -r name rest <<<"$rest"
		progress_t[$name/$rest]=$el
		log "$name" "$rest"
		;;
	phase-end)
		read -r name rest <<<"$rest"
		rc=${rest##* }
		rest=${rest% *}
		if [ "$rc" = 0 ]; then
			log "$name" "$rest done in $((el - ${progress_t[$name/$rest]:-$el}))s"
		else
			log "$name" "$rest FAILED (exit $rc) after $((el - ${progress_t[$name/$rest]:-$el}))s"
		fi
		;;
	note)
		read -r name rest <<<"$rest"
		log "$name" "$rest"
		;;
	*) log guest "$2" ;;
	esac
}

# progress_poll: print and keep the guest's new complete lines
progress_poll() {
	local f=$progress_dir/guest/progress n el line
	[ -f "$f" ] || return 0
	n=$(wc -l <"$f")
	[ "$n" -gt "$progress_seen" ] || return 0
	el=$((($(now_ns) - progress_t0) / 1000000000))
	while IFS= read -r line; do
		printf '%s\t%s\n' "$el" "$line" >>"$progress_dir/progress.log"
		progress_show "$el" "$line"
	done < <(sed -n "$((progress_seen + 1)),${n}p" "$f")
	progress_seen=$n
}

# progress_done: the job finished; the next run's estimates end here
progress_done() {
	progress_poll
	[ ! -f "$progress_dir/guest/done" ] ||
		printf '%s\tjob-done\n' "$((($(now_ns) - progress_t0) / 1000000000))" >>"$progress_dir/progress.log"
}

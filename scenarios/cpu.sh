#!/bin/bash
# scenarios/cpu.sh - the CPU cost of each allocator: every variant, one at a time, gets the same fixed
# number of queries against the same hierarchy; instructions are counted under valgrind's callgrind
# (repeatable on a noisy machine), with the share spent inside the allocator, and task-clock is read
# from `perf stat`. Writes RUN/cpu.json and RUN/cpu.md (its own small report) and prints cpu.md's path.
set -uo pipefail
SC_PROG=cpu
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"

scenario_usage() {
	cat <<USAGE
usage: scenarios/cpu.sh [options]
Each variant in turn (fresh process, cold cache) answers --count queries (default $OPT_count) sent at
--rate (default $OPT_rate qps; callgrind slows the resolver about 50 times), first under callgrind,
then under perf stat. Defaults: the $OPT_world world, upstream latency ${OPT_latency_ms%%,*} ms, no loss
(the same work for every variant). Prints the path of cpu.md, a table of instructions per query,
the allocator's share and CPU time per query.
USAGE
}

scenario_options() { echo "$OPTS_EXPERIMENT" rate count tools; }

scenario_defaults() {
	OPT_world=lan # one latency for every server: the work does not hang on which servers a name meets
	OPT_latency_ms=5,20
	OPT_loss=0
	OPT_rate=200
	OPT_count=6000
	SC_OPT_HELP[rate]='the rate the queries are sent at'
	SC_OPT_HELP[quick]='1000 queries instead of --count'
}

# The allocator's own code: the malloc API's names, whoever serves them, and each allocator's shared
# object, source files and functions as its adapter gives them (`allocspike-report allocators`,
# docs/architecture.md "Allocator adapters"). Exclusive costs, so nothing is counted twice.
CPU_ALLOC_API='malloc|free|calloc|realloc|reallocarray|aligned_alloc|posix_memalign|memalign|valloc|pvalloc|malloc_usable_size|cfree|operator new.*|operator delete.*'
CPU_ALLOC_OBJECTS='' CPU_ALLOC_FILES='' CPU_ALLOC_FUNCS=''

# cpu_alloc_patterns : sets CPU_ALLOC_OBJECTS, CPU_ALLOC_FILES and CPU_ALLOC_FUNCS from the registry.
cpu_alloc_patterns() {
	local report table objects=() files=() funcs=("$CPU_ALLOC_API") name alias colour o f fn
	sc_need report allocspike-report "for the allocators' symbols"
	table=$("$report" allocators) || sc_die "allocspike-report allocators failed"
	while IFS=$'\t' read -r name alias colour o f fn; do
		[[ $o == - ]] || objects+=("$o")
		[[ $f == - ]] || files+=("$f")
		[[ $fn == - ]] || funcs+=("$fn")
	done < <(tail -n +2 <<<"$table")
	# An empty alternative would match every line.
	((${#objects[@]} && ${#files[@]})) || sc_die "allocspike-report allocators gave no objects or files"
	CPU_ALLOC_OBJECTS=$(IFS='|' && echo "${objects[*]}")
	CPU_ALLOC_FILES=$(IFS='|' && echo "${files[*]}")
	CPU_ALLOC_FUNCS="^($(IFS='|' && echo "${funcs[*]}"))\$"
}

# cpu_callgrind_costs FILE : "total alloc" instruction counts from a callgrind output file.
cpu_callgrind_costs() {
	callgrind_annotate --threshold=100 --auto=no "$1" 2>/dev/null | awk \
		-v objs="$CPU_ALLOC_OBJECTS" -v files="$CPU_ALLOC_FILES" -v funcs="$CPU_ALLOC_FUNCS" '
	/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
	/file:function/ { body = 1; next }
	body && /^ *[0-9,]+ / {
		n = $1; gsub(",", "", n)
		line = $0; sub(/^ *[0-9,]+ +\([ 0-9.]+%\) +/, "", line)
		obj = ""; if (match(line, / \[[^]]*\]$/)) { obj = substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, 1, RSTART - 1) }
		file = line; sub(/:.*/, "", file); fn = line; sub(/^[^:]*:/, "", fn); sub(/'"'"'[0-9]+$/, "", fn)
		if (obj ~ objs || file ~ files || fn ~ funcs) alloc += n
	}
	END { printf "%d %d\n", total, alloc }'
}

# cpu_perf_ms FILE : task-clock in milliseconds from `perf stat -x ,` output.
cpu_perf_ms() { awk -F, '$3 == "task-clock" { print $1 }' "$1" 2>/dev/null; }

# cpu_answered DIR NAME : answers the variant got back in DIR's timeline.
cpu_answered() {
	awk -F, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["variant"] == v { a += $c["answered"] } END { print a + 0 }' \
		"$1/timeline.csv" 2>/dev/null || echo 0
}

CPU_TOOL=
declare -A CPU_CHILD_START=() # perf's child (the resolver) -> its start time, checked before signalling it
scenario_ready() {
	local name
	[[ $CPU_TOOL == perf ]] || return 0
	for name in "$@"; do
		V_SAMPLE_PID[$name]=$(pgrep -P "${V_PID[$name]}" | head -1)
		CPU_CHILD_START[$name]=$(procs_start_time "${V_SAMPLE_PID[$name]:-0}")
	done
}

# perf stat writes its count only when its child exits: stop the resolver, not perf.
scenario_stop_variant() {
	local name=$1 i child=${V_SAMPLE_PID[$1]:-}
	[[ $CPU_TOOL == perf && -n $child ]] || return 0
	procs_mark_asked "${V_PID[$name]}"
	! procs_same "$child" "${CPU_CHILD_START[$name]:-}" || kill -TERM "$child" 2>/dev/null || true
	for ((i = 0; i < 300; i++)); do
		procs_running "${V_PID[$name]}" || break
		sleep 0.05
	done
}

# cpu_pass TOOL : every runnable variant in turn under TOOL, into RUN/TOOL/.
cpu_pass() {
	local tool=$1 dir=$SC_RUN/$1 name
	mkdir -p "$dir/logs"
	CPU_TOOL=$tool
	events_push "$dir/events.jsonl"
	for name in "${SC_RUNNABLE[@]}"; do
		if [[ ${V_KIND[$name]} != build && ${V_KIND[$name]} != env ]]; then
			sc_say "$tool: $name is a daemon row; cpu.sh measures our own resolver builds only"
			continue
		fi
		case $tool in
		callgrind)
			V_WRAP[$name]=$(printf '%s\n' valgrind --tool=callgrind "--callgrind-out-file=$dir/$name.callgrind.out" --dump-instr=no)
			;;
		perf)
			V_WRAP[$name]=$(printf '%s\n' perf stat -e task-clock -x , -o "$dir/$name.perf.csv" --)
			;;
		esac
		events_origin_clear
		sc_say "$tool: $name"
		experiment_drive_group "$dir" "$SC_SCHEDULE" "$name" || sc_say "$tool: $name did not run (see $dir/logs/$name.log)"
		V_WRAP[$name]=
		V_SAMPLE_PID[$name]=
	done
	events_pop
}

scenario_report() {
	local dir=$1 name rows=() total alloc ms cg_ans pf_ans
	cpu_alloc_patterns
	for name in "${SC_RUNNABLE[@]}"; do
		total=0 alloc=0 ms=
		[[ ! -s $dir/callgrind/$name.callgrind.out ]] || read -r total alloc < <(cpu_callgrind_costs "$dir/callgrind/$name.callgrind.out")
		[[ ! -s $dir/perf/$name.perf.csv ]] || ms=$(cpu_perf_ms "$dir/perf/$name.perf.csv")
		cg_ans=$(cpu_answered "$dir/callgrind" "$name")
		pf_ans=$(cpu_answered "$dir/perf" "$name")
		rows+=("$(jq -n --arg v "$name" --arg alloc_name "${V_ALLOC[$name]}" --argjson total "${total:-0}" \
			--argjson alloc "${alloc:-0}" --argjson cga "$cg_ans" --arg ms "${ms:-}" --argjson pfa "$pf_ans" '
			{variant: $v, allocator: $alloc_name,
			 callgrind: (if $total > 0 then {instructions: $total, allocator_instructions: $alloc,
				allocator_share: ($alloc / $total), answered: $cga,
				instructions_per_answer: (if $cga > 0 then ($total / $cga) else null end)} else null end),
			 perf: (if $ms != "" then {task_clock_ms: ($ms | tonumber), answered: $pfa,
				cpu_us_per_answer: (if $pfa > 0 then (($ms | tonumber) * 1000 / $pfa) else null end)} else null end)}')")
	done
	files_replace "$dir/cpu.json" jq -s '{format: 1, scenario: "cpu", variants: .}' < <(printf '%s\n' "${rows[@]}")
	{
		echo "# CPU cost per allocator ($(jq -r .status "$dir/run.json"), $(jq -r .parameters.schedule "$dir/run.json"))"
		echo
		echo "Instructions from callgrind (self cost of the allocator's code / all instructions), task-clock from perf stat."
		echo
		echo "| variant | instructions per answer | in allocator | vs first | task-clock µs per answer | vs first | answered (callgrind / perf) |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
		jq -r '.variants as $v | ($v[0].callgrind.instructions_per_answer // null) as $i0 | ($v[0].perf.cpu_us_per_answer // null) as $p0 |
			$v[] | [.variant,
			 (.callgrind.instructions_per_answer // null | if . then (. | floor | tostring) else "-" end),
			 (.callgrind.allocator_share // null | if . then ((. * 1000 | round) / 10 | tostring) + " %" else "-" end),
			 (if .callgrind.instructions_per_answer and $i0 then ((.callgrind.instructions_per_answer / $i0 * 1000 | round) / 1000 | tostring) else "-" end),
			 (.perf.cpu_us_per_answer // null | if . then ((. * 10 | round) / 10 | tostring) else "-" end),
			 (if .perf.cpu_us_per_answer and $p0 then ((.perf.cpu_us_per_answer / $p0 * 1000 | round) / 1000 | tostring) else "-" end),
			 "\(.callgrind.answered // "-") / \(.perf.answered // "-")"] | "| " + join(" | ") + " |"' "$dir/cpu.json"
	} >"$dir/cpu.md"
	cat "$dir/cpu.md" >&2
	echo "$dir/cpu.md"
}

cpu_main() {
	opts_defaults
	scenario_defaults
	opts_parse "$@"
	if ((OPT_quick)); then opts_default_unset count 1000; fi
	opts_validate
	OPT_serial=1
	SC_READY_TIMEOUT=120
	variants_load "$SC_ROOT/variants.tsv"
	variants_select "$OPT_variants"
	placement_choose "$OPT_cpu_placement"
	experiment_prepare_programs
	[[ $OPT_tools != *callgrind* ]] || command -v valgrind >/dev/null || sc_die "valgrind is not installed (scripts/install-packages.sh)"
	[[ $OPT_tools != *perf* ]] || command -v perf >/dev/null || sc_die "perf is not installed (package linux-perf)"
	experiment_setup_folder "$SC_PROG"
	experiment_traps
	local nofile port=0
	nofile=$(machine_raise_nofile)
	ulimit -n "$nofile" 2>/dev/null || true
	runjson_set .machine "$(machine_json "$nofile")"
	experiment_parameters
	experiment_programs
	experiment_check_variants
	! variants_need_port53 || port=53
	hierarchy_start "$SC_RUN" "$SC_CPUS_HARNESS" "$port"
	queries_prepare "$SC_RUN" "${OPT_query_count:-$(schedule_round_count "$OPT_count")}"
	SC_SCHEDULE=$(printf 'baseline:%sms@%s' $((OPT_count * 1000 / OPT_rate)) "$OPT_rate")
	runjson_update '.parameters.schedule = $s | .parameters.count = $c | .parameters.tools = $t' \
		--arg s "$SC_SCHEDULE" --argjson c "$OPT_count" --arg t "$OPT_tools"
	local tool
	IFS=, read -r -a tools <<<"$OPT_tools"
	for tool in "${tools[@]}"; do
		cpu_pass "$tool"
	done
	SC_COMPLETED=1
	exit 0
}

cpu_main "$@"

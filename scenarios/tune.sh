#!/bin/bash
# scenarios/tune.sh - the tuning advisor's experiment: an allocator's tuning rows of variants.tsv run
# through the spike schedule (spike.sh), then `allocspike-report advise` over the runs: a page with
# each setting's held memory, growth per spike, peak, CPU and latency, a Pareto chart of held memory
# against CPU, and which setting to use. Options: tune.sh --help.
set -uo pipefail
SC_PROG=tune
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/options.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/variants.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/plan.sh"

# scenario_usage : --help's first lines; the option list is the controller's (allocspike-run options).
scenario_usage() {
	cat <<'USAGE'
usage: scenarios/tune.sh --allocator A|all [options] [spike.sh options]
Runs the allocator's build row and its tuning rows (the env rows over it in variants.tsv) through the
same spike schedule, then writes DIR/advisor.html and DIR/advice.json and prints the page's path.
Before it starts (and with --list, on stderr) it says how many spike runs it makes and about how long
they take: spike.sh's estimate per run, the first one with its calibration unless --spike-rate is given.
Any other option goes to spike.sh unchanged (spike.sh --help lists them).
USAGE
}

scenario_options() { echo allocator variants batch repeat serial margin_mb margin_share out quick list spike_rate; }

# tune.sh's own lines of the list; every other option is handed back for spike.sh (OPTS_REST).
# --hosts is refused: an agent takes one plan and ends with its run, so a second run finds none.
scenario_defaults() {
	OPTS_ARGS+=(--pass-rest --one-of allocator,variants
		--help-text "variants=these rows instead (e.g. kresd-glibc and rows over it); when exactly one of them has no settings, it is their default, as the build row for --allocator"
		--default-text variants=-
		--help-text "repeat=every run N times: figures become medians, and a difference inside the run-to-run spread is reported as no difference"
		--help-text "serial=one row at a time within a run (spike.sh --serial)"
		--help-text "out=the advisor's folder"
		--default-text "out=$SC_ROOT/runs/<UTC YYYYmmdd-HHMMSS>-tune-<allocator>"
		--help-text "quick=short runs (spike.sh --quick): a look, not a measurement"
		--help-text "list=print the runs it would make, one a line (rows comma-separated), and stop"
		--help-text "spike_rate=spike.sh's spike height for every run (with auto, as by default, the first run calibrates and the later runs reuse its rate)"
		--refuse "hosts=tune.sh makes several spike.sh runs and an agent takes one plan (the second run would find no agents); run spike.sh --hosts itself")
}

opts_read "$@"
# (the repeat in base 10: the shell's arithmetic reads 08 as octal)
allocator=$OPT_allocator variants=$OPT_variants repeat=$((10#$OPT_repeat)) out=$OPT_out list=$OPT_list
batch=${OPT_batch:-$(($(nproc) > 2 ? $(nproc) : 2))}
# A spike rate given goes to every run; without, the first run calibrates and the others reuse it.
spike_rate=${OPT_SET[spike_rate]:+$OPT_spike_rate}
# The advisor's margins as given (allocspike-report advise has the same defaults).
margin=()
[[ -z ${OPT_SET[margin_mb]:-} ]] || margin+=(--margin-mb "$OPT_margin_mb")
[[ -z ${OPT_SET[margin_share]:-} ]] || margin+=(--margin-share "$OPT_margin_share")
pass=()
((!OPT_quick)) || pass+=(--quick)
((!OPT_serial)) || pass+=(--serial)
pass+=("${OPTS_REST[@]}")

# The table is read by the controller, built first unless spike.sh is told not to build (opts_read).
variants_load "$SC_ROOT/variants.tsv"
# tune_settings ALLOCATOR : the env rows over the allocator's build row that keep its allocator (its
# tuning rows; an env row may preload another allocator into the binary instead).
tune_settings() {
	local name
	for name in "${V_NAMES[@]}"; do
		[[ ${V_KIND[$name]} == env && ${V_BASE[$name]} == "$1" && ${V_ALLOC[$name]} == "${V_ALLOC[$1]}" ]] && echo "$name"
	done
}

# tune_allocators : the build rows with tuning rows over them, in table order.
tune_allocators() {
	local name
	for name in "${V_NAMES[@]}"; do
		[[ ${V_KIND[$name]} != build || -z $(tune_settings "$name") ]] || echo "$name"
	done
}

# tune_plan DEFAULT ROW... : the runs, one a line (rows comma-separated). With a DEFAULT, each run
# is the default and batch-1 rows; without, plain batches of the rows.
tune_plan() {
	local default=$1 step i
	shift
	local rows=("$@")
	step=$batch
	[[ -z $default ]] || step=$((batch > 1 ? batch - 1 : 1))
	for ((i = 0; i < ${#rows[@]}; i += step)); do
		(
			IFS=,
			echo "${default:+$default,}${rows[*]:i:step}"
		)
	done
	((${#rows[@]})) || [[ -z $default ]] || echo "$default"
}

plan=()
if [[ -n $variants ]]; then
	IFS=, read -r -a rows <<<"$variants"
	for name in "${rows[@]}"; do
		[[ -n ${V_KIND[$name]:-} ]] || opts_fail "--variants: no variant '$name' in variants.tsv"
	done
	# One row without settings among them is their default, carried by every run.
	default='' others=()
	for name in "${rows[@]}"; do
		if [[ ${V_ENV[$name]} == - && -z $default ]]; then default=$name; else others+=("$name"); fi
	done
	for name in "${others[@]}"; do
		[[ ${V_ENV[$name]} != - ]] || { default='' others=("${rows[@]}") && break; }
	done
	mapfile -t plan < <(tune_plan "$default" "${others[@]}")
else
	mapfile -t allocators < <(tune_allocators)
	if [[ $allocator != all ]]; then
		[[ " ${allocators[*]} " == *" $allocator "* ]] ||
			opts_fail "--allocator: '$allocator' is not $(printf '%s, ' "${allocators[@]}")or all (the build rows with tuning rows over them)"
		allocators=("$allocator")
	fi
	for a in "${allocators[@]}"; do
		mapfile -t more < <(tune_settings "$a")
		mapfile -t -O "${#plan[@]}" plan < <(tune_plan "$a" "${more[@]}")
	done
fi
((${#plan[@]})) || opts_fail "no rows to run"
# spike.sh judges the options passed on and their values (a bad one fails here, before anything
# runs) and says how long a run takes: the first calibrates unless the spike rate is given.
plan_spike_say $((${#plan[@]} * repeat)) $((${#spike_rate} ? 0 : 1)) "${pass[@]}" ${spike_rate:+--spike-rate "$spike_rate"}
if ((list)); then
	printf '%s\n' "${plan[@]}"
	exit 0
fi

out=${out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-tune-${allocator:-variants}}
# --out's rule (docs/cli.md): each run gets a new folder in it (run-R-B).
problem=$(sc_outdir "$out") || sc_die "the advisor's folder: $problem"
out=$(realpath "$out")
child=
trap '[[ -z $child ]] || kill -TERM "$child" 2>/dev/null; wait $child 2>/dev/null; exit 130' INT TERM

# The plan's runs, each one spike.sh run, all of them $repeat times.
runs=()
first=1
for ((r = 1; r <= repeat; r++)); do
	for b in "${!plan[@]}"; do
		list=${plan[b]}
		dir=$out/run-$r-$((b + 1))
		sc_say "repeat $r of $repeat, rows $list"
		args=(--variants "$list" --out "$dir" "${pass[@]}")
		[[ -z $spike_rate ]] || args+=(--spike-rate "$spike_rate")
		((first)) || args+=(--no-build)
		bash "$SC_ROOT/scenarios/spike.sh" "${args[@]}" >/dev/null &
		child=$!
		wait "$child" || sc_say "the run in $dir ended with status $?; its rows may lack figures"
		child=
		first=0
		[[ -f $dir/run.json ]] || sc_die "the run in $dir left no run.json"
		runs+=("$dir")
		# Every later run gets the spike rate the first one calibrated: one schedule for all.
		[[ -n $spike_rate ]] || spike_rate=$(jq -r '.parameters.spike_rate_qps // empty' "$dir/run.json")
		# Rows refused because a setting did not take, said aloud (they have no figures).
		jq -r 'select(.event == "failed") | "tune: \(.variant // "?"): \(.reason // "failed")"' \
			"$dir/events.jsonl" 2>/dev/null >&2 || true
	done
done

rp=$(sc_program allocspike-report)
[[ -n $rp ]] || sc_die "allocspike-report is missing: no advice"
"$rp" advise "${runs[@]}" --out "$out" "${margin[@]}" >/dev/null || sc_die "allocspike-report advise failed"
# The table on the terminal as well (the page has it with spreads and the chart).
jq -r '.variants | to_entries[] | [.key, (.value.held_after_spikes_mb // "n/a"),
	(.value.held_growth_mb_per_spike // "n/a"), (.value.peak_anon_mb // "n/a"),
	(.value.cpu_s_per_million_answered // "n/a"), (.value.spike_lat_p99_ms // "n/a"),
	([if .value.recommended then "recommended" else empty end,
	  if .value.does_nothing then "does-nothing" else empty end] | join(","))]
	| map(if type == "number" then (. * 100 | round / 100 | tostring) else . end) | @tsv' \
	"$out/advice.json" |
	{
		printf 'setting\theld_MB\tgrowth_MB/spike\tpeak_MB\tcpu_s/M\tp99_ms\tverdict\n'
		cat
	} | awk -F'\t' '{ printf "%-22s %9s %16s %8s %8s %8s  %s\n", $1, $2, $3, $4, $5, $6, $7 }' >&2
jq -r '.sentences[]' "$out/advice.json" >&2
echo "$out/advisor.html"

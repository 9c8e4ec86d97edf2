# scenarios/lib/options.sh - the one option parser of spike.sh, ramp.sh and steady.sh.
# Each scenario sets its defaults (opts_defaults, then overrides), calls opts_parse "$@", then
# opts_validate. Values live in OPT_<name>; OPT_SET[<name>] marks what the user gave explicitly,
# so --quick only shortens what was not given.

declare -A OPT_SET=()

# opts_defaults : the values of the default (about ten minutes on two cores) spike experiment.
opts_defaults() {
	OPT_variants=''
	OPT_queries=''
	OPT_query_count=''
	OPT_query_seed=1
	OPT_spikes=8
	OPT_spike_rate=auto
	OPT_spike_multiple=1.2
	OPT_baseline_rate=300
	OPT_warmup_rate=''
	OPT_spike_len=20s
	OPT_recovery_len=40s
	OPT_baseline_len=20s
	OPT_warmup_len=60s
	OPT_calibrate_len=20s
	OPT_calibrate_max=6000
	OPT_seed=1
	OPT_latency_ms=20,200
	OPT_loss=0.03
	OPT_cache_size=4M
	OPT_max_inflight=65536
	OPT_memory_layout=heap
	OPT_out=''
	OPT_cpu_placement=auto
	OPT_serial=0
	OPT_repeat=1
	OPT_quick=0
	OPT_interval_ms=100
	OPT_hierarchy_block=127.53.0.0/16
	OPT_applied_log=0
	OPT_timeout_ms=''
	OPT_no_build=0
	OPT_rate=''
	OPT_count=''
	OPT_tools=callgrind,perf
}

# opts_usage : the option list (each scenario prints its own first lines before it).
opts_usage() {
	cat <<'USAGE'
Variants and data:
  --variants A,B,...     rows of variants.tsv to run, any kind (default: rows with default=yes)
  --queries FILE         query file in dnsperf format, plain/.xz/.gz (default: generated with
                         allocspike-querydata generate --seed 1, cached under .cache/)
  --query-count N        queries to generate for the default file (default: enough for the schedule)
Schedule (DUR like 500ms, 20s, 2m; RATE in queries per second, sent to every variant):
  --spikes N             number of spikes (8)
  --spike-rate N|auto    spike height; auto = calibrated capacity of the slowest variant x multiple
  --spike-multiple X     multiple of the calibrated capacity for auto (1.2)
  --baseline-rate N      rate that never stops, also during recovery (300)
  --warmup-rate N        rate of the warm-up that brings caches to steady state (default: 2 x baseline)
  --warmup-len DUR       warm-up (60s)       --baseline-len DUR   baseline before the first spike (20s)
  --spike-len DUR        each spike (20s)    --recovery-len DUR   each recovery at the baseline rate (40s)
  --calibrate-len DUR    calibration ramp (20s)  --calibrate-max N  top of the calibration ramp (6000)
  --rate N               steady.sh: the constant rate; ramp.sh: the top of the ramp; cpu.sh: the rate
  --count N              cpu.sh: queries sent to each variant
  --tools LIST           cpu.sh: callgrind,perf (both by default)
Hierarchy and resolvers:
  --seed N               hierarchy seed (1)
  --latency-ms M[,P99]   upstream latency median and 99th percentile in ms (20,200)
  --loss X               share of upstream queries lost, 0..1 (0.03)
  --hierarchy-block CIDR loopback block of the simulated hierarchy (127.53.0.0/16)
  --applied-log          also keep the hierarchy's per-query loss/delay log (tens of MB a run;
                         the per-second summary is always kept)
  --cache-size SIZE      resolver cache size, k/M/G suffixes (4M: small enough for the warm-up to fill)
  --max-inflight N       resolver in-flight limit (65536)
  --memory-layout L      heap | kresd (heap)
  --timeout-ms N         generator's answer timeout (the generator's default)
Run:
  --out DIR              run folder (default: runs/<scenario>-<UTC timestamp>)
  --cpu-placement P      auto | none | HARNESS_CPUS/RESOLVER_CPUS, e.g. 0/1-3 (auto: harness apart
                         from the resolvers when there are 4 cores or more, no pinning below)
  --serial               one variant at a time (same schedule each), for machines with few cores
  --repeat N             the same run N times into DIR/run-1..N, then a comparison report
  --interval-ms N        sampling interval (100)
  --quick                a run of at most two minutes (CI): short phases, 3 spikes
  --no-build             do not install packages or build; use the programs as they are
  --help                 this text
USAGE
}

# opts_fail TEXT : a bad flag: the reason and the usage, exit status 2.
opts_fail() {
	printf '%s: %s\n' "$SC_PROG" "$*" >&2
	printf 'usage: scenarios/%s.sh [options]   (--help lists them)\n' "$SC_PROG" >&2
	exit 2
}

# opts_parse ARGS... : fills OPT_*; --help prints the usage (scenario_usage first) and exits 0.
opts_parse() {
	local opt val
	while (($#)); do
		opt=$1
		shift
		case $opt in
		--help | -h)
			scenario_usage
			opts_usage
			exit 0
			;;
		--serial) OPT_serial=1 OPT_SET[serial]=1 ;;
		--quick) OPT_quick=1 OPT_SET[quick]=1 ;;
		--no-build) OPT_no_build=1 OPT_SET[no_build]=1 ;;
		--applied-log) OPT_applied_log=1 OPT_SET[applied_log]=1 ;;
		--variants | --queries | --query-count | --query-seed | --spikes | --spike-rate | --spike-multiple | \
			--baseline-rate | --warmup-rate | --spike-len | --recovery-len | --baseline-len | --warmup-len | \
			--calibrate-len | --calibrate-max | --seed | --latency-ms | --loss | --cache-size | \
			--max-inflight | --memory-layout | --out | --cpu-placement | --repeat | --interval-ms | \
			--hierarchy-block | --timeout-ms | --rate | --count | --tools)
			(($#)) || opts_fail "option $opt needs a value"
			val=$1
			shift
			opt=${opt#--}
			opt=${opt//-/_}
			printf -v "OPT_$opt" '%s' "$val"
			OPT_SET[$opt]=1
			;;
		--*=*) set -- "${opt%%=*}" "${opt#*=}" "$@" ;;
		*) opts_fail "unknown option '$opt'" ;;
		esac
	done
	if ((OPT_quick)); then
		opts_quick_preset
	fi
}

# opts_default_unset NAME VALUE : sets OPT_NAME unless the user gave it.
opts_default_unset() { [[ -n ${OPT_SET[$1]:-} ]] || printf -v "OPT_$1" '%s' "$2"; }

# opts_quick_preset : under two minutes end to end: short warm-up, three short spikes.
opts_quick_preset() {
	opts_default_unset spikes 3
	opts_default_unset warmup_len 12s
	opts_default_unset warmup_rate 1500
	opts_default_unset cache_size 2M
	opts_default_unset baseline_len 4s
	opts_default_unset spike_len 8s
	opts_default_unset recovery_len 10s
	opts_default_unset calibrate_len 8s
}

# opts_validate : every value checked, with the option named in the message.
opts_validate() {
	local n
	for n in spikes baseline_rate max_inflight repeat interval_ms seed query_seed calibrate_max; do
		local v="OPT_$n"
		sc_is_uint "${!v}" || opts_fail "--${n//_/-} wants a whole number, got '${!v}'"
	done
	for n in warmup_rate query_count timeout_ms rate count; do
		local v="OPT_$n"
		[[ -z ${!v} ]] || sc_is_uint "${!v}" || opts_fail "--${n//_/-} wants a whole number, got '${!v}'"
	done
	[[ $OPT_spike_rate == auto ]] || sc_is_uint "$OPT_spike_rate" ||
		opts_fail "--spike-rate wants a rate or 'auto', got '$OPT_spike_rate'"
	sc_is_number "$OPT_spike_multiple" || opts_fail "--spike-multiple wants a number, got '$OPT_spike_multiple'"
	for n in spike_len recovery_len baseline_len warmup_len calibrate_len; do
		local v="OPT_$n"
		[[ -n $(sc_duration_ms "${!v}") ]] || opts_fail "--${n//_/-} wants a duration like 20s, 500ms or 2m, got '${!v}'"
	done
	[[ $OPT_latency_ms =~ ^[0-9]+(,[0-9]+)?$ ]] || opts_fail "--latency-ms wants MEDIAN or MEDIAN,P99 in ms, got '$OPT_latency_ms'"
	sc_is_number "$OPT_loss" && awk -v x="$OPT_loss" 'BEGIN { exit !(x >= 0 && x <= 1) }' ||
		opts_fail "--loss wants a share between 0 and 1, got '$OPT_loss'"
	[[ -n $(sc_size_bytes "$OPT_cache_size") ]] || opts_fail "--cache-size wants a size like 64M, got '$OPT_cache_size'"
	[[ $OPT_memory_layout == heap || $OPT_memory_layout == kresd ]] ||
		opts_fail "--memory-layout wants heap or kresd, got '$OPT_memory_layout'"
	[[ $OPT_cpu_placement =~ ^(auto|none|[0-9,-]+/[0-9,-]+)$ ]] ||
		opts_fail "--cpu-placement wants auto, none or HARNESS_CPUS/RESOLVER_CPUS (e.g. 0/1-3), got '$OPT_cpu_placement'"
	[[ $OPT_hierarchy_block =~ ^127\.[0-9]+\.[0-9]+\.[0-9]+/[0-9]+$ ]] ||
		opts_fail "--hierarchy-block wants a loopback CIDR like 127.53.0.0/16, got '$OPT_hierarchy_block'"
	((OPT_repeat >= 1)) || opts_fail "--repeat wants 1 or more"
	((OPT_interval_ms >= 10)) || opts_fail "--interval-ms wants 10 or more"
	[[ $OPT_variants =~ ^[A-Za-z0-9_.,-]*$ ]] || opts_fail "--variants wants names separated by commas, got '$OPT_variants'"
	[[ -z $OPT_queries || -r $OPT_queries ]] || opts_fail "--queries: cannot read '$OPT_queries'"
	[[ $OPT_tools =~ ^(callgrind|perf)(,(callgrind|perf))?$ ]] || opts_fail "--tools wants callgrind, perf or both, got '$OPT_tools'"
	[[ -n $OPT_warmup_rate ]] || OPT_warmup_rate=$((OPT_baseline_rate * 2))
}

# opts_json : every parameter as given or defaulted, for run.json's parameters.options.
opts_json() {
	local n args=() filter='{' sep=''
	for n in $(compgen -v OPT_); do
		[[ $n == OPT_SET ]] && continue
		args+=(--arg "${n#OPT_}" "${!n}")
		filter+="$sep${n#OPT_}: \$${n#OPT_}"
		sep=', '
	done
	jq -n "${args[@]}" "$filter}"
}

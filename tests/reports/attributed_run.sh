# tests/reports/attributed_run.sh - sourced by the report tests: writes a run folder whose memory
# attribution (live bytes, what each allocator holds and why) is known by hand; the expected figures
# are worked out in test_report_attribution.sh.
#
# Same clock as known_run.sh: 1 s intervals, warm-up t=1..2, baseline t=3, then three times
# (spike 2 s, recovery 2 s): spike k covers t=4k..4k+1, its recovery t=4k+2..4k+3. Memory is given
# in MB per t=1..15; every variant has 3 MB of anon RSS outside its allocator.
#   glibc     each recovery leaves free chunks below the top chunk: 11, 12, 13 MB (kept)
#   jemalloc  dirty_decay_ms:-1: 11.5 MB of dirty pages after each recovery (kept), 2 MB retained
#   tcmalloc  release rate 0: 10 MB free in the page heap after each recovery, none unmapped
#   musl      mallocng (no split): gives each spike back
#   filling   the cache still filling (8 -> 14 -> 20 -> 26 MB), the allocator holding 1 MB flat
#   kresd     a daemon without live bytes: anon RSS only

source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh" # known_phase: the same schedule

# The series, t=1..15, in MB ("-" = not recorded).
_attr_live=(10 10 10 15 20 12 10 15 20 12 10 15 20 12 10)
_attr_inflight=(16 16 16 528 1040 200 16 528 1040 200 16 528 1040 200 16)
declare -A _attr_heap _attr_trim _attr_frag _attr_unmap _attr_liveof _attr_cache _attr_anon
_attr_heap[glibc]="11 11 11 17 22 22 22 20 23 23 23 21 24 24 24"
_attr_trim[glibc]=".5 .5 .5 1 1 .5 .5 1 1 .5 .5 1 1 .5 .5"
_attr_frag[glibc]=".5 .5 .5 1 .5 9 11 4 1.5 10 12 5 2.5 11 13"
_attr_unmap[glibc]="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
_attr_heap[jemalloc]="11 11 11 17 22 22 22 18 22 22 22 18 22 22 22"
_attr_trim[jemalloc]=".5 .5 .5 1 1 9.5 11.5 2.5 1 9.5 11.5 2.5 1 9.5 11.5"
_attr_frag[jemalloc]=".25 .25 .25 .25 .25 .25 .25 .25 .25 .25 .25 .25 .25 .25 .25"
_attr_unmap[jemalloc]="2 2 2 2 2 2 2 2 2 2 2 2 2 2 2"
_attr_heap[tcmalloc]="11 11 11 17 22 22 22 18 22 22 22 18 22 22 22"
_attr_trim[tcmalloc]=".5 .5 .5 1 1 8 10 2 1 8 10 2 1 8 10"
_attr_frag[tcmalloc]=".5 .5 .5 .5 .5 1.5 1.5 .5 .5 1.5 1.5 .5 .5 1.5 1.5"
_attr_unmap[tcmalloc]="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
_attr_heap[musl]="11 11 11 17 22 13 11 17 22 13 11 17 22 13 11"
_attr_liveof[filling]="10 10 10 13 17 16.5 16 19 23 22.5 22 25 29 28.5 28"
_attr_cache[filling]="8 8 8 11 14 14 14 17 20 20 20 23 26 26 26"
_attr_anon[kresd]="14 14 14 20 25 24.5 24.5 26 28 27.5 27.5 29 31 30.5 30.5"

# attr_series VARIANT : prints "t anon_mb live_mb heap_mb trim_mb frag_mb unmap_mb inflight cache_mb"
# for t=1..15.
attr_series() {
	local v=$1 t i live heap trim frag unmap anon cache inflight
	local -a L H T F U C A
	read -ra L <<<"${_attr_liveof[$v]:-${_attr_live[*]}}"
	read -ra C <<<"${_attr_cache[$v]:-8 8 8 8 8 8 8 8 8 8 8 8 8 8 8}"
	read -ra A <<<"${_attr_anon[$v]:-}"
	case $v in
	filling)
		for i in "${!L[@]}"; do H[i]=$(awk "BEGIN{print ${L[i]} + 1}"); done
		read -ra T <<<".5 .5 .5 .5 .5 .5 .5 .5 .5 .5 .5 .5 .5 .5 .5"
		F=("${T[@]}")
		read -ra U <<<"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
		;;
	kresd) ;;
	*)
		read -ra H <<<"${_attr_heap[$v]}"
		read -ra T <<<"${_attr_trim[$v]:-}"
		read -ra F <<<"${_attr_frag[$v]:-}"
		read -ra U <<<"${_attr_unmap[$v]:-}"
		;;
	esac
	for ((i = 0; i < 15; i++)); do
		t=$((i + 1))
		if [[ $v == kresd ]]; then
			echo "$t ${A[i]} - - - - - - -"
			continue
		fi
		heap=${H[i]}
		anon=$(awk "BEGIN{print $heap + 3}")
		echo "$t $anon ${L[i]} $heap ${T[i]:--} ${F[i]:--} ${U[i]:--} ${_attr_inflight[i]} ${C[i]}"
	done
}

# attributed_run DIR : the run folder.
attributed_run() {
	local dir=$1
	mkdir -p "$dir"
	cat >"$dir/run.json" <<'EOF'
{"format": 1, "status": "completed", "scenario": "spike", "started": "2026-11-30T23:00:00Z",
 "ended": "2026-11-30T23:00:16Z",
 "parameters": {"schedule": "warmup:2s@100,baseline:1s@100,3*(spike:2s@1000,recovery:2s@100)",
   "mode": "parallel", "interval_ms": 1000,
   "hierarchy": {"seed": 7, "latency_ms_median": 25, "latency_ms_p99": 250, "loss": 0.04},
   "resolver": {"cache_size_bytes": 104857600, "max_inflight": 65536, "memory_layout": "heap"}},
 "variants": [
   {"name": "glibc", "kind": "build", "allocator": "glibc", "libc": "glibc", "library": "-",
    "base": "-", "env": "-", "note": "system malloc"},
   {"name": "jemalloc", "kind": "env", "allocator": "jemalloc", "libc": "glibc", "library": "-",
    "base": "jemalloc", "env": "MALLOC_CONF=dirty_decay_ms:-1", "note": "no decay"},
   {"name": "tcmalloc", "kind": "env", "allocator": "tcmalloc", "libc": "glibc", "library": "-",
    "base": "tcmalloc", "env": "TCMALLOC_RELEASE_RATE=0", "note": "never releases"},
   {"name": "musl", "kind": "build", "allocator": "mallocng", "libc": "musl", "library": "-",
    "base": "-", "env": "-", "note": "mallocng"},
   {"name": "filling", "kind": "build", "allocator": "glibc", "libc": "glibc", "library": "-",
    "base": "-", "env": "-", "note": "cache still filling"},
   {"name": "kresd", "kind": "preload", "allocator": "jemalloc", "libc": "glibc", "library": "-",
    "base": "kresd", "env": "-", "note": "daemon without the sampler"}],
 "machine": {"cores": 2, "memory_kb": 8388608, "kernel": "6.1.0-test-kernel", "thp": "never",
   "open_files_limit": 65536},
 "queryfile": {"path": "generated:seed=7", "stats": {"queries": 1000}},
 "calibration": null}
EOF
	: >"$dir/events.jsonl"
	local v phase spike t anon live heap trim frag unmap inflight cache
	{
		echo "t_s,variant,phase,spike,offered,sent,answered,timeouts,noerror,nxdomain,servfail,rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,rss_kb,anon_kb,pss_kb,hwm_kb,cpu_user_s,cpu_sys_s,cache_entries,cache_bytes,inflight,upstream_queries,alloc_allocated_bytes,alloc_resident_bytes,live_bytes,alloc_heap_bytes,alloc_free_trimmable_bytes,alloc_free_fragmented_bytes,alloc_unmapped_bytes"
		for v in glibc jemalloc tcmalloc musl filling kresd; do
			attr_series "$v" | while read -r t anon live heap trim frag unmap inflight cache; do
				known_phase "$t"
				awk -v t="$t" -v v="$v" -v phase="$phase" -v spike="$spike" -v anon="$anon" \
					-v live="$live" -v heap="$heap" -v trim="$trim" -v frag="$frag" \
					-v unmap="$unmap" -v inflight="$inflight" -v cache="$cache" '
					function b(mb) { return mb == "-" ? "" : sprintf("%d", mb * 1048576) }
					function n(x) { return x == "-" ? "" : x }
					BEGIN {
						off = phase == "spike" ? 1000 : 100
						printf "%d,%s,%s,%d,%d,%d,%d,0,%d,0,0,0,2,5,10,%d,%d,,,%.1f,0,%s,%s,%s,,,,%s,%s,%s,%s,%s\n",
							t, v, phase, spike, off, off, off, off,
							anon * 1024 + 5000, anon * 1024, 0.1 * t,
							cache == "-" ? "" : 1000, b(cache), n(inflight),
							b(live), b(heap), b(trim), b(frag), b(unmap)
					}'
			done
		done
	} >"$dir/timeline.csv"
}

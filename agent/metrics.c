/* agent/metrics.c - the agent's figures, one table (metrics.h). */
#include "metrics.h"

#include <math.h>

static double kb_bytes(long kb)
{
	return kb < 0 ? NAN : kb * 1024.0;
}

/* /proc figures exist while the target is up; control figures when its socket answered. */
#define PROC_VALUE(fn, expr)                                                                       \
	static double fn(const struct agent_sample *a)                                             \
	{                                                                                          \
		return a->up ? (expr) : NAN;                                                       \
	}
#define CONTROL_VALUE(fn, field)                                                                   \
	static double fn(const struct agent_sample *a)                                             \
	{                                                                                          \
		return a->up && a->control_ok ? a->stats.field : NAN;                              \
	}

static double up(const struct agent_sample *a)
{
	return a->up;
}
static double read_s(const struct agent_sample *a)
{
	return (double)(a->read_end_ns - a->read_start_ns) / 1e9;
}
PROC_VALUE(rss, kb_bytes(a->proc.rss_kb))
PROC_VALUE(anon, kb_bytes(a->proc.anon_kb))
PROC_VALUE(cpu_user, a->proc.cpu_user_s)
PROC_VALUE(cpu_sys, a->proc.cpu_sys_s)
CONTROL_VALUE(live, live_bytes)
CONTROL_VALUE(live_max, live_bytes_max)
CONTROL_VALUE(heap, alloc_heap_bytes)
CONTROL_VALUE(trimmable, alloc_free_trimmable_bytes)
CONTROL_VALUE(fragmented, alloc_free_fragmented_bytes)
CONTROL_VALUE(unmapped, alloc_unmapped_bytes)
CONTROL_VALUE(inflight, inflight)
CONTROL_VALUE(inflight_max, inflight_max)
CONTROL_VALUE(cache_bytes, cache_bytes)
CONTROL_VALUE(cache_entries, cache_entries)
CONTROL_VALUE(upstream_queries, upstream_queries)

const struct agent_metric AGENT_METRICS[] = {
    {"allocspike_target_up", NULL, "up", "gauge",
     "1 while the target process is there (same PID and start time), else 0.", up},
    {"allocspike_sample_duration_seconds", NULL, "read_s", "gauge", "How long the read took.",
     read_s},
    {"allocspike_resident_memory_bytes", NULL, "rss_bytes", "gauge", "Resident set size (VmRSS).",
     rss},
    {"allocspike_anonymous_memory_bytes", NULL, "anon_bytes", "gauge",
     "Resident anonymous memory (RssAnon): what the allocator and the stacks hold.", anon},
    {"allocspike_cpu_seconds_total", "mode=\"user\"", "cpu_user_s", "counter",
     "CPU time of the target by mode.", cpu_user},
    {"allocspike_cpu_seconds_total", "mode=\"system\"", "cpu_sys_s", "counter",
     "CPU time of the target by mode.", cpu_sys},
    {"allocspike_live_bytes", NULL, "live_bytes", "gauge",
     "Bytes the resolver has allocated and not freed.", live},
    {"allocspike_live_bytes_max", NULL, "live_bytes_max", "gauge",
     "The most live bytes since the agent's previous read.", live_max},
    {"allocspike_allocator_heap_bytes", NULL, "alloc_heap_bytes", "gauge",
     "Resident memory the allocator holds (docs/allocator-stats.md).", heap},
    {"allocspike_allocator_free_trimmable_bytes", NULL, "alloc_free_trimmable_bytes", "gauge",
     "Free memory the allocator could return to the system now.", trimmable},
    {"allocspike_allocator_free_fragmented_bytes", NULL, "alloc_free_fragmented_bytes", "gauge",
     "Free memory the allocator holds that it cannot return.", fragmented},
    {"allocspike_allocator_unmapped_bytes", NULL, "alloc_unmapped_bytes", "gauge",
     "Address space the allocator keeps reserved without resident pages.", unmapped},
    {"allocspike_requests_inflight", NULL, "inflight", "gauge", "Requests being resolved.",
     inflight},
    {"allocspike_requests_inflight_max", NULL, "inflight_max", "gauge",
     "The most requests in flight since the agent's previous read.", inflight_max},
    {"allocspike_cache_bytes", NULL, "cache_bytes", "gauge", "Bytes the resolver's cache holds.",
     cache_bytes},
    {"allocspike_cache_entries", NULL, "cache_entries", "gauge", "Entries in the resolver's cache.",
     cache_entries},
    {"allocspike_upstream_queries_total", NULL, "upstream_queries", "counter",
     "Queries the resolver has sent to authoritative servers.", upstream_queries},
};
const size_t AGENT_METRICS_COUNT = sizeof(AGENT_METRICS) / sizeof(AGENT_METRICS[0]);

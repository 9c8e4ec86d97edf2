/* common/timeline_columns.h - the columns of timeline.csv and the numeric columns of phases.csv in
 * order (docs/run-folder.md); the one list of each, for their writer and their reader. */
#ifndef ALLOCSPIKE_TIMELINE_COLUMNS_H
#define ALLOCSPIKE_TIMELINE_COLUMNS_H

#define TIMELINE_COLUMNS(X)                                                                        \
	X(t_s)                                                                                     \
	X(variant)                                                                                 \
	X(phase)                                                                                   \
	X(spike)                                                                                   \
	X(offered)                                                                                 \
	X(sent)                                                                                    \
	X(answered)                                                                                \
	X(timeouts)                                                                                \
	X(noerror)                                                                                 \
	X(nxdomain)                                                                                \
	X(servfail)                                                                                \
	X(rcode_other)                                                                             \
	X(lat_p50_ms)                                                                              \
	X(lat_p90_ms)                                                                              \
	X(lat_p99_ms)                                                                              \
	X(rss_kb)                                                                                  \
	X(anon_kb)                                                                                 \
	X(pss_kb)                                                                                  \
	X(hwm_kb)                                                                                  \
	X(cpu_user_s)                                                                              \
	X(cpu_sys_s)                                                                               \
	X(cache_entries)                                                                           \
	X(cache_bytes)                                                                             \
	X(inflight)                                                                                \
	X(upstream_queries)                                                                        \
	X(alloc_allocated_bytes)                                                                   \
	X(alloc_resident_bytes)                                                                    \
	X(live_bytes)                                                                              \
	X(alloc_heap_bytes)                                                                        \
	X(alloc_free_trimmable_bytes)                                                              \
	X(alloc_free_fragmented_bytes)                                                             \
	X(alloc_unmapped_bytes)                                                                    \
	X(late_or_foreign)                                                                         \
	X(request_list_current)                                                                    \
	X(request_list_exceeded)                                                                   \
	X(request_list_overwritten)                                                                \
	X(inflight_max)                                                                            \
	X(live_bytes_max)

enum timeline_column {
#define TIMELINE_COLUMN_ENUM(name) TIMELINE_COL_##name,
	TIMELINE_COLUMNS(TIMELINE_COLUMN_ENUM)
#undef TIMELINE_COLUMN_ENUM
	    TIMELINE_COLUMN_COUNT
};

/* phases.csv: variant, phase, spike, then these (the per-query counts of one phase instance, by
 * the send time of each query). */
#define PHASES_COLUMNS(X)                                                                          \
	X(sent)                                                                                    \
	X(answered)                                                                                \
	X(timeouts)                                                                                \
	X(pending)                                                                                 \
	X(late_or_foreign)                                                                         \
	X(noerror)                                                                                 \
	X(nxdomain)                                                                                \
	X(servfail)                                                                                \
	X(rcode_other)                                                                             \
	X(lat_p50_ms)                                                                              \
	X(lat_p90_ms)                                                                              \
	X(lat_p99_ms)                                                                              \
	X(lat_p999_ms)                                                                             \
	X(lat_max_ms)

enum phases_column {
#define PHASES_COLUMN_ENUM(name) PHASES_COL_##name,
	PHASES_COLUMNS(PHASES_COLUMN_ENUM)
#undef PHASES_COLUMN_ENUM
	    PHASES_COLUMN_COUNT
};

/* phases.csv's header line, made from the same list. */
#define PHASES_HEADER_PART(name) "," #name
#define PHASES_HEADER "variant,phase,spike" PHASES_COLUMNS(PHASES_HEADER_PART)

#endif

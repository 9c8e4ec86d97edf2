/* agent/exposition.c - the Prometheus text exposition of the agent's latest sample. Names follow
 * Prometheus' conventions: base units (bytes, seconds), "_total" for counters. */
#include "exposition.h"

#include <math.h>

/* A label value with the three characters the format escapes escaped. */
static void write_label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", out);
		else if (*v == '"')
			fputs("\\\"", out);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

static void write_labels(FILE *out, const struct agent_labels *l, const char *extra)
{
	fputs("{run=\"", out);
	write_label_value(out, l->run);
	fputs("\",host=\"", out);
	write_label_value(out, l->host);
	fputs("\",variant=\"", out);
	write_label_value(out, l->variant);
	fputc('"', out);
	if (extra)
		fprintf(out, ",%s", extra);
	fputs("}", out);
}

static void write_header(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One sample line: 16 significant digits, a realtime stamp to the microsecond, integers exact. */
static void write_value(FILE *out, const struct agent_labels *l, const char *name,
                        const char *extra, double value)
{
	fputs(name, out);
	write_labels(out, l, extra);
	fprintf(out, " %.16g\n", value);
}

/* A gauge or counter with one series, left out whole when value is NAN. */
static void metric(FILE *out, const struct agent_labels *l, const char *name, const char *type,
                   const char *help, double value)
{
	if (isnan(value))
		return;
	write_header(out, name, type, help);
	write_value(out, l, name, NULL, value);
}

void exposition_write(FILE *out, const struct agent_labels *l, const struct agent_sampler *s)
{
	const struct agent_sample *a = &s->last;
	metric(out, l, "allocspike_agent_samples_total", "counter",
	       "Reads of the target the agent has made.", (double)s->samples);
	metric(out, l, "allocspike_agent_control_failures_total", "counter",
	       "Reads whose control socket did not answer.", (double)s->control_failures);
	if (s->samples == 0)
		return;
	metric(out, l, "allocspike_target_up", "gauge",
	       "1 while the target process is there (same PID and start time), else 0.", a->up);
	metric(out, l, "allocspike_sample_start_timestamp_seconds", "gauge",
	       "The agent's CLOCK_REALTIME when the latest read started.",
	       (double)a->read_start_ns / 1e9);
	metric(out, l, "allocspike_sample_duration_seconds", "gauge",
	       "How long the latest read took.", (double)(a->read_end_ns - a->read_start_ns) / 1e9);
	if (!a->up)
		return;
	const struct proc_sample *p = &a->proc;
	metric(out, l, "allocspike_resident_memory_bytes", "gauge", "Resident set size (VmRSS).",
	       p->rss_kb < 0 ? NAN : p->rss_kb * 1024.0);
	metric(out, l, "allocspike_anonymous_memory_bytes", "gauge",
	       "Resident anonymous memory (RssAnon): what the allocator and the stacks hold.",
	       p->anon_kb < 0 ? NAN : p->anon_kb * 1024.0);
	write_header(out, "allocspike_cpu_seconds_total", "counter",
	             "CPU time of the target by mode.");
	write_value(out, l, "allocspike_cpu_seconds_total", "mode=\"user\"", p->cpu_user_s);
	write_value(out, l, "allocspike_cpu_seconds_total", "mode=\"system\"", p->cpu_sys_s);
	if (!a->control_ok)
		return;
	const struct control_stats *c = &a->stats;
	metric(out, l, "allocspike_live_bytes", "gauge",
	       "Bytes the resolver has allocated and not freed.", c->live_bytes);
	metric(out, l, "allocspike_live_bytes_max", "gauge",
	       "The most live bytes since the agent's previous read.", c->live_bytes_max);
	metric(out, l, "allocspike_allocator_heap_bytes", "gauge",
	       "Resident memory the allocator holds (docs/allocator-stats.md).",
	       c->alloc_heap_bytes);
	metric(out, l, "allocspike_allocator_free_trimmable_bytes", "gauge",
	       "Free memory the allocator could return to the system now.",
	       c->alloc_free_trimmable_bytes);
	metric(out, l, "allocspike_allocator_free_fragmented_bytes", "gauge",
	       "Free memory the allocator holds that it cannot return.",
	       c->alloc_free_fragmented_bytes);
	metric(out, l, "allocspike_allocator_unmapped_bytes", "gauge",
	       "Address space the allocator keeps reserved without resident pages.",
	       c->alloc_unmapped_bytes);
	metric(out, l, "allocspike_requests_inflight", "gauge", "Requests being resolved.",
	       c->inflight);
	metric(out, l, "allocspike_requests_inflight_max", "gauge",
	       "The most requests in flight since the agent's previous read.", c->inflight_max);
	metric(out, l, "allocspike_cache_bytes", "gauge", "Bytes the resolver's cache holds.",
	       c->cache_bytes);
	metric(out, l, "allocspike_cache_entries", "gauge", "Entries in the resolver's cache.",
	       c->cache_entries);
	metric(out, l, "allocspike_upstream_queries_total", "counter",
	       "Queries the resolver has sent to authoritative servers.", c->upstream_queries);
}

/* resolver/stats.c - counters to JSON, with the allocator's own byte counts from common/alloc_info.
 */
#include "stats.h"

#include <jansson.h>

#include "alloc_info.h"
#include "cache.h"
#include "msg.h"
#include "request.h"
#include "resolver.h"

void stats_count_answer(struct stats *s, int rcode)
{
	if (rcode == RCODE_NOERROR)
		s->answers_noerror++;
	else if (rcode == RCODE_NXDOMAIN)
		s->answers_nxdomain++;
	else if (rcode == RCODE_SERVFAIL)
		s->answers_servfail++;
	else if (rcode == RCODE_REFUSED)
		s->answers_refused++;
	else
		s->answers_other++;
}

static json_t *stats_bytes_or_null(bool ok, size_t v)
{
	return ok ? json_integer((json_int_t)v) : json_null();
}

char *stats_to_json(struct resolver *r)
{
	static struct alloc_info info;
	static int detected;
	if (!detected) {
		alloc_info_detect(&info);
		detected = 1;
	}
	size_t allocated = 0, resident = 0;
	bool ok = alloc_info_stats(&info, &allocated, &resident);
	const struct stats *s = &r->stats;
	json_t *o = json_object();
	json_object_set_new(o, "queries", json_integer((json_int_t)s->queries));
	json_object_set_new(o, "answers_noerror", json_integer((json_int_t)s->answers_noerror));
	json_object_set_new(o, "answers_nxdomain", json_integer((json_int_t)s->answers_nxdomain));
	json_object_set_new(o, "answers_servfail", json_integer((json_int_t)s->answers_servfail));
	json_object_set_new(o, "answers_refused", json_integer((json_int_t)s->answers_refused));
	json_object_set_new(o, "cache_hits", json_integer((json_int_t)s->cache_hits));
	json_object_set_new(o, "cache_misses", json_integer((json_int_t)s->cache_misses));
	json_object_set_new(o, "cache_entries", json_integer((json_int_t)cache_entries(r->cache)));
	json_object_set_new(o, "cache_bytes", json_integer((json_int_t)cache_bytes(r->cache)));
	json_object_set_new(o, "inflight", json_integer((json_int_t)request_inflight(r)));
	json_object_set_new(o, "upstream_queries", json_integer((json_int_t)s->upstream_queries));
	json_object_set_new(o, "upstream_timeouts", json_integer((json_int_t)s->upstream_timeouts));
	json_object_set_new(o, "dropped_malformed", json_integer((json_int_t)s->dropped_malformed));
	json_object_set_new(o, "dropped_overload", json_integer((json_int_t)s->dropped_overload));
	json_object_set_new(o, "alloc_allocated_bytes", stats_bytes_or_null(ok, allocated));
	json_object_set_new(o, "alloc_resident_bytes", stats_bytes_or_null(ok, resident));
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return text;
}

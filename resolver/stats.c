/* resolver/stats.c - counters to JSON, with live bytes (common/live_bytes) and the allocator's
 * own statistics (common/alloc_stats). */
#include "stats.h"

#include <jansson.h>

#include "alloc_info.h"
#include "alloc_stats.h"
#include "cache.h"
#include "infra.h"
#include "live_bytes.h"
#include "msg.h"
#include "overload.h"

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

static json_t *stats_bytes_or_null(long long v)
{
	return v == ALLOC_STATS_UNKNOWN ? json_null() : json_integer((json_int_t)v);
}

/* The `alloc` object as common/alloc_stats writes it (one serializer, shared with the daemon
 * sampler, which cannot use jansson). */
static json_t *stats_alloc_object(const struct alloc_stats *as)
{
	char text[2048];
	size_t len = alloc_stats_json(as, text, sizeof(text));
	json_t *o = len ? json_loadb(text, len, 0, NULL) : NULL;
	return o ? o : json_null();
}

char *stats_to_json(const struct stats *s, const struct cache *c, const struct infra_stats *is,
                    size_t inflight, size_t inflight_max, const struct overload *ol,
                    size_t tcp_open, size_t tls_open, size_t tcp_conn_bytes)
{
	static struct alloc_info info;
	static int detected;
	if (!detected) {
		alloc_info_detect(&info);
		detected = 1;
	}
	struct alloc_stats as;
	alloc_stats_read(&info, &as);
	struct live_bytes live;
	bool have_live = live_bytes_get(&live);
	size_t live_max = 0;
	bool have_live_max = live_bytes_get_max(&live_max);
	json_t *o = json_object();
	json_object_set_new(o, "queries", json_integer((json_int_t)s->queries));
	json_object_set_new(o, "answers_noerror", json_integer((json_int_t)s->answers_noerror));
	json_object_set_new(o, "answers_nxdomain", json_integer((json_int_t)s->answers_nxdomain));
	json_object_set_new(o, "answers_servfail", json_integer((json_int_t)s->answers_servfail));
	json_object_set_new(o, "answers_refused", json_integer((json_int_t)s->answers_refused));
	json_object_set_new(o, "cache_hits", json_integer((json_int_t)s->cache_hits));
	json_object_set_new(o, "cache_misses", json_integer((json_int_t)s->cache_misses));
	json_object_set_new(o, "cache_entries", json_integer((json_int_t)cache_entries(c)));
	json_object_set_new(o, "cache_bytes", json_integer((json_int_t)cache_bytes(c)));
	json_object_set_new(o, "inflight", json_integer((json_int_t)inflight));
	json_object_set_new(o, "inflight_max", json_integer((json_int_t)inflight_max));
	json_object_set_new(o, "upstream_queries", json_integer((json_int_t)s->upstream_queries));
	json_object_set_new(o, "upstream_timeouts", json_integer((json_int_t)s->upstream_timeouts));
	json_object_set_new(o, "dropped_malformed", json_integer((json_int_t)s->dropped_malformed));
	json_object_set_new(o, "dropped_overload", json_integer((json_int_t)s->dropped_overload));
	json_object_set_new(o, "alloc_allocated_bytes", stats_bytes_or_null(as.allocated));
	json_object_set_new(o, "alloc_resident_bytes", stats_bytes_or_null(as.heap));
	json_object_set_new(o, "live_bytes",
	                    have_live ? json_integer((json_int_t)live.bytes) : json_null());
	json_object_set_new(o, "live_blocks",
	                    have_live ? json_integer((json_int_t)live.blocks) : json_null());
	json_object_set_new(o, "live_bytes_max",
	                    have_live_max ? json_integer((json_int_t)live_max) : json_null());
	json_object_set_new(o, "alloc", stats_alloc_object(&as));
	json_object_set_new(o, "infra_entries", json_integer((json_int_t)is->entries));
	json_object_set_new(o, "infra_measured", json_integer((json_int_t)is->measured));
	json_object_set_new(o, "infra_held_down", json_integer((json_int_t)is->held_down));
	json_object_set_new(o, "infra_srtt_max_ms", json_integer((json_int_t)is->srtt_max_ms));
	json_object_set_new(o, "request_list_current",
	                    json_integer((json_int_t)overload_current(ol)));
	json_object_set_new(o, "request_list_exceeded", json_integer((json_int_t)ol->exceeded));
	json_object_set_new(o, "request_list_overwritten",
	                    json_integer((json_int_t)ol->overwritten));
	json_object_set_new(o, "tcp_open", json_integer((json_int_t)tcp_open));
	json_object_set_new(o, "tcp_conn_bytes", json_integer((json_int_t)tcp_conn_bytes));
	json_object_set_new(o, "tcp_accepted", json_integer((json_int_t)s->tcp_accepted));
	json_object_set_new(o, "tcp_refused", json_integer((json_int_t)s->tcp_refused));
	json_object_set_new(o, "tcp_closed_idle", json_integer((json_int_t)s->tcp_closed_idle));
	json_object_set_new(o, "tcp_closed_for_room",
	                    json_integer((json_int_t)s->tcp_closed_for_room));
	json_object_set_new(o, "tcp_closed_bad", json_integer((json_int_t)s->tcp_closed_bad));
	json_object_set_new(o, "tcp_closed_slow", json_integer((json_int_t)s->tcp_closed_slow));
	json_object_set_new(o, "tcp_closed_by_client",
	                    json_integer((json_int_t)s->tcp_closed_by_client));
	json_object_set_new(o, "tls_open", json_integer((json_int_t)tls_open));
	json_object_set_new(o, "tls_handshakes", json_integer((json_int_t)s->tls_handshakes));
	json_object_set_new(o, "tls_handshake_failures",
	                    json_integer((json_int_t)s->tls_handshake_failures));
	json_object_set_new(o, "tls_resumed", json_integer((json_int_t)s->tls_resumed));
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return text;
}

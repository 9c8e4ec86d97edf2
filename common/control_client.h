/* common/control_client.h - asks a resolver for its `stats` over its Unix control socket (the
 * generator's sampler and the agent), and any control channel one line (control_ask). */
#ifndef ALLOCSPIKE_CONTROL_CLIENT_H
#define ALLOCSPIKE_CONTROL_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

/* The stats keys that become timeline columns; NAN when absent or null (musl has no allocator
 * statistics, for example). */
struct control_stats {
	double cache_entries, cache_bytes, inflight, upstream_queries;
	double alloc_allocated_bytes, alloc_resident_bytes;
	double live_bytes, alloc_heap_bytes, alloc_free_trimmable_bytes,
	    alloc_free_fragmented_bytes, alloc_unmapped_bytes;
	double request_list_current, request_list_exceeded, request_list_overwritten;
	double inflight_max, live_bytes_max; /* high-water marks since the previous read */
	/* client connections (docs/resolver.md, "TCP clients"): open ones (of them over TLS), the
	 * bytes they hold; NAN from a resolver without them */
	double tcp_open, tls_open, tcp_conn_bytes;
};

/* What ended control_ask's read. */
enum control_ask_end { CONTROL_ASK_ENDED, CONTROL_ASK_CLOSED, CONTROL_ASK_TIMED_OUT };

/* Connects to the Unix stream socket path, sends text and reads the answer into buf (NUL-ended, at
 * most size - 1 bytes) until the byte end arrives, the peer closes or timeout_ms passes (*how
 * says which). The bytes read, or -1 (with a reason) when it could not connect or send, or the
 * answer outgrew buf. */
ssize_t control_ask(const char *path, const char *text, char end, int timeout_ms, char *buf,
                    size_t size, enum control_ask_end *how, char *err, size_t err_size);

/* Connects to path, sends "stats\n", reads one JSON object line; gives up after timeout_ms. The
 * object as it came (the caller's to json_decref), or NULL (with a reason) when none came in time
 * or the line is no JSON object. */
json_t *control_stats_object(const char *path, int timeout_ms, char *err, size_t err_size);

/* control_stats_object's answer read into out (the keys above).
 * False (with a reason) when the resolver does not answer in time or answers nonsense. */
bool control_stats(const char *path, int timeout_ms, struct control_stats *out, char *err,
                   size_t err_size);

#endif

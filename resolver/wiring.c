/* resolver/wiring.c - the resolver's sockets connected to its logic (see wiring.h). */
#include "wiring.h"

#include "control_server.h"
#include "infra.h"
#include "request.h"
#include "resolver.h"
#include "server.h"
#include "stats.h"
#include "stream.h"
#include "upstream.h"

static const struct upstream_handlers wiring_upstream = {
    .sent = request_upstream_sent,
    .reply = request_upstream_reply,
    .failed = request_upstream_failed,
};

void wiring_connect(struct resolver *r)
{
	r->upstream = &wiring_upstream;
}

int wiring_open_server(struct resolver *r, char *err, size_t err_size)
{
	return server_open(r, request_handle_query, err, err_size);
}

static char *wiring_stats_text(void *arg)
{
	struct resolver *r = arg;
	struct infra_stats is;
	infra_get_stats(r->infra, resolver_now_ms(), &is);
	struct stream_figures sf;
	stream_get_figures(r, &sf);
	return stats_to_json(&r->stats, r->cache, &is, request_inflight(r),
	                     request_inflight_take_max(r), request_overload(r), sf.open,
	                     sf.bytes);
}

struct control_server *wiring_open_control(struct resolver *r, const char *path, char *err,
                                           size_t err_size)
{
	return control_server_open(r->base, path, wiring_stats_text, r, err, err_size);
}

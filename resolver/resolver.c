/* resolver/resolver.c - process-wide helpers: default settings, the cache's clock. */
#include "resolver.h"

#include <string.h>
#include <time.h>

#include "infra.h"

void resolver_config_defaults(struct resolver_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->upstream_port = 53;
	cfg->cache_size = 64u << 20;
	cfg->max_ttl = 86400;         /* unbound cache-max-ttl, kresd cache.max_ttl */
	cfg->max_negative_ttl = 3600; /* unbound cache-max-negative-ttl */
	cfg->max_inflight = 65536;
	cfg->max_udp_size = 1232; /* unbound max-udp-size, the DNS flag day 2020 figure */
	cfg->tcp = true;
	cfg->tcp_idle_timeout_ms = 10000; /* kresd's net.tcp_in_idle (docs/resolver.md) */
	cfg->tcp_max_connections = 1024;
	cfg->upstream_timeout_ms = INFRA_MAX_TIMEOUT_MS;
	cfg->upstream_timeout_min_ms = INFRA_MIN_TIMEOUT_MS;
	cfg->layout = LAYOUT_HEAP;
	cfg->overload_policy = overload_policy_for_layout(LAYOUT_HEAP);
	cfg->request_list = OVERLOAD_UNBOUND_REQUEST_LIST;
	cfg->jostle_timeout_ms = OVERLOAD_UNBOUND_JOSTLE_MS;
}

uint32_t resolver_now(void)
{
	struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
	clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
	/* +1 so that "expires at 0" can never look alive. */
	return (uint32_t)ts.tv_sec + 1;
}

uint64_t resolver_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

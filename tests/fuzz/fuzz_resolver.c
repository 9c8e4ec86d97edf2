/* tests/fuzz/fuzz_resolver.c - one resolver for the fuzz targets (see fuzz_resolver.h). */
#include "fuzz_resolver.h"

#include <event2/event.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "infra.h"
#include "request.h"
#include "wiring.h"

struct resolver fuzz_r;

const uint8_t fuzz_resolver_query[45] = {
    0x12, 0x34, 0x01, 0x00, 0,   1,   0,   0,    0,    0, 0,   1,   3,   'w', 'w',
    'w',  7,    'e',  'x',  'a', 'm', 'p', 'l',  'e',  4, 't', 'e', 's', 't', 0,
    0,    1,    0,    1,    0,   0,   41,  0x04, 0xD0, 0, 0,   0,   0,   0,   0,
};
const uint8_t fuzz_resolver_qname[18] = {3,   'w', 'w', 'w', 7,   'e', 'x', 'a', 'm',
                                         'p', 'l', 'e', 4,   't', 'e', 's', 't', 0};

static void fuzz_resolver_init(void)
{
	struct resolver_config *cfg = &fuzz_r.cfg;
	resolver_config_defaults(cfg);
	struct sockaddr_in *root = (struct sockaddr_in *)&cfg->roots[0].sa;
	root->sin_family = AF_INET;
	root->sin_port = htons(53);
	root->sin_addr.s_addr = htonl(0x7F000001);
	cfg->roots[0].len = sizeof(*root);
	cfg->n_roots = 1;
	cfg->max_inflight = 64;
	cfg->upstream_timeout_ms = 1000;
	cfg->upstream_offline = true;
	fuzz_r.base = event_base_new();
	if (!fuzz_r.base)
		abort();
	wiring_connect(&fuzz_r);
	static const uint8_t key[32] = {0}; /* reproducible runs */
	chacha_rng_seed_key(&fuzz_r.rng, key);
}

void fuzz_resolver_begin(bool kresd_layout)
{
	char err[256];
	if (!fuzz_r.base)
		fuzz_resolver_init();
	fuzz_r.cfg.layout = kresd_layout ? LAYOUT_KRESD : LAYOUT_HEAP;
	fuzz_r.cache = cache_create(64 * 1024, 86400, 3600, kresd_layout, err, sizeof(err));
	fuzz_r.requests = request_table_create(&fuzz_r.cfg);
	fuzz_r.infra = infra_create(64); /* fresh per input, like the cache: runs reproduce */
	if (!fuzz_r.cache || !fuzz_r.requests || !fuzz_r.infra)
		abort();
}

void fuzz_resolver_end(void)
{
	request_table_destroy(&fuzz_r);
	cache_destroy(fuzz_r.cache);
	fuzz_r.cache = NULL;
	infra_destroy(fuzz_r.infra);
	fuzz_r.infra = NULL;
}

void fuzz_resolver_client(const uint8_t *wire, size_t len)
{
	static uint8_t buf[65536];
	struct sockaddr_in client = {.sin_family = AF_INET, .sin_port = htons(5353)};
	client.sin_addr.s_addr = htonl(0x7F000001);
	if (len > sizeof(buf))
		len = sizeof(buf);
	memcpy(buf, wire, len);
	/* a UDP route whose socket is not one (/dev/null): answers are built whole, never sent */
	static int no_socket = -1;
	if (no_socket < 0 && (no_socket = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		abort();
	struct route from = {.fd = no_socket, .addrlen = sizeof(client)};
	memcpy(&from.addr, &client, sizeof(client));
	request_handle_query(&fuzz_r, &from, buf, len);
}

bool fuzz_resolver_reply(const uint8_t *name, uint16_t type, const uint8_t *wire, size_t len)
{
	static uint8_t buf[65536];
	if (len > sizeof(buf))
		len = sizeof(buf);
	memcpy(buf, wire, len);
	if (request_inject_reply(&fuzz_r, name, type, buf, len) < 0)
		return false;
	event_base_loop(fuzz_r.base, EVLOOP_NONBLOCK);
	return true;
}

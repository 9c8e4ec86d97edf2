/* resolver/fuzz/fuzz_packet.c - libFuzzer target over the resolver's packet handling: client
 * queries and upstream replies (referrals, CNAMEs, negative answers, TC) in both memory layouts.
 *
 * Input: byte 0 picks the layout (bit 0) and the path (bit 1). Client path: the rest is one client
 * datagram. Upstream path: a fixed client query for www.example.test. A is started, then the rest
 * is a sequence of [u16 length][packet] replies, each delivered to whatever query is pending (its
 * ID patched in, so the fuzzer need not guess IDs). Built with RESOLVER_FUZZING, nothing is sent.
 */
#include <event2/event.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "request.h"
#include "resolver.h"
#include "upstream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct resolver fuzz_r;

static void fuzz_init(void)
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
	fuzz_r.base = event_base_new();
	static const uint8_t key[32] = {0}; /* reproducible runs */
	chacha_rng_seed_key(&fuzz_r.rng, key);
}

/* www.example.test. A, RD, EDNS 1232 */
static const uint8_t fuzz_query[] = {
    0x12, 0x34, 0x01, 0x00, 0,   1,   0,   0,    0,    0, 0,   1,   3,   'w', 'w',
    'w',  7,    'e',  'x',  'a', 'm', 'p', 'l',  'e',  4, 't', 'e', 's', 't', 0,
    0,    1,    0,    1,    0,   0,   41,  0x04, 0xD0, 0, 0,   0,   0,   0,   0,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[65536];
	char err[256];
	if (!fuzz_r.base)
		fuzz_init();
	if (size < 1)
		return 0;
	fuzz_r.cfg.layout = (data[0] & 1) ? LAYOUT_KRESD : LAYOUT_HEAP;
	fuzz_r.cache = cache_create(64 * 1024, 86400, 3600, data[0] & 1, err, sizeof(err));
	fuzz_r.requests = request_table_create(64);
	if (!fuzz_r.cache || !fuzz_r.requests)
		abort();
	struct sockaddr_in client = {.sin_family = AF_INET, .sin_port = htons(5353)};
	client.sin_addr.s_addr = htonl(0x7F000001);
	data++;
	size--;
	if (!(data[-1] & 2)) {
		memcpy(buf, data, size);
		request_handle_query(&fuzz_r, -1, buf, size, (struct sockaddr *)&client,
		                     sizeof(client));
	} else {
		request_handle_query(&fuzz_r, -1, fuzz_query, sizeof(fuzz_query),
		                     (struct sockaddr *)&client, sizeof(client));
		static const uint8_t qname[] = {3,   'w', 'w', 'w', 7,   'e', 'x', 'a', 'm',
		                                'p', 'l', 'e', 4,   't', 'e', 's', 't', 0};
		while (size >= 2) {
			size_t len = (size_t)((data[0] << 8) | data[1]);
			data += 2;
			size -= 2;
			if (len > size)
				len = size;
			struct request *q = request_find(&fuzz_r, qname, 1);
			if (!q)
				break;
			memcpy(buf, data, len);
			/* Pending glueless lookups get the packet too: they are requests of their
			 * own. */
			upstream_inject(q, buf, len);
			event_base_loop(fuzz_r.base, EVLOOP_NONBLOCK);
			data += len;
			size -= len;
		}
	}
	request_table_destroy(&fuzz_r);
	cache_destroy(fuzz_r.cache);
	fuzz_r.cache = NULL;
	return 0;
}

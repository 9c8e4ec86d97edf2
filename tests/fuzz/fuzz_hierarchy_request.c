/* tests/fuzz/fuzz_hierarchy_request.c - libFuzzer target over the hierarchy's request handling
 * (upstream/serve.c and the answer it builds): one packet to one simulated server.
 *
 * Input: byte 0 picks the server (its index in the plan, modulo its size) and bit 7 TCP; the
 * rest is the packet. A reply must be at least a DNS header. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct server_plan fuzz_plan;
static struct serve fuzz_sv;

static void fuzz_serve_init(void)
{
	struct server_plan_config cfg = {.block = "127.54.90.0/24", .seed = 5, .n = {4, 24, 96}};
	char err[256];
	if (!servers_plan_init(&fuzz_plan, &cfg, err, sizeof(err)))
		abort();
	struct netem_config nc = {.seed = 5, .window_s = 10}; /* no latency, no loss */
	fuzz_sv.world = (struct world){.seed = 5, .plan = &fuzz_plan};
	fuzz_sv.netem = netem_new(&nc);
	fuzz_sv.cache = replycache_new(1024);
	if (!fuzz_sv.netem || !fuzz_sv.cache)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (!fuzz_sv.netem)
		fuzz_serve_init();
	const struct server *s = &fuzz_plan.servers[(data[0] & 0x7f) % fuzz_plan.count];
	uint8_t *wire = NULL;
	size_t wire_len = 0;
	uint32_t delay;
	if (serve_packet(&fuzz_sv, s, 0x7f000001, 5353, data + 1, size - 1, data[0] & 0x80, 1.0,
	                 &wire, &wire_len, &delay)) {
		if (wire_len < 12)
			__builtin_trap();
		free(wire);
	}
	return 0;
}

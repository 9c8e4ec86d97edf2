/* tests/fuzz/fuzz_resolver_control.c - libFuzzer target over the resolver's control socket
 * (common/control_server.c serving the resolver's stats): one connection per input, the input sent as the client's bytes (lines,
 * partial lines, overlong lines, NULs), replies read, the connection closed.
 *
 * Input: the bytes a client sends. */
#include <stdio.h>
#include <stdlib.h>

#include "control_server.h"
#include "fuzz_resolver.h"
#include "fuzz_util.h"
#include "stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fuzz_path;

static char *fuzz_stats(void *r)
{
	return stats_to_json(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_resolver_begin(false);
	if (!fuzz_path) {
		char err[256];
		fuzz_path = fuzz_socket_path("resolver-control");
		if (!control_server_open(fuzz_r.base, fuzz_path, fuzz_stats, &fuzz_r, err, sizeof(err))) {
			fprintf(stderr, "fuzz_resolver_control: %s\n", err);
			abort();
		}
	}
	fuzz_control_exchange(fuzz_r.base, fuzz_path, data, size);
	fuzz_resolver_end();
	return 0;
}

/* tests/fuzz/fuzz_resolver_control.c - libFuzzer target over the resolver's control socket
 * (common/control_server.c serving the resolver's stats): one connection per input, the input sent
 * as the client's bytes (lines, partial lines, overlong lines, NULs), replies read, the connection
 * closed.
 *
 * Input: the bytes a client sends. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_resolver.h"
#include "fuzz_util.h"
#include "wiring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fuzz_path;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_resolver_begin(false);
	if (!fuzz_path) {
		char err[256];
		fuzz_path = fuzz_socket_path("resolver-control");
		if (!wiring_open_control(&fuzz_r, fuzz_path, err, sizeof(err))) {
			fprintf(stderr, "fuzz_resolver_control: %s\n", err);
			abort();
		}
	}
	fuzz_control_exchange(fuzz_r.base, fuzz_path, data, size);
	fuzz_resolver_end();
	return 0;
}

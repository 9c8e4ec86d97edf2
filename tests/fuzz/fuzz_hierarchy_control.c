/* tests/fuzz/fuzz_hierarchy_control.c - libFuzzer target over the hierarchy's control socket
 * (common/control_server.c as the hierarchy opens it): one connection per input, the input sent as
 * the client's bytes, replies read, the connection closed.
 *
 * Input: the bytes a client sends. */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control_server.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *fuzz_stats(void *ctx)
{
	return strdup("{\"queries\": 0}");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct event_base *base;
	static const char *path;
	if (!base) {
		char err[256];
		base = event_base_new();
		path = fuzz_socket_path("hierarchy-control");
		if (!base || !control_server_open(base, path, fuzz_stats, NULL, err, sizeof(err))) {
			fprintf(stderr, "fuzz_hierarchy_control: %s\n",
			        base ? err : "no event base");
			abort();
		}
	}
	fuzz_control_exchange(base, path, data, size);
	return 0;
}

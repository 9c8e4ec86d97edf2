/* tests/fuzz/fuzz_resolver_stream.c - libFuzzer target over the resolver's TCP clients
 * (resolver/stream.c): one connection per input (a socketpair's end adopted as a client from
 * 127.0.0.1), the input sent as the client's byte stream in pieces (length prefixes, pipelined
 * queries, short or garbage messages, a message cut anywhere), answers read, the connection
 * closed.
 *
 * Input: byte 0: bit 0 the memory layout (kresd when set), bits 1-7 the size of the pieces the
 * rest is sent in (0 means all at once); then the bytes a client sends. */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "fuzz_resolver.h"
#include "fuzz_util.h"
#include "request.h"
#include "stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_resolver_begin(data[0] & 1);
	size_t piece = data[0] >> 1;
	data++;
	size--;
	char err[256];
	if (stream_open(&fuzz_r, request_handle_query, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_resolver_stream: %s\n", err);
		abort();
	}
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0)
		abort();
	struct sockaddr_in client = {.sin_family = AF_INET, .sin_port = htons(5353)};
	client.sin_addr.s_addr = htonl(0x7F000001);
	stream_adopt(&fuzz_r, sv[0], (struct sockaddr *)&client, sizeof(client), false);
	fuzz_stream_exchange(fuzz_r.base, sv[1], data, size, piece ? piece : size);
	/* requests still in flight release their connection before the table goes */
	fuzz_resolver_end();
	stream_close(&fuzz_r);
	return 0;
}

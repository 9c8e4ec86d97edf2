/* tests/fuzz/fuzz_packet.c - libFuzzer target over the resolver's packet handling: client queries
 * and upstream replies (referrals, CNAMEs, negative answers, TC) in both memory layouts.
 *
 * Input: byte 0 picks the layout (bit 0) and the path (bit 1). Client path: the rest is one client
 * datagram. Upstream path: the client query for www.example.test. A is started, then the rest is a
 * sequence of [u16 length][packet] replies, each delivered to that query while it is pending (its
 * ID patched in, so the fuzzer need not guess IDs). Glueless lookups it starts have their own
 * target (fuzz_glueless.c). */
#include <stdint.h>

#include "fuzz_resolver.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t mode = data[0];
	fuzz_resolver_begin(mode & 1);
	data++;
	size--;
	if (!(mode & 2)) {
		fuzz_resolver_client(data, size);
	} else {
		fuzz_resolver_client(fuzz_resolver_query, sizeof(fuzz_resolver_query));
		const uint8_t *reply;
		size_t len;
		while (fuzz_next_chunk(&data, &size, &reply, &len) &&
		       fuzz_resolver_reply(fuzz_resolver_qname, 1, reply, len))
			;
	}
	fuzz_resolver_end();
	return 0;
}

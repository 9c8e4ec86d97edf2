/* tests/fuzz/fuzz_capture.c - libFuzzer target over the capture reader (querydata/capture.c): a
 * pcap or pcapng file read by libpcap, its frames taken apart by our decoder (link layer, IPv4,
 * IPv6, UDP, TCP reassembly, the DNS question). Every name handed over must read back through the
 * query-file parser, and times never go backwards.
 *
 * Input: byte 0 bit 0 reads queries to any port (else to 53); the rest is the capture file. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "fuzz_util.h"
#include "queryfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_capture_query(void *ctx, const struct capture_query *q)
{
	uint64_t *last_ns = ctx;
	uint8_t wire[256];
	const char *reason;
	const char *name = q->question->name;
	if (queryfile_name_to_wire(name, strlen(name), wire, &reason) == 0)
		__builtin_trap(); /* a name written that the query file would refuse */
	if (q->t_ns < *last_ns)
		__builtin_trap();
	*last_ns = q->t_ns;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint16_t port = data[0] & 1 ? 0 : 53;
	char path[64], err[1400];
	int fd = fuzz_memfile(data + 1, size - 1, path, sizeof(path));
	static struct capture_stats st;
	uint64_t last_ns = 0;
	if (capture_read(path, port, fuzz_capture_query, &last_ns, &st, err, sizeof(err)) &&
	    st.queries != st.queries_udp + st.queries_tcp)
		__builtin_trap();
	close(fd);
	return 0;
}

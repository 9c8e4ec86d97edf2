/* tests/fuzz/fuzz_glueless.c - libFuzzer target over the replies to glueless name-server lookups:
 * the sub-requests the resolver starts for a delegation that names its servers without addresses.
 *
 * Input: byte 0 picks the layout (bit 0). The client query for www.example.test. A is started and
 * answered by a fixed referral: example.test. NS ns1.hosting.test. and ns2.hosting.test., no glue,
 * so the resolver looks those names up itself. The rest is a sequence of [u16 length][packet]
 * replies, each delivered (ID patched) to the first query in flight among ns1's and ns2's A
 * lookups, then the original query. */
#include <stdint.h>
#include <string.h>

#include "fuzz_resolver.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t fuzz_ns1[] = {3,   'n', 's', '1', 7,   'h', 'o', 's', 't',
                                   'i', 'n', 'g', 4,   't', 'e', 's', 't', 0};
static const uint8_t fuzz_ns2[] = {3,   'n', 's', '2', 7,   'h', 'o', 's', 't',
                                   'i', 'n', 'g', 4,   't', 'e', 's', 't', 0};

/* Appends an NS record example.test. -> ns at p (no compression); returns the new end. */
static uint8_t *fuzz_put_ns(uint8_t *p, const uint8_t *ns, size_t ns_len)
{
	static const uint8_t owner[] = {7,   'e', 'x', 'a', 'm', 'p', 'l',
	                                'e', 4,   't', 'e', 's', 't', 0};
	memcpy(p, owner, sizeof(owner));
	p += sizeof(owner);
	const uint8_t fixed[] = {0, 2, 0, 1, 0, 0, 0x0e, 0x10, 0, (uint8_t)ns_len}; /* NS IN 3600 */
	memcpy(p, fixed, sizeof(fixed));
	p += sizeof(fixed);
	memcpy(p, ns, ns_len);
	return p + ns_len;
}

/* The root's referral for www.example.test. A with two glueless name servers. */
static size_t fuzz_glueless_referral(uint8_t *buf)
{
	static const uint8_t head[] = {0, 0, 0x80, 0, 0, 1, 0, 0, 0, 2, 0, 0};
	uint8_t *p = buf;
	memcpy(p, head, sizeof(head));
	p += sizeof(head);
	memcpy(p, fuzz_resolver_qname, sizeof(fuzz_resolver_qname));
	p += sizeof(fuzz_resolver_qname);
	const uint8_t qtail[] = {0, 1, 0, 1};
	memcpy(p, qtail, sizeof(qtail));
	p += sizeof(qtail);
	p = fuzz_put_ns(p, fuzz_ns1, sizeof(fuzz_ns1));
	p = fuzz_put_ns(p, fuzz_ns2, sizeof(fuzz_ns2));
	return (size_t)(p - buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_resolver_begin(data[0] & 1);
	data++;
	size--;
	uint8_t referral[256];
	fuzz_resolver_client(fuzz_resolver_query, sizeof(fuzz_resolver_query));
	fuzz_resolver_reply(fuzz_resolver_qname, 1, referral, fuzz_glueless_referral(referral));
	const uint8_t *reply;
	size_t len;
	while (fuzz_next_chunk(&data, &size, &reply, &len) &&
	       (fuzz_resolver_reply(fuzz_ns1, 1, reply, len) ||
	        fuzz_resolver_reply(fuzz_ns2, 1, reply, len) ||
	        fuzz_resolver_reply(fuzz_resolver_qname, 1, reply, len)))
		;
	fuzz_resolver_end();
	return 0;
}

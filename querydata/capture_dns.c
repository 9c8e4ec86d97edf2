/* querydata/capture_dns.c - the question of a captured DNS message, in the query file's form. */
#include "capture_dns.h"

#include <stdbool.h>
#include <stdio.h>

static bool capture_dns_plain(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_' || c == '*';
}

enum capture_dns_kind capture_dns_read(const uint8_t *msg, size_t len,
                                       struct capture_dns_question *q)
{
	if (len < 12)
		return CAPTURE_DNS_MALFORMED;
	if (msg[2] & 0x80)
		return CAPTURE_DNS_RESPONSE;
	unsigned opcode = (msg[2] >> 3) & 0x0f;
	unsigned qdcount = (unsigned)(msg[4] << 8 | msg[5]);
	if (opcode != 0 || qdcount == 0)
		return CAPTURE_DNS_MALFORMED;
	size_t at = 12, out = 0, wire = 0;
	for (;;) {
		if (at >= len)
			return CAPTURE_DNS_MALFORMED;
		unsigned label = msg[at++];
		if (label == 0)
			break;
		if (label > 63) /* a compression pointer has nothing before it to point to */
			return CAPTURE_DNS_MALFORMED;
		wire += label + 1;
		if (wire > 254 || at + label > len)
			return CAPTURE_DNS_MALFORMED;
		for (unsigned i = 0; i < label; i++) {
			uint8_t c = msg[at++];
			if (capture_dns_plain(c))
				q->name[out++] = (char)c;
			else
				out += (size_t)snprintf(q->name + out, 5, "\\%03u", c);
		}
		q->name[out++] = '.';
	}
	if (out == 0)
		q->name[out++] = '.';
	q->name[out] = '\0';
	if (at + 4 > len)
		return CAPTURE_DNS_MALFORMED;
	q->qtype = (uint16_t)(msg[at] << 8 | msg[at + 1]);
	return CAPTURE_DNS_QUERY;
}

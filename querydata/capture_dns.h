/* querydata/capture_dns.h - the question of a captured DNS message, in the query file's form. */
#ifndef ALLOCSPIKE_QUERYDATA_CAPTURE_DNS_H
#define ALLOCSPIKE_QUERYDATA_CAPTURE_DNS_H

#include <stddef.h>
#include <stdint.h>

/* A name in presentation form: 255 wire octets, each at most 4 characters (\DDD), and the dots. */
#define CAPTURE_DNS_NAME_MAX 1024

enum capture_dns_kind {
	CAPTURE_DNS_QUERY,     /* a standard query (QR 0, opcode QUERY) with its question */
	CAPTURE_DNS_RESPONSE,  /* QR 1: an answer, not traffic to replay */
	CAPTURE_DNS_MALFORMED, /* not a readable query: too short, no question, a bad name, another
	                          opcode */
};

struct capture_dns_question {
	char name[CAPTURE_DNS_NAME_MAX]; /* absolute, with the trailing dot; "." is the root */
	uint16_t qtype;
};

/* Reads the first question of msg (len bytes). Characters other than letters, digits, '-', '_'
 * and '*' are written \DDD, so the query-file parser reads back the same wire name. */
enum capture_dns_kind capture_dns_read(const uint8_t *msg, size_t len,
                                       struct capture_dns_question *q);

#endif

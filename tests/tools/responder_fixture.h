/* tests/tools/responder_fixture.h - fixture files of the test responder: canned answers per
 * question. */
#ifndef ALLOCSPIKE_RESPONDER_FIXTURE_H
#define ALLOCSPIKE_RESPONDER_FIXTURE_H

#include <ldns/ldns.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fixture_transport { FIXTURE_ANY = 0, FIXTURE_UDP, FIXTURE_TCP };

/* One `query` block of a fixture file. */
struct fixture_entry {
	char *qname; /* lower case with the trailing dot, or "*" for any name */
	int qtype;   /* an ldns_rr_type, or -1 for any type */
	enum fixture_transport transport;
	int rcode;
	int flags_set;   /* FIXTURE_FLAG_* bits forced on */
	int flags_clear; /* FIXTURE_FLAG_* bits forced off */
	bool id_absolute;
	int id_value;      /* absolute id, or offset added to the query's id */
	bool has_question; /* replace the question section */
	ldns_rr *question;
	bool noedns;
	bool drop;
	int delay_ms;
	ldns_rr_list *sections[3]; /* answer, authority, additional */
	uint8_t *raw;              /* bytes sent instead of a packet, when set */
	size_t raw_len;
	char where[300]; /* file:line of the `query` line, for messages */
};

enum {
	FIXTURE_FLAG_AA = 1,
	FIXTURE_FLAG_TC = 2,
	FIXTURE_FLAG_RD = 4,
	FIXTURE_FLAG_RA = 8,
	FIXTURE_FLAG_AD = 16,
	FIXTURE_FLAG_CD = 32,
	FIXTURE_FLAG_QR = 64,
};

struct fixture_set {
	struct fixture_entry *entries;
	size_t count;
};

/* Appends the blocks of the file at path to set; false with "file:line: reason" in err. */
bool fixture_load(struct fixture_set *set, const char *path, char *err, size_t err_size);

/* The entry answering (qname, qtype) over transport: exact name and type first, then exact name
 * with any type, then any name with the exact type, then the catch-all; NULL when none. */
const struct fixture_entry *fixture_match(const struct fixture_set *set, const char *qname,
                                          int qtype, enum fixture_transport transport);

/* Builds the reply to query from entry into a malloc'ed buffer; false when nothing is sent. */
bool fixture_reply(const struct fixture_entry *entry, const ldns_pkt *query, uint8_t **wire,
                   size_t *wire_len);

void fixture_free(struct fixture_set *set);

#endif

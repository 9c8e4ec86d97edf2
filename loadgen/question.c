/* loadgen/question.c - a DNS message's question as one number, to tell which query an answer is
 * for. */
#include "question.h"

#define DNS_HEADER 12

bool question_hash(const uint8_t *msg, size_t have, uint32_t *hash)
{
	if (have < DNS_HEADER || msg[4] != 0 || msg[5] != 1)
		return false;
	uint32_t h = 2166136261u; /* FNV-1a */
	size_t i = DNS_HEADER;
	for (;;) {
		if (i >= have)
			return false;
		uint8_t label = msg[i];
		if (label > 63) /* a compression pointer cannot start a question's name */
			return false;
		if (i + 1 + label > have)
			return false;
		/* the length octet too, so that a.bc and ab.c differ */
		for (size_t j = i; j <= i + label; j++) {
			uint8_t c = msg[j];
			h = (h ^ (c >= 'A' && c <= 'Z' ? (uint8_t)(c | 0x20) : c)) * 16777619u;
		}
		i += 1 + label;
		if (label == 0)
			break;
	}
	if (i + 4 > have)
		return false;
	for (size_t j = i; j < i + 4; j++) /* type, class */
		h = (h ^ msg[j]) * 16777619u;
	*hash = h;
	return true;
}

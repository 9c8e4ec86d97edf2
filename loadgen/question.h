/* loadgen/question.h - a DNS message's question as one number, to tell which query an answer is
 * for. */
#ifndef ALLOCSPIKE_LOADGEN_QUESTION_H
#define ALLOCSPIKE_LOADGEN_QUESTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The question of a query or an answer (have bytes of it at hand) hashed: the name with ASCII
 * letters folded to lower case (resolvers may echo a 0x20-mixed case), the type and the class.
 * False unless the message has exactly one question, whole and uncompressed. Two different
 * questions share a hash with a chance of 2^-32. */
bool question_hash(const uint8_t *msg, size_t have, uint32_t *hash);

#endif

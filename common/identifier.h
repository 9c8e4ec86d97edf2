/* common/identifier.h - names used as identifiers (variants, bases, allocators, phases, targets):
 * they become file names (logs/NAME.log, charts, control sockets), report text and command
 * arguments, so each is checked where it enters (variants.tsv, run.json, timeline.csv) against one
 * character set (docs/variants.md, "Names"): 1 to 64 characters from A-Z a-z 0-9 . _ -, the first
 * not '.' or '-' (no hidden files, no options, no path components). */
#ifndef ALLOCSPIKE_COMMON_IDENTIFIER_H
#define ALLOCSPIKE_COMMON_IDENTIFIER_H

#include <stdbool.h>
#include <stddef.h>

#define IDENTIFIER_MAX_LEN 64

/* true if s is a valid identifier; otherwise why (if not NULL) says what is wrong with it, showing
 * the offending byte visibly (never raw). */
bool identifier_valid(const char *s, char *why, size_t why_size);

/* s made an identifier's characters in place: each byte outside the set becomes '_' (the length
 * and the first character's rule are the caller's). */
void identifier_sanitize(char *s);

/* "NAME=VALUE" (an option's --agent NAME=ADDR, --target ROW=ADDR): NAME, an identifier, into name,
 * *value past the '='; false with the reason in why ("not NAME=VALUE", or the name's). */
bool identifier_assignment(const char *text, char name[IDENTIFIER_MAX_LEN + 1], const char **value,
                           char *why, size_t why_size);

#endif

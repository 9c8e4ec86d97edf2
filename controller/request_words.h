/* controller/request_words.h - a served run's requests as one line of words (docs/controller.md,
 * "Requests"): any word, spaces, tabs and newlines included, survives the line. */
#ifndef ALLOCSPIKE_CONTROLLER_REQUEST_WORDS_H
#define ALLOCSPIKE_CONTROLLER_REQUEST_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* The words joined by one space, each with '%', control characters, space and DEL written as %XX
 * (hex), and the empty word as a lone '%'. False when it does not fit in size. */
bool request_words_encode(char *const *words, size_t count, char *out, size_t size);

/* Splits line in place at its spaces and decodes each word; at most max into words. Returns how
 * many, or -1 when a word is malformed (a '%' not followed by two hex digits, or %00), or there
 * are more than max. */
int request_words_decode(char *line, char **words, size_t max);

#endif

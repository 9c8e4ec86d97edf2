/* reports/glossary.h - the allocator terms the report's sentences use, each with a short
 * explanation for an operator (docs/glossary.md says the same), found in a sentence so the page
 * can link the term to its explanation and summary.md can list the terms it uses. */
#ifndef ALLOCSPIKE_REPORTS_GLOSSARY_H
#define ALLOCSPIKE_REPORTS_GLOSSARY_H

#include <stdbool.h>
#include <stddef.h>

struct glossary_term {
	const char *slug;       /* the page anchor is "term-" slug */
	const char *term;       /* as the heading shows it */
	const char *definition; /* one or two sentences */
};

/* The terms, in the order the glossary lists them. */
size_t glossary_count(void);
const struct glossary_term *glossary_at(size_t i);

/* The first term written in text at or after *pos (case-insensitive, whole words): its index,
 * with *pos and *len set to where it is written; -1 (pos and len untouched) if none. */
int glossary_next(const char *text, size_t *pos, size_t *len);

/* Marks in used[] (glossary_count() entries) every term text uses. */
void glossary_mark_used(const char *text, bool *used);

#endif
